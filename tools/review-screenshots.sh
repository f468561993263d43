#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Screenshots for review (tests/widgets/review_screenshots.cpp), outside the test suite: they
# assert nothing, a person looks at them. Builds the executable in the dev preset and runs it
# offscreen.
#
# Usage: tools/review-screenshots.sh [OUT_DIR] [FUNCTION...]
#   OUT_DIR     where the PNGs go (default: build/dev/screenshots/review)
#   FUNCTION    graphSnapshots, graphPassSequence, profile, quantize, compare, numerics, tune (default:
#               all; each is skipped when its input is not given; compare, numerics and tune fall back
#               on tests/fixtures)
# Environment: AOTSTUDIO_GRAPH_SNAPSHOTS=DIR (a compile's snapshots/), AOTSTUDIO_REVIEW_PROFILE=FILE
# (a profile.json), AOTSTUDIO_REVIEW_QUANTIZE=FILE (a quantize.json), AOTSTUDIO_REVIEW_COMPARE_A=DIR and
# AOTSTUDIO_REVIEW_COMPARE_B=DIR (two job folders), AOTSTUDIO_REVIEW_NUMERICS=DIR (a numerics --out folder),
# AOTSTUDIO_REVIEW_TUNE=DIR (a tune --out folder); BUILD_DIR (default build/dev).
# Example: AOTSTUDIO_REVIEW_PROFILE=/tmp/p/profile.json tools/review-screenshots.sh /tmp/shots profile
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build/dev}"
OUT="${1:-$BUILD/screenshots/review}"
shift || true
if [[ ! -f "$BUILD/build.ninja" ]]; then
    (cd "$ROOT" && cmake --preset dev -B "$BUILD")
fi
cmake --build "$BUILD" --target review_screenshots
mkdir -p "$OUT"
AOTSTUDIO_REVIEW_OUT="$(cd "$OUT" && pwd)" QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" \
    "$BUILD/bin/review_screenshots" "$@"
echo "screenshots in $OUT"
