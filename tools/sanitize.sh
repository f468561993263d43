#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CI's sanitizer step (issue 36): the Qt-free parsers and checkers of outside input (tests/fuzz:
# protocol, manifest, zip, graph, cupti, signature, guards, compat; session with Qt uninstrumented; input
# with LibTorch uninstrumented) built with clang, ASan and UBSan (the standalone fuzz build,
# build/fuzz, as tools/fuzz.sh builds it), then every committed corpus input replayed once under
# them (each file run once, no fuzzing): a memory error, undefined behaviour, a leak or an oracle
# failure on any regression input fails CI. Prints the time each part took.
#   tools/sanitize.sh              # every target
#   tools/sanitize.sh guards zip   # some
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CXX="${AOTSTUDIO_FUZZ_CXX:-$(command -v clang++ || true)}"
if [ -z "$CXX" ]; then
  echo "sanitize: clang++ not found; tools/setup.sh installs Debian's clang and libclang-rt-dev" >&2
  exit 1
fi
BUILD="$ROOT/build/fuzz"
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(protocol manifest zip graph cupti signature guards compat session input)
start=$SECONDS
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT/tests/fuzz" -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
built=()
for t in "${TARGETS[@]}"; do # a target this machine cannot build (no CUPTI headers, no Qt, no venv) is skipped, said so
  if ninja -C "$BUILD" -t targets all 2>/dev/null | grep -q "^fuzz_$t:"; then built+=("fuzz_$t"); else echo "[sanitize] $t: not configured here, skipped" >&2; fi
done
if ! cmake --build "$BUILD" -j "${AOTSTUDIO_JOBS:-$(nproc)}" --target "${built[@]}" >"$BUILD/sanitize-build.log" 2>&1; then
  echo "[sanitize] the sanitizer build failed:" >&2
  grep -E -A3 "error|FAILED" "$BUILD/sanitize-build.log" | head -n 60 >&2
  exit 1
fi
echo "[sanitize] build: $((SECONDS - start)) s" >&2
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/tests/fuzz/lsan.supp}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
failed=0
for target in "${built[@]}"; do
  t="${target#fuzz_}"
  files=("$ROOT/tests/fuzz/corpus/$t"/*)
  [ -e "${files[0]}" ] || { echo "[sanitize] $t: empty corpus" >&2; continue; }
  s=$SECONDS
  if (cd "$BUILD" && "$BUILD/bin/$target" -timeout=30 -rss_limit_mb=2048 "${files[@]}" >"$BUILD/sanitize-$t.log" 2>&1); then
    echo "[sanitize] $t: ${#files[@]} inputs clean ($((SECONDS - s)) s)" >&2
  else
    echo "[sanitize] $t: FAILED; the report:" >&2
    tail -n 60 "$BUILD/sanitize-$t.log" >&2
    failed=1
  fi
done
echo "[sanitize] total: $((SECONDS - start)) s" >&2
exit $failed
