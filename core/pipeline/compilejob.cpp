// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/compilejob.h"
#include "pipeline/jobutil.h"

#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <chrono>
#include <cmath>

namespace AotStudio::Pipeline {

using Protocol::Json;

namespace {

/// Stages in order with the fraction of the whole job at which each starts; the compile stage
/// dominates (C++ code generation and g++), so it gets most of the bar.
struct StageSpan {
    const char *name;
    double begin;
    double end;
};
constexpr StageSpan kStages[] = {
    {"load", 0.00, 0.06},         {"export", 0.06, 0.14}, {"decompose", 0.14, 0.20}, {"compile", 0.20, 0.80},
    {"load_package", 0.80, 0.85}, {"verify", 0.85, 0.88}, {"measure", 0.88, 1.00},
};

const StageSpan &span(std::string_view stage)
{
    for (const auto &s : kStages) {
        if (stage == s.name)
            return s;
    }
    return kStages[0];
}

class StageRunner {
public:
    StageRunner(std::int64_t id, const EventFn &emit, std::stop_token stop)
        : m_id(id), m_emit(emit), m_stop(std::move(stop))
    {
    }

    /// Run `body` as stage `name`: cancellation check, progress at start, stage_done at the end.
    template<typename F>
    auto operator()(const char *name, const char *message, F &&body)
    {
        if (m_stop.stop_requested())
            throw JobFailed({name, Protocol::Code::Cancelled, "cancelled before stage '" + std::string(name) + "'", ""});
        m_emit(Protocol::makeProgress(m_id, name, span(name).begin, message));
        const auto t0 = std::chrono::steady_clock::now();
        Json artifacts = Json::object();
        if constexpr (std::is_void_v<std::invoke_result_t<F, Json &>>) {
            body(artifacts);
            finish(name, t0, artifacts);
        } else {
            auto r = body(artifacts);
            finish(name, t0, artifacts);
            return r;
        }
    }

    double secondsOf(const std::string &stage) const { return m_seconds.value(stage, 0.0); }

private:
    void finish(const char *name, std::chrono::steady_clock::time_point t0, const Json &artifacts)
    {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        m_seconds[name] = s;
        m_emit(Protocol::makeStageDone(m_id, name, s, artifacts));
        m_emit(Protocol::makeProgress(m_id, name, span(name).end, std::string(name) + " done"));
    }

    std::int64_t m_id;
    const EventFn &m_emit;
    std::stop_token m_stop;
    Json m_seconds = Json::object();
};

} // namespace

Profiler::MeasureOptions measureOptionsFrom(const Json &request)
{
    // Wrong types are a bad request naming the field, not an internal error.
    for (const char *field : {"warmup", "runs", "min_runs"}) {
        if (request.contains(field) && !request[field].is_number_integer())
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be an integer",
                             "send a JSON integer"});
    }
    if (request.contains("measure") && !request["measure"].is_boolean())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'measure' must be true or false", "send a JSON boolean"});
    if (request.contains("max_seconds") && !request["max_seconds"].is_number())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'max_seconds' must be a number", "send a JSON number"});
    for (const char *field : {"model", "device", "out", "dtype"}) {
        if (request.contains(field) && !request[field].is_string())
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be a string",
                             "send a JSON string"});
    }
    Profiler::MeasureOptions o;
    o.warmup = std::max(0, request.value("warmup", o.warmup));
    o.maxRuns = std::max(1, request.value("runs", o.maxRuns));
    o.minRuns = std::clamp(request.value("min_runs", std::min(o.minRuns, o.maxRuns)), 1, o.maxRuns);
    o.maxSeconds = std::max(0.0, request.value("max_seconds", o.maxSeconds));
    return o;
}

Json runCompile(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const auto log = [&](const std::string &level, const std::string &message) {
        emit(Protocol::makeLog(id, level, message));
    };
    StageRunner stage(id, emit, stop);
    const auto options = measureOptionsFrom(request);
    const std::string device = request.value("device", std::string("cpu"));

    try {
        const auto forward = [&](const Json &event) {
            Json e = event;
            e["id"] = id;
            emit(e);
        };
        Python::CompileJob job(request, log, forward);
        const Json loaded = stage("load", "building the model and example inputs", [&](Json &) { return job.load(); });
        const Json exported = stage("export", "capturing the graph with torch.export", [&](Json &) { return job.exportGraph(); });
        const Json decomposed = stage("decompose", "decomposing to core ATen", [&](Json &) { return job.decompose(); });
        const Json compiled = stage("compile", "compiling with AOTInductor (passes, fusion, codegen, C++ build)", [&](Json &a) {
            Json r = job.compile();
            a["package"] = r.at("package");
            if (const auto k = r.find("kernels"); k != r.end() && k->is_object() && k->contains("path") && !(*k)["path"].is_null())
                a["kernels"] = (*k)["path"];
            return r;
        });
        const std::string package = compiled.at("package").get<std::string>();

        std::unique_ptr<Runtime::AotiRunner> runner;
        stage("load_package", "loading the package with LibTorch", [&](Json &) {
            try {
                runner = Runtime::AotiRunner::load(package, device);
                runner->setInputs(job.inputs());
            } catch (const Runtime::RuntimeError &e) {
                throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(),
                                 "the package may be for another device or torch version; recompile it here"});
            }
        });

        const Json verified = stage("verify", "comparing the compiled outputs with eager", [&](Json &) {
            try {
                runner->run();
            } catch (const Runtime::RuntimeError &e) {
                throw JobFailed({"verify", Protocol::Code::LoadFailed, e.what(), "see the engine log"});
            }
            return job.verify(runner->outputs());
        });

        Profiler::Summary eager, aoti;
        if (request.value("measure", true)) { // export compiles buckets without timing them
            stage("measure", "timing eager and compiled", [&](Json &) {
                eager = Profiler::measure([&] { job.runEager(); }, options, stop);
                aoti = Profiler::measure([&] { runner->run(); }, options, stop);
            });
        }
        if (stop.stop_requested())
            throw JobFailed({"measure", Protocol::Code::Cancelled, "cancelled while measuring", ""});

        // A spread this wide means the machine was busy (other processes, OpenMP threads losing the
        // CPU): the medians are not to be trusted. Say so instead of printing a confident ratio.
        Json warnings = Json::array();
        for (const auto &[name, s] : {std::pair<const char *, const Profiler::Summary &>{"eager", eager}, {"compiled", aoti}}) {
            // p90 over twice p10: the middle 80% of runs disagree by 2x (a few slow outliers,
            // which only move the mean and p99, do not trigger it).
            if (s.runs > 1 && s.p10Ms > 0 && s.p90Ms > 2.0 * s.p10Ms) {
                char buf[256];
                std::snprintf(buf, sizeof buf,
                              "%s timings are noisy (p10 %.4g ms, median %.4g ms, p90 %.4g ms): the machine was "
                              "busy; rerun on an idle machine or with fewer threads (OMP_NUM_THREADS)",
                              name, s.p10Ms, s.medianMs, s.p90Ms);
                warnings.push_back(buf);
                log("warning", buf);
            }
        }
        Json result{
            {"model", request.value("model", std::string())},
            {"device", device},
            {"dtype", request.value("dtype", std::string("fp32"))},
            {"package", package},
            {"package_bytes", compiled.value("package_bytes", 0)},
            {"out", request.value("out", std::string())},
            {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
            {"cuda_version", loaded.value("cuda_version", std::string())},
            {"compute_capability", loaded.value("compute_capability", Json())},
            {"batch", request.value("batch", Json())},
            {"inputs", loaded.value("inputs", Json::array())},
            {"outputs", verified.value("outputs", Json::array())},
            {"parameters", loaded.value("parameters", 0)},
            {"graph_nodes", exported.value("nodes", 0)},
            {"max_abs_error", verified.at("max_abs_error")},
            {"max_rel_error", verified.at("max_rel_error")},
            {"cosine", verified.value("cosine", 1.0)},
            {"tolerance", verified.at("tolerance")},
            {"eager_ms", eager.medianMs},
            {"compiled_ms", aoti.medianMs},
            {"speedup", aoti.medianMs > 0 ? eager.medianMs / aoti.medianMs : 0.0},
            {"runs", std::min(eager.runs, aoti.runs)},
            {"eager_runs", eager.runs},
            {"compiled_runs", aoti.runs},
            {"warnings", warnings},
            {"eager", summaryJson(eager, options.warmup)},
            {"compiled", summaryJson(aoti, options.warmup)},
            {"timer", "std::chrono::steady_clock around each call, in the engine process"},
            {"export_seconds", stage.secondsOf("export")},
            {"compile_seconds", stage.secondsOf("compile")},
            {"decomposed_nodes", decomposed.value("nodes", 0)},
            {"non_core_ops", decomposed.value("non_core_ops", Json::array())},
            {"stages", compiled.value("stages", Json::array())},
            {"kernels", compiled.value("kernels", Json::object())},
            {"inductor_cache", compiled.value("inductor_cache", "disabled")},
            {"options", compiled.value("options", Json::object())},
        };
        return result;
    } catch (const Python::FrontendException &e) {
        if (!e.details().empty())
            log("debug", e.details());
        throw JobFailed(e.error());
    }
}

} // namespace AotStudio::Pipeline
