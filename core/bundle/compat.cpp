// SPDX-License-Identifier: GPL-3.0-or-later
// The compatibility key: read from a package's files, written into the manifest, checked on the host.
#include "bundle/compat.h"

#include "bundle/bundle_p.h"
#include "bundle/guards.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <sys/utsname.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace Detail;

namespace {

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50u; // fatbinary container, little endian
constexpr std::uint16_t kEmCuda = 190;              // ELF e_machine of a cubin

template<typename T>
T readLe(const char *p)
{
    T v{};
    std::memcpy(&v, p, sizeof v); // every platform we build for is little endian, as the formats are
    return v;
}

/// The SM of a cubin's ELF header at `p` (64 bytes available), or -1 when it is not a 64-bit cubin.
int cubinSm(const char *p)
{
    if (std::memcmp(p, "\x7f" "ELF", 4) != 0 || p[4] != 2 /*ELFCLASS64*/ || readLe<std::uint16_t>(p + 18) != kEmCuda)
        return -1;
    const auto abiVersion = static_cast<unsigned char>(p[8]);
    const auto flags = readLe<std::uint32_t>(p + 48);
    // CUDA 12.8 moved the SM from bits 0..7 to bits 8..15 of e_flags (ELF ABI version 8; nvcc 13
    // writes 0x6005a04 for sm_90, 0x6007802 for sm_120).
    const int sm = abiVersion >= 8 ? static_cast<int>((flags >> 8) & 0xff) : static_cast<int>(flags & 0xff);
    return sm >= 10 ? sm : -1;
}

/// Kernel images in `data`: cubins (ELF EM_CUDA) and fatbin containers anywhere in it (a file of
/// its own, or embedded in a .so).
void scanKernelImages(std::string_view data, PackageTarget &t)
{
    // Fatbins first: the cubins inside them are counted through their entries, not again below.
    std::vector<std::pair<std::size_t, std::size_t>> fatbins;
    const char magic[4] = {'\x50', '\xed', '\x55', '\xba'};
    for (std::size_t at = data.find(std::string_view(magic, 4)); at != std::string_view::npos;
         at = data.find(std::string_view(magic, 4), at + 4)) {
        if (data.size() - at < 16)
            break;
        const auto headerSize = readLe<std::uint16_t>(data.data() + at + 6);
        const auto payload = readLe<std::uint64_t>(data.data() + at + 8);
        // Sizes from the file: compared by subtraction only where it cannot wrap.
        if (headerSize < 16 || headerSize > data.size() - at || payload > data.size() - at - headerSize)
            continue;
        std::size_t e = at + headerSize;
        const std::size_t end = at + headerSize + payload;
        while (end - e >= 32) {
            const auto kind = readLe<std::uint16_t>(data.data() + e);
            const auto entryHeader = readLe<std::uint32_t>(data.data() + e + 4);
            const auto entryPayload = readLe<std::uint64_t>(data.data() + e + 8);
            const auto sm = static_cast<int>(readLe<std::uint32_t>(data.data() + e + 28));
            if (entryHeader < 32 || entryHeader > end - e || entryPayload > end - e - entryHeader)
                break;
            // An SM the file claims outside sm_10..sm_255 is not an architecture: not counted.
            if (sm >= 10 && sm <= 255 && kind == 1)
                t.ptx.insert(sm);
            else if (sm >= 10 && sm <= 255 && kind == 2)
                t.sass.insert(sm);
            if (sm >= 10 && sm <= 255 && (kind == 1 || kind == 2))
                ++t.kernelImages;
            e += entryHeader + entryPayload;
        }
        fatbins.push_back({at, end});
    }
    const auto insideFatbin = [&](std::size_t at) {
        return std::any_of(fatbins.begin(), fatbins.end(), [&](const auto &f) { return at >= f.first && at < f.second; });
    };
    for (std::size_t at = data.find("\x7f" "ELF"); at != std::string_view::npos; at = data.find("\x7f" "ELF", at + 4)) {
        if (data.size() - at < 64 || insideFatbin(at))
            continue;
        if (const int sm = cubinSm(data.data() + at); sm > 0) {
            t.sass.insert(sm);
            ++t.kernelImages;
        }
    }
}

/// GCC's -m options as /proc/cpuinfo flag names: the extensions generated code can use (vector,
/// FMA, half/bf16 conversion, bit manipulation). System-level ones (xsave, rdrnd, shstk, ...) are
/// not instructions a model's kernels contain and are left out.
const std::map<std::string, std::string> &gccToCpuinfo()
{
    static const std::map<std::string, std::string> table{
        {"sse3", "pni"},          {"ssse3", "ssse3"},       {"sse4.1", "sse4_1"},         {"sse4.2", "sse4_2"},
        {"sse4a", "sse4a"},       {"avx", "avx"},           {"avx2", "avx2"},             {"fma", "fma"},
        {"fma4", "fma4"},         {"f16c", "f16c"},         {"popcnt", "popcnt"},         {"bmi", "bmi1"},
        {"bmi2", "bmi2"},         {"lzcnt", "abm"},         {"movbe", "movbe"},           {"adx", "adx"},
        {"avx512f", "avx512f"},   {"avx512dq", "avx512dq"}, {"avx512vl", "avx512vl"},     {"avx512bw", "avx512bw"},
        {"avx512cd", "avx512cd"}, {"avx512ifma", "avx512ifma"}, {"avx512vbmi", "avx512vbmi"}, {"avx512vbmi2", "avx512_vbmi2"},
        {"avx512vnni", "avx512_vnni"}, {"avx512bf16", "avx512_bf16"}, {"avx512fp16", "avx512_fp16"},
        {"avx512bitalg", "avx512_bitalg"}, {"avx512vpopcntdq", "avx512_vpopcntdq"}, {"avxvnni", "avx_vnni"},
        {"gfni", "gfni"},         {"vaes", "vaes"},         {"vpclmulqdq", "vpclmulqdq"}, {"amx-tile", "amx_tile"},
        {"amx-bf16", "amx_bf16"}, {"amx-int8", "amx_int8"}, {"amx-fp16", "amx_fp16"},
    };
    return table;
}

/// `-march=X` and the positive -m extensions of the first GCC producer string in `data`.
void readProducer(std::string_view data, PackageTarget &t)
{
    const auto at = data.find("GNU C");
    if (at == std::string_view::npos)
        return;
    const auto end = data.find('\0', at);
    const std::string producer(data.substr(at, (end == std::string_view::npos ? data.size() : end) - at));
    std::istringstream words(producer);
    for (std::string w; words >> w;) {
        if (w.rfind("-march=", 0) == 0)
            t.march = w.substr(7);
        else if (w.rfind("-m", 0) == 0 && w.rfind("-mno-", 0) != 0) {
            if (const auto it = gccToCpuinfo().find(w.substr(2)); it != gccToCpuinfo().end())
                t.cpuFeatures.insert(it->second);
        }
    }
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    return s;
}

bool endsWith(const std::string &s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// One file of a package: what it tells about the target.
void readPackageFile(const std::string &name, std::string data, PackageTarget &t)
{
    if (endsWith(name, "_metadata.json")) {
        try {
            const json m = json::parse(data);
            if (!m.is_object() || !m.contains("AOTI_DEVICE_KEY"))
                return;
            // The wrapper's and the kernels' metadata agree; the first read wins.
            if (!t.found) {
                t.found = true;
                t.deviceKey = m.value("AOTI_DEVICE_KEY", "");
                t.platform = m.value("AOTI_PLATFORM", "");
                t.machine = m.value("AOTI_MACHINE", "");
                t.cpuIsa = m.value("AOTI_CPU_ISA", "");
                if (t.cpuIsa == "INVALID_VEC_ISA")
                    t.cpuIsa.clear();
                t.computeCapability = m.value("AOTI_COMPUTE_CAPABILITY", "");
            }
        } catch (const json::exception &) {
            t.notes.push_back(name + ": not JSON");
        }
        return;
    }
    if (endsWith(name, "kernel_information.json")) {
        try {
            const json k = json::parse(data);
            std::set<std::string> ops;
            for (const auto &[key, value] : k.items())
                if (key.rfind("aoti_torch_", 0) == 0)
                    ops.insert(key.substr(0, key.find(':')));
            t.externOps.assign(ops.begin(), ops.end());
        } catch (const json::exception &) {
            t.notes.push_back(name + ": not JSON");
        }
        return;
    }
    if (endsWith(name, ".cubin") || endsWith(name, ".fatbin") || endsWith(name, ".so") || endsWith(name, ".o")) {
        scanKernelImages(data, t);
        if (endsWith(name, ".so") && t.march.empty())
            readProducer(data, t);
    }
}

bool interesting(const std::string &name, bool sharedObjects)
{
    return endsWith(name, "_metadata.json") || endsWith(name, "kernel_information.json") || endsWith(name, ".cubin") ||
        endsWith(name, ".fatbin") || (sharedObjects && endsWith(name, ".so"));
}

std::string smList(const json &values, const char *prefix)
{
    std::string out;
    for (const auto &v : values)
        if (v.is_number_integer())
            out += (out.empty() ? "" : ",") + std::string(prefix) + std::to_string(v.get<int>());
    return out;
}

std::string majorMinorOf(const std::string &version)
{
    const auto first = version.find('.');
    if (first == std::string::npos)
        return version;
    const auto second = version.find_first_not_of("0123456789", first + 1);
    return version.substr(0, second);
}

int capabilityNumber(const std::string &cc) // "9.0" -> 90, "12.0" -> 120, "90" -> 90
{
    try {
        if (const auto dot = cc.find('.'); dot != std::string::npos)
            return std::stoi(cc.substr(0, dot)) * 10 + std::stoi(cc.substr(dot + 1, 1));
        return cc.empty() ? -1 : std::stoi(cc);
    } catch (const std::exception &) {
        return -1;
    }
}

} // namespace

void readPackageEntry(const std::string &name, std::string data, PackageTarget &t)
{
    readPackageFile(name, std::move(data), t);
}

PackageTarget readPackageTarget(const fs::path &package, std::uint64_t maxScanBytes, bool sharedObjects)
{
    PackageTarget t;
    std::error_code ec;
    const auto note = [&](const std::string &name, std::uint64_t size) {
        t.notes.push_back(name + ": " + std::to_string(size >> 20) + " MiB, over the " + std::to_string(maxScanBytes >> 20) +
                          " MiB read for kernel images (its architectures are not listed)");
    };
    if (fs::is_directory(package, ec)) {
        for (auto it = fs::recursive_directory_iterator(package, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (!it->is_regular_file(ec))
                continue;
            const std::string name = it->path().filename().string();
            if (!interesting(name, sharedObjects))
                continue;
            const auto size = it->file_size(ec);
            if (size > maxScanBytes) {
                note(name, size);
                continue;
            }
            std::ifstream in(it->path(), std::ios::binary);
            std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            readPackageFile(name, std::move(data), t);
        }
        return t;
    }
    readZipEntries(
        package,
        [&](const std::string &name, std::uint64_t size) {
            if (!interesting(name, sharedObjects))
                return false;
            if (size > maxScanBytes) {
                note(name, size);
                return false;
            }
            return true;
        },
        [&](const std::string &name, std::string data) { readPackageFile(name, std::move(data), t); });
    return t;
}

std::set<std::string> isaFeatures(const std::string &cpuIsa)
{
    std::set<std::string> out;
    std::istringstream words(cpuIsa);
    for (std::string w; words >> w;) {
        std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return std::tolower(c); });
        if (w == "avx2")
            out.insert({"avx2", "fma", "f16c"});
        else if (w == "avx512")
            out.insert({"avx512f", "avx512dq", "avx512vl", "avx512bw", "fma"});
        else if (w == "avx512_vnni")
            out.insert("avx512_vnni");
        else if (w == "amx_tile")
            out.insert({"amx_tile", "amx_bf16", "amx_int8"});
        else if (w == "asimd" || w == "neon")
            out.insert("asimd");
        else if (w.rfind("sve", 0) == 0)
            out.insert("sve");
    }
    return out;
}

Host Host::current(const std::string &torchVersion, bool cudaAvailable, const std::string &computeCapability)
{
    Host h;
    h.torchVersion = torchVersion;
    h.cudaAvailable = cudaAvailable;
    h.computeCapability = computeCapability;
    struct utsname u {};
    if (::uname(&u) == 0)
        h.machine = u.machine;
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0) {
            const auto colon = line.find(':');
            if (colon == std::string::npos)
                continue;
            std::istringstream words(line.substr(colon + 1));
            for (std::string w; words >> w;)
                h.cpuFlags.insert(w);
            break;
        }
    }
    return h;
}

std::string Host::describe(bool gpu) const
{
    std::string s = "torch " + majorMinorOf(torchVersion);
    if (gpu)
        s += cudaAvailable && !computeCapability.empty() ? ", sm_" + std::to_string(capabilityNumber(computeCapability))
                                                         : std::string(", no CUDA device");
    else
        s += ", cpu " + (machine.empty() ? std::string("?") : machine);
    if (runtime != "libtorch")
        s += ", runtime " + runtime;
    return s;
}

json makeCompat(const json &compileCompat, const std::vector<PackageTarget> &targets, const json &buckets,
                const std::string &device, const std::string &quantization)
{
    const json &cc = compileCompat.is_object() ? compileCompat : json::object();
    json c = json::object();
    c["version"] = 1;
    c["torch"] = cc.value("torch", "");
    c["cuda"] = cc.contains("cuda") ? cc["cuda"] : json();
    c["python"] = cc.contains("python") ? cc["python"] : json();
    c["device"] = device.rfind("cuda", 0) == 0 ? "cuda" : device;
    c["precision"] = cc.value("precision", "fp32");
    c["quantization"] = quantization.empty() ? "none" : quantization;
    c["freezing"] = cc.value("freezing", false);
    c["model_sha256"] = cc.contains("model_sha256") ? cc["model_sha256"] : json();
    c["options_sha256"] = cc.contains("options_sha256") ? cc["options_sha256"] : json();

    // What every bucket's package can run on: the intersection of their CPU needs is their union
    // (a runtime loads any of them), of their GPU architectures the intersection.
    std::set<std::string> features;
    std::set<int> sass, ptx;
    bool first = true;
    json notes = json::array();
    std::string machine, platform, isa, march;
    int images = 0;
    for (const auto &t : targets) {
        features.insert(t.cpuFeatures.begin(), t.cpuFeatures.end());
        const auto isaNeeds = isaFeatures(t.cpuIsa);
        features.insert(isaNeeds.begin(), isaNeeds.end());
        if (machine.empty())
            machine = t.machine, platform = t.platform, isa = t.cpuIsa, march = t.march;
        images += t.kernelImages;
        if (first) {
            sass = t.sass;
            ptx = t.ptx;
            first = false;
        } else {
            std::set<int> s, p;
            std::set_intersection(sass.begin(), sass.end(), t.sass.begin(), t.sass.end(), std::inserter(s, s.begin()));
            std::set_intersection(ptx.begin(), ptx.end(), t.ptx.begin(), t.ptx.end(), std::inserter(p, p.begin()));
            sass = std::move(s);
            ptx = std::move(p);
        }
        for (const auto &n : t.notes)
            notes.push_back(n);
    }
    c["platform"] = platform.empty() ? json() : json(platform);
    c["machine"] = machine.empty() ? json() : json(machine);
    c["cpu_isa"] = isa.empty() ? json() : json(isa);
    c["march"] = march.empty() ? json() : json(march);
    c["cpu_features"] = features;
    if (c["device"] == "cuda") {
        c["cuda_archs"] = {{"sass", sass}, {"ptx", ptx}, {"kernel_images", images}};
    }
    // Shape mode: static when every bucket is exact and no guard names a dynamic dimension.
    json dims = json::array();
    bool dynamic = false;
    for (const auto &b : buckets) {
        if (b.contains("batch_min"))
            dynamic = true;
        if (!b.contains("guards") || !b["guards"].is_object())
            continue;
        try {
            const InputGuards g = InputGuards::parse(b["guards"], "bucket guards");
            const auto symbols = g.symbols();
            if (g.bindings().empty())
                continue;
            dynamic = true;
            if (!dims.empty())
                continue; // the first dynamic bucket's dimensions describe the mode
            for (const auto &bind : g.bindings()) {
                const auto &s = symbols[bind.symbol];
                dims.push_back({{"input", bind.input}, {"dim", bind.dim}, {"symbol", s.label},
                                {"min", s.min ? json(*s.min) : json()}, {"max", s.max ? json(*s.max) : json()}});
            }
        } catch (const BundleError &) {
        }
    }
    c["shape_mode"] = dynamic ? "dynamic" : "static";
    c["dynamic_dims"] = dims;
    std::set<std::string> runtimes;
    for (const auto &b : buckets)
        runtimes.insert(b.value("runtime", std::string("libtorch")));
    c["runtime"] = runtimes.size() == 1 ? json(*runtimes.begin()) : json("mixed");
    if (!notes.empty())
        c["notes"] = notes;
    c["key"] = compatKeyString(c);
    return c;
}

std::string compatKeyString(const json &c)
{
    std::string key = c.contains("torch") && c["torch"].is_string() ? "torch" + majorMinorOf(c["torch"].get<std::string>()) : "";
    if (c.value("device", "") == "cuda") {
        const json cuda = c.value("cuda", json());
        key += std::string(key.empty() ? "" : "-") + "cu" + (cuda.is_string() ? cuda.get<std::string>() : std::string("?"));
        const json archs = c.value("cuda_archs", json::object());
        const std::string sass = smList(archs.value("sass", json::array()), "sm");
        const std::string ptx = smList(archs.value("ptx", json::array()), "ptx");
        key += "-" + (sass.empty() && ptx.empty() ? std::string("noarch") : sass + (sass.empty() || ptx.empty() ? "" : "+") + ptx);
    } else {
        key += std::string(key.empty() ? "" : "-") + "cpu";
        if (c.contains("machine") && c["machine"].is_string())
            key += "-" + c["machine"].get<std::string>();
        if (c.contains("cpu_isa") && c["cpu_isa"].is_string()) {
            std::string isa = c["cpu_isa"].get<std::string>();
            std::transform(isa.begin(), isa.end(), isa.begin(), [](unsigned char ch) { return ch == ' ' ? '+' : std::tolower(ch); });
            key += "-" + isa;
        }
        if (c.contains("march") && c["march"].is_string())
            key += "-" + c["march"].get<std::string>();
    }
    if (c.contains("precision") && c["precision"].is_string())
        key += "-" + c["precision"].get<std::string>();
    if (const std::string q = c.value("quantization", std::string("none")); q != "none")
        key += "-" + q;
    if (c.contains("shape_mode") && c["shape_mode"].is_string())
        key += "-" + c["shape_mode"].get<std::string>();
    if (const std::string r = c.value("runtime", std::string("libtorch")); r != "libtorch")
        key += "-" + r;
    const json model = c.value("model_sha256", json());
    if (model.is_string())
        key += "-" + model.get<std::string>().substr(0, 8);
    return key;
}

std::string describeCompat(const json &c)
{
    std::string s = c.contains("torch") && c["torch"].is_string() ? "torch " + majorMinorOf(c["torch"].get<std::string>()) + ", "
                                                                   : std::string();
    if (c.value("device", "") == "cuda") {
        const json cuda = c.value("cuda", json());
        s += cuda.is_string() ? "CUDA " + cuda.get<std::string>() : std::string("CUDA");
        const json archs = c.value("cuda_archs", json::object());
        const std::string sass = smList(archs.value("sass", json::array()), "sm_");
        const std::string ptx = smList(archs.value("ptx", json::array()), "compute_");
        s += sass.empty() ? ", no SASS" : ", " + sass;
        s += ptx.empty() ? ", no PTX" : ", PTX " + ptx;
    } else {
        s += "cpu";
        if (c.contains("machine") && c["machine"].is_string())
            s += " " + c["machine"].get<std::string>();
        if (c.contains("cpu_isa") && c["cpu_isa"].is_string())
            s += " " + c["cpu_isa"].get<std::string>();
        if (c.contains("march") && c["march"].is_string())
            s += " (-march=" + c["march"].get<std::string>() + ")";
    }
    if (const std::string r = c.value("runtime", std::string("libtorch")); r != "libtorch")
        s += ", runtime " + r;
    return s;
}

std::vector<std::string> checkCompat(const json &c, const Host &host)
{
    std::vector<std::string> why;
    if (!c.is_object())
        return why;
    const bool cuda = c.value("device", "") == "cuda";
    // The first reason says what was built for what; the others only what else differs.
    const auto built = [&] {
        return why.empty() ? "built for " + describeCompat(c) + "; this runtime: " + host.describe(cuda) : std::string("also");
    };
    const std::string torch = c.value("torch", std::string());
    // A lite package needs no torch: its aoti_torch_* calls bind to the lite runtime's shim, and
    // each one it needs is checked by name before dlopen (the C shim is versioned by name, a
    // changed signature gets a new one). Which buckets the lite runtime can run at all is
    // checkCompatible()'s business (it names those that need libtorch).
    const std::string builtRuntime = c.value("runtime", json()).is_string() ? c["runtime"].get<std::string>() : "";
    const bool torchFree = host.runtime == "lite" && (builtRuntime == "lite" || builtRuntime == "mixed");
    if (!torchFree && !torch.empty() && !host.torchVersion.empty() && majorMinorOf(torch) != majorMinorOf(host.torchVersion))
        why.push_back(built() + ": AOTInductor packages need the same torch major.minor; re-export it with torch " +
                      majorMinorOf(host.torchVersion) + ", or run it with an aotstudio-run built on torch " + majorMinorOf(torch));
    const std::string machine = c.value("machine", json()).is_string() ? c["machine"].get<std::string>() : "";
    if (!machine.empty() && !host.machine.empty() && machine != host.machine)
        why.push_back(built() + ": its native code is for " + machine + ", this machine is " + host.machine + "; re-export on " +
                      host.machine);
    else if (!host.cpuFlags.empty() && c.contains("cpu_features") && c["cpu_features"].is_array()) {
        std::string missing;
        for (const auto &f : c["cpu_features"])
            if (f.is_string() && !host.cpuFlags.count(f.get<std::string>()))
                missing += (missing.empty() ? "" : " ") + f.get<std::string>();
        if (!missing.empty())
            why.push_back(built() + ": its code uses CPU instructions this CPU lacks (" + missing +
                          "), so it would stop with an illegal instruction; re-export on a machine with this CPU, or with "
                          "ATEN_CPU_CAPABILITY=avx2 (or default) set for the export so that Inductor picks a lower vector ISA");
    }
    if (cuda && !host.cudaAvailable)
        why.push_back(built() + ": the bundle is for CUDA and this machine has no usable CUDA device");
    if (cuda && host.cudaAvailable && c.contains("cuda_archs") && c["cuda_archs"].is_object()) {
        const json &a = c["cuda_archs"];
        const int have = capabilityNumber(host.computeCapability);
        const json sass = a.value("sass", json::array()), ptx = a.value("ptx", json::array());
        if (have > 0 && (!sass.empty() || !ptx.empty())) {
            bool runs = false;
            for (const auto &s : sass) // SASS runs on the same major with an equal or higher minor
                if (s.is_number_integer() && s.get<int>() / 10 == have / 10 && s.get<int>() % 10 <= have % 10)
                    runs = true;
            for (const auto &p : ptx) // PTX JIT-compiles for any equal or newer architecture
                if (p.is_number_integer() && p.get<int>() <= have)
                    runs = true;
            if (!runs)
                why.push_back(built() + ": none of its kernels has machine code for sm_" + std::to_string(have) +
                              " or PTX the driver could compile for it; re-export with --arch " + std::to_string(have / 10) + "." +
                              std::to_string(have % 10) + " (or on this GPU)");
        }
    }
    return why;
}

json packageCompat(const PackageTarget &t, const std::string &torchVersion)
{
    json buckets = json::array();
    json compileCompat = {{"torch", torchVersion}};
    json c = makeCompat(compileCompat, {t}, buckets, t.deviceKey.empty() ? "cpu" : t.deviceKey, "none");
    if (torchVersion.empty())
        c.erase("torch");
    c.erase("shape_mode");
    c.erase("dynamic_dims");
    c.erase("precision");
    c.erase("runtime");
    c.erase("quantization");
    c.erase("freezing");
    c["key"] = compatKeyString(c);
    return c;
}

} // namespace AotStudio::Bundle
