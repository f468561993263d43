#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The test command of README.md (and of .ci/run): set up what is missing, configure and build the
# `dev` preset, run every CTest test (unit, integration, gui; offscreen, CPU only).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash tools/setup.sh
JOBS="${AOTSTUDIO_JOBS:-$(nproc)}"
cmake --preset dev
cmake --build --preset dev -j "$JOBS"
# The compile cache (package reuse and ccache, FORMAT.md "compile" `cache`) of this run alone: a
# test sees the same hits and misses on every machine, whatever earlier runs left in ~/.cache.
export AOTSTUDIO_CACHE_DIR="$ROOT/build/dev/test-cache"
rm -rf "$AOTSTUDIO_CACHE_DIR"
ctest --preset dev "$@"
