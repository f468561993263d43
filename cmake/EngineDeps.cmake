# SPDX-License-Identifier: GPL-3.0-or-later
# Engine-side dependencies: the venv's Python and torch wheel (LibTorch), pybind11, nlohmann-json,
# CLI11, the CUDA toolkit. No Qt here: the headless preset must configure on a GPU server without it.

# The venv made by tools/setup.sh. The engine embeds this interpreter and links the torch/lib that
# this interpreter imports, so that Python and C++ share one copy of c10 (DESIGN.md §2).
if(NOT DEFINED Python_EXECUTABLE AND EXISTS "${PROJECT_SOURCE_DIR}/.venv/bin/python")
  set(Python_EXECUTABLE "${PROJECT_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH "Python of the torch venv")
endif()
# The venv's Python is 3.11; a machine with its own torch (tools/gpu-check.sh) names its version.
set(AOTSTUDIO_PYTHON_VERSION "3.11" CACHE STRING "Python version of the torch interpreter (major.minor)")
find_package(Python ${AOTSTUDIO_PYTHON_VERSION} EXACT REQUIRED COMPONENTS Interpreter Development.Embed)

execute_process(
  COMMAND "${Python_EXECUTABLE}" -c "import torch, os; print(torch.utils.cmake_prefix_path); print(torch.__version__); print(os.path.dirname(torch.__file__))"
  OUTPUT_VARIABLE _torch_info OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _torch_rc ERROR_QUIET)
if(NOT _torch_rc EQUAL 0)
  message(FATAL_ERROR "torch is not importable from ${Python_EXECUTABLE}. Run tools/setup.sh first "
                      "(it creates .venv with the pinned torch), or pass -DPython_EXECUTABLE=<python with torch>.")
endif()
string(REPLACE "\n" ";" _torch_info "${_torch_info}")
list(GET _torch_info 0 _torch_prefix)
list(GET _torch_info 1 AOTSTUDIO_TORCH_VERSION)
list(GET _torch_info 2 AOTSTUDIO_TORCH_DIR)
list(APPEND CMAKE_PREFIX_PATH "${_torch_prefix}")

# Torch's CMake config looks for the CUDA toolkit (nvcc, cuDNN headers) at configure time.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
# Naming the target architectures skips torch's try_run GPU detection, which fails on machines
# without a driver (and with CMake 3.25, which has no CUDA20 dialect flags for nvcc). We compile no
# CUDA of our own; 9.0 is Hopper (H100/H200), 8.9 Ada, 8.0 Ampere.
if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
  set(TORCH_CUDA_ARCH_LIST "8.0;8.9;9.0")
endif()
find_package(Torch REQUIRED)
find_package(CUDAToolkit)
message(STATUS "AOT Studio: torch ${AOTSTUDIO_TORCH_VERSION} from ${AOTSTUDIO_TORCH_DIR}")

# pybind11 (Debian) for the embedded interpreter; nlohmann-json for the protocol; CLI11 for the CLI.
set(PYBIND11_FINDPYTHON ON)
find_package(pybind11 CONFIG REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 CONFIG REQUIRED)

include(${CMAKE_CURRENT_LIST_DIR}/BundleDeps.cmake)
message(STATUS "AOT Studio: OpenSSL ${OPENSSL_VERSION} crypto ${OPENSSL_CRYPTO_LIBRARY}, headers ${OPENSSL_INCLUDE_DIR}; "
               "nlohmann_json ${nlohmann_json_DIR}; CLI11 ${CLI11_DIR}; libzip ${LIBZIP_LINK_LIBRARIES}${AOTSTUDIO_LIBZIP_LIBRARY}")

# Torch's imported targets carry flags (-D_GLIBCXX_USE_CXX11_ABI, CUDA include dirs) that only the
# translation units including torch headers need; link them privately there and nowhere else.

# libtorch_cuda.so finds the wheel's CUDA libraries (nvidia/*/lib) through its own RPATH at run
# time, but the link editor does not read RPATHs of indirect dependencies: without -rpath-link it
# would resolve libnccl.so.2 and friends to older system copies and fail on missing symbols.
file(GLOB _nvidia_lib_dirs LIST_DIRECTORIES true "${AOTSTUDIO_TORCH_DIR}/../nvidia/*/lib")
foreach(_dir IN LISTS _nvidia_lib_dirs)
  add_link_options("LINKER:-rpath-link,${_dir}")
endforeach()

# torch 2.11's libtorch.so (PyPI wheel) exports its own copies of std::filesystem (remove_all,
# equivalent, ...), and being needed before libstdc++.so.6 it wins the symbol lookup for our code
# too: its remove_all jumped to address 0 in `export --device cuda` without a GPU (the rehearsal of
# issue 18). 2.14's exports none. When this torch's does, libstdc++ is made the first needed
# library, so the standard library's own definitions are the ones every caller gets.
find_program(AOTSTUDIO_NM nm)
if(AOTSTUDIO_NM AND EXISTS "${AOTSTUDIO_TORCH_DIR}/lib/libtorch.so")
  execute_process(COMMAND "${AOTSTUDIO_NM}" -D --defined-only "${AOTSTUDIO_TORCH_DIR}/lib/libtorch.so"
    OUTPUT_VARIABLE _torch_syms ERROR_QUIET)
  if(_torch_syms MATCHES "_ZNSt10filesystem")
    message(STATUS "AOT Studio: libtorch.so exports std::filesystem: libstdc++ linked first")
    add_link_options("LINKER:--push-state,--no-as-needed,-lstdc++,--pop-state")
  endif()
  unset(_torch_syms)
endif()

# Installing the engine side (`cmake --install --component engine`; the wheel of pyproject.toml):
# the three executables, the runtime's two modules and the Python front end. Their RUNPATH: the
# runtime's own modules in ../lib, then torch's libraries. In a wheel (AOTSTUDIO_WHEEL, set by
# pyproject.toml) the engine is the package site-packages/aotstudio_engine/{bin,lib,share}, so
# torch/lib and the CUDA wheels' nvidia/cu13/lib (libcudart and libnvrtc for the CUDA module,
# libcupti opened by name) are found relative to it, as torchvision's extension finds torch/lib;
# elsewhere the torch this build linked is named by its absolute path. libpython: the engine and
# the CLI embed CPython; a Python in a system folder is found by the loader, another one's (pyenv,
# conda) folder is added (the wheel's console scripts also name the running interpreter's
# libpython folder, aotstudio_engine/__init__.py).
option(AOTSTUDIO_WHEEL "Install the engine side as the aotstudio_engine package of a Python wheel (pyproject.toml)" OFF)
if(AOTSTUDIO_WHEEL)
  set(AOTSTUDIO_ENGINE_INSTALL_RPATH "\$ORIGIN/../lib" "\$ORIGIN/../../torch/lib" "\$ORIGIN/../../nvidia/cu13/lib")
else()
  set(AOTSTUDIO_ENGINE_INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}" "${AOTSTUDIO_TORCH_DIR}/lib")
endif()
set(AOTSTUDIO_PYTHON_LIBRARY_RPATH "")
foreach(_dir IN LISTS Python_LIBRARY_DIRS)
  if(NOT _dir MATCHES "^/(usr/)?lib(64)?(/|$)")
    list(APPEND AOTSTUDIO_PYTHON_LIBRARY_RPATH "${_dir}")
  endif()
endforeach()

# Sets the install RUNPATH of an engine-side target (EMBEDS_PYTHON: it links libpython).
function(aotstudio_engine_install_rpath target)
  cmake_parse_arguments(arg "EMBEDS_PYTHON" "" "" ${ARGN})
  set(_rpath ${AOTSTUDIO_ENGINE_INSTALL_RPATH})
  if(arg_EMBEDS_PYTHON)
    list(APPEND _rpath ${AOTSTUDIO_PYTHON_LIBRARY_RPATH})
  endif()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${_rpath}")
endfunction()
