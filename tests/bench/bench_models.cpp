// SPDX-License-Identifier: GPL-3.0-or-later
// bench_models (issue "Models as users bring them"): for models with repeated blocks, compile time
// whole against regional (one package per block class, reused by every instance) and the latency
// of eager, the regional model and the whole package, paired in one process (`compile --regional
// --compare-whole`). Target: regional compile time at most 1/3 of whole for 8 or more identical
// blocks. Prints "name: value unit" lines.
//
// Usage: bench_models [SPEC ...]   (default: the 8-block transformer stack of shared case C33 when
// present, else tests/fixtures/repeated_blocks_factory.py:make)
//        bench_models --corpus [NAME ...]   the corpus of tests/python/corpus_models.py (BERT, GPT-2,
//        Llama, T5 encoder, ViT, timm ResNet-50, diffusers UNet; tiny configs, random weights, no
//        network): per model export and compile time, verify error, speedup over eager with its
//        interval, the recipe `auto` chose and the machine's verdict; for its transformers also
//        whole against regional.
//        bench_models --recipes [SPEC ...]   (issue 38 "Fastest by default"; default the samples mlp,
//        convnet, transformer, resnet18; `--recipes --corpus [NAME ...]` the corpus): per model the
//        recipe `compile` chooses (`--recipe auto`) and its package against eager and torch.compile
//        with their paired 95% intervals, from one `tune --trials defaults,freezing` (eager,
//        torch.compile and both recipes timed together in one process) plus one `compile` whose
//        package comes from the compile cache (the tune compiled the same options). Target: the
//        chosen recipe >= 1.0x the better of eager and torch.compile on every model.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "benchutil.h"

using AotStudio::Bench::modelsFrom;
using AotStudio::Bench::num;
using AotStudio::Bench::run;
using AotStudio::Bench::slug;

namespace {

/// "1.234 [1.100, 1.300]" of a ratio object {estimate, low, high}; a missing bound prints as nan.
std::string interval(const nlohmann::json &r)
{
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.3f [%.3f, %.3f]", num(r, "/estimate"_json_pointer), num(r, "/low"_json_pointer),
                  num(r, "/high"_json_pointer));
    return buf;
}

/// `compile --model SPEC --json` of one corpus model, whole; its row printed.
void corpusRow(const std::string &name, const std::string &spec, const std::filesystem::path &out)
{
    const std::string log = (out.parent_path() / (name + ".log")).string();
    const auto j = AotStudio::Bench::cliJson(
        "compile --model '" + spec + "' --out '" + out.string() + "' --no-snapshots --max-seconds 2", log);
    if (j.is_discarded() || !j.contains("package")) {
        std::printf("%s.status: failed (%s; log %s)\n", name.c_str(),
                    j.is_object() ? j.value("/error/message"_json_pointer, std::string("no result")).c_str()
                                  : "no JSON",
                    log.c_str());
        return;
    }
    std::printf("%s.export: %.2f s\n", name.c_str(), j.value("export_seconds", 0.0));
    std::printf("%s.compile: %.2f s\n", name.c_str(), j.value("compile_seconds", 0.0));
    std::printf("%s.max_abs_error: %.3g (tolerance %.3g)\n", name.c_str(), num(j, "/max_abs_error"_json_pointer),
                num(j, "/tolerance"_json_pointer));
    std::printf("%s.eager_median: %.4f ms\n", name.c_str(), num(j, "/eager_ms"_json_pointer));
    std::printf("%s.compiled_median: %.4f ms\n", name.c_str(), num(j, "/compiled_ms"_json_pointer));
    std::printf("%s.speedup: %s x (95%%)\n", name.c_str(),
                interval(j.value("speedup_interval", nlohmann::json::object())).c_str());
    std::printf("%s.recipe: %s (chosen by %s)\n", name.c_str(),
                j.value("/recipe/name"_json_pointer, std::string("?")).c_str(),
                j.value("/recipe/chosen_by"_json_pointer, std::string("?")).c_str());
    std::printf("%s.verdict: %s\n", name.c_str(),
                j.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
}

/// The recipe `compile` chooses for `spec` against eager and torch.compile (see the file comment);
/// its rows printed. `out` is a work folder.
void recipeRows(const std::string &name, const std::string &spec, const std::filesystem::path &out)
{
    std::filesystem::create_directories(out);
    const std::string tuneLog = (out.parent_path() / (name + ".tune.log")).string();
    const auto t = AotStudio::Bench::cliJson("tune --model '" + spec + "' --out '" + (out / "tune").string()
                                                 + "' --trials defaults,freezing --max-seconds 3",
                                             tuneLog);
    const std::string compileLog = (out.parent_path() / (name + ".compile.log")).string();
    const auto c = AotStudio::Bench::cliJson("compile --model '" + spec + "' --out '" + (out / "compile").string()
                                                 + "' --no-snapshots --runs 3 --min-runs 1 --max-seconds 0.2",
                                             compileLog);
    if (!t.is_object() || !t.contains("rows") || !c.is_object() || !c.contains("recipe")) {
        std::printf("%s.status: failed (logs %s, %s)\n", name.c_str(), tuneLog.c_str(), compileLog.c_str());
        return;
    }
    const std::string chosen = c.value("/recipe/name"_json_pointer, std::string("?"));
    std::printf("%s.recipe: %s (chosen by %s: %s)\n", name.c_str(), chosen.c_str(),
                c.value("/recipe/chosen_by"_json_pointer, std::string("?")).c_str(),
                c.value("/recipe/reason"_json_pointer, std::string()).c_str());
    for (const auto &b : t.value("baselines", nlohmann::json::array()))
        std::printf("%s.%s_median: %.4f ms\n", name.c_str(), b.value("name", "").c_str(),
                    num(b, "/median_ms"_json_pointer));
    for (const auto &row : t.value("rows", nlohmann::json::array())) {
        const std::string trial = row.value("name", "");
        const char *mark = trial == chosen ? " (chosen)" : "";
        std::printf("%s.%s_median: %.4f ms%s\n", name.c_str(), trial.c_str(), num(row, "/median_ms"_json_pointer),
                    mark);
        std::printf("%s.%s_vs_eager: %s x (95%%)%s\n", name.c_str(), trial.c_str(),
                    interval(row.value("speedup_vs_eager_interval", nlohmann::json::object())).c_str(), mark);
        std::printf("%s.%s_vs_torch_compile: %s x (95%%)%s\n", name.c_str(), trial.c_str(),
                    interval(row.value("speedup_vs_torch_compile_interval", nlohmann::json::object())).c_str(), mark);
    }
    std::printf("%s.verdict: %s\n", name.c_str(),
                t.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
}

/// Regional against whole of `model` (compile --regional --compare-whole into `out`); its rows printed.
void regionalRows(const std::string &name, const std::string &model, const std::filesystem::path &out)
{
    namespace fs = std::filesystem;
    fs::create_directories(out);
    const std::string text
        = run(std::string(AOTSTUDIO_CLI_PATH) + " compile --model '" + model + "' --regional --compare-whole --out "
              + out.string() + " --json --max-seconds 3 2>/dev/null");
    const auto j = AotStudio::Bench::result(nlohmann::json::parse(text, nullptr, false));
    if (j.is_discarded() || !j.contains("regional")) {
        std::fprintf(stderr, "bench_models: %s failed\n", model.c_str());
        return;
    }
    const auto &g = j["regional"];
    const auto &w = j["whole"];
    std::size_t instances = 0;
    for (const auto &b : g.value("blocks", nlohmann::json::array()))
        instances += b.value("instances", nlohmann::json::array()).size();
    std::printf("%s.block_instances: %zu\n", name.c_str(), instances);
    std::printf("%s.compile_whole: %.2f s\n", name.c_str(), w.value("compile_seconds", 0.0));
    std::printf("%s.compile_regional: %.2f s\n", name.c_str(), g.value("compile_seconds", 0.0));
    std::printf(
        "%s.compile_ratio_regional_over_whole: %.3f (one compile each, no spread; target <= 0.333 for >= 8 blocks)\n",
        name.c_str(), num(g, "/compile_time_ratio"_json_pointer));
    std::printf("%s.eager_median: %.4f ms\n", name.c_str(), j.value("eager_ms", 0.0));
    std::printf("%s.regional_median: %.4f ms\n", name.c_str(), j.value("compiled_ms", 0.0));
    std::printf("%s.whole_median: %.4f ms\n", name.c_str(), w.value("median_ms", 0.0));
    std::printf("%s.regional_speedup_vs_eager: %s x (95%%)\n", name.c_str(),
                interval(j.value("speedup_interval", nlohmann::json::object())).c_str());
    std::printf("%s.whole_over_regional: %s x (95%%; > 1: regional faster)\n", name.c_str(),
                interval(w.value("regional_speedup_vs_whole", nlohmann::json::object())).c_str());
    std::printf("%s.verdict: %s\n", name.c_str(),
                j.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
}

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    const bool recipes = argc > 1 && std::string(argv[1]) == "--recipes";
    if (recipes) { // drop the flag: what follows is read as the other modes read it
        --argc;
        ++argv;
        if (argc == 1) {
            const fs::path work = fs::temp_directory_path() / ("aotstudio-bench-recipes-" + std::to_string(::getpid()));
            for (const char *spec : {"sample:mlp", "sample:convnet", "sample:transformer", "sample:resnet18"})
                recipeRows(slug(spec), spec, work / slug(spec));
            std::error_code ec;
            fs::remove_all(work, ec);
            return 0;
        }
    }
    if (argc > 1 && std::string(argv[1]) == "--corpus") {
        const fs::path work = fs::temp_directory_path() / ("aotstudio-bench-corpus-" + std::to_string(::getpid()));
        fs::create_directories(work);
        const std::string text = run(std::string("'" AOTSTUDIO_PYTHON_EXECUTABLE "' '" AOTSTUDIO_SOURCE_DIR
                                                 "/tests/python/corpus_models.py' --write-specs '")
                                     + (work / "configs").string() + "' 2>'" + (work / "specs.log").string() + "'");
        const auto specs = nlohmann::json::parse(AotStudio::Bench::lastLine(text), nullptr, false);
        if (!specs.is_object()) {
            std::fprintf(stderr, "bench_models: corpus_models.py --write-specs failed; see %s\n",
                         (work / "specs.log").c_str());
            return 1;
        }
        std::vector<std::string> names(argv + 2, argv + argc);
        if (names.empty())
            for (const auto &[k, v] : specs.items())
                if (v.is_string())
                    names.push_back(k);
        const auto transformers = specs.value("transformers", nlohmann::json::array());
        for (const auto &name : names) {
            if (!specs.contains(name) || !specs[name].is_string()) {
                std::fprintf(stderr, "bench_models: no corpus model '%s'\n", name.c_str());
                continue;
            }
            const std::string spec = specs[name].get<std::string>();
            if (recipes) {
                recipeRows(name, spec, work / name);
                continue;
            }
            corpusRow(name, spec, work / name);
            if (std::find(transformers.begin(), transformers.end(), name) != transformers.end())
                regionalRows(name, spec, work / (name + "-regional"));
        }
        std::error_code ec;
        fs::remove_all(work, ec);
        return 0;
    }
    const fs::path c33 = fs::path(AOTSTUDIO_SOURCE_DIR) / ".." / "shared" / "cases" / "c33_repeated_blocks.py";
    const std::vector<std::string> models =
        modelsFrom(argc, argv, {fs::exists(c33) ? c33.lexically_normal().string() + ":make"
                                                : std::string(AOTSTUDIO_SOURCE_DIR "/tests/fixtures/repeated_blocks_factory.py:make")});
    const fs::path work = fs::temp_directory_path() / ("aotstudio-bench-models-" + std::to_string(::getpid()));
    for (const auto &model : models) {
        if (recipes)
            recipeRows(slug(model), model, work / slug(model));
        else
            regionalRows(slug(model), model, work / slug(model));
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    return 0;
}
