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
ctest --preset dev "$@"
