#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the engine wheel (pyproject.toml: scikit-build-core over this repository's CMake, no Qt)
# into build/wheel/dist and prints its path on stdout. CMake's build folder is build/wheel,
# persistent, so a second run rebuilds only what changed; its compile flags are the headless
# preset's, so ccache serves the objects the dev and headless builds made.
# Usage: tools/build-wheel.sh [PYTHON]   (default: .venv/bin/python, which needs scikit-build-core
# and torch: tools/setup.sh installs both)
# Environment: AOTSTUDIO_JOBS build jobs (default: nproc).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${1:-$ROOT/.venv/bin/python}"
"$PY" -c "import scikit_build_core" 2>/dev/null \
    || { echo "build-wheel: scikit-build-core is not installed in $PY (tools/setup.sh installs it)" >&2; exit 77; }
DIST="$ROOT/build/wheel/dist"
rm -f "$DIST"/aotstudio_engine-*.whl
start=$SECONDS
# --no-build-isolation: the venv's torch is what the executables link (EngineDeps.cmake), and its
# scikit-build-core the pinned one; --no-deps: torch is already there, nothing to download.
# CXX/CC: scikit-build-core takes them from the interpreter's sysconfig when unset (a pyenv
# Python says g++), but ccache counts /usr/bin/g++ and the presets' /usr/bin/c++ as two compilers:
# the compiler CMake finds by itself keeps the wheel's objects the presets' objects.
CXX="${CXX:-c++}" CC="${CC:-cc}" CMAKE_BUILD_PARALLEL_LEVEL="${AOTSTUDIO_JOBS:-$(nproc)}" \
    "$PY" -m pip wheel --no-build-isolation --no-deps --disable-pip-version-check -q -w "$DIST" "$ROOT" >&2
wheel=$(ls "$DIST"/aotstudio_engine-*.whl)
echo "build-wheel: $wheel ($(($(stat -c %s "$wheel") / 1024)) KiB) in $((SECONDS - start)) s" >&2
echo "$wheel"
