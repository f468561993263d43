#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The engine wheel (pyproject.toml) built, installed into a fresh venv and run from it:
#  1. tools/build-wheel.sh (incremental in build/wheel; exit 77, a CTest skip, without scikit-build-core);
#  2. its contents: the three executables, the runtime's modules, the front end; RUNPATHs relative
#     to the package (torch/lib of the same site-packages), no folder of this machine's build;
#  3. `python -m venv` and `pip install --no-deps --no-index` of the wheel;
#  4. `aotstudio-cli compile --model sample:mlp` from the venv's bin: exit 0, verify passed.
#
# The shortcut (honestly): a real `pip install aotstudio-engine` downloads torch 2.14.1 and its
# CUDA wheels (about 3 GB) into the venv; here the fresh venv gets the dev venv's copy instead:
# site-packages/torch and site-packages/nvidia are symlinks to it (what the RUNPATH
# $ORIGIN/../../torch/lib resolves through) and a .pth file puts the dev venv's site-packages after
# the fresh one's (torch's own dependencies: sympy, filelock, ...). So this skips pip's resolution
# and download of the dependencies and does not prove that the wheel's metadata is installable
# from an index; `pip check` proves the pins agree with the torch that is there (the same version
# pip would fetch), and a once-by-hand fresh install with dependencies is in HACKING.md.
#
# Usage: check-wheel.sh WORK_DIR [TORCH_VENV]   (default .venv: the venv with torch and
#   scikit-build-core that builds the wheel and lends its torch to the fresh venv)
#   Leaves WORK_DIR/venv behind: tests/packaging/check-deb.sh's studio uses its engine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work=$1
devvenv=${2:-$ROOT/.venv}
start=$SECONDS
rm -rf "$work"
mkdir -p "$work"

rc=0
wheel=$(AOTSTUDIO_JOBS=${AOTSTUDIO_JOBS:-2} "$ROOT/tools/build-wheel.sh" "$devvenv/bin/python" 2>"$work/build.log") || rc=$?
if [ $rc -eq 77 ]; then cat "$work/build.log"; exit 77; fi
[ $rc -eq 0 ] || { tail -50 "$work/build.log"; echo "FAIL: the wheel did not build"; exit 1; }
cat "$work/build.log" | grep "^build-wheel:" || true
built=$SECONDS

# Contents and RUNPATHs.
unzip -l "$wheel" >"$work/contents.txt"
for f in aotstudio_engine/__init__.py aotstudio_engine/bin/aotstudio-engine aotstudio_engine/bin/aotstudio-cli \
         aotstudio_engine/bin/aotstudio-run aotstudio_engine/lib/libaotstudio_libtorch_cpu.so \
         aotstudio_engine/lib/libaotstudio_runtime_cuda.so \
         aotstudio_engine/share/aotstudio/python/aotstudio_frontend/__init__.py; do
  grep -q " $f\$" "$work/contents.txt" || { echo "FAIL: missing in the wheel: $f"; exit 1; }
done
! grep -q "__pycache__" "$work/contents.txt" || { echo "FAIL: __pycache__ in the wheel"; exit 1; }
mkdir -p "$work/unpacked"
(cd "$work/unpacked" && unzip -q "$wheel")
grep -q "^aotstudio-cli = aotstudio_engine:cli" "$work"/unpacked/*.dist-info/entry_points.txt
grep -q "^Requires-Dist: torch==" "$work"/unpacked/*.dist-info/METADATA
for f in "$work"/unpacked/aotstudio_engine/bin/* "$work"/unpacked/aotstudio_engine/lib/*.so; do
  runpath=$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  echo "$(basename "$f"): RUNPATH $runpath"
  case ":$runpath:" in *':$ORIGIN/../../torch/lib:'*) ;; *) echo "FAIL: $f does not look in site-packages/torch/lib"; exit 1 ;; esac
  case "$runpath" in *"$ROOT"*|*/.venv/*) echo "FAIL: $f names this machine's build or venv"; exit 1 ;; esac
done

# A fresh venv of the same interpreter; the wheel without its dependencies; torch by symlink (above).
"$devvenv/bin/python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-index "$wheel"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
devsite=$("$devvenv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
ln -s "$devsite/torch" "$site/torch"
ln -s "$devsite/nvidia" "$site/nvidia"
echo "$devsite" >"$site/zz-aotstudio-dev-venv.pth"
"$work/venv/bin/python" -m pip check --disable-pip-version-check | grep -i "aotstudio" && { echo "FAIL: the wheel's pins disagree with the torch installed"; exit 1; }
installed=$SECONDS

# The console script, as a user runs it: the environment of this build left out.
env -u AOTSTUDIO_PYTHON -u AOTSTUDIO_PYTHONPATH -u AOTSTUDIO_LIB_DIR -u PYTHONPATH \
  "$work/venv/bin/aotstudio-cli" --version | tee "$work/version.txt"
# Started directly, without the console script: the engine finds the venv's python from its place.
# (The wheel's engine has no builder's python to fall back on: core/python/CMakeLists.txt.)
env -u AOTSTUDIO_PYTHON -u AOTSTUDIO_PYTHONPATH -u PYTHONPATH \
  "$site/aotstudio_engine/bin/aotstudio-cli" --version >"$work/version-direct.txt"
rc=0
env -u AOTSTUDIO_PYTHON -u AOTSTUDIO_PYTHONPATH -u AOTSTUDIO_LIB_DIR -u PYTHONPATH \
  "$work/venv/bin/aotstudio-cli" compile --model sample:mlp --device cpu --out "$work/mlp" --json \
  >"$work/compile.json" 2>"$work/compile.log" || rc=$?
[ $rc -eq 0 ] || { tail -30 "$work/compile.log"; cat "$work/compile.json"; echo "FAIL: aotstudio-cli compile exited $rc"; exit 1; }
"$work/venv/bin/python" - "$work/compile.json" "$site" <<'PY'
import json, sys
envelope = json.load(open(sys.argv[1]))
result = envelope["result"]
assert envelope["ok"] is True, envelope
assert result["verify"]["passed"] is True, result["verify"]
print(f"compile from the wheel: verify passed, max abs error {result['max_abs_error']:.3g}, package {result['package']}")
PY
echo "OK: the wheel builds ($((built - start)) s), installs into a fresh venv ($((installed - built)) s) and compiles sample:mlp ($((SECONDS - installed)) s)"
