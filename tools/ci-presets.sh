#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The presets other than `dev` that CI builds (.ci/run, after tools/test.sh): `headless` (engine,
# CLI and runtime with no Qt at all: what a GPU server builds) and `gui-only` (studio and client,
# no engine). Both reuse the dev build's objects through ccache wherever the compile flags match
# (CMakeLists.txt; headless is RelWithDebInfo like dev for that reason; gui-only's Qt Test sources
# always miss: Qt's QT_TESTCASE_BUILDDIR define holds the absolute build folder). The headless
# build's own tests run too (`ctest -L unit`: the Qt-free engine-side tests); the gui-only build's
# tests are the dev build's GUI tests again and are not rerun.
# Prints how long each step took and ccache's hit count, so CI logs show what the presets cost.
#
# Usage: tools/ci-presets.sh [PRESET[:configure]...]   (default: headless gui-only; PRESET:configure
# only configures it: `release`, what tools/run-sample.sh builds, failed to configure for a stop
# without anything noticing)
# Environment: AOTSTUDIO_JOBS build jobs (default: nproc); AOTSTUDIO_CI_BUILD_PREFIX the build
# folders' prefix (default: build/, i.e. the presets' own build/headless and build/gui-only; keep
# them as deep as build/dev: ccache's paths are relative to the build folder).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${AOTSTUDIO_JOBS:-$(nproc)}"
PREFIX="${AOTSTUDIO_CI_BUILD_PREFIX:-build/}"
PRESETS=("$@")
[[ ${#PRESETS[@]} -gt 0 ]] || PRESETS=(headless gui-only)

say() { printf '[ci-presets] %s\n' "$*" >&2; }
hits() { # STATSLOG: "H hits, M misses" of the compilations logged there (ccache's stats_log)
    [[ -f "$1" ]] || { echo "no compilation through ccache"; return; }
    awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h++ } $1 == "cache_miss" { m++ }
         END { printf "%d hits, %d misses\n", h, m }' "$1"
}
timed() { # NAME CMD...: runs CMD, says how long it took
    local name="$1" start=$SECONDS
    shift
    "$@"
    say "$name: $((SECONDS - start)) s"
}

for spec in "${PRESETS[@]}"; do
    preset="${spec%:configure}"
    dir="$ROOT/$PREFIX$preset"
    if [[ "$spec" == *:configure ]]; then # configured only: CMake errors, no compile (release: Release flags miss ccache)
        timed "$preset configure" cmake --preset "$preset" -B "$dir" >/dev/null
        continue
    fi
    # This build's own ccache log (other builds on the machine do not count in it).
    export CCACHE_STATSLOG="$dir/ccache-stats.log"
    mkdir -p "$dir" && rm -f "$CCACHE_STATSLOG"
    timed "$preset configure" cmake --preset "$preset" -B "$dir" >/dev/null
    timed "$preset build" cmake --build "$dir" -j "$JOBS"
    say "$preset ccache: $(hits "$CCACHE_STATSLOG")"
    unset CCACHE_STATSLOG
    if [[ "$preset" == headless ]]; then
        timed "$preset tests" ctest --test-dir "$dir" -L unit --output-on-failure --no-tests=error -j "$JOBS"
    fi
done
