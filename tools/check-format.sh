#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The clang-format check (HACKING.md "Formatting"): every C++ line changed since the recorded
# baseline commit (tools/format-baseline) is formatted as the pinned .clang-format says. Lines
# nobody touched since then are left as they are: the tree was never formatted by a tool, and one
# mass reformat (about 3,600 lines in 190 files) would collide with every branch in flight.
#
#   tools/check-format.sh          report: the diff clang-format wants, exit 1 when there is one
#   tools/check-format.sh --list   only the names of the files whose changed lines differ
#   tools/check-format.sh --fix    apply it to the working tree (changed lines only)
#
# Exit 0: formatted; 1: not formatted; 2: bad usage or a failing tool; 77 (CTest's
# SKIP_RETURN_CODE): no git checkout, no clang-format, or the baseline commit is not in this clone
# (a shallow clone: `git fetch --unshallow`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

mode=check
case "${1:-}" in
    "") ;;
    --fix) mode=fix ;;
    --list) mode=list ;;
    -h | --help)
        sed -n '3,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "check-format.sh: unknown argument '$1' (--list, --fix)" >&2
        exit 2
        ;;
esac

CLANG_FORMAT="${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}"
if [[ -z "$CLANG_FORMAT" ]] || ! command -v git-clang-format >/dev/null 2>&1; then
    echo "check-format.sh: skipped: clang-format and git-clang-format are not installed (tools/setup.sh installs them)"
    exit 77
fi
if ! "$CLANG_FORMAT" --version | grep -q 'version 14\.'; then
    # Other versions lay some constructs out differently; their verdict is advisory.
    echo "check-format.sh: note: .clang-format is pinned for clang-format 14, this is $("$CLANG_FORMAT" --version)" >&2
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check-format.sh: skipped: $ROOT is not a git checkout"
    exit 77
fi
BASELINE="$(sed -n 's/^\([0-9a-f]\{40\}\)$/\1/p' tools/format-baseline | head -n 1)"
if [[ -z "$BASELINE" ]] || ! git cat-file -e "$BASELINE^{commit}" 2>/dev/null; then
    echo "check-format.sh: skipped: baseline commit '${BASELINE:-?}' (tools/format-baseline) is not in this clone" \
        "(a shallow clone? git fetch --unshallow)"
    exit 77
fi

# Paths other engineers were rewriting when the check came in (issue 20, December 2026). Their
# branches add lines formatted by hand after the baseline; checking them would fail those merges
# for layout alone. Remove an entry once its branch has landed and `tools/check-format.sh --fix`
# has been run over it, so that it is checked like the rest.
EXCLUDED=(
    'core/runtime/'
    'core/bundle/'
    'core/client/'
    'widgets/'
    'core/pipeline/engine.cpp'
)

files=()
while IFS= read -r f; do
    skip=0
    for e in "${EXCLUDED[@]}"; do
        [[ "$f" == "$e"* ]] && skip=1
    done
    [[ $skip == 0 && -f "$f" ]] && files+=("$f")
done < <(git diff --name-only --diff-filter=ACMR "$BASELINE" -- '*.cpp' '*.h')

if [[ ${#files[@]} == 0 ]]; then
    echo "check-format.sh: no C++ file changed since the baseline ${BASELINE:0:12} (outside the excluded paths)"
    exit 0
fi

gcf=(git-clang-format --binary "$CLANG_FORMAT" --style file --extensions cpp,h)
if [[ $mode == fix ]]; then
    "${gcf[@]}" --force "$BASELINE" -- "${files[@]}" || true # returns 1 when it changed something
    exit 0
fi
# git-clang-format 14 exits 0 whether or not it has a diff to show: the diff is the verdict.
out="$("${gcf[@]}" --diff "$BASELINE" -- "${files[@]}")" || {
    echo "$out"
    exit 2
}
if ! grep -q '^diff --git' <<<"$out"; then
    echo "check-format.sh: the changed lines of ${#files[@]} file(s) are formatted (baseline ${BASELINE:0:12})"
    exit 0
fi
echo "check-format.sh: lines changed since ${BASELINE:0:12} are not formatted in:"
sed -n 's|^+++ b/|    |p' <<<"$out"
if [[ $mode == check ]]; then
    echo
    echo "$out"
fi
echo "fix them with: tools/check-format.sh --fix"
exit 1
