#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job of README.md on the bundled sample model: set up what is missing, build the
# `release` preset, then compile sample:mlp on the CPU with AOTInductor, load the package from C++,
# check it against eager and time both.
#  - With a display ($DISPLAY or $WAYLAND_DISPLAY): opens the studio and starts the compile.
#  - Without one: runs the same job headless with aotstudio-cli and prints where the results are.
# Usage: tools/run-sample.sh [MODEL] (default sample:mlp; sample:minilm is the real MiniLM encoder)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MODEL="${1:-sample:mlp}"
bash tools/setup.sh
JOBS="${AOTSTUDIO_JOBS:-$(nproc)}"
cmake --preset release >/dev/null
cmake --build --preset release -j "$JOBS"
BIN="$ROOT/build/release/bin"
OUT="${AOTSTUDIO_OUT:-$ROOT/build/jobs/$(printf '%s' "$MODEL" | tr -c 'A-Za-z0-9_.-' '_')}"
mkdir -p "$OUT"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Opening AOT Studio ($BIN/aotstudio) to compile $MODEL into $OUT"
  exec "$BIN/aotstudio" --model "$MODEL" --device cpu --out "$OUT" --compile
fi

echo "No display: running the same job headless with aotstudio-cli"
# --json prints the envelope {"ok": true, "result": {...}}; the compile wrote the same result to OUT/result.json.
"$BIN/aotstudio-cli" compile --model "$MODEL" --device cpu --out "$OUT" --json > /dev/null
"$ROOT/.venv/bin/python" - "$OUT/result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"package:       {r['package']}")
print(f"max abs error: {r['max_abs_error']:.3g} (tolerance {r['tolerance']:.3g})")
print(f"eager median:  {r['eager_ms']:.4f} ms")
print(f"AOTI median:   {r['compiled_ms']:.4f} ms ({r['speedup']:.2f}x, {r['runs']} runs each)")
print(f"result JSON:   {sys.argv[1]}")
PY
