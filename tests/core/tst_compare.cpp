// SPDX-License-Identifier: GPL-3.0-or-later
// core/compare: job folders read from disk, the kernel diff, the time diff and its verdict, and the
// refusals (not a job, different models, a stage they do not share). Jobs are written here as
// small JSON files, plus the recorded session under tests/fixtures/sessions/full.
#include "compare/compare.h"
#include "compare/jobfolder.h"
#include "compare/textdiff.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

using namespace AotStudio::Compare;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kSession = fs::path(AOTSTUDIO_FIXTURES_DIR) / "sessions" / "full";

void write(const fs::path &path, const json &j)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path) << j.dump();
}

json kernel(
    const std::string &name, const std::string &kind, std::vector<std::string> nodes, const std::string &source = "")
{
    return { { "id", name + ":1" }, { "name", name }, { "kind", kind }, { "post_grad_nodes", nodes },
        { "pre_grad_nodes", json::array() }, { "source", source } };
}

json kernelsFile(json list)
{
    return { { "schema", "aotstudio.kernels" }, { "version", 1 }, { "device", "cpu" }, { "kernels", list } };
}

const std::string kReluSource
    = "extern \"C\" void cpp_fused_relu_0(float* p)\n{\n    record_graph_0_cpp_fused_relu_0_;\n"
      "    for (int i = 0; i < 16; ++i)\n        p[i] = p[i] > 0 ? p[i] : 0;\n}";

/// A post-grad snapshot (SCHEMA.md) of call_function nodes, each in module `module`.
json snapshot(const std::string &stage, const std::vector<std::tuple<std::string, std::string, std::string>> &nodes)
{
    json list = json::array();
    int i = 0;
    for (const auto &[id, target, module] : nodes)
        list.push_back({ { "id", id }, { "index", i++ }, { "op", "call_function" }, { "target", target },
            { "category", "pointwise" }, { "inputs", json::array() }, { "outputs", json::array() },
            { "module", module }, { "module_stack", json::array() } });
    return { { "schema", "aotstudio.graph" }, { "version", 1 }, { "stage", stage }, { "pass", "" }, { "graph", "" },
        { "node_count", list.size() }, { "nodes", list } };
}

json ratio(double e, double lo, double hi)
{
    return { { "estimate", e }, { "low", lo }, { "high", hi }, { "level", 0.95 }, { "blocks", 24 } };
}

json stats(double median, double p10, double p90)
{
    return { { "median_ms", median }, { "p10_ms", p10 }, { "p90_ms", p90 }, { "runs", 100 } };
}

/// A compile folder: result.json naming `snapshots`, kernels.json, model.pt2 of `bytes` bytes.
void writeCompile(const fs::path &dir, const std::string &model, bool freezing, const json &kernels,
    const std::vector<std::pair<std::string, json>> &snapshots, std::size_t bytes = 100)
{
    json stages = json::array();
    int i = 0;
    for (const auto &[stage, snap] : snapshots) {
        const std::string file = "00" + std::to_string(++i) + "_" + stage + ".json";
        write(dir / "snapshots" / file, snap);
        // Recorded under another folder: the job was moved, the file is found by its name.
        stages.push_back(
            { { "name", stage }, { "pass", "" }, { "nodes", 1 }, { "snapshot", "/elsewhere/snapshots/" + file } });
    }
    stages.push_back({ { "name", "codegen" }, { "pass", "" }, { "snapshot", "/elsewhere/kernels.json" } });
    write(dir / "kernels.json", kernels);
    std::ofstream(dir / "model.pt2") << std::string(bytes, 'x');
    write(dir / "result.json",
        { { "model", model }, { "device", "cpu" }, { "dtype", "fp32" }, { "torch_version", "2.14.1+cpu" },
            { "package_bytes", bytes }, { "stages", stages },
            { "options",
                { { "device", "cpu" }, { "dtype", "fp32" }, { "freezing", freezing }, { "max_autotune", false } } },
            { "eager", stats(1.0, 0.95, 1.05) }, { "compiled", stats(0.5, 0.48, 0.52) },
            { "speedup_interval", ratio(2.0, 1.9, 2.1) }, { "measurement", { { "verdict", "ok" } } } });
}

/// profile.json with the package's kernels: {name, total_ms, covered nodes}, over `calls` sampled calls.
void writeProfile(const fs::path &dir, const std::string &model,
    const std::vector<std::tuple<std::string, double, std::vector<std::string>>> &kernels, int calls,
    const json &speedup, double compiledMedian)
{
    json list = json::array();
    for (const auto &[name, total, nodes] : kernels)
        list.push_back({ { "variant", "aoti" }, { "name", "graph_0_" + name }, { "kind", "cpp" }, { "calls", calls },
            { "total_ms", total }, { "mean_ms", total / calls }, { "share", 0.1 }, { "covered_nodes", nodes } });
    // An eager op of the same name must not count as a package kernel.
    list.push_back({ { "variant", "eager" }, { "name", "cpp_fused_relu_0" }, { "kind", "cuda" }, { "calls", calls },
        { "total_ms", 99.0 } });
    write(dir / "profile.json",
        { { "format", "aotstudio.profile" }, { "format_version", 1 }, { "model", model }, { "device", "cpu" },
            { "created", "2026-12-01T10:00:00Z" },
            { "collector",
                { { "name", "record_function" }, { "available", true },
                    { "sampled_calls", { { "aoti", { { "sampled", calls + 2 }, { "dropped", 2 } } } } } } },
            { "variants",
                json::array({ json { { "name", "eager" }, { "available", true },
                                  { "statistics", stats(1.0, 0.95, 1.05) } },
                    json { { "name", "aoti" }, { "available", true },
                        { "statistics", stats(compiledMedian, compiledMedian * 0.95, compiledMedian * 1.05) } } }) },
            { "speedup_interval", { { "aoti", speedup } } }, { "measurement", { { "verdict", "ok" } } },
            { "threads", 2 }, { "kernels", list } });
}

bool contains(const std::string &haystack, const std::string &needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unifiedDiffOfLines();
    void kernelDiff();
    void renamedKernelIsPairedNotListedTwice();
    void ratioThroughEagerCombinesIntervals();
    void notAJobFolder();
    void quantizeTopFolderNamesItsSchemes();
    void failedCompileQuotesItsError();
    void differentModelsAreRefused();
    void compileFoldersSideBySide();
    void unknownStageIsRefused();
    void bothProfiled();
    void oneSideNotProfiled();
    void recordedSession();
    void bundleAgainstCompile();
    void jsonShape();
    void memoryPlans();
    void fusionCounts();
};

void TestCompare::unifiedDiffOfLines()
{
    QVERIFY(unifiedDiff("a\nb\nc\n", "a\nb\nc\n", "A", "B").empty());
    const std::string d = unifiedDiff("one\ntwo\nthree\nfour\n", "one\n2\nthree\nfour\nfive\n", "A/k", "B/k");
    QVERIFY2(d.rfind("--- A/k\n+++ B/k\n@@ -1,4 +1,5 @@\n", 0) == 0, d.c_str());
    QVERIFY2(contains(d, "\n-two\n") && contains(d, "\n+2\n") && contains(d, "\n+five\n") && contains(d, "\n three\n"),
        d.c_str());
    QVERIFY2(!contains(d, "-one"), d.c_str());
}

void TestCompare::kernelDiff()
{
    const std::string reluB = kReluSource.substr(0, kReluSource.find("for")) + "#pragma omp simd\n    "
        + kReluSource.substr(kReluSource.find("for"));
    const json a = kernelsFile({ kernel("cpp_fused_relu_0", "cpp", { "relu" }, kReluSource),
        kernel("cpp_fused__native_batch_norm_legit_no_training_1", "cpp", { "bn" }, "void bn() {}"),
        kernel("aoti_torch_cpu_convolution_out", "library", { "convolution" }),
        kernel("aoti_torch_cpu_convolution_out", "library", { "convolution_1" }),
        kernel("aoti_torch_cpu_addmm_out", "library", { "addmm" }) });
    const json b = kernelsFile({ kernel("cpp_fused_relu_0", "cpp", { "relu" }, reluB),
        kernel("aoti_torch_cpu_convolution_out", "library", { "convolution" }),
        kernel("aoti_torch_cpu_addmm_out", "library", { "addmm" }),
        kernel("aoti_torch_cpu__mkldnn_convolution_out", "library", { "convolution_1" }) });
    const KernelDiff d = diffKernels(a, b, "A", "B");
    QVERIFY(d.compared);
    QCOMPARE(d.countA, std::size_t(4));
    QCOMPARE(d.countB, std::size_t(4));
    QCOMPARE(d.onlyA.size(), std::size_t(1));
    QCOMPARE(d.onlyA[0].name, std::string("cpp_fused__native_batch_norm_legit_no_training_1"));
    QCOMPARE(d.onlyB.size(), std::size_t(1));
    QCOMPARE(d.onlyB[0].name, std::string("aoti_torch_cpu__mkldnn_convolution_out"));
    QCOMPARE(d.unchanged, std::vector<std::string> { "aoti_torch_cpu_addmm_out" });
    QCOMPARE(d.changed.size(), std::size_t(2));
    const auto conv = std::find_if(d.changed.begin(), d.changed.end(),
        [](const KernelChange &c) { return c.nameA == "aoti_torch_cpu_convolution_out"; });
    QVERIFY(conv != d.changed.end());
    QVERIFY(!conv->sourceChanged);
    QCOMPARE(conv->nodesOnlyA, std::vector<std::string> { "convolution_1" });
    QVERIFY(conv->nodesOnlyB.empty());
    QCOMPARE(conv->instancesA, 2);
    QCOMPARE(conv->instancesB, 1);
    const auto relu = std::find_if(
        d.changed.begin(), d.changed.end(), [](const KernelChange &c) { return c.nameA == "cpp_fused_relu_0"; });
    QVERIFY(relu != d.changed.end());
    QVERIFY(relu->sourceChanged);
    QVERIFY2(contains(relu->sourceDiff, "--- A/cpp_fused_relu_0\n+++ B/cpp_fused_relu_0\n"), relu->sourceDiff.c_str());
    QVERIFY2(contains(relu->sourceDiff, "\n+    #pragma omp simd\n"), relu->sourceDiff.c_str());

    // No kernels.json on a side: not compared, and said why (compareJobs); equal files: nothing changed.
    const KernelDiff same = diffKernels(a, a);
    QVERIFY(same.onlyA.empty() && same.onlyB.empty() && same.changed.empty());
    QCOMPARE(same.unchanged.size(), std::size_t(4));
}

void TestCompare::renamedKernelIsPairedNotListedTwice()
{
    // Inductor numbers kernels by position: one kernel fewer before it renumbers the rest.
    std::string renamed = kReluSource;
    for (std::size_t p; (p = renamed.find("relu_0")) != std::string::npos;)
        renamed.replace(p, 6, "relu_1");
    renamed.replace(renamed.find("graph_0_"), 8, "graph_1_");
    const json a = kernelsFile({ kernel("cpp_fused_relu_0", "cpp", { "relu" }, kReluSource),
        kernel("cpp_fused_add_1", "cpp", { "add" }, "x") });
    const json b = kernelsFile(
        { kernel("cpp_fused_relu_1", "cpp", { "relu" }, renamed), kernel("cpp_fused_add_0", "cpp", { "add" }, "y") });
    const KernelDiff d = diffKernels(a, b);
    QCOMPARE(d.changed.size(), std::size_t(1));
    QVERIFY(d.changed[0].renamed());
    QCOMPARE(d.changed[0].nameB, std::string("cpp_fused_relu_1"));
    QVERIFY(!d.changed[0].sourceChanged);
    QVERIFY(d.changed[0].sourceDiff.empty());
    // Different code under new names stays "only in A" and "only in B".
    QCOMPARE(d.onlyA.size(), std::size_t(1));
    QCOMPARE(d.onlyA[0].name, std::string("cpp_fused_add_1"));
    QCOMPARE(d.onlyB.size(), std::size_t(1));
}

void TestCompare::ratioThroughEagerCombinesIntervals()
{
    const Estimate r = ratioThroughEager({ 2.0, 1.9, 2.1 }, { 1.0, 0.95, 1.05 });
    QCOMPARE(r.estimate, 2.0);
    QVERIFY(r.hasInterval());
    QVERIFY(*r.low < 1.9 && *r.high > 2.1); // wider than either run's own interval
    // Half-widths add in quadrature in log space: ln(2/1.9) and ln(1.05) on the low side.
    QVERIFY(std::abs(std::log(2.0 / *r.low) - std::hypot(std::log(2.0 / 1.9), std::log(1.05))) < 1e-12);
    const Estimate none = ratioThroughEager({ 2.0, std::nullopt, std::nullopt }, { 1.0, 0.95, 1.05 });
    QCOMPARE(none.estimate, 2.0);
    QVERIFY(!none.hasInterval());
}

void TestCompare::notAJobFolder()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    std::ofstream(dir / "notes.txt") << "hello";
    try {
        loadJobFolder(dir);
        QFAIL("an empty folder was read as a job");
    } catch (const CompareError &e) {
        const std::string m = e.what();
        QVERIFY2(contains(m, dir.string()) && contains(m, "result.json") && contains(m, "manifest.json"), m.c_str());
    }
    try {
        loadJobFolder(dir / "nope");
        QFAIL("a missing folder was read");
    } catch (const CompareError &e) {
        QVERIFY2(contains(e.what(), "does not exist"), e.what());
    }
    try {
        loadJobFolder(dir / "notes.txt");
        QFAIL("a file was read as a job folder");
    } catch (const CompareError &e) {
        QVERIFY2(contains(e.what(), "is a file"), e.what());
    }
    write(dir / "bad" / "result.json", json::array({ 1, 2 }));
    QVERIFY_THROWS_EXCEPTION(CompareError, loadJobFolder(dir / "bad"));
    fs::create_directories(dir / "cut");
    std::ofstream(dir / "cut" / "result.json") << "{\"model\": ";
    try {
        loadJobFolder(dir / "cut");
        QFAIL("a cut result.json was read");
    } catch (const CompareError &e) {
        QVERIFY2(contains(e.what(), "not valid JSON"), e.what());
    }
}

void TestCompare::quantizeTopFolderNamesItsSchemes()
{
    try {
        loadJobFolder(kSession / "quantize-3");
        QFAIL("a quantize output's top folder was read as one job");
    } catch (const CompareError &e) {
        QVERIFY2(
            contains(e.what(), "scheme") && contains(e.what(), (kSession / "quantize-3" / "int8-dynamic").string()),
            e.what());
    }
    const JobFolder j = loadJobFolder(kSession / "quantize-3" / "int8-dynamic");
    QCOMPARE(j.kind, JobKind::QuantizeScheme);
    QCOMPARE(j.scheme, std::string("int8-dynamic"));
    QCOMPARE(j.model, std::string("sample:mlp"));
    QVERIFY(!j.kernelsFile.empty());
}

void TestCompare::failedCompileQuotesItsError()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    write(dir / "error.json",
        { { "type", "error" }, { "stage", "compile" }, { "code", "compile_failed" }, { "message", "g++ said no" } });
    try {
        loadJobFolder(dir);
        QFAIL("a failed compile was read as a job");
    } catch (const CompareError &e) {
        QVERIFY2(contains(e.what(), "g++ said no") && contains(e.what(), "compile_failed"), e.what());
    }
}

void TestCompare::differentModelsAreRefused()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeCompile(dir / "a", "sample:convnet", false, kernelsFile(json::array()), {});
    writeCompile(dir / "b", "sample:mlp", false, kernelsFile(json::array()), {});
    try {
        compareFolders(dir / "a", dir / "b");
        QFAIL("two models were compared");
    } catch (const CompareError &e) {
        QVERIFY2(contains(e.what(), "sample:convnet") && contains(e.what(), "sample:mlp"), e.what());
    }
}

void TestCompare::compileFoldersSideBySide()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const json capture = snapshot(
        "capture", { { "conv", "aten.conv2d.default", "conv1" }, { "bn", "aten.batch_norm.default", "bn1" } });
    writeCompile(dir / "a", "sample:convnet", false, kernelsFile({ kernel("k", "cpp", { "bn" }, "a") }),
        { { "capture", capture },
            { "post_grad",
                snapshot("post_grad",
                    { { "convolution", "aten.convolution.default", "conv1" },
                        { "bn", "aten._native_batch_norm_legit_no_training.default", "bn1" } }) } },
        1000);
    writeCompile(dir / "b", "sample:convnet", true, kernelsFile({ kernel("k", "cpp", { "bn" }, "a") }),
        { { "capture", capture },
            { "post_grad", snapshot("post_grad", { { "convolution", "aten.convolution.default", "conv1" } }) } },
        800);
    const Comparison c = compareFolders(dir / "a", dir / "b");
    const auto field = [&](const std::string &name) {
        const auto it
            = std::find_if(c.fields.begin(), c.fields.end(), [&](const FieldRow &f) { return f.field == name; });
        return it == c.fields.end() ? FieldRow {} : *it;
    };
    QCOMPARE(field("option freezing").a, std::string("false"));
    QCOMPARE(field("option freezing").b, std::string("true"));
    QVERIFY(field("option freezing").differs());
    QVERIFY(!field("option max_autotune").differs());
    QCOMPARE(field("package bytes").a, std::string("1000"));
    QCOMPARE(field("package bytes").b, std::string("800"));
    QCOMPARE(field("torchao").a, std::string()); // not recorded by these results
    QCOMPARE(c.stages.size(), std::size_t(2));
    QCOMPARE(c.stages[0].stage, std::string("capture"));
    QVERIFY(c.stages[0].diff.empty());
    QCOMPARE(c.stages[1].stage, std::string("post_grad"));
    QCOMPARE(c.stages[1].removed.size(), std::size_t(1));
    QCOMPARE(c.stages[1].removed[0].target, std::string("aten._native_batch_norm_legit_no_training.default"));
    QCOMPARE(c.stages[1].targets.size(), std::size_t(1));
    QCOMPARE(c.stages[1].targets[0].a, 1);
    QCOMPARE(c.stages[1].targets[0].b, 0);
    // Time from each compile's measure stage: a ratio with its interval, and no kernel times.
    QCOMPARE(c.time.a.source, std::string("compile"));
    QVERIFY(!c.time.a.profiled);
    QVERIFY(c.time.latencyRatio && c.time.latencyRatio->hasInterval());
    QCOMPARE(c.time.latencyRatio->estimate, 1.0);
    QVERIFY(c.time.kernels.empty());
    QVERIFY(!c.time.paired);
    bool notProfiled = false;
    for (const auto &v : c.time.verdict)
        notProfiled |= contains(v, "not profiled");
    QVERIFY(notProfiled);

    // Only one stage, node by node.
    const Comparison one = compareFolders(dir / "a", dir / "b", { "post_grad" });
    QCOMPARE(one.stages.size(), std::size_t(1));
    QCOMPARE(one.stages[0].stage, std::string("post_grad"));
}

void TestCompare::unknownStageIsRefused()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const json capture = snapshot("capture", { { "x", "aten.relu.default", "" } });
    writeCompile(dir / "a", "m", false, kernelsFile(json::array()), { { "capture", capture } });
    writeCompile(dir / "b", "m", false, kernelsFile(json::array()), { { "capture", capture } });
    try {
        compareFolders(dir / "a", dir / "b", { "post_grad" });
        QFAIL("a stage neither job has was compared");
    } catch (const CompareError &e) {
        QVERIFY2(contains(e.what(), "post_grad") && contains(e.what(), "they share: capture"), e.what());
    }
}

void TestCompare::bothProfiled()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const json post = snapshot("post_grad",
        { { "convolution", "aten.convolution.default", "conv1" }, { "relu", "aten.relu.default", "block.relu" },
            { "addmm", "aten.addmm.default", "fc" } });
    const json k = kernelsFile(json::array());
    writeCompile(dir / "a", "m", false, k, { { "post_grad", post } });
    writeCompile(dir / "b", "m", true, k, { { "post_grad", post } });
    // Per forward call: A conv 0.30 + relu 0.10 + fc 0.05; B conv 0.10 (+relu fused) + fc 0.05.
    writeProfile(dir / "a", "m",
        { { "conv", 30.0, { "convolution" } }, { "cpp_fused_relu_0", 10.0, { "relu" } }, { "fc", 5.0, { "addmm" } } },
        100, ratio(2.0, 1.9, 2.1), 0.5);
    writeProfile(dir / "b", "m", { { "conv", 10.0, { "convolution", "relu" } }, { "fc", 5.0, { "addmm" } } }, 100,
        ratio(3.0, 2.8, 3.2), 0.33);
    const Comparison c = compareFolders(dir / "a", dir / "b");
    QVERIFY(c.time.a.profiled && c.time.b.profiled);
    QCOMPARE(c.time.kernels.size(), std::size_t(3));
    QCOMPARE(c.time.kernels[0].name, std::string("conv")); // largest |B - A| first; graph_0_ prefix dropped
    QVERIFY(std::abs(*c.time.kernels[0].msA - 0.30) < 1e-12); // 30 ms over 100 kept calls (102 sampled, 2 dropped)
    QVERIFY(std::abs(c.time.kernels[0].delta() + 0.20) < 1e-12);
    QCOMPARE(c.time.kernels[1].name, std::string("cpp_fused_relu_0"));
    QCOMPARE(*c.time.kernels[1].msB, 0.0); // profiled, not in B
    QCOMPARE(c.time.kernels[2].delta(), 0.0);
    // Groups: B's conv kernel covers a conv1 node and a block node: its 0.10 ms is split in half.
    const auto group = [&](const std::string &g) {
        return *std::find_if(
            c.time.groups.begin(), c.time.groups.end(), [&](const GroupTime &x) { return x.group == g; });
    };
    QVERIFY(std::abs(*group("conv1").msA - 0.30) < 1e-12);
    QVERIFY(std::abs(*group("conv1").msB - 0.05) < 1e-12);
    QVERIFY(std::abs(*group("block").msB - 0.05) < 1e-12);
    QVERIFY(std::abs(group("fc").delta()) < 1e-12);
    QCOMPARE(c.time.groups[0].group, std::string("conv1"));
    // B / A = 2 / 3 through eager, with an interval; B is faster and the verdict says so, naming the conv kernel first.
    QVERIFY(c.time.latencyRatio && c.time.latencyRatio->hasInterval());
    QVERIFY(std::abs(c.time.latencyRatio->estimate - 2.0 / 3.0) < 1e-12);
    QVERIFY(*c.time.latencyRatio->high < 1);
    std::string verdict;
    for (const auto &v : c.time.verdict)
        verdict += v + "\n";
    QVERIFY2(contains(verdict, "B is faster"), verdict.c_str());
    QVERIFY2(contains(verdict,
                 "largest contributors (kernel time per forward call, B − A): conv -0.200 ms; cpp_fused_relu_0 -0.100 "
                 "ms (only in A)"),
        verdict.c_str());
    QVERIFY2(contains(verdict, "by module group: conv1 -0.250 ms"), verdict.c_str());
    QVERIFY2(contains(verdict, "from different runs"), verdict.c_str());
    QVERIFY(!c.time.eagerMoved);
}

void TestCompare::oneSideNotProfiled()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const json post = snapshot("post_grad", { { "convolution", "aten.convolution.default", "conv1" } });
    writeCompile(dir / "a", "m", false, kernelsFile(json::array()), { { "post_grad", post } });
    writeCompile(dir / "b", "m", false, kernelsFile(json::array()), { { "post_grad", post } });
    writeProfile(dir / "b", "m", { { "conv", 30.0, { "convolution" } } }, 100, ratio(2.0, 1.9, 2.1), 0.5);
    const Comparison c = compareFolders(dir / "a", dir / "b");
    QVERIFY(!c.time.a.profiled);
    QVERIFY(c.time.b.profiled);
    QCOMPARE(c.time.kernels.size(), std::size_t(1));
    QVERIFY(!c.time.kernels[0].msA); // "not profiled", not 0
    QVERIFY(c.time.kernels[0].msB);
    QVERIFY(!c.time.groups.at(0).msA);
    const json j = toJson(c);
    QVERIFY(j["time"]["kernels"][0]["ms_a"].is_null());
    QVERIFY(j["time"]["kernels"][0]["delta_ms"].is_null());
    bool said = false;
    for (const auto &v : c.time.verdict)
        said |= contains(v, "A not profiled");
    QVERIFY(said);
}

void TestCompare::recordedSession()
{
    // A recorded compile against a recorded profile of the same model (results before intervals).
    const Comparison c = compareFolders(kSession / "compile-1", kSession / "profile-2");
    QCOMPARE(c.a.kind, JobKind::Compile);
    QCOMPARE(c.b.kind, JobKind::Profile);
    QCOMPARE(c.stages.size(), std::size_t(5)); // capture, decompose, pre_grad, joint_graph, post_grad
    QVERIFY(c.kernels.compared);
    QVERIFY(c.time.b.profiled);
    QVERIFY(!c.time.latencyRatio); // neither run recorded a speedup interval: no ratio is given
    QVERIFY(!c.time.kernels.empty());
    // Against itself: every stage the same graph, every kernel unchanged.
    const Comparison same = compareFolders(kSession / "compile-1", kSession / "compile-1");
    for (const auto &s : same.stages)
        QVERIFY2(s.error.empty() && s.diff.empty(), s.stage.c_str());
    QVERIFY(same.kernels.onlyA.empty() && same.kernels.onlyB.empty() && same.kernels.changed.empty());
    QVERIFY(!same.kernels.unchanged.empty());
}

void TestCompare::bundleAgainstCompile()
{
    // A bundle as export lays it out: the first bucket's compile result in report/, its snapshots
    // and kernels.json in graphs/, its package in packages/.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    const json post = snapshot("post_grad", { { "convolution", "aten.convolution.default", "conv1" } });
    const json kernels = kernelsFile({ kernel("cpp_fused_relu_0", "cpp", { "relu" }, kReluSource) });
    writeCompile(dir / "a", "m", false, kernels, { { "post_grad", post } });
    writeCompile(dir / "work", "m", true, kernels, { { "post_grad", post } }, 300);
    const fs::path bundle = dir / "bundle";
    fs::create_directories(bundle / "packages");
    fs::copy(dir / "work" / "snapshots", bundle / "graphs");
    fs::copy_file(dir / "work" / "kernels.json", bundle / "graphs" / "kernels.json");
    fs::copy_file(dir / "work" / "model.pt2", bundle / "packages" / "batch1.pt2");
    json report = readJson(dir / "work" / "result.json");
    report.erase("eager"); // export compiles buckets without timing them
    report.erase("compiled");
    report.erase("speedup_interval");
    write(bundle / "report" / "batch1.json", report);
    write(bundle / "manifest.json",
        { { "format", "aotstudio.bundle" }, { "format_version", 1 }, { "model", "m" }, { "device", "cpu" },
            { "torch_version", "2.14.1+cpu" }, { "quantization", "none" },
            { "buckets",
                json::array({ json { { "name", "batch1" }, { "batch", 1 }, { "package", "packages/batch1.pt2" } },
                    json { { "name", "batch4" }, { "batch", 4 }, { "package", "packages/batch4.pt2" } } }) } });
    const JobFolder j = loadJobFolder(bundle);
    QCOMPARE(j.kind, JobKind::Bundle);
    QCOMPARE(j.bucket, std::string("batch1"));
    QCOMPARE(j.packageBytes.value_or(0), std::uintmax_t(300));
    QCOMPARE(j.stages.size(), std::size_t(1));
    QCOMPARE(j.kernelsFile, bundle / "graphs" / "kernels.json");
    QVERIFY(j.options.value("freezing", false));
    const Comparison c = compareFolders(dir / "a", bundle);
    QCOMPARE(c.stages.size(), std::size_t(1));
    QVERIFY(c.stages[0].diff.empty());
    QCOMPARE(c.kernels.unchanged.size(), std::size_t(1));
    QVERIFY(!c.time.b.compiled); // not timed: no ratio
    QVERIFY(!c.time.latencyRatio);
    bool bucketNote = false;
    for (const auto &n : c.b.notes)
        bucketNote |= contains(n, "2 buckets") && contains(n, "batch1");
    QVERIFY(bucketNote);
}

void TestCompare::jsonShape()
{
    const json j = toJson(compareFolders(kSession / "compile-1", kSession / "profile-2", { "post_grad" }));
    QCOMPARE(j.value("format", ""), std::string("aotstudio.compare"));
    QCOMPARE(j.value("format_version", 0), 1);
    QCOMPARE(j["a"].value("kind", ""), std::string("compile"));
    QCOMPARE(j["b"].value("kind", ""), std::string("profile"));
    QCOMPARE(j["stages"].size(), std::size_t(1));
    for (const char *key : { "only_a", "only_b", "changed", "unchanged", "targets", "empty" })
        QVERIFY2(j["stages"][0].contains(key), key);
    for (const char *key : { "only_a", "only_b", "changed", "unchanged", "count_a", "count_b" })
        QVERIFY2(j["kernels"].contains(key), key);
    QCOMPARE(j["time"].value("pairing", ""), std::string("different_runs"));
    QVERIFY(j["time"]["latency_ratio"].is_null());
    QVERIFY(j["fields"].is_array() && !j["fields"].empty());
}

/// Two memory plans (FORMAT.md "Memory plan"): buffers paired by the nodes they hold (Inductor's
/// buffer names differ between compiles), the rest listed per side largest first, each side's peaks
/// with its measured peak; a side without a plan is not compared and says which.
void TestCompare::memoryPlans()
{
    auto buffer = [](const std::string &name, double bytes, std::vector<std::string> nodes) {
        return json{{"name", name}, {"bytes", bytes}, {"dtype", "float32"}, {"shape", {8, 64}}, {"nodes", nodes}};
    };
    auto plan = [](json buffers, double predicted, double planned) {
        return json{{"format", "aotstudio.memory"},
                    {"available", true},
                    {"complete", true},
                    {"constants_bytes", 1000},
                    {"buffers", std::move(buffers)},
                    {"peak", {{"predicted_bytes", predicted}, {"planned_bytes", planned}}}};
    };
    const json a = plan(
        json::array({buffer("buf0", 2048, {"addmm"}), buffer("buf1", 2048, {"relu"}), buffer("buf2", 4096, {"gelu"})}),
        8192, 6144);
    const json b = plan(json::array({buffer("buf3", 2048, {"relu"}), buffer("buf0", 2048, {"addmm"}),
                                     buffer("buf1", 512, {"sum"}), buffer("buf7", 1024, {"mean"})}),
                        4096, 4096);
    const MemoryDiff d = diffMemory(a, b, 6000.0, std::nullopt);
    QVERIFY(d.compared);
    QCOMPARE(d.paired, std::size_t(2));
    QCOMPARE(d.onlyA.size(), std::size_t(1));
    QCOMPARE(d.onlyA[0]["nodes"][0].get<std::string>(), std::string("gelu"));
    QCOMPARE(d.onlyB.size(), std::size_t(2));
    QCOMPARE(d.onlyB[0]["name"].get<std::string>(), std::string("buf7")); // largest first
    QCOMPARE(d.a["planned_bytes"].get<double>(), 6144.0);
    QCOMPARE(d.a["measured_bytes"].get<double>(), 6000.0);
    QVERIFY(d.b["measured_bytes"].is_null());

    const MemoryDiff missing = diffMemory(a, json{{"format", "aotstudio.memory"}, {"available", false}});
    QVERIFY(!missing.compared);
    QCOMPARE(missing.why, std::string("B has no memory plan"));
}

/// Two compiles' fusion decisions (FORMAT.md "Fusion decisions"): refused pairs counted per reason
/// category side by side (every category either side has, most refusals first), nodes per status
/// in the fixed order; a side without decisions is not compared and says which. Cost: < 1 ms.
void TestCompare::fusionCounts()
{
    auto make = [](json byCategory, json statusCounts, int refused, int fusedKernels, bool complete) {
        json refusedList = json::array();
        for (int i = 0; i < refused; ++i)
            refusedList.push_back({{"node1", "op" + std::to_string(i)}});
        return json{{"format", "aotstudio.fusion"},
                    {"available", true},
                    {"complete", complete},
                    {"fused_kernels", fusedKernels},
                    {"refused", refusedList},
                    {"by_category", std::move(byCategory)},
                    {"status_counts", std::move(statusCounts)}};
    };
    const json a = make({{"backend", 2}, {"intermediate_nodes", 1}},
                        {{"fused", 4}, {"refused", 3}, {"never_candidate", 5}, {"not_chosen", 0}}, 3, 2, true);
    const json b = make({{"memory_deps", 4}, {"backend", 1}},
                        {{"never_candidate", 2}, {"fused", 9}, {"refused", 1}, {"not_chosen", 1}}, 5, 3, false);
    const FusionDiff d = diffFusion(a, b);
    QVERIFY(d.compared);
    QCOMPARE(d.refusedA, 3LL);
    QCOMPARE(d.refusedB, 5LL);
    QCOMPARE(d.fusedKernelsB, 3LL);
    QVERIFY(d.completeA && !d.completeB);
    QCOMPARE(d.categories.size(), std::size_t(3));
    QCOMPARE(d.categories[0].name, std::string("memory_deps")); // 0 + 4: most first
    QCOMPARE(d.categories[0].a, 0LL);
    QCOMPARE(d.categories[1].name, std::string("backend")); // 2 + 1
    QCOMPARE(d.categories[1].b, 1LL);
    QCOMPARE(d.categories[2].name, std::string("intermediate_nodes"));
    QCOMPARE(d.statuses.size(), std::size_t(4));
    QCOMPARE(d.statuses[0].name, std::string("fused"));
    QCOMPARE(d.statuses[0].b, 9LL);
    QCOMPARE(d.statuses[3].name, std::string("never_candidate"));
    QCOMPARE(d.statuses[3].a, 5LL);

    const FusionDiff missing = diffFusion(json{{"available", false}}, b);
    QVERIFY(!missing.compared);
    QCOMPARE(missing.why, std::string("A has no fusion decisions"));
    // A count of the wrong type reads as 0, never throws.
    const FusionDiff odd = diffFusion(make({{"backend", "x"}}, json::object(), 0, 0, true), a);
    QVERIFY(odd.compared);
    QCOMPARE(odd.categories[0].name, std::string("backend"));
    QCOMPARE(odd.categories[0].a, 0LL);
}

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
