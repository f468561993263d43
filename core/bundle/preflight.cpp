// SPDX-License-Identifier: GPL-3.0-or-later
// Preflight of a bundle against a GPU worker profile: architectures, known kernel gaps, memory fit,
// cold start and request economics, from the bundle's files alone.
#include "bundle/preflight.h"

#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/text.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;

std::string gib(std::uint64_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, bytes >= kGiB ? "%.1f GiB" : "%.0f MiB",
                  bytes >= kGiB ? static_cast<double>(bytes) / kGiB : static_cast<double>(bytes) / kMiB);
    return buf;
}

json readJson(const fs::path &p)
{
    std::ifstream in(p);
    if (!in)
        return json();
    return json::parse(in, nullptr, false);
}

int smOf(const std::string &cc) // "12.0" -> 120
{
    const auto dot = cc.find('.');
    try {
        return dot == std::string::npos ? std::stoi(cc) : std::stoi(cc.substr(0, dot)) * 10 + std::stoi(cc.substr(dot + 1, 1));
    } catch (const std::exception &) {
        return -1;
    }
}

double medianMs(const json &phase)
{
    return phase.is_object() && phase.value("median_ms", json()).is_number() ? phase["median_ms"].get<double>() : NAN;
}

} // namespace

const std::vector<GpuProfile> &gpuProfiles()
{
    static const std::vector<GpuProfile> profiles{
        {"rtx-pro-6000-half", "NVIDIA RTX Pro 6000 Blackwell, half a card (Hugging Face ZeroGPU 'large', the default)", "12.0",
         48943 * kMiB, kGiB, 60,
         "Hugging Face hub documentation, ZeroGPU (2026): large = half an RTX Pro 6000, 48 GB; the card's 97887 MiB halved; "
         "PyTorch 2.8 to 2.11",
         {"2.8", "2.9", "2.10", "2.11"}},
        {"rtx-pro-6000", "NVIDIA RTX Pro 6000 Blackwell (Hugging Face ZeroGPU 'xlarge')", "12.0", 97887 * kMiB, kGiB, 60,
         "Hugging Face hub documentation, ZeroGPU (2026): xlarge = a whole RTX Pro 6000, 96 GB (nvidia-smi: 97887 MiB); "
         "PyTorch 2.8 to 2.11",
         {"2.8", "2.9", "2.10", "2.11"}},
        {"h200", "NVIDIA H200 (141 GB HBM3e)", "9.0", 143771 * kMiB, kGiB, 60, "NVIDIA H200 datasheet; nvidia-smi: 143771 MiB", {}},
    };
    return profiles;
}

GpuProfile gpuProfile(const std::string &nameOrFile)
{
    for (const auto &p : gpuProfiles())
        if (p.name == nameOrFile)
            return p;
    std::string names;
    for (const auto &p : gpuProfiles())
        names += (names.empty() ? "" : ", ") + p.name;
    std::error_code ec;
    if (!fs::is_regular_file(nameOrFile, ec))
        throw BundleError("--gpu '" + nameOrFile + "' is neither a built-in profile (" + names + ") nor a JSON file");
    const json j = readJson(nameOrFile);
    if (!j.is_object())
        throw BundleError("GPU profile " + quoted(fs::path(nameOrFile)) + " is not a JSON object");
    GpuProfile p;
    p.name = j.value("name", fs::path(nameOrFile).stem().string());
    p.description = j.value("description", p.name);
    p.source = quoted(fs::path(nameOrFile));
    try {
        p.computeCapability = j.at("compute_capability").is_string() ? j.at("compute_capability").get<std::string>()
                                                                     : std::to_string(j.at("compute_capability").get<double>());
        if (j.contains("memory_bytes"))
            p.memoryBytes = j.at("memory_bytes").get<std::uint64_t>();
        else
            p.memoryBytes = static_cast<std::uint64_t>(j.at("memory_gib").get<double>() * static_cast<double>(kGiB));
        p.workspaceBytes = j.value("workspace_bytes", kGiB);
        p.workerSeconds = j.value("worker_seconds", 60.0);
        p.torchVersions = j.value("torch_versions", std::vector<std::string>{});
    } catch (const json::exception &e) {
        throw BundleError("GPU profile " + quoted(fs::path(nameOrFile)) +
                          ": needs \"compute_capability\" (\"12.0\") and \"memory_bytes\" or \"memory_gib\" (" + e.what() + ")");
    }
    if (smOf(p.computeCapability) <= 0 || p.memoryBytes == 0)
        throw BundleError("GPU profile " + quoted(fs::path(nameOrFile)) + ": compute_capability '" + p.computeCapability +
                          "' or its memory is not usable");
    return p;
}

const std::vector<KnownGap> &knownGaps()
{
    static const std::vector<KnownGap> gaps{
        {"flash_attn_3", "FlashAttention 3", 90, 90,
         "FlashAttention 3's kernels are written for Hopper (sm_90) only (Dao-AILab/flash-attention, hopper/ README: "
         "H100/H800); on other GPUs use torch's scaled_dot_product_attention (FlashAttention 2 / cuDNN / efficient)"},
        {"_scaled_mm", "FP8 matmul (torch._scaled_mm)", 89, 0,
         "torch._scaled_mm needs compute capability 8.9 or newer (ATen's check in aten/src/ATen/native/cuda/Blas.cpp)"},
    };
    return gaps;
}

json preflight(const fs::path &root, const GpuProfile &profile)
{
    const Manifest m = loadManifest(root);
    const json compat = m.raw.value("compat", json());
    const int sm = smOf(profile.computeCapability);
    json checks = json::array();
    json reasons = json::array();
    bool unknown = false;
    const auto add = [&](json check) {
        if (check["status"] == "fail")
            reasons.push_back(check["summary"]);
        if (check["status"] == "unknown")
            unknown = true;
        checks.push_back(std::move(check));
    };

    // 1. Architectures: SASS for this SM, or PTX the driver can JIT.
    const bool cuda = m.device.rfind("cuda", 0) == 0;
    if (!cuda) {
        add({{"name", "architectures"}, {"status", "warn"},
             {"summary", "a CPU bundle: it runs on the worker's CPU and leaves the GPU unused (export with --device cuda)"}});
    } else if (!compat.is_object() || !compat.contains("cuda_archs")) {
        add({{"name", "architectures"}, {"status", "unknown"},
             {"summary", "the bundle has no compatibility key (made before format 3's): its architectures are not recorded"}});
    } else {
        Host h;
        h.cudaAvailable = true;
        h.computeCapability = profile.computeCapability;
        json onlyArchs = {{"device", "cuda"}, {"cuda_archs", compat["cuda_archs"]}, {"cuda", compat.value("cuda", json())}};
        const auto why = checkCompat(onlyArchs, h);
        const json &a = compat["cuda_archs"];
        json check{{"name", "architectures"}, {"sass", a.value("sass", json::array())}, {"ptx", a.value("ptx", json::array())},
                   {"needed", sm}};
        if (a.value("kernel_images", 0) == 0) {
            check["status"] = "ok";
            check["summary"] = "no generated GPU kernels in the packages (extern kernels only: cuBLAS/cuDNN of the runtime's torch)";
        } else if (why.empty()) {
            check["status"] = "ok";
            check["summary"] = "kernels for sm_" + std::to_string(sm) + ": " + describeCompat(onlyArchs);
        } else {
            check["status"] = "fail";
            check["summary"] = why.front();
        }
        add(check);
    }

    // 1b. The torch the worker offers: AOTInductor packages need the same major.minor.
    if (!profile.torchVersions.empty()) {
        const std::string built = compat.is_object() ? compat.value("torch", m.torchVersion) : m.torchVersion;
        const auto dot = built.find('.');
        const std::string mm = dot == std::string::npos ? built : built.substr(0, built.find_first_not_of("0123456789", dot + 1));
        std::string offered;
        for (const auto &v : profile.torchVersions)
            offered += (offered.empty() ? "" : ", ") + v;
        const bool ok = std::find(profile.torchVersions.begin(), profile.torchVersions.end(), mm) != profile.torchVersions.end();
        add({{"name", "torch"}, {"status", ok ? "ok" : "fail"}, {"built_with", built}, {"offered", profile.torchVersions},
             {"summary", ok ? "torch " + mm + " is offered there"
                            : "built with torch " + mm + ", the " + profile.name + " worker offers torch " + offered +
                                 ": re-export with one of them (AOTInductor packages need the same major.minor)"}});
    }

    // 2. Kernels known not to exist for this architecture, by op.
    {
        std::set<std::string> found;
        std::vector<std::string> hits;
        for (const auto &b : m.buckets) {
            try {
                readZipEntries(
                    root / b.package,
                    [](const std::string &name, std::uint64_t size) {
                        return size < (64ull << 20) && (name.size() > 4 && (name.compare(name.size() - 4, 4, ".cpp") == 0 ||
                                                                            name.compare(name.size() - 5, 5, ".json") == 0));
                    },
                    [&](const std::string &, std::string data) {
                        for (const auto &g : knownGaps())
                            if (data.find(g.pattern) != std::string::npos)
                                found.insert(g.pattern);
                    });
            } catch (const BundleError &) {
                // a package that is not a zip is the verification's business, not this check's
            }
        }
        json gaps = json::array();
        for (const auto &g : knownGaps()) {
            if (!found.count(g.pattern))
                continue;
            const bool missing = cuda && ((g.minSm && sm < g.minSm) || (g.maxSm && sm > g.maxSm));
            gaps.push_back({{"op", g.op}, {"pattern", g.pattern}, {"available", !missing}, {"why", g.why}});
            if (missing)
                hits.push_back(g.op + " does not exist for sm_" + std::to_string(sm) + ": " + g.why);
        }
        add({{"name", "kernels"}, {"status", hits.empty() ? "ok" : "fail"}, {"ops", gaps},
             {"summary", hits.empty() ? std::string("no kernel known to be missing on sm_") + std::to_string(sm) + " is called"
                                      : hits.front()}});
    }

    // 3. Memory: the largest bucket's weights + its activation peak + the workspace.
    {
        std::uint64_t sharedBytes = 0;
        for (const auto &[path, f] : m.files)
            if (path.rfind(std::string(kSharedWeightsDir) + "/", 0) == 0)
                sharedBytes += f.bytes; // shared by every bucket, mapped once
        std::uint64_t worstTotal = 0;
        json rows = json::array();
        bool activationsKnown = true;
        std::string worstName;
        for (const auto &b : m.buckets) {
            const json report = readJson(root / kReportDir / (b.name + ".json"));
            const json mem = report.is_object() ? report.value("memory", json()) : json();
            const auto pkg = m.files.find(b.package);
            const std::uint64_t packageBytes = pkg == m.files.end() ? 0 : pkg->second.bytes;
            // Weights in the .so (no shared files): the package's size bounds code + weights.
            const std::uint64_t weights = b.weights.empty() ? packageBytes : sharedBytes + packageBytes;
            json row{{"bucket", b.name}, {"weights_bytes", weights}};
            std::uint64_t activations = 0;
            if (mem.is_object() && mem.value("predicted_peak_bytes", json()).is_number()) {
                activations = mem["predicted_peak_bytes"].get<std::uint64_t>();
                row["activation_peak_bytes"] = activations;
                row["activation_source"] = "Inductor's predicted peak (memory plan)";
            } else {
                activationsKnown = false;
                row["activation_peak_bytes"] = nullptr;
            }
            const std::uint64_t total = weights + activations + (cuda ? profile.workspaceBytes : 0);
            row["total_bytes"] = total;
            rows.push_back(row);
            if (total > worstTotal)
                worstTotal = total, worstName = b.name;
        }
        json check{{"name", "memory"}, {"buckets", rows}, {"needed_bytes", worstTotal}, {"available_bytes", profile.memoryBytes},
                   {"workspace_bytes", profile.workspaceBytes}};
        const std::string figures = cuda ? gib(worstTotal) + " needed (bucket " + worstName + ": weights, activation peak and " +
                gib(profile.workspaceBytes) + " assumed for the CUDA context and library workspaces) of " + gib(profile.memoryBytes) +
                " of GPU memory"
                                         : gib(worstTotal) + " of host memory (bucket " + worstName +
                ": weights and activation peak; a CPU bundle uses none of the GPU's " + gib(profile.memoryBytes) + ")";
        if (cuda && worstTotal > profile.memoryBytes) {
            check["status"] = "fail";
            check["summary"] = "does not fit: " + figures;
        } else if (!activationsKnown) {
            check["status"] = "unknown";
            check["summary"] = "weights fit (" + figures + "), activations unknown: a bucket's report has no memory plan";
        } else {
            check["status"] = "ok";
            check["summary"] = (cuda ? "fits: " : "") + figures;
        }
        add(check);
    }

    // 4. Cold start and 5. request economics, from the export's measurement.
    const json cold = readJson(root / kReportDir / kColdStartName);
    if (!cold.is_object() || !cold.contains("phases")) {
        add({{"name", "cold_start"}, {"status", "unknown"}, {"summary", "not measured at export (--cold-start-runs 0)"}});
        add({{"name", "economics"}, {"status", "unknown"}, {"summary", "needs the cold start"}});
    } else {
        const json &ph = cold["phases"];
        json phases = json::object();
        for (const char *k : {"to_main_ms", "verify_ms", "load_ms", "first_run_ms"})
            phases[k] = std::isnan(medianMs(ph.value(k, json()))) ? json() : ph[k]; // median_ms with low_ms/high_ms (95% CI) and runs
        const double firstOutput = cold.value("bundle_ms", json()).is_number() ? cold["bundle_ms"].get<double>() : NAN;
        const std::string where = "measured at export on its machine (device " + m.device + "), not on the " + profile.name;
        add({{"name", "cold_start"}, {"status", std::isnan(firstOutput) ? "unknown" : "ok"}, {"phases_ms", phases},
             {"first_output_ms", std::isnan(firstOutput) ? json() : json(firstOutput)},
             {"summary", std::isnan(firstOutput) ? std::string("no bundle run succeeded")
                                                 : "first output " + std::to_string(static_cast<long long>(std::lround(firstOutput))) +
                                                     " ms after spawn (median of " + std::to_string(cold.value("runs", 0)) +
                                                     " fresh processes; each phase's 95% interval in phases_ms), " + where}});
        const double perRequest = medianMs(ph.value("first_run_ms", json()));
        json econ{{"name", "economics"}, {"worker_seconds", profile.workerSeconds}};
        if (std::isnan(firstOutput) || std::isnan(perRequest) || perRequest <= 0) {
            econ["status"] = "unknown";
            econ["summary"] = "needs the cold start's first output and first run";
        } else {
            const double budget = profile.workerSeconds * 1000.0;
            const long long oneProcessEach = static_cast<long long>(std::floor(budget / firstOutput));
            const long long resident = firstOutput > budget ? 0 : 1 + static_cast<long long>(std::floor((budget - firstOutput) / perRequest));
            econ["status"] = "ok";
            econ["first_request_ms"] = firstOutput;
            econ["requests_one_process_each"] = oneProcessEach;
            econ["requests_resident"] = resident;
            econ["summary"] = "first request " + std::to_string(static_cast<long long>(std::lround(firstOutput))) + " ms; a " +
                std::to_string(static_cast<long long>(profile.workerSeconds)) + " s worker serves " + std::to_string(oneProcessEach) +
                " requests with a process each, up to " + std::to_string(resident) +
                " with one resident process (first-run time as the per-request bound; " + where + ")";
        }
        add(econ);
    }

    std::string verdict = reasons.empty() ? (unknown ? "unknown" : "ok") : "refused";
    return {{"profile", {{"name", profile.name}, {"description", profile.description}, {"compute_capability", profile.computeCapability},
                         {"memory_bytes", profile.memoryBytes}, {"worker_seconds", profile.workerSeconds}, {"source", profile.source}}},
            {"bundle", root.string()},
            {"compat_key", compat.is_object() ? compat.value("key", json()) : json()},
            {"device", m.device},
            {"verdict", verdict},
            {"checks", checks},
            {"reasons", reasons}};
}

} // namespace AotStudio::Bundle
