// SPDX-License-Identifier: GPL-3.0-or-later
// core/bundle/compat.h: what a package was built for, read from its files (real nvcc cubins and a
// fatbin in tests/fixtures/cuda, AOTI metadata and a GCC producer string as torch 2.14 writes
// them), the manifest's compat object and the check against a host. No torch needed.
#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/preflight.h"
#include "bundle/weights.h"
#include "client/exportresult.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace AotStudio::Bundle;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kCuda = fs::path(AOTSTUDIO_FIXTURES_DIR) / "cuda";

std::string readFile(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path &p, const std::string &data)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << data;
}

// A producer string as GCC 12 records it for Inductor's -march=native build on a Zen 3 (abridged).
const std::string kProducer
    = std::string("GNU C++20 12.2.0 -march=znver3 -mmmx -mpopcnt -msse4.2 -mavx -mno-fma4 -mno-avx512f ")
    + "-mbmi2 -mno-avx512vl -mxsave -mavx2 -mfma -mf16c -g1 -O3 -std=c++20 -fPIC -fopenmp";

/// An AOTI package folder of model `m` (the layout torch 2.14 writes) with `metadata` and `files`.
fs::path makePackage(const fs::path &root, const json &metadata, const std::map<std::string, std::string> &files)
{
    const fs::path model = root / "model" / "data" / "aotinductor" / "model";
    writeFile(model / "cabc.wrapper_metadata.json", metadata.dump());
    for (const auto &[name, data] : files)
        writeFile(model / name, data);
    return root;
}

json cpuMetadata(const std::string &isa)
{
    return {{"AOTI_DEVICE_KEY", "cpu"},
            {"AOTI_PLATFORM", "linux"},
            {"AOTI_MACHINE", "x86_64"},
            {"AOTI_CPU_ISA", isa},
            {"AOTI_COMPUTE_CAPABILITY", ""}};
}

json cudaMetadata()
{
    return {{"AOTI_DEVICE_KEY", "cuda"},
            {"AOTI_PLATFORM", "linux"},
            {"AOTI_MACHINE", "x86_64"},
            {"AOTI_CPU_ISA", "AVX2"},
            {"AOTI_COMPUTE_CAPABILITY", "90"}};
}

Host host(const std::string &torch, const std::string &cc, std::set<std::string> flags)
{
    Host h;
    h.torchVersion = torch;
    h.cudaAvailable = !cc.empty();
    h.computeCapability = cc;
    h.machine = "x86_64";
    h.cpuFlags = std::move(flags);
    return h;
}

const std::set<std::string> kZen3Flags{"fpu", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "popcnt"};

std::string joined(const std::vector<std::string> &v)
{
    std::string s;
    for (const auto &x : v)
        s += x + "\n";
    return s;
}

/// A CUDA bundle of one bucket at `root` (built in `tree`): kernels from the fixture `kernels`
/// (e.g. sm_90 SASS only), a wrapper source `wrapper` (e.g. calling FlashAttention 3), a
/// predicted activation peak of `peak` bytes and a measured cold start (1.2 s).
void buildCudaBundle(const fs::path &root, const fs::path &tree, const std::string &kernels, const std::string &wrapper,
                     std::uint64_t peak)
{
    fs::remove_all(root);
    fs::remove_all(tree);
    makePackage(
        tree, cudaMetadata(),
        {{"k1" + kernels.substr(kernels.rfind('.')), readFile(kCuda / kernels)}, {"cabc.wrapper.cpp", wrapper}});
    fs::create_directories(root / "packages");
    zipDirectory(tree, root / "packages" / "batch1.pt2");
    writeFile(root / "report" / "batch1.json", json{{"memory", {{"predicted_peak_bytes", peak}}}}.dump());
    writeFile(root / "report" / "cold_start.json",
              json{{"bundle_ms", 1200.0},
                   {"phases", {{"first_run_ms", {{"median_ms", 50.0}}}, {"load_ms", {{"median_ms", 900.0}}}}}}
                  .dump());
    ManifestDraft d;
    d.model = "sample:fake";
    d.torchVersion = "2.11.0+cu130";
    d.device = "cuda";
    d.inputs = json::array({json{{"shape", {1, 4}}, {"dtype", "bfloat16"}}});
    d.outputs = d.inputs;
    d.buckets = json::array({json{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}}});
    d.compat = makeCompat({{"torch", "2.11.0+cu130"}, {"cuda", "13.0"}, {"precision", "bf16"}},
                          {readPackageTarget(root / "packages" / "batch1.pt2")}, d.buckets, "cuda", "none");
    writeManifest(root, newManifest(d));
}

} // namespace

class TestCompat : public QObject
{
    Q_OBJECT

private slots:
    void cubinArchitectures()
    {
        QTemporaryDir tmp;
        const fs::path p = makePackage(
            tmp.path().toStdString(), cudaMetadata(),
            {{"k1.cubin", readFile(kCuda / "scale_sm90.cubin")}, {"k2.cubin", readFile(kCuda / "scale_sm120.cubin")}});
        const PackageTarget t = readPackageTarget(p);
        QVERIFY(t.found);
        QCOMPARE(t.deviceKey, std::string("cuda"));
        QCOMPARE(t.sass, (std::set<int>{90, 120}));
        QVERIFY(t.ptx.empty());
        QCOMPARE(t.kernelImages, 2);
    }

    void fatbinEntries()
    {
        QTemporaryDir tmp;
        const fs::path p = makePackage(tmp.path().toStdString(), cudaMetadata(),
                                       {{"k1.fatbin", readFile(kCuda / "scale_sm90_ptx90_sm120.fatbin")}});
        const PackageTarget t = readPackageTarget(p);
        QCOMPARE(t.sass, (std::set<int>{90, 120}));
        QCOMPARE(t.ptx, (std::set<int>{90}));
        QCOMPARE(t.kernelImages, 3); // two SASS images and one PTX, the cubins inside not counted twice
    }

    void embeddedInTheSharedObjectOfAZippedPackage()
    {
        // aot_inductor.embed_kernel_binary: the images live inside the .so; and the package is a zip.
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "tree";
        const std::string so = "\x7f"
                               "ELF"
            + std::string(60, '\0') + "padding" + readFile(kCuda / "scale_sm90_ptx90_sm120.fatbin") + "more"
            + readFile(kCuda / "scale_sm120.cubin") + kProducer + std::string(1, '\0');
        makePackage(dir, cudaMetadata(), {{"cabc.wrapper.so", so}});
        const fs::path zip = fs::path(tmp.path().toStdString()) / "model.pt2";
        zipDirectory(dir, zip);
        const PackageTarget t = readPackageTarget(zip);
        QVERIFY(t.found);
        QCOMPARE(t.sass, (std::set<int>{90, 120}));
        QCOMPARE(t.ptx, (std::set<int>{90}));
        QCOMPARE(t.kernelImages, 4);
        QCOMPARE(t.march, std::string("znver3"));
    }

    void producerGivesMarchAndFeatures()
    {
        QTemporaryDir tmp;
        const fs::path p = makePackage(tmp.path().toStdString(), cpuMetadata("AVX2"),
                                       {{"cabc.wrapper.so", "junk" + kProducer + '\0'}});
        const PackageTarget t = readPackageTarget(p);
        QCOMPARE(t.cpuIsa, std::string("AVX2"));
        QCOMPARE(t.march, std::string("znver3"));
        for (const char *f : {"avx2", "fma", "f16c", "bmi2", "popcnt", "sse4_2", "avx"})
            QVERIFY2(t.cpuFeatures.count(f), f);
        QVERIFY(!t.cpuFeatures.count("avx512f")); // -mno-avx512f is not a requirement
        QVERIFY(!t.cpuFeatures.count("xsave")); // system instructions are not kernel code
        QVERIFY(t.sass.empty());
    }

    void notAPackage()
    {
        QTemporaryDir tmp;
        const fs::path p = fs::path(tmp.path().toStdString()) / "junk.pt2";
        writeFile(p, "not a zip at all");
        QVERIFY_THROWS_EXCEPTION(BundleError, readPackageTarget(p));
        const fs::path empty = fs::path(tmp.path().toStdString()) / "empty";
        fs::create_directories(empty);
        QVERIFY(!readPackageTarget(empty).found);
    }

    void isaFeaturesFollowInductorsBuildFlags()
    {
        QCOMPARE(isaFeatures("AVX2"), (std::set<std::string>{"avx2", "fma", "f16c"}));
        const auto amx = isaFeatures("AVX512 AVX512_VNNI AMX_TILE");
        for (const char *f : {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni", "amx_tile", "amx_int8"})
            QVERIFY2(amx.count(f), f);
        QVERIFY(isaFeatures("").empty());
    }

    void keyAndCheckOnTheCpu()
    {
        PackageTarget t;
        t.found = true;
        t.deviceKey = "cpu";
        t.machine = "x86_64";
        t.cpuIsa = "AVX2";
        t.march = "znver3";
        t.cpuFeatures = {"avx2", "fma", "bmi2"};
        const json compileCompat{{"torch", "2.14.1+cu130"},
                                 {"cuda", "13.0"},
                                 {"precision", "fp32"},
                                 {"model_sha256", std::string(64, 'a')},
                                 {"options_sha256", std::string(64, 'b')}};
        const json buckets = json::array({json{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}}});
        const json c = makeCompat(compileCompat, {t}, buckets, "cpu", "none");
        QCOMPARE(c.value("key", ""), std::string("torch2.14-cpu-x86_64-avx2-znver3-fp32-static-aaaaaaaa"));
        QCOMPARE(c.value("shape_mode", ""), std::string("static"));
        QVERIFY(!c.contains("cuda_archs"));

        QVERIFY(checkCompat(c, host("2.14.0", "", kZen3Flags)).empty());
        // An older CPU without AVX2: refused before anything runs, naming the instructions.
        const auto noAvx2 = checkCompat(c, host("2.14.1", "", {"sse4_2", "avx", "popcnt", "fma", "bmi2"}));
        QCOMPARE(noAvx2.size(), std::size_t(1));
        QVERIFY2(noAvx2[0].find("avx2") != std::string::npos
                     && noAvx2[0].find("illegal instruction") != std::string::npos,
                 noAvx2[0].c_str());
        QVERIFY2(noAvx2[0].find("-march=znver3") != std::string::npos, noAvx2[0].c_str());
        // Another torch: both sides named, and what to rebuild.
        const auto torch = checkCompat(c, host("2.11.0", "", kZen3Flags));
        QCOMPARE(torch.size(), std::size_t(1));
        QVERIFY2(torch[0].find("built for torch 2.14") != std::string::npos
                     && torch[0].find("this runtime: torch 2.11") != std::string::npos
                     && torch[0].find("re-export it with torch 2.11") != std::string::npos,
                 torch[0].c_str());
        // Another machine.
        Host arm = host("2.14.1", "", {"asimd"});
        arm.machine = "aarch64";
        const auto other = checkCompat(c, arm);
        QCOMPARE(other.size(), std::size_t(1));
        QVERIFY2(other[0].find("aarch64") != std::string::npos, other[0].c_str());
        // Unknown host flags (not Linux): nothing to check them against, nothing refused for them.
        QVERIFY(checkCompat(c, host("2.14.1", "", {})).empty());
    }

    void cudaArchitecturesAgainstTheDevice()
    {
        const auto compatFor = [](std::set<int> sass, std::set<int> ptx) {
            PackageTarget t;
            t.found = true;
            t.deviceKey = "cuda";
            t.machine = "x86_64";
            t.sass = std::move(sass);
            t.ptx = std::move(ptx);
            t.kernelImages = 1;
            return makeCompat(
                {{"torch", "2.14.1+cu130"}, {"cuda", "13.0"}, {"precision", "bf16"}}, {t},
                json::array({json{{"name", "dynamic"}, {"batch_min", 1}, {"batch_max", 8}, {"package", "p"}}}), "cuda",
                "none");
        };
        const json hopperOnly = compatFor({90}, {});
        QCOMPARE(hopperOnly.value("key", ""), std::string("torch2.14-cu13.0-sm90-bf16-dynamic"));
        QVERIFY(checkCompat(hopperOnly, host("2.14.1", "9.0", kZen3Flags)).empty());
        // The ZeroGPU case: sm_90 SASS and no PTX on an RTX Pro 6000 (sm_120).
        const auto blackwell = checkCompat(hopperOnly, host("2.14.1", "12.0", kZen3Flags));
        QCOMPARE(blackwell.size(), std::size_t(1));
        QVERIFY2(blackwell[0].find("sm_90, no PTX") != std::string::npos
                     && blackwell[0].find("sm_120") != std::string::npos
                     && blackwell[0].find("--arch 12.0") != std::string::npos,
                 blackwell[0].c_str());
        // PTX for compute_90 JIT-compiles on any newer GPU.
        QVERIFY(checkCompat(compatFor({90}, {90}), host("2.14.1", "12.0", kZen3Flags)).empty());
        // SASS runs on the same major with a higher minor, not the other way round.
        QVERIFY(checkCompat(compatFor({80}, {}), host("2.14.1", "8.6", kZen3Flags)).empty());
        QVERIFY(!checkCompat(compatFor({86}, {}), host("2.14.1", "8.0", kZen3Flags)).empty());
        // No CUDA device at all.
        const auto none = checkCompat(hopperOnly, host("2.14.1", "", kZen3Flags));
        QVERIFY2(joined(none).find("no usable CUDA device") != std::string::npos, joined(none).c_str());
        // Several buckets: only the architectures every package has count.
        PackageTarget a, b;
        a.deviceKey = b.deviceKey = "cuda";
        a.sass = {90, 120};
        b.sass = {90};
        const json both = makeCompat({{"torch", "2.14.1"}}, {a, b}, json::array(), "cuda", "none");
        QCOMPARE(both["cuda_archs"]["sass"], json::array({90}));
    }

    void weightsBindOrRefuse()
    {
        // weights_config.json as torch 2.14 writes it (pickle_weights): FQN -> [file, shape, stride, offset].
        const std::string text
            = R"({"fc.weight": ["weight_0", [4, 8], [8, 1], 0], "fc.bias": ["weight_1", [4], [1], 0]})";
        std::vector<std::string> dup, bad;
        const auto config = parseWeightsConfig(text, &dup, &bad);
        QCOMPARE(config.size(), std::size_t(2));
        QVERIFY(dup.empty() && bad.empty());
        const std::map<std::string, BucketWeight> good{{"weight_0", {"weights/a.bin", "float32", 32}},
                                                       {"weight_1", {"weights/b.bin", "float32", 4}}};
        const std::map<std::string, std::string> model{{"fc.weight", "float32"}, {"fc.bias", "float32"}};
        QVERIFY(checkWeightBinding(config, good).ok());
        QVERIFY(checkWeightBinding(config, good, &model).ok());

        auto missing = good;
        missing.erase("weight_1");
        const auto m = checkWeightBinding(config, missing, &model);
        QCOMPARE(m.missing.size(), std::size_t(1));
        QVERIFY2(m.describe().find("fc.bias") != std::string::npos, m.describe().c_str());

        auto extra = good;
        extra["weight_9"] = {"weights/z.bin", "float32", 4};
        const auto e = checkWeightBinding(config, extra, &model);
        QCOMPARE(e.extra.size(), std::size_t(1));
        QVERIFY2(e.describe().find("weights/z.bin") != std::string::npos, e.describe().c_str());

        auto small = good;
        small["weight_0"].numel = 31; // the view needs 4*8 = 32 elements
        const auto shape = checkWeightBinding(config, small, &model);
        QCOMPARE(shape.mismatched.size(), std::size_t(1));
        QVERIFY2(shape.describe().find("needs 32 float32 elements") != std::string::npos, shape.describe().c_str());

        auto wrongType = good;
        wrongType["weight_1"].dtype = "bfloat16";
        const auto dtype = checkWeightBinding(config, wrongType, &model);
        QCOMPARE(dtype.mismatched.size(), std::size_t(1));
        QVERIFY2(dtype.describe().find("expects float32, the weight is bfloat16") != std::string::npos,
                 dtype.describe().c_str());

        // A constant the compiled model does not have, and one it has that the config does not give.
        const std::map<std::string, std::string> other{{"fc.weight", "float32"}, {"fc.scale", "float32"}};
        const auto names = checkWeightBinding(config, good, &other);
        QCOMPARE(names.extra.size(), std::size_t(1));
        QCOMPARE(names.missing.size(), std::size_t(1));

        // A constant described twice: which one would bind is undefined.
        const auto twice = parseWeightsConfig(
            R"({"fc.bias": ["weight_1", [4], [1], 0], "fc.bias": ["weight_0", [4], [1], 0]})", &dup, &bad);
        QCOMPARE(dup.size(), std::size_t(1));
        QVERIFY(twice.size() == 1);
        parseWeightsConfig(R"({"fc.bias": ["weight_1", [4], 0]})", &dup, &bad);
        QCOMPARE(bad.size(), std::size_t(1));
        QVERIFY_THROWS_EXCEPTION(BundleError, parseWeightsConfig("{not json", nullptr, nullptr));
    }

    void preflightAgainstAGpuProfile()
    {
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "bundle";
        const auto build = [&](const std::string &kernels, const std::string &wrapper, std::uint64_t peak) {
            buildCudaBundle(root, fs::path(tmp.path().toStdString()) / "tree", kernels, wrapper, peak);
        };
        const auto check = [](const json &r, const std::string &name) {
            for (const auto &c : r["checks"])
                if (c.value("name", "") == name)
                    return c;
            return json();
        };
        build("scale_sm90.cubin", "// calls torch.ops.flash_attn_3.fwd", 1ull << 30);
        const json half = preflight(root, gpuProfile("rtx-pro-6000-half"));
        QCOMPARE(half.value("verdict", ""), std::string("refused"));
        QCOMPARE(check(half, "architectures").value("status", ""), std::string("fail"));
        QCOMPARE(check(half, "kernels").value("status", ""), std::string("fail"));
        QVERIFY2(check(half, "kernels").value("summary", "").find("FlashAttention 3") != std::string::npos,
                 half.dump().c_str());
        QCOMPARE(check(half, "torch").value("status", ""), std::string("ok"));
        QCOMPARE(check(half, "memory").value("status", ""), std::string("ok"));
        // 60 s: 50 process-per-request starts of 1.2 s; resident: 1 + (60000 - 1200) / 50.
        QCOMPARE(check(half, "economics").value("requests_one_process_each", 0), 50);
        QCOMPARE(check(half, "economics").value("requests_resident", 0), 1 + 1176);
        // The same bundle passes on an H200 (sm_90) for architectures and FlashAttention 3.
        const json h200 = preflight(root, gpuProfile("h200"));
        QCOMPARE(check(h200, "architectures").value("status", ""), std::string("ok"));
        QCOMPARE(check(h200, "kernels").value("status", ""), std::string("ok"));
        QCOMPARE(h200.value("verdict", ""), std::string("ok"));

        // PTX for compute_90 runs on sm_120; an activation peak over the card's memory does not fit.
        build("scale_sm90_ptx90_sm120.fatbin", "// no special kernels", 60ull << 30);
        const json big = preflight(root, gpuProfile("rtx-pro-6000-half"));
        QCOMPARE(check(big, "architectures").value("status", ""), std::string("ok"));
        QCOMPARE(check(big, "memory").value("status", ""), std::string("fail"));
        QVERIFY2(check(big, "memory").value("summary", "").find("does not fit") != std::string::npos,
                 big.dump().c_str());

        // A profile of one's own; and a name that is neither.
        const fs::path own = fs::path(tmp.path().toStdString()) / "l4.json";
        writeFile(own, R"({"name": "l4", "compute_capability": "8.9", "memory_gib": 22, "torch_versions": ["2.14"]})");
        const json l4 = preflight(root, gpuProfile(own.string()));
        QCOMPARE(check(l4, "torch").value("status", ""), std::string("fail"));
        QCOMPARE(check(l4, "architectures").value("status", ""), std::string("fail")); // sm_89 is older than compute_90
        QVERIFY_THROWS_EXCEPTION(BundleError, gpuProfile("no-such-gpu"));
    }

    // The studio's Bundle view of a bundle folder (File → Open Job Folder): the export result's
    // shape read from the folder, with the key, the cold start and the preflight; another profile
    // on request; a folder that is not a bundle refused by name.
    void bundleFolderAsExportResult()
    {
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "bundle";
        buildCudaBundle(root, fs::path(tmp.path().toStdString()) / "tree", "scale_sm90.cubin", "// plain", 1ull << 30);
        QString error;
        const QString folder = QString::fromStdString(root.string());
        const auto r = AotStudio::Client::ExportResult::fromJson(
            AotStudio::Client::ExportResult::readBundleFolder(folder, QString(), &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(r.bundle, folder);
        QCOMPARE(r.model, QStringLiteral("sample:fake"));
        QCOMPARE(r.buckets.size(), 1);
        QCOMPARE(r.buckets[0].batch, 1);
        QCOMPARE(r.compat.sass, QList<int>{90});
        QCOMPARE(r.compat.device, QStringLiteral("cuda"));
        QCOMPARE(r.preflight.profile, QStringLiteral("rtx-pro-6000-half"));
        QCOMPARE(r.preflight.verdict, QStringLiteral("refused")); // sm_90 SASS, no PTX: not on sm_120
        QVERIFY(r.raw.value(QLatin1String("cold_start")).isObject());
        const auto h200 = AotStudio::Client::ExportResult::preflightFolder(folder, QStringLiteral("h200"), &error);
        QCOMPARE(h200.profile, QStringLiteral("h200"));
        QCOMPARE(h200.verdict, QStringLiteral("ok"));
        QVERIFY(
            !AotStudio::Client::ExportResult::preflightFolder(folder, QStringLiteral("no-such-gpu"), &error).isValid());
        QVERIFY2(error.contains(QLatin1String("no-such-gpu")), qPrintable(error));
        error.clear();
        QVERIFY(AotStudio::Client::ExportResult::readBundleFolder(tmp.path(), QString(), &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("manifest.json")), qPrintable(error));
        QCOMPARE(AotStudio::Client::ExportResult::gpuProfileNames().first(), QStringLiteral("rtx-pro-6000-half"));
    }

    void manifestCarriesTheKey()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        writeFile(dir / "packages" / "batch1.pt2", "x");
        ManifestDraft draft;
        draft.model = "sample:mlp";
        draft.torchVersion = "2.14.1+cu130";
        draft.inputs = json::array({json{{"shape", {1, 4}}, {"dtype", "float32"}}});
        draft.outputs = draft.inputs;
        draft.buckets = json::array({json{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}}});
        PackageTarget t;
        t.deviceKey = "cpu";
        t.machine = "x86_64";
        t.cpuFeatures = {"an_instruction_no_cpu_has"};
        draft.compat = makeCompat({{"torch", "2.14.1+cu130"}}, {t}, draft.buckets, "cpu", "none");
        json m = newManifest(draft);
        QCOMPARE(m.value("format_version", 0), 3);
        writeManifest(dir, m);
        const Manifest parsed = loadManifest(dir);
        const auto why = checkCompatible(parsed, host("2.14.1", "", kZen3Flags));
        QCOMPARE(why.size(), std::size_t(1));
        QVERIFY2(why[0].find("an_instruction_no_cpu_has") != std::string::npos, why[0].c_str());

        // A malformed key is refused by name.
        m["compat"]["cpu_features"] = "avx2";
        m["files"] = json::object();
        QVERIFY_THROWS_EXCEPTION(BundleError, parseManifest(m, "m"));
        try {
            parseManifest(m, "m");
        } catch (const BundleError &e) {
            QVERIFY2(std::string(e.what()).find("compat.cpu_features") != std::string::npos, e.what());
        }
        m["compat"] = json::object({{"cuda_archs", {{"sass", {"sm_90"}}}}});
        QVERIFY_THROWS_EXCEPTION(BundleError, parseManifest(m, "m"));
    }
};

QTEST_GUILESS_MAIN(TestCompat)
#include "tst_compat.moc"
