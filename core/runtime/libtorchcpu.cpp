// SPDX-License-Identifier: GPL-3.0-or-later
// libaotstudio_libtorch_cpu.so: a stand-in for the torch wheel's libtorch.so that needs libtorch_cpu
// alone (its SONAME is "libtorch.so"; CMakeLists.txt). The wheel's libtorch.so defines nothing an
// AOTInductor package calls; it only pulls in libtorch_cpu and libtorch_cuda. Loaded before a CPU
// package so the package binds to this one and no CUDA library is mapped (libraries.h).
extern "C" __attribute__((visibility("default"))) int aotstudio_libtorch_cpu_stand_in()
{
    return 1;
}
