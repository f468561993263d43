// SPDX-License-Identifier: GPL-3.0-or-later
// The floor of a libtorch-free runtime's cold start (bench_coldstart, issue 38): a bare C++ process
// that only dlopen()s a lite package's .so and leaves. It links the lite shim's object files and
// nothing else of ours: the package's static initialisers call aoti_torch_* functions while it is
// being loaded (a dlopen without them fails with "undefined symbol: aoti_torch_dtype_float32"), so
// the shim is the least a process must offer to load one. Its spawn-to-exit time and peak RSS are
// what the loader, libstdc++ and the package itself cost before any runtime code runs:
// aotstudio-run-lite is to stay within 3x of it. RTLD_NOW | RTLD_LOCAL, as the runtime opens it.
// Exit 0 when the library was opened, 1 (with dlerror() on stderr) when not.
#include <cstdio>

#include <dlfcn.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_dlopen_floor PACKAGE.so\n");
        return 2;
    }
    if (!::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
        std::fprintf(stderr, "bench_dlopen_floor: %s\n", ::dlerror());
        return 1;
    }
    ::_exit(0);
}
