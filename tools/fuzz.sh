#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzz one target for a while with libFuzzer, ASan and UBSan (tests/fuzz/README.md):
#   tools/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   tools/fuzz.sh manifest 120
#   tools/fuzz.sh list                      # the targets
# Builds build/fuzz from tests/fuzz alone with Debian's clang (a few core sources, never torch),
# starts from the committed corpus tests/fuzz/corpus/TARGET (read-only) and keeps what it finds in
# build/fuzz/corpus/TARGET; a crash is written to build/fuzz/artifacts/TARGET-crash-* and the exit status is
# non-zero. Put each crash, once fixed, into tests/fuzz/corpus/TARGET/regress_<what>: the dev
# build's ctest -L fuzz replays it from then on.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGETS=(protocol manifest zip graph cupti signature guards session input)
usage() { echo "usage: $0 TARGET SECONDS [libFuzzer options]   (TARGET: ${TARGETS[*]})" >&2; exit 2; }
[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${TARGETS[@]}"; exit 0; fi
[ $# -ge 2 ] || usage
TARGET="$1"; SECONDS_TO_RUN="$2"; shift 2
[[ " ${TARGETS[*]} " == *" $TARGET "* ]] || usage
[[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || usage

CXX="${AOTSTUDIO_FUZZ_CXX:-$(command -v clang++ || true)}"
if [ -z "$CXX" ]; then
  echo "fuzz: clang++ not found; tools/setup.sh installs Debian's clang and libclang-rt-dev" >&2
  exit 1
fi
BUILD="$ROOT/build/fuzz"
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT/tests/fuzz" -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
fi
cmake --build "$BUILD" -j "${AOTSTUDIO_JOBS:-2}" --target "fuzz_$TARGET" >&2

WORK="$BUILD/corpus/$TARGET"
mkdir -p "$WORK" "$BUILD/artifacts"
# ASan: fail on leaks too; UBSan: stop at the first report with a stack.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/tests/fuzz/lsan.supp}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The file-writing targets (manifest, zip, signature) write every input to a scratch folder under
# $TMPDIR: on a tmpfs they run about 10x faster (zip: ~1,300 against ~100 executions a second here).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
cd "$BUILD"
exec "$BUILD/bin/fuzz_$TARGET" "$WORK" "$ROOT/tests/fuzz/corpus/$TARGET" \
  -max_total_time="$SECONDS_TO_RUN" -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/$TARGET-" \
  -timeout=10 -rss_limit_mb=2048 "$@"
