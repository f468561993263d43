// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/libraries.h"
#include "runtime/aotirunner.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace AotStudio::Runtime::Libraries {

namespace {

namespace fs = std::filesystem;

constexpr const char *kCpuStandIn = "libaotstudio_libtorch_cpu.so";
constexpr const char *kCudaModule = "libaotstudio_runtime_cuda.so";

/// Folders searched for the runtime's own modules, in order.
std::vector<fs::path> searchFolders()
{
    std::vector<fs::path> folders;
    if (const char *env = std::getenv("AOTSTUDIO_LIB_DIR"); env && *env)
        folders.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path dir = exe.parent_path();
        folders.push_back(dir / ".." / "lib");
#ifdef AOTSTUDIO_INSTALL_LIBDIR
        folders.push_back(dir / ".." / AOTSTUDIO_INSTALL_LIBDIR);
#endif
        folders.push_back(dir);
    }
    return folders;
}

void *openModule(const char *name, int flags)
{
    std::string tried, lastError;
    for (const auto &dir : searchFolders()) {
        const fs::path file = dir / name;
        std::error_code ec;
        if (!fs::exists(file, ec)) {
            tried += (tried.empty() ? "" : ", ") + dir.lexically_normal().string();
            continue;
        }
        if (void *handle = dlopen(file.c_str(), flags))
            return handle;
        const char *why = dlerror();
        throw RuntimeError(std::string("cannot load ") + file.lexically_normal().string() + ": " + (why ? why : "unknown error") +
                           " (a broken installation: reinstall AOT Studio's runtime)");
    }
    throw RuntimeError(std::string(name) + " not found (looked in " + (tried.empty() ? "no folder" : tried) +
                       "); it is installed next to aotstudio-run: reinstall, or point AOTSTUDIO_LIB_DIR at its folder");
}

std::mutex &mutex()
{
    static std::mutex m;
    return m;
}

bool realLibtorchLoaded()
{
    void *h = dlopen("libtorch.so", RTLD_NOW | RTLD_NOLOAD);
    if (h)
        dlclose(h); // only drops the reference NOLOAD took
    return h != nullptr;
}

bool &standInWanted()
{
    static bool wanted = false;
    return wanted;
}

} // namespace

void useCpuStandIn(bool on)
{
    const std::lock_guard lock(mutex());
    standInWanted() = on;
}

void prepareFor(const std::string &device)
{
    if (device.rfind("cuda", 0) == 0) {
        (void)cuda();
        return;
    }
    const std::lock_guard lock(mutex());
    static bool done = false;
    if (done || realLibtorchLoaded()) {
        done = true;
        return;
    }
    if (standInWanted()) {
        openModule(kCpuStandIn, RTLD_NOW | RTLD_GLOBAL); // kept open for the life of the process
    } else if (!dlopen("libtorch.so", RTLD_NOW | RTLD_GLOBAL)) { // through this executable's RUNPATH
        const char *why = dlerror();
        throw RuntimeError(std::string("cannot load libtorch.so: ") + (why ? why : "unknown error"));
    }
    done = true;
}

const CudaApi &cuda()
{
    const std::lock_guard lock(mutex());
    static CudaApi api{};
    static bool loaded = false;
    if (loaded)
        return api;
    void *handle = openModule(kCudaModule, RTLD_NOW | RTLD_GLOBAL);
    using GetApi = const CudaApi *(*)();
    auto get = reinterpret_cast<GetApi>(dlsym(handle, "aotstudio_runtime_cuda_api"));
    if (!get)
        throw RuntimeError(std::string(kCudaModule) + " has no aotstudio_runtime_cuda_api (a module of another version: reinstall)");
    api = *get();
    loaded = true;
    return api;
}

bool cudaUsable()
{
    try {
        return cuda().deviceCount() > 0;
    } catch (const RuntimeError &) {
        return false;
    }
}

MappedLibraries mappedLibraries()
{
    MappedLibraries out;
    std::ifstream maps("/proc/self/maps");
    std::set<std::string> files;
    std::string line;
    while (std::getline(maps, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos)
            continue;
        const std::string path = line.substr(slash);
        if (path.find(".so") != std::string::npos)
            files.insert(path);
    }
    static const char *const cudaStack[] = {"libtorch_cuda", "libc10_cuda", "libcudnn", "libcublas", "libnccl", "libcufft",
                                            "libcusparse", "libcusolver", "libcurand", "libnvshmem", "libtorch_nvshmem"};
    std::vector<std::pair<std::int64_t, std::string>> sizes;
    for (const auto &f : files) {
        std::error_code ec;
        const auto size = fs::file_size(f, ec);
        if (ec)
            continue;
        ++out.count;
        out.bytes += static_cast<std::int64_t>(size);
        const std::string name = fs::path(f).filename().string();
        sizes.emplace_back(static_cast<std::int64_t>(size), name);
        for (const char *c : cudaStack)
            if (name.rfind(c, 0) == 0)
                out.cudaStack = true;
    }
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    for (std::size_t i = 0; i < sizes.size() && i < 5; ++i)
        out.largest.push_back(sizes[i].second);
    return out;
}

} // namespace AotStudio::Runtime::Libraries
