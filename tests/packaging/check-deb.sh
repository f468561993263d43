#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the DEB with CPack in BUILD_DIR, checks its metadata and contents, unpacks it and starts
# the unpacked studio (--version, then an offscreen window screenshot with no engine).
# Usage: check-deb.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1
work=$2
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
# Starts: a window comes up and is grabbed (no engine: AOTSTUDIO_ENGINE points nowhere).
env QT_QPA_PLATFORM=offscreen AOTSTUDIO_ENGINE=/nonexistent/aotstudio-engine \
  XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data" \
  "$work/root/usr/bin/aotstudio" --screenshot "$work/started.png" --screenshot-after-ms 3000
[ -s "$work/started.png" ] || { echo "the unpacked studio did not start"; exit 1; }
echo "OK: $deb builds, lists its files and dependencies, unpacks and starts"
