#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# GPU check of the profiler (issue 4) on a machine with an NVIDIA GPU and its own torch: build the
# `headless` preset against that torch (no Qt, no tools/setup.sh, no pip: nothing is downloaded),
# then run `aotstudio-cli profile --device cuda` (CUPTI collector) on sample:resnet18 and
# sample:minilm and copy each profile.json (plus CSV and trace) into the result folder.
#
# Usage: tools/gpu-check.sh [RESULT_DIR]       (default: $OUT, else build/gpu-check)
# Environment:
#   AOTSTUDIO_GPU_PYTHON  python with torch (default: .venv/bin/python if it imports torch, else python3)
#   AOTSTUDIO_JOBS        build jobs (default: nproc)
#   GPU_CHECK_MODELS      models to profile (default: "sample:resnet18 sample:minilm")
#   GPU_CHECK_ARGS        extra profile options (default: a short measuring budget)
# Exit status: 0 when every profile succeeded, 1 otherwise (each model's log is in RESULT_DIR).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RESULT="${1:-${OUT:-$ROOT/build/gpu-check}}"
mkdir -p "$RESULT"
RESULT="$(cd "$RESULT" && pwd)"
LOG="$RESULT/gpu-check.log"
: > "$LOG"
say() { echo "gpu-check: $*" | tee -a "$LOG"; }

PY="${AOTSTUDIO_GPU_PYTHON:-}"
if [ -z "$PY" ]; then
  if [ -x "$ROOT/.venv/bin/python" ] && "$ROOT/.venv/bin/python" -c "import torch" 2>/dev/null; then
    PY="$ROOT/.venv/bin/python"
  else
    PY="$(command -v python3 || true)"
  fi
fi
if [ -z "$PY" ] || ! "$PY" -c "import torch" 2>>"$LOG"; then
  say "no python with torch (set AOTSTUDIO_GPU_PYTHON)"; exit 1
fi
PYVER="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
"$PY" - <<'PY' 2>&1 | tee -a "$LOG"
import torch
print("gpu-check: torch", torch.__version__, "CUDA", torch.version.cuda, "available", torch.cuda.is_available())
if torch.cuda.is_available():
    p = torch.cuda.get_device_properties(0)
    print(f"gpu-check: device {p.name}, capability {p.major}.{p.minor}, {p.total_memory} bytes")
PY
{ nvidia-smi 2>&1 | head -15; } >> "$LOG" || true

# pybind11 from the interpreter when the system has no CMake package of it.
EXTRA=()
if PB="$("$PY" -c 'import pybind11; print(pybind11.get_cmake_dir())' 2>/dev/null)"; then
  EXTRA+=("-Dpybind11_DIR=$PB")
fi
BUILD="$ROOT/build/gpu-check-headless"
say "configuring the headless preset against $PY (Python $PYVER) in $BUILD"
if ! cmake --preset headless -B "$BUILD" -DPython_EXECUTABLE="$PY" -DAOTSTUDIO_PYTHON_VERSION="$PYVER" \
      -DTORCH_CUDA_ARCH_LIST=9.0 "${EXTRA[@]}" >>"$LOG" 2>&1; then
  say "configure failed (missing pybind11, nlohmann-json, CLI11, OpenSSL or libzip development files?); see $LOG"
  tail -30 "$LOG"; exit 1
fi
say "building aotstudio-cli and aotstudio-run"
if ! cmake --build "$BUILD" --target aotstudio-cli aotstudio-run -j "${AOTSTUDIO_JOBS:-$(nproc)}" >>"$LOG" 2>&1; then
  say "build failed; see $LOG"; tail -30 "$LOG"; exit 1
fi
CLI="$BUILD/bin/aotstudio-cli"
export AOTSTUDIO_PYTHON="$PY"

status=0
for MODEL in ${GPU_CHECK_MODELS:-sample:resnet18 sample:minilm}; do
  NAME="$(printf '%s' "$MODEL" | tr -c 'A-Za-z0-9_.-' '_')"
  JOB="$BUILD/jobs/$NAME"
  rm -rf "$JOB"
  say "profiling $MODEL on cuda"
  # shellcheck disable=SC2086
  if "$CLI" profile --model "$MODEL" --device cuda --out "$JOB" --json \
       ${GPU_CHECK_ARGS:---runs 100 --min-runs 20 --max-seconds 3 --runners 1,2,4 --throughput-seconds 1 --cold-start-runs 2} \
       > "$RESULT/$NAME.result.json" 2> "$RESULT/$NAME.log"; then
    cp "$JOB/profile.json" "$RESULT/$NAME.profile.json"
    cp "$JOB/profile.csv" "$RESULT/$NAME.profile.csv"
    cp "$JOB/profile_kernels.csv" "$RESULT/$NAME.profile_kernels.csv"
    [ -f "$JOB/trace.json" ] && gzip -c "$JOB/trace.json" > "$RESULT/$NAME.trace.json.gz"
    "$PY" - "$RESULT/$NAME.profile.json" <<'PY' | tee -a "$LOG"
import json, sys
p = json.load(open(sys.argv[1]))
print("gpu-check:", p["model"], "collector", p["collector"]["name"], p["collector"].get("reason", ""))
for v in p["variants"]:
    if v["available"]:
        s = v["statistics"]
        print(f"  {v['name']}: median {s['median_ms']:.4f} ms p99 {s['p99_ms']:.4f} overhead {v['overhead_pct']} "
              f"cuda_event {v['cuda_event_ms']} busy {v['gpu_busy_share']} peak {v['memory']['peak_bytes']}")
    else:
        print(f"  {v['name']}: unavailable ({v['reason']})")
print("  speedup", p["speedup"], "cold start", p["cold_start"].get("ratio"), "kernels", len(p["kernels"]))
for t in p["throughput"]:
    print(f"  runners {t['runners']}: {t['throughput_per_s']:.1f}/s p99 {t['p99_ms']:.3f} ms")
PY
  else
    status=1
    say "profile of $MODEL failed: $(tail -1 "$RESULT/$NAME.log")"
  fi
done
say "results in $RESULT"
exit $status
