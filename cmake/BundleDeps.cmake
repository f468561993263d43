# SPDX-License-Identifier: GPL-3.0-or-later
# Dependencies of core/bundle (no torch, no Qt), included by EngineDeps.cmake and, for a build
# without the engine (the gui-only preset), by core/CMakeLists.txt: the studio reads bundles
# (the Bundle view, the preflight, target environments, capture's bucket shares) through it.
# Idempotent: a second include finds the targets already there.
if(DEFINED AOTSTUDIO_LIBZIP_TARGET)
  return()
endif()
# Bundles (core/bundle): SHA-256 from OpenSSL's libcrypto, zips from libzip (Debian: libssl-dev,
# libzip-dev). libzip through pkg-config: Debian 12's libzip CMake config names /usr/bin/zipcmp
# (package libzip-tools) and stops the configure with an error when that is not installed.
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(PkgConfig)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LIBZIP IMPORTED_TARGET libzip>=1.7)
endif()
if(TARGET PkgConfig::LIBZIP)
  set(AOTSTUDIO_LIBZIP_TARGET PkgConfig::LIBZIP)
else()
  # No pkg-config (a bare GPU machine's image) or no libzip.pc: zip.h and the library by name, as
  # the carry kit of tools/gpu-kit.sh lays them out (a static libzip.a with zlib inside it).
  find_path(AOTSTUDIO_LIBZIP_INCLUDE_DIR zip.h)
  find_library(AOTSTUDIO_LIBZIP_LIBRARY zip)
  if(NOT AOTSTUDIO_LIBZIP_INCLUDE_DIR OR NOT AOTSTUDIO_LIBZIP_LIBRARY OR NOT EXISTS "${AOTSTUDIO_LIBZIP_INCLUDE_DIR}/zipconf.h")
    message(FATAL_ERROR "libzip >= 1.7 not found (Debian: libzip-dev; a GPU machine: the carry kit of tools/gpu-kit.sh)")
  endif()
  file(STRINGS "${AOTSTUDIO_LIBZIP_INCLUDE_DIR}/zipconf.h" _zipver REGEX "#define LIBZIP_VERSION \"")
  string(REGEX REPLACE ".*\"([0-9.]+).*" "\\1" _zipver "${_zipver}")
  if(_zipver VERSION_LESS 1.7)
    message(FATAL_ERROR "libzip ${_zipver} in ${AOTSTUDIO_LIBZIP_INCLUDE_DIR} is older than 1.7")
  endif()
  add_library(aotstudio_libzip UNKNOWN IMPORTED)
  set_target_properties(aotstudio_libzip PROPERTIES IMPORTED_LOCATION "${AOTSTUDIO_LIBZIP_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${AOTSTUDIO_LIBZIP_INCLUDE_DIR}")
  set(AOTSTUDIO_LIBZIP_TARGET aotstudio_libzip)
  message(STATUS "libzip ${_zipver}: ${AOTSTUDIO_LIBZIP_LIBRARY} (no pkg-config)")
endif()
