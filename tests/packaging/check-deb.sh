#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the DEB with CPack in BUILD_DIR, checks its metadata and contents (the studio, no engine:
# that is the aotstudio-engine wheel), unpacks it and starts the unpacked studio: --version; with no
# engine anywhere, a window that names the `pip install` command of the engine; and, given
# ENGINE_VENV (a venv with the wheel installed: tests/packaging/check-wheel.sh leaves one), a
# compile of sample:mlp in the studio with that venv's engine, chosen as Engine → Choose Local
# Engine… does (QSettings engine/venv).
# Usage: check-deb.sh BUILD_DIR WORK_DIR [ENGINE_VENV]
set -euo pipefail
build=$1
work=$2
venv=${3:-}
rm -rf "$work"
mkdir -p "$work"
(cd "$build" && cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/*.deb | head -1)
[ -f "$deb" ] || { echo "no .deb written"; exit 1; }
echo "package: $deb ($(stat -c %s "$deb") bytes)"
dpkg-deb --info "$deb" | tee "$work/info.txt"
grep -q "^ Package: aotstudio" "$work/info.txt"
grep -q "^ Depends: .*libqt6widgets6" "$work/info.txt"
dpkg-deb --contents "$deb" >"$work/contents.txt"
for f in ./usr/bin/aotstudio ./usr/share/applications/io.github.aotstudio.AOTStudio.desktop \
         ./usr/share/metainfo/io.github.aotstudio.AOTStudio.metainfo.xml \
         ./usr/share/mime/packages/io.github.aotstudio.AOTStudio.xml \
         ./usr/share/icons/hicolor/scalable/apps/io.github.aotstudio.AOTStudio.svg; do
  grep -q " $f\$" "$work/contents.txt" || { echo "missing in package: $f"; exit 1; }
done
# Every dependency named must be installed here (the package would install on this machine).
deps=$(sed -n 's/^ Depends: //p' "$work/info.txt" | tr ',' '\n' | sed 's/(.*)//; s/ //g')
for d in $deps; do
  dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "install ok installed" || { echo "dependency not installed here: $d"; exit 1; }
done
dpkg-deb -x "$deb" "$work/root"
"$work/root/usr/bin/aotstudio" --version | tee "$work/version.txt"
grep -q "AOTStudio\|aotstudio\|[0-9]\.[0-9]" "$work/version.txt"
# The engine is not in the studio's package.
for f in aotstudio-engine aotstudio-cli aotstudio-run; do
  ! grep -q "/$f\$" "$work/contents.txt" || { echo "the DEB carries $f (the engine is the wheel's)"; exit 1; }
done
# Starts with no engine anywhere (nothing next to it, on PATH, chosen or in the default venv): a
# window comes up and is grabbed, and the error names the command that installs the engine.
mkdir -p "$work/home/config" "$work/home/data" "$work/empty-path"
env -u AOTSTUDIO_ENGINE QT_QPA_PLATFORM=offscreen PATH="$work/empty-path" \
  XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data" \
  "$work/root/usr/bin/aotstudio" --screenshot "$work/started.png" --screenshot-after-ms 5000 2>"$work/no-engine.txt"
[ -s "$work/started.png" ] || { cat "$work/no-engine.txt"; echo "the unpacked studio did not start"; exit 1; }
want="python3.11 -m venv $work/home/data/aotstudio/engine-venv && $work/home/data/aotstudio/engine-venv/bin/pip install aotstudio-engine=="
grep -qF "$want" "$work/no-engine.txt" || { cat "$work/no-engine.txt"; echo "no engine, and the studio did not name: $want"; exit 1; }
echo "no engine: $(grep -o 'Install it with: [^(]*' "$work/no-engine.txt")"

# No venv: check-wheel.sh was skipped (no scikit-build-core) or not run; CTest does not run this
# test when it failed (FIXTURES_REQUIRED).
if [ -z "$venv" ] || [ ! -e "$venv" ]; then
  echo "OK: $deb builds, lists its files and dependencies, unpacks and starts"
  echo "NOT CHECKED: a compile with the wheel's engine (no venv${venv:+ at $venv}: tests/packaging/check-wheel.sh makes it)"
  exit 0
fi
[ -x "$venv/bin/aotstudio-engine" ] || { echo "no engine in $venv"; exit 1; }
# The engine of the wheel's venv, chosen as Engine → Choose Local Engine… stores it.
mkdir -p "$work/home/config/AOTStudio"
printf '[engine]\nvenv=%s\n' "$venv" >"$work/home/config/AOTStudio/AOTStudio.conf"
rc=0
env -u AOTSTUDIO_ENGINE -u AOTSTUDIO_PYTHON -u AOTSTUDIO_PYTHONPATH QT_QPA_PLATFORM=offscreen PATH=/usr/bin:/bin \
  XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data" \
  timeout 500 "$work/root/usr/bin/aotstudio" --model sample:mlp --device cpu --out "$work/mlp" --compile \
  --screenshot "$work/compiled.png" 2>"$work/compile.txt" || rc=$?
[ $rc -eq 0 ] && [ -s "$work/compiled.png" ] || { tail -20 "$work/compile.txt"; echo "the studio exited $rc"; exit 1; }
[ -f "$work/mlp/result.json" ] || { tail -20 "$work/compile.txt"; echo "the studio's compile wrote no result.json"; exit 1; }
python3 - "$work/mlp/result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verify"]["passed"] is True, r["verify"]
print(f"the DEB's studio compiled sample:mlp with the wheel's engine: verify passed, package {r['package']}")
PY
echo "OK: $deb builds, lists its files and dependencies, unpacks, starts, and compiles with the wheel's engine"
