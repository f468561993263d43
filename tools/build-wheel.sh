#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the engine wheel (pyproject.toml: scikit-build-core over this repository's CMake, no Qt)
# into build/wheel/dist and prints its path on stdout. CMake's build folder is build/wheel,
# persistent, so a second run rebuilds only what changed; its compile flags are the headless
# preset's, so ccache serves the objects the dev and headless builds made.
# Usage: tools/build-wheel.sh [PYTHON]   (default: .venv/bin/python, which needs scikit-build-core
# and torch: tools/setup.sh installs both)
# Another PYTHON (a target's venv, tools/target.py) builds against its torch and its Python version
# (AOTSTUDIO_PYTHON_VERSION from the interpreter; its own pybind11 when it has one, else Debian's).
# Environment: AOTSTUDIO_JOBS build jobs (default: nproc);
#   AOTSTUDIO_WHEEL_BUILD_DIR  CMake's build folder (default build/wheel; the wheel goes to its dist/):
#                              a target builds in its own so the main build/wheel is left as it is;
#   AOTSTUDIO_WHEEL_VERBOSE=1  pip -v instead of -q: CMake's and ninja's lines on stderr (progress).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${1:-$ROOT/.venv/bin/python}"
"$PY" -c "import scikit_build_core" 2>/dev/null \
    || { echo "build-wheel: scikit-build-core is not installed in $PY (tools/setup.sh installs it)" >&2; exit 77; }
BUILD="${AOTSTUDIO_WHEEL_BUILD_DIR:-$ROOT/build/wheel}"
DIST="$BUILD/dist"
# The interpreter's Python version (EngineDeps.cmake looks for exactly this one) and, when it has
# pybind11 of its own, that one (Debian's 2.10 predates Python 3.12).
pyver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
extra=(-C "build-dir=$BUILD" -C "cmake.define.AOTSTUDIO_PYTHON_VERSION=$pyver")
if pb11=$("$PY" -m pybind11 --cmakedir 2>/dev/null); then
  extra+=(-C "cmake.define.pybind11_DIR=$pb11")
fi
# pyproject.toml says the Python the released wheel embeds (3.11); a target's wheel embeds its own.
[ "$pyver" = 3.11 ] || extra+=(--ignore-requires-python)
quiet=-q
[ "${AOTSTUDIO_WHEEL_VERBOSE:-0}" = 1 ] && quiet=-v
rm -f "$DIST"/aotstudio_engine-*.whl
start=$SECONDS
# --no-build-isolation: the venv's torch is what the executables link (EngineDeps.cmake), and its
# scikit-build-core the pinned one; --no-deps: torch is already there, nothing to download.
# CXX/CC: scikit-build-core takes them from the interpreter's sysconfig when unset (a pyenv
# Python says g++), but ccache counts /usr/bin/g++ and the presets' /usr/bin/c++ as two compilers:
# the compiler CMake finds by itself keeps the wheel's objects the presets' objects.
CXX="${CXX:-c++}" CC="${CC:-cc}" CMAKE_BUILD_PARALLEL_LEVEL="${AOTSTUDIO_JOBS:-$(nproc)}" \
    "$PY" -m pip wheel --no-build-isolation --no-deps --disable-pip-version-check "$quiet" "${extra[@]}" -w "$DIST" "$ROOT" >&2
wheel=$(ls "$DIST"/aotstudio_engine-*.whl)
echo "build-wheel: $wheel ($(($(stat -c %s "$wheel") / 1024)) KiB) in $((SECONDS - start)) s" >&2
echo "$wheel"
