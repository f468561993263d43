// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli: the headless twin of the studio for terminals and CI. Runs the engine library in
// process; progress goes to stderr, results to stdout (one JSON object with --json).
#include "bundle/bundle.h"
#include "bundle/inspect.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "comparecmd.h"
#include "graph/graphdiff.h"
#include "pipeline/engine.h"
#include "pipeline/measurement.h"
#include "options.h"
#include "profilecmd.h"
#include "protocol/linewriter.h"
#include "quantizecmd.h"
#include "signcmd.h"
#include "sweepcmd.h"
#include "runtime/aotirunner.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>
#include <pthread.h>
#include <unistd.h>

using namespace AotStudio;
using Protocol::Json;

namespace {

constexpr int kExitFailed = 1; // the job ran and failed (error event): export, compile, mismatch...
constexpr int kExitUsage = 2;  // the command line was wrong
constexpr int kExitInterrupted = 130; // cancelled with Ctrl-C (128 + SIGINT), as shells expect

std::atomic<int> g_interrupts{0};

extern "C" void onSigint(int)
{
    // Async-signal-safe: count, and leave at once on the second Ctrl-C.
    if (g_interrupts.fetch_add(1) >= 1) {
        static const char msg[] = "\naotstudio-cli: interrupted\n";
        (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
        std::_Exit(kExitInterrupted);
    }
}

/// A nested job's fields as a prefix of its progress lines (FORMAT.md: `scheme` of a quantize
/// scheme, `bucket` of an export bucket): "[int8-dynamic] ", "bucket b4: ".
std::string jobFields(const Json &event)
{
    std::string prefix;
    if (event.contains("scheme") && event["scheme"].is_string())
        prefix += "[" + event["scheme"].get<std::string>() + "] ";
    if (event.contains("bucket") && event["bucket"].is_string())
        prefix += "bucket " + event["bucket"].get<std::string>() + ": ";
    return prefix;
}

struct Outcome {
    std::optional<Json> result;
    std::optional<Json> error;
};

/// Human-readable rendering of engine events on stderr; every event also goes, as one JSON line,
/// to OUT/aotstudio.log (with the debug tracebacks that stderr leaves out without -v).
class ProgressPrinter {
public:
    explicit ProgressPrinter(bool verbose) : m_verbose(verbose) {}
    ~ProgressPrinter()
    {
        if (m_log)
            std::fclose(m_log);
    }
    void setLogFile(const std::string &path) { m_logPath = path; }
    const std::string &logFile() const { return m_logPath; }
    bool hasLog() const { return m_log != nullptr; }

    void operator()(const Json &event, Outcome &outcome)
    {
        std::lock_guard lock(m_mutex);
        // The log file opens with the first progress event: by then the job holds the output
        // directory's lock, so a second compile refused for a busy directory cannot clobber it.
        const std::string type0 = event.value("type", "");
        if (!m_log && !m_logPath.empty() && type0 == "progress") {
            m_log = std::fopen(m_logPath.c_str(), "w");
            for (const auto &line : m_pending)
                std::fprintf(m_log ? m_log : stderr, "%s\n", line.c_str());
            m_pending.clear();
        }
        if (m_log) {
            std::fprintf(m_log, "%s\n", Protocol::toLine(event).c_str());
            std::fflush(m_log);
        } else if (!m_logPath.empty()) {
            m_pending.push_back(Protocol::toLine(event));
        }
        const std::string type = event.value("type", "");
        if (type == "progress") {
            const int pct = static_cast<int>(std::lround(100.0 * event.value("fraction", 0.0)));
            std::fprintf(stderr, "[%3d%%] %s%s: %s\n", pct, jobFields(event).c_str(), event.value("stage", "").c_str(),
                         event.value("message", "").c_str());
        } else if (type == "log") {
            const std::string level = event.value("level", "info");
            if (level != "debug" || m_verbose)
                std::fprintf(stderr, "       %s: %s\n", level.c_str(), event.value("message", "").c_str());
        } else if (type == "stage_done") {
            std::fprintf(stderr, "       %s took %.2f s\n", event.value("stage", "").c_str(), event.value("seconds", 0.0));
        } else if (type == "result") {
            outcome.result = event.value("result", Json::object());
        } else if (type == "error") {
            outcome.error = event;
        }
    }

private:
    bool m_verbose;
    std::FILE *m_log = nullptr;
    std::string m_logPath;
    std::vector<std::string> m_pending;
    std::mutex m_mutex;
};

std::string errorLine(const Json &e)
{
    std::string line = "aotstudio-cli: " + e.value("stage", std::string("engine")) + " failed (" +
                       e.value("code", std::string("internal")) + "): " + e.value("message", std::string());
    const std::string hint = e.value("hint", std::string());
    if (!hint.empty())
        line += ". Hint: " + hint;
    return line;
}

/// The compile result's `verify` section (FORMAT.md): the verdict, one line per named output, and
/// the fp32 matmul precision both sides ran with.
void printVerify(std::FILE *out, const Json &v)
{
    if (!v.is_object())
        return;
    std::fprintf(out, "verified:       %s\n", v.value("verdict", "").c_str());
    for (const auto &o : v.value("outputs", Json::array())) {
        std::string line = "  output '" + o.value("name", "") + "' " + o.value("shape", Json::array()).dump() + " " +
                           o.value("dtype", "");
        char buf[256];
        std::snprintf(buf, sizeof buf, ": max abs %.3g, max rel %.3g, cosine %.6f", o.value("max_abs_error", 0.0),
                      o.value("max_rel_error", 0.0), o.value("cosine", 0.0));
        line += buf;
        if (o.contains("compiled_reference_error")) {
            std::snprintf(buf, sizeof buf, "; against the %s reference: compiled %.3g, eager %.3g",
                          v.value("/reference/dtype"_json_pointer, std::string("higher-precision")).c_str(),
                          o.value("compiled_reference_error", 0.0), o.value("eager_reference_error", 0.0));
            line += buf;
        }
        std::fprintf(out, "%s\n", line.c_str());
    }
    const auto setting = [&](const char *side) {
        const Json p = v.value("/precision"_json_pointer, Json::object()).value(side, Json());
        if (!p.is_object())
            return std::string("?");
        const Json tf32 = p.value("cuda_matmul_allow_tf32", Json());
        return p.value("float32_matmul_precision", std::string("?")) + ", TF32 matmul " +
               (tf32.is_boolean() ? (tf32.get<bool>() ? "on" : "off") : "?");
    };
    std::fprintf(out, "fp32 matmul:    eager %s; compiled %s\n", setting("eager").c_str(), setting("compiled").c_str());
}

/// A regional compile's result (compilejob.cpp, runRegional): the blocks, verify, the timing.
void printRegional(std::FILE *out, const Json &r)
{
    const Json g = r.value("regional", Json::object());
    for (const auto &b : g.value("blocks", Json::array()))
        std::fprintf(out, "block:          %s x%zu -> %s (%s bytes, no weights; export %.1f s, compile %.1f s)\n",
                     b.value("class", "").c_str(), b.value("instances", Json::array()).size(), b.value("package", "").c_str(),
                     b.value("package_bytes", Json(0)).dump().c_str(), b.value("export_seconds", 0.0), b.value("compile_seconds", 0.0));
    std::fprintf(out, "blocks cover:   %.0f%% of the parameters; layout in %s\n", 100.0 * g.value("parameter_share", 0.0),
                 g.value("layout", Json("")).is_string() ? g.value("layout", "").c_str() : "-");
    std::fprintf(out, "max abs error:  %.3g (tolerance %.3g)\n", r.value("max_abs_error", 0.0), r.value("tolerance", 0.0));
    std::fprintf(out, "eager median:   %.4f ms\n", r.value("eager_ms", 0.0));
    std::fprintf(out, "regional:       %.4f ms, %s\n", r.value("compiled_ms", 0.0),
                 Pipeline::ratioText(Pipeline::ratioFromJson(r.value("speedup_interval", Json())),
                                     "the regional model is slower than eager").c_str());
    const Json whole = r.value("whole", Json());
    if (whole.is_object()) {
        std::fprintf(out, "whole model:    %.4f ms; regional vs whole %s\n", whole.value("median_ms", 0.0),
                     Pipeline::ratioText(Pipeline::ratioFromJson(whole.value("regional_speedup_vs_whole", Json())),
                                         "the regional model is slower than the whole package").c_str());
        std::fprintf(out, "compile time:   regional %.1f s, whole %.1f s (regional %.0f%% of whole; one compile each, no spread)\n", g.value("compile_seconds", 0.0),
                     whole.value("compile_seconds", 0.0), 100.0 * g.value("compile_time_ratio", 0.0));
    } else {
        std::fprintf(out, "compile time:   regional %.1f s (--compare-whole also compiles the whole model)\n",
                     g.value("compile_seconds", 0.0));
    }
    const Json measurement = r.value("measurement", Json());
    if (measurement.is_object())
        if (const std::string line = Pipeline::verdictLine(measurement); !line.empty())
            std::fprintf(out, "%s\n", line.c_str());
    std::fprintf(out, "result:         %s/result.json\n", r.value("out", "").c_str());
}

void printHuman(std::FILE *out, const Json &r)
{
    if (r.value("mode", "") == "regional")
        return printRegional(out, r);
    std::fprintf(out, "package:        %s\n", r.value("package", "").c_str());
    std::fprintf(out, "device:         %s (torch %s)\n", r.value("device", "").c_str(), r.value("torch_version", "").c_str());
    std::string inputs;
    for (const auto &in : r.value("inputs", Json::array()))
        inputs += (inputs.empty() ? "" : ", ") + in.value("name", std::string("?")) + " " +
                  in.value("shape", Json::array()).dump() + " " + in.value("dtype", std::string());
    if (!inputs.empty())
        std::fprintf(out, "inputs:         %s\n", inputs.c_str());
    std::fprintf(out, "max abs error:  %.3g (tolerance %.3g)\n", r.value("max_abs_error", 0.0), r.value("tolerance", 0.0));
    printVerify(out, r.value("verify", Json()));
    std::fprintf(out, "eager median:   %.4f ms\n", r.value("eager_ms", 0.0));
    std::fprintf(out, "AOTI median:    %.4f ms\n", r.value("compiled_ms", 0.0));
    const Json interval = r.value("speedup_interval", Json());
    if (interval.is_object())
        std::fprintf(out, "speedup:        %s\n", Pipeline::ratioText(Pipeline::ratioFromJson(interval)).c_str());
    const Json baseline = r.value("eager_baseline", Json());
    if (baseline.is_object() && baseline.value("kind", "") == "exported_program")
        std::fprintf(out, "eager baseline: %s\n", baseline.value("note", "").c_str());
    const Json measurement = r.value("measurement", Json());
    std::fprintf(out, "runs:           eager %d, compiled %d (after %d warm-up each), %s threads, paired in %d rounds\n",
                 r.value("/eager/runs"_json_pointer, 0), r.value("/compiled/runs"_json_pointer, 0),
                 r.value("/eager/warmup"_json_pointer, 0), r.contains("threads") ? r["threads"].dump().c_str() : "?",
                 measurement.is_object() ? measurement.value("/pairing/rounds"_json_pointer, 0) : 0);
    if (measurement.is_object()) {
        const std::string line = Pipeline::verdictLine(measurement);
        std::fprintf(out, "%s\n", line.empty() ? ("measurement:    " + measurement.value("verdict", std::string("?"))).c_str() : line.c_str());
    }
    const Json kernels = r.value("kernels", Json::object());
    // Stages list every pass, also those that changed nothing; only graph snapshots count here.
    std::size_t snapshots = 0, unchanged = 0;
    for (const auto &s : r.value("stages", Json::array())) {
        const auto path = s.value("snapshot", Json());
        if (!s.value("changed", true))
            ++unchanged;
        else if (path.is_string() && path.get<std::string>().ends_with(".json") && s.value("name", "") != "codegen")
            ++snapshots;
    }
    std::fprintf(out, "graph stages:   %zu snapshots in %s/snapshots (%zu passes left the graph unchanged), %d kernels in %s\n",
                 snapshots, r.value("out", "").c_str(), unchanged, kernels.value("count", 0),
                 kernels.value("path", Json("")).is_string() ? kernels.value("path", "").c_str() : "-");
    std::fprintf(out, "result:         %s/result.json\n", r.value("out", "").c_str());
    for (const auto &w : r.value("warnings", Json::array())) {
        const std::string text = w.is_string() ? w.get<std::string>() : w.dump();
        if (text.rfind("measurement: ", 0) != 0) // printed above, on its own line
            std::fprintf(out, "warning:        %s\n", text.c_str());
    }
}

// --- inspect: a bundle (directory or .zip) or a .pt2, read without loading any native code --------

std::string humanBytes(double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

std::string specsLine(const Json &specs)
{
    std::string out;
    for (const auto &s : specs) {
        std::string shape;
        for (const auto &d : s.value("shape", Json::array()))
            shape += (shape.empty() ? "" : ", ") + (d.is_string() ? d.get<std::string>() : d.dump());
        const std::string name = s.value("name", std::string());
        out += (out.empty() ? "" : "; ") + (name.empty() ? std::string() : name + " ") + "[" + shape + "] " + s.value("dtype", "");
    }
    return out.empty() ? "-" : out;
}

/// `aotstudio-cli inspect PATH`: exit 0 when readable (and, for a bundle, intact and runnable here),
/// 1 when not. .pt2 archives are read with libzip (core/bundle/inspect.h): entries and JSON records
/// only, never the package's shared objects.
int runInspect(const std::string &path, bool asJson, const std::vector<std::string> &trustPaths, bool allowUnsigned)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool isDir = fs::is_directory(path, ec);
    if (!fs::exists(path, ec)) {
        std::fprintf(stderr, "aotstudio-cli: inspect: '%s' does not exist\n", path.c_str());
        return kExitFailed;
    }
    const bool isBundle = isDir || fs::path(path).extension() == ".zip";
    // Whether this machine's LibTorch and GPU could run the bundle (aotstudio-run's checks).
    const auto runsHere = [](const Bundle::Manifest &m) {
        const bool cuda = Runtime::cudaAvailable();
        return Bundle::checkCompatible(m, Runtime::libtorchVersion(), cuda, cuda ? Runtime::cudaComputeCapability(0) : "");
    };
    std::optional<Bundle::TrustStore> trust;
    if (isBundle && !(trust = Cli::loadTrustStore(trustPaths, "inspect")))
        return kExitUsage;
    Json info;
    try {
        info = isBundle ? Bundle::inspectBundle(path, runsHere, &*trust, allowUnsigned) : Bundle::inspectPt2(path);
    } catch (const Bundle::BundleError &e) {
        std::fprintf(stderr, "aotstudio-cli: inspect: %s\n", e.what());
        if (asJson)
            std::printf("%s\n", Bundle::dumpJson(Json{{"ok", false}, {"error", e.what()}}).c_str());
        return kExitFailed;
    }
    int rc = 0;
    if (isBundle) {
        std::vector<std::string> why = info["runs_here"].value("reasons", std::vector<std::string>{});
        info["runs_here"]["runtime_torch_version"] = Runtime::libtorchVersion();
        const Json signature = info.value("signature", Json::object());
        if (!info.value("ok", false) || !why.empty() || signature.value("refused", Json()).is_string())
            rc = kExitFailed;
        if (asJson) {
            std::printf("%s\n", Bundle::dumpJson(info).c_str());
            return rc;
        }
        std::printf("bundle:       %s%s\n", info.value("path", "").c_str(), info.value("zip", false) ? " (zip)" : "");
        std::printf("model:        %s\n", info.value("model", "").c_str());
        const Json cc = info.value("compute_capability", Json());
        std::printf("device:       %s%s\n", info.value("device", "").c_str(),
                    cc.is_string() ? (" (compute capability " + cc.get<std::string>() + ")").c_str() : "");
        std::printf("built with:   torch %s%s%s, quantization %s\n", info.value("torch_version", "").c_str(),
                    info.value("cuda_version", "").empty() ? "" : ", CUDA ", info.value("cuda_version", "").c_str(),
                    info.value("quantization", "none").c_str());
        std::printf("made by:      %s, %s (format version %d)\n", info.value("producer", "?").c_str(),
                    info.value("created", "?").c_str(), info.value("format_version", 0));
        std::printf("inputs:       %s\n", specsLine(info.value("inputs", Json::array())).c_str());
        std::printf("outputs:      %s\n", specsLine(info.value("outputs", Json::array())).c_str());
        std::printf("pad_safe:     %s\n", info.value("pad_safe", false) ? "yes (smaller batches run padded in larger buckets)" : "no");
        for (const auto &b : info.value("buckets", Json::array())) {
            const std::string range = b.contains("batch") ? "batch " + b["batch"].dump()
                                                          : "batch " + b["batch_min"].dump() + ".." + b["batch_max"].dump();
            std::printf("bucket:       %-10s %-14s %s%s\n", b.value("name", "").c_str(), range.c_str(),
                        b.value("package", "").c_str(),
                        b.contains("bytes") ? ("  " + humanBytes(b["bytes"].get<double>())).c_str() : "");
        }
        const auto problems = info.value("problems", Json::array());
        std::printf("files:        %zu, %s: %s\n", info.value("files", std::size_t(0)),
                    humanBytes(info.value("bytes", 0.0)).c_str(),
                    problems.empty() ? "every SHA-256 and size matches" : (std::to_string(problems.size()) + " problem(s)").c_str());
        for (const auto &p : problems)
            std::printf("  problem:    %s\n", p.get<std::string>().c_str());
        std::printf("signature:    %s\n", signature.value("summary", "").c_str());
        if (const Json refused = signature.value("refused", Json()); refused.is_string())
            std::printf("  refused:    %s\n", refused.get<std::string>().c_str());
        if (why.empty())
            std::printf("runs here:    yes (LibTorch %s)\n", Runtime::libtorchVersion().c_str());
        for (const auto &w : why)
            std::printf("runs here:    no: %s\n", w.c_str());
        return rc;
    }

    if (info.value("kind", "") == "unknown")
        rc = kExitFailed;
    if (asJson) {
        std::printf("%s\n", Bundle::dumpJson(info).c_str());
        return rc;
    }
    const std::string kind = info.value("kind", "");
    std::printf("file:         %s\n", info.value("path", "").c_str());
    std::printf("kind:         %s\n", kind == "aoti_package"       ? "AOTInductor package (native code; not loaded by inspect)"
                                      : kind == "exported_program" ? "ExportedProgram (torch.export.save)"
                                                                   : "unknown (neither an AOTInductor package nor an ExportedProgram)");
    std::printf("archive:      '%s', format %s, version %s, data version %s, byte order %s\n", info.value("archive", "").c_str(),
                info.value("archive_format", "?").c_str(), info.value("archive_version", "?").c_str(),
                info.value("data_version", "?").c_str(), info.value("byteorder", "?").c_str());
    if (kind == "aoti_package") {
        for (const auto &[name, model] : info["aoti"]["models"].items()) {
            std::printf("model:        %s: %zu files, %zu shared object(s)", name.c_str(), model.value("files", std::size_t(0)),
                        model.value("shared_objects", Json::array()).size());
            if (model.contains("kernels"))
                std::printf(", %d kernel(s)", model.value("kernels", 0));
            std::printf("\n");
            const Json metadata = model.value("metadata", Json::object());
            for (const auto &[k, v] : metadata.items())
                std::printf("  %-26s %s\n", k.c_str(), v.is_string() ? v.get<std::string>().c_str() : v.dump().c_str());
        }
    } else if (kind == "exported_program") {
        for (const auto &[name, model] : info["exported_program"]["models"].items()) {
            if (!model.value("readable", true)) {
                std::printf("model:        %s: graph not readable\n", name.c_str());
                continue;
            }
            std::printf("model:        %s: %d nodes, %d inputs, %d outputs (schema %s, torch %s)\n", name.c_str(),
                        model.value("nodes", 0), model.value("inputs", 0), model.value("outputs", 0),
                        model.value("schema_version", "?").c_str(), model.value("torch_version", "?").c_str());
            std::vector<std::pair<int, std::string>> ops;
            const Json histogram = model.value("ops", Json::object());
            for (const auto &[op, n] : histogram.items())
                ops.emplace_back(n.get<int>(), op);
            std::sort(ops.begin(), ops.end(), [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
            for (const auto &[n, op] : ops)
                std::printf("  %5d  %s\n", n, op.c_str());
        }
    }
    const auto entries = info.value("entries", Json::array());
    std::printf("entries:      %zu, %s uncompressed\n", entries.size(), humanBytes(info.value("bytes", 0.0)).c_str());
    for (const auto &e : entries)
        std::printf("  %12llu  %s\n", e.value("bytes", 0ULL), e.value("name", "").c_str());
    return rc;
}

void printExport(std::FILE *out, const Json &r)
{
    std::fprintf(out, "bundle:         %s\n", r.value("bundle", "").c_str());
    if (!r.value("zip", std::string()).empty())
        std::fprintf(out, "zip:            %s\n", r.value("zip", "").c_str());
    for (const auto &b : r.value("buckets", Json::array())) {
        if (b.contains("batch_min"))
            std::fprintf(out, "bucket:         %-10s batch %ld..%ld  %s\n", b.value("name", "").c_str(), b.value("batch_min", 0L),
                         b.value("batch_max", 0L), b.value("package", "").c_str());
        else
            std::fprintf(out, "bucket:         %-10s batch %ld  %s\n", b.value("name", "").c_str(), b.value("batch", 0L),
                         b.value("package", "").c_str());
    }
    Cli::printColdStart(out, r.value("cold_start", Json::object()));
    if (const Json signer = r.value("signer", Json()); signer.is_string())
        std::fprintf(out, "signed:         by key %s (manifest.sig; aotstudio-run checks it with --trust KEYFILE.pub)\n",
                     signer.get<std::string>().c_str());
    else
        std::fprintf(out, "signed:         no (export --sign KEYFILE signs a bundle)\n");
    std::fprintf(out, "run it:         aotstudio-run %s\n", r.value("bundle", "").c_str());
}

} // namespace

int main(int argc, char **argv)
{
    // A parent may hand us SIGINT blocked (signal masks are inherited); unblock it before any
    // thread starts, so Ctrl-C and `kill -INT` reach our handler.
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    ::pthread_sigmask(SIG_UNBLOCK, &interrupt, nullptr);

    CLI::App app{"AOT Studio command line: export, AOTInductor-compile, run and measure PyTorch models.\n"
                 "Runs the same engine as the studio, in this process (no GUI, no display needed).",
                 "aotstudio-cli"};
    app.require_subcommand(0, 1);
    app.footer("Exit status: 0 success, 1 the job failed (export, compile, accuracy, device), 2 bad command line,\n"
               "130 cancelled with Ctrl-C. A compile writes OUT/model.pt2, OUT/result.json (or OUT/error.json),\n"
               "OUT/snapshots/*.json, OUT/kernels.json, OUT/trace/ and OUT/aotstudio.log. A failed compile moves\n"
               "the previous compile's files to OUT/previous-<time>/ and keeps its package as model.unverified.pt2.\n"
               "Examples:\n"
               "  aotstudio-cli compile --model sample:mlp --device cpu --out /tmp/mlp --json\n"
               "  aotstudio-cli compile --model sample:minilm --out /tmp/minilm\n"
               "  aotstudio-cli compile --model ./my_model.py:make --device cuda --out build/my\n"
               "  aotstudio-cli diff /tmp/mlp/snapshots/002_decompose.json /tmp/mlp/snapshots/005_post_grad.json\n"
               "  aotstudio-cli inspect build/convnet-bundle.zip\n"
               "  aotstudio-cli export --from /tmp/mlp --buckets batch=1,4,16 --dynamic-batch 1:64 --out /tmp/mlp-bundle\n"
               "  aotstudio-cli inspect /tmp/mlp-bundle.zip\n"
               "  aotstudio-cli keygen ~/.config/aotstudio/me.key\n"
               "  aotstudio-cli export --from /tmp/mlp --sign ~/.config/aotstudio/me.key --out /tmp/mlp-signed\n"
               "  aotstudio-cli --version");
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print studio, torch and CUDA versions and the devices found");
    bool verbose = false;
    app.add_flag("-v,--verbose", verbose, "Also print debug logs (Python tracebacks) to stderr");

    auto *compile = app.add_subcommand("compile", "Export a model, compile it with AOTInductor into a .pt2, load it "
                                                  "from C++ with LibTorch, check it against eager and time both");
    std::string model, device = "cpu", out = "aotstudio-out";
    int runs = 200, warmup = 5, minRuns = 20;
    double maxSeconds = 5;
    std::optional<double> toleranceOpt;
    int threads = 0;
    bool json = false;
    compile->add_option("-m,--model", model, "Model: sample:NAME (mlp, convnet, resnet18, espcn, transformer, unet, "
                                             "minilm), path/to/file.py:factory (returns (model, args), (model, args, "
                                             "dynamic_shapes) or a dict {model, args, kwargs, dynamic_shapes}; args and "
                                             "kwargs any nest of tensors, lists, dicts and dataclasses), or a "
                                             "torch.export.save .pt2; SPEC#PATH takes the sub-module PATH")
        ->required()
        ->check([](const std::string &v) { return v.empty() ? std::string("must not be empty") : std::string(); });
    compile->add_flag("-v,--verbose", verbose, "Also print debug logs (Python tracebacks) to stderr");
    compile->add_option("-d,--device", device, "Device to compile for and run on: cpu or cuda")->capture_default_str();
    compile->add_option("-o,--out", out, "Output directory (created; the package is OUT/model.pt2)")->capture_default_str();
    compile->add_option("--runs", runs, "Most timed runs per variant")->capture_default_str()->check(CLI::Range(1, 1000000));
    compile->add_option("--min-runs", minRuns, "Fewest timed runs per variant (taken even past --max-seconds)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    compile->add_option("--warmup", warmup, "Untimed warm-up runs per variant")->capture_default_str()->check(CLI::Range(0, 100000));
    compile->add_option("--max-seconds", maxSeconds, "Stop timing a variant after this many seconds, once --min-runs "
                                                     "runs are done (warm-up is not capped)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
    Cli::addThreadsOption(compile, threads);
    compile->add_option("--tolerance", toleranceOpt, "Largest accepted max abs difference between compiled and eager "
                                                     "outputs; above it the command fails (default 1e-3 for fp32, 5e-2 bf16, 1e-2 fp16)")
        ->check([](const std::string &v) {
            try {
                const double t = std::stod(v);
                return std::isfinite(t) && t >= 0 ? std::string() : std::string("must be a finite number >= 0");
            } catch (const std::exception &) {
                return std::string("must be a number");
            }
        });
    compile->add_flag("--json", json, "Print one JSON object on stdout (progress stays on stderr)");
    std::string dtype = "fp32";
    bool freezing = false, noFreezing = false, maxAutotune = false, allowCache = false, noSnapshots = false;
    compile->add_option("--dtype", dtype, "Model and input dtype: fp32, bf16 or fp16")->capture_default_str();
    auto *freezingFlag = compile->add_flag("--freezing", freezing, "Inductor freezing: fold weights into the graph as "
                                                                   "constants (default: on for a graph with quantize/dequantize "
                                                                   "nodes, a PT2E-quantized model; off otherwise)");
    compile->add_flag("--no-freezing", noFreezing, "Never freeze, also for a PT2E-quantized model")->excludes(freezingFlag);
    bool regional = false, compareWhole = false;
    auto *regionalFlag = compile->add_flag("--regional", regional,
                                           "Regional compilation: compile each repeated block (a class with two or more "
                                           "identical instances, or the model's _repeated_blocks) once into a weightless "
                                           "package reused by every instance with its own weights bound at run time; "
                                           "writes OUT/blocks/CLASS/package.pt2 (the layout spaces.aoti_blocks_load reads)");
    compile->add_flag("--compare-whole", compareWhole, "With --regional: also compile the whole model, and report compile "
                                                       "time and latency of both")
        ->needs(regionalFlag);
    std::string submodule;
    compile->add_option("--submodule", submodule, "Compile the sub-module PATH of the model (a name from "
                                                  "model.named_modules(), e.g. model.encoder) on the inputs it receives "
                                                  "when the whole model runs once; the same as --model SPEC#PATH");
    compile->add_flag("--max-autotune", maxAutotune, "Inductor max-autotune (benchmarks kernel choices; slow to compile)");
    compile->add_flag("--allow-cache", allowCache, "Let Inductor reuse its compile cache (faster; a cache hit runs no "
                                                   "passes, so pass snapshots and the kernel list may be missing)");
    compile->add_flag("--no-snapshots", noSnapshots, "Do not write graph snapshots (OUT/snapshots/*.json)");
    std::vector<std::string> dynamic;
    int verifySamples = 2;
    compile->add_option("--verify-samples", verifySamples, "Seeded inputs of the example's shapes checked against eager "
                                                          "besides the example itself")
        ->capture_default_str()
        ->check(CLI::Range(0, 64));
    std::optional<int> verifyShapes;
    compile->add_option("--verify-shapes", verifyShapes, "Sizes besides the example verified for a package with dynamic "
                                                         "dimensions (default: each one's range start and end; 0: the "
                                                         "example's shapes only; aotstudio-cli sweep checks the whole range)")
        ->check(CLI::Range(0, 64));
    compile->add_option("--dynamic", dynamic, "Dynamic dimension INPUT:DIM[:MIN:MAX][=NAME] (repeatable), INPUT an index or "
                                              "an input's name, e.g. 0:0:1:64 for a batch of 1 to 64 on the first input, or "
                                              "attention_mask:1; one NAME ties dimensions of several inputs (0:0=batch "
                                              "1:0=batch). An example size of 0 or 1 is resized to 2 (said in the log); a "
                                              "dimension that comes out static fails the compile with the guard")
        ->check(Cli::dynamicSpec());

    auto *diffCmd = app.add_subcommand("diff", "Structural diff of two graph snapshots (OUT/snapshots/*.json): added, "
                                               "removed and changed nodes, paired by provenance, then name, then structure");
    std::string beforePath, afterPath;
    bool diffJson = false;
    diffCmd->add_option("before", beforePath, "Snapshot before (JSON)")->required()->check(CLI::ExistingFile);
    diffCmd->add_option("after", afterPath, "Snapshot after (JSON)")->required()->check(CLI::ExistingFile);
    diffCmd->add_flag("--json", diffJson, "Print the diff as one JSON object");

    auto *exportCmd = app.add_subcommand("export", "Build a deployable bundle (core/runtime/BUNDLE.md): one AOTInductor "
                                                    "package per batch bucket, a manifest with SHA-256 of every file, the "
                                                    "report with cold start, and BUNDLE.zip");
    std::string exportFrom, exportModel, exportOut, bucketSpec, dynamicBatchSpec;
    bool padSafe = false, noZip = false, exportJson = false, noSharedWeights = false;
    int coldStartRuns = 3;
    exportCmd->add_option("--from", exportFrom, "A compile output directory (its result.json gives model, device, dtype)");
    exportCmd->add_option("-m,--model", exportModel, "Model spec, instead of or overriding --from");
    exportCmd->add_option("-o,--out", exportOut, "Bundle directory to create (must not exist); BUNDLE.zip is written next to it")
        ->required();
    exportCmd->add_option("--buckets", bucketSpec, "Batch buckets, e.g. batch=1,4,16 (default: the example batch)");
    exportCmd->add_option("--dynamic-batch", dynamicBatchSpec, "Add a dynamic-batch package for MIN:MAX rows, the fallback "
                                                              "for batches without a bucket, e.g. 1:64");
    std::vector<std::string> exportDynamic;
    exportCmd->add_option("--dynamic", exportDynamic, "Dynamic dimension besides the batch, INPUT:DIM[:MIN:MAX][=NAME] "
                                                      "(repeatable; e.g. 0:1:1:512=seq): dynamic in every bucket, checked "
                                                      "by aotstudio-run against each bucket's guards (default with --from: "
                                                      "the compile's own)")
        ->check(Cli::dynamicSpec());
    exportCmd->add_flag("--pad-safe", padSafe, "Rows of a batch are independent: a smaller batch may run padded in a larger bucket");
    exportCmd->add_flag("--no-zip", noZip, "Do not write BUNDLE.zip");
    exportCmd->add_flag("--no-shared-weights", noSharedWeights,
                        "Keep each bucket's weights inside its package's .so (default with several buckets: every distinct "
                        "weight stored once in weights/ and bound at load, BUNDLE.md \"Shared weights\")");
    exportCmd->add_option("--cold-start-runs", coldStartRuns, "Fresh processes timed for cold start (bundle and eager); 0 to skip")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    std::string signKey;
    exportCmd->add_option("--sign", signKey, "Sign the bundle with this Ed25519 private key (aotstudio-cli keygen KEYFILE): "
                                             "manifest.sig beside manifest.json, the key id in the manifest")
        ->check(CLI::ExistingFile);
    exportCmd->add_flag("--json", exportJson, "Print one JSON object on stdout");
    exportCmd->add_option("-d,--device", device, "Device (overrides --from)");
    exportCmd->add_flag("-v,--verbose", verbose, "Also print debug logs to stderr");

    auto *inspectCmd = app.add_subcommand("inspect", "Describe a bundle (directory or .zip: manifest, buckets, SHA-256 "
                                                     "check, whether it runs here) or a .pt2 (entries, AOTInductor metadata "
                                                     "or ExportedProgram op histogram) without loading native code");
    std::string inspectPath;
    bool inspectJson = false;
    inspectCmd->add_option("path", inspectPath, "Bundle directory, bundle .zip, or .pt2 file")->required();
    inspectCmd->add_flag("--json", inspectJson, "Print one JSON object");
    std::vector<std::string> inspectTrust;
    bool inspectAllowUnsigned = false;
    inspectCmd->add_option("--trust", inspectTrust, "Check the signature against this public key file or folder of *.pub "
                                                    "files, as aotstudio-run does (repeatable; default $AOTSTUDIO_TRUST)")
        ->check(CLI::ExistingPath);
    inspectCmd->add_flag("--allow-unsigned", inspectAllowUnsigned, "As aotstudio-run: an unsigned or foreign bundle is not "
                                                                   "a failure even with a trust store");
    inspectCmd->footer("Exit status: 0 readable (a bundle: intact, runnable here and admitted by the trust store), 1 "
                       "unreadable, tampered, not runnable here or refused by the trust store, 2 bad command line or an "
                       "unreadable trust store.");
    Cli::KeygenOptions keygenOptions;
    auto *keygenCmd = Cli::addKeygenCommand(app, keygenOptions);

    Cli::ProfileOptions profileOptions;
    auto *profileCmd = Cli::addProfileCommand(app, profileOptions);
    Cli::QuantizeOptions quantizeOptions;
    auto *quantizeCmd = Cli::addQuantizeCommand(app, quantizeOptions);
    Cli::SweepOptions sweepOptions;
    auto *sweepCmd = Cli::addSweepCommand(app, sweepOptions);
    Cli::CompareCommandOptions compareOptions;
    auto *compareCmd = Cli::addCompareCommand(app, compareOptions);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : kExitUsage;
    }
    if (*inspectCmd)
        return runInspect(inspectPath, inspectJson, inspectTrust, inspectAllowUnsigned);
    if (*keygenCmd)
        return Cli::runKeygen(keygenOptions);
    if (*compareCmd)
        return Cli::runCompare(compareOptions); // files only: no engine, no torch
    if (*profileCmd) {
        // Contradictions CLI11's per-option checks cannot see: exit 2 before the engine starts.
        if (const std::string why = Cli::profileCommandLineProblem(profileOptions); !why.empty()) {
            std::fprintf(stderr, "aotstudio-cli: profile: %s\n", why.c_str());
            return kExitUsage;
        }
    }
    if (*exportCmd && !signKey.empty()) {
        // A key that cannot sign fails now, not after minutes of compiling.
        if (const auto why = Cli::checkSigningKey(signKey)) {
            std::fprintf(stderr, "%s\n", why->c_str());
            return kExitUsage;
        }
    }
    if (*diffCmd) {
        try {
            const auto before = Graph::loadSnapshot(beforePath);
            const auto after = Graph::loadSnapshot(afterPath);
            const auto diff = Graph::diffSnapshots(before, after);
            if (diffJson) {
                std::printf("%s\n", Graph::toJson(diff).dump().c_str());
                return 0;
            }
            std::printf("%s%s%s -> %s%s%s: %zu added, %zu removed, %zu changed, %zu unchanged\n", before.stage.c_str(),
                        before.pass.empty() ? "" : "/", before.pass.c_str(), after.stage.c_str(),
                        after.pass.empty() ? "" : "/", after.pass.c_str(), diff.added.size(), diff.removed.size(),
                        diff.changed.size(), diff.unchanged);
            for (const auto &id : diff.removed)
                std::printf("- %-28s %s\n", id.c_str(), before.find(id)->target.c_str());
            for (const auto &id : diff.added)
                std::printf("+ %-28s %s\n", id.c_str(), after.find(id)->target.c_str());
            for (const auto &c : diff.changed) {
                std::string fields;
                for (const auto &f : c.fields)
                    fields += (fields.empty() ? "" : ",") + f;
                std::printf("~ %-28s -> %s  [%s; matched by %s]\n", c.before.c_str(), c.after.c_str(), fields.c_str(),
                            Graph::toString(c.via));
            }
            return 0;
        } catch (const Graph::GraphError &e) {
            std::fprintf(stderr, "aotstudio-cli: diff failed: %s. Hint: pass two snapshot files from OUT/snapshots/\n", e.what());
            return kExitFailed;
        }
    }
    if (!showVersion && !*compile && !*exportCmd && !*profileCmd && !*quantizeCmd && !*sweepCmd) {
        std::fputs(app.help().c_str(), stdout);
        return kExitUsage;
    }

    if (*compile) {
        // Fail on an unusable output directory now, not after minutes of compiling.
        std::error_code ec;
        std::filesystem::create_directories(out, ec);
        if (ec || !std::filesystem::is_directory(out)) {
            std::fprintf(stderr, "aotstudio-cli: cannot create output directory '%s': %s. Hint: choose a writable directory for --out\n",
                         out.c_str(), ec ? ec.message().c_str() : "a file of that name exists");
            return kExitUsage;
        }
        out = std::filesystem::absolute(out).lexically_normal().string();
    }

    std::FILE *stdoutStream = Protocol::takeStdoutForProtocol();
    Outcome outcome;
    ProgressPrinter printer(verbose || profileOptions.verbose || quantizeOptions.verbose || sweepOptions.verbose);
    if (*compile)
        printer.setLogFile(out + "/aotstudio.log");
    if (*quantizeCmd)
        printer.setLogFile(Cli::quantizeRequest(quantizeOptions).value("out", std::string()) + "/aotstudio.log");
    if (*sweepCmd)
        printer.setLogFile(Cli::sweepRequest(sweepOptions).value("out", std::string()) + "/aotstudio.log");
    int rc = 0;
    {
        Pipeline::Engine engine([&](const Json &event) { printer(event, outcome); });
        const Json hello = engine.start();
        // Runs one compile or export request in process, with Ctrl-C, and prints its outcome.
        const auto runJob = [&](const Json &request, bool asJson) {
            int rc = 0;
            // Ctrl-C cancels cooperatively (between stages); a second Ctrl-C leaves at once.
            struct sigaction sa {};
            sa.sa_handler = onSigint;
            sigemptyset(&sa.sa_mask);
            ::sigaction(SIGINT, &sa, nullptr);
            std::atomic<bool> done{false};
            std::jthread watcher([&] {
                bool sent = false;
                while (!done.load()) {
                    if (!sent && g_interrupts.load() > 0) {
                        std::fprintf(stderr, "\naotstudio-cli: cancelling after the current stage (Ctrl-C again to quit now)\n");
                        engine.handle(Protocol::Request{"cancel", 2, Json{{"type", "cancel"}, {"id", 2}, {"target", 1}}});
                        sent = true;
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                }
            });
            engine.handle(Protocol::Request{request.value("type", ""), 1, request});
            engine.waitIdle();
            done = true;
            if (outcome.result) {
                if (asJson)
                    std::fprintf(stdoutStream, "%s\n", Protocol::toLine(*outcome.result).c_str());
                else if (request.value("type", "") == "export")
                    printExport(stdoutStream, *outcome.result);
                else if (request.value("type", "") == "quantize")
                    Cli::printQuantize(stdoutStream, *outcome.result);
                else if (request.value("type", "") == "profile")
                    Cli::printProfile(stdoutStream, *outcome.result);
                else if (request.value("type", "") == "sweep")
                    Cli::printSweep(stdoutStream, *outcome.result);
                else
                    printHuman(stdoutStream, *outcome.result);
                // A sweep with shapes that did not do what the guards promise failed its check.
                if (request.value("type", "") == "sweep" && !outcome.result->value("passed", false))
                    rc = kExitFailed;
                // A quantize comparison without its fp32 baseline, or with no scheme that ran, compared nothing.
                if (request.value("type", "") == "quantize") {
                    if (const std::string why = Cli::quantizeFailure(*outcome.result); !why.empty()) {
                        std::fprintf(stderr, "aotstudio-cli: quantize: %s\n", why.c_str());
                        rc = kExitFailed;
                    }
                }
            } else {
                Json error = outcome.error.value_or(Protocol::makeError(
                    1, {"engine", Protocol::Code::Internal, "the engine ended without a result", "see the log above"}));
                // Ctrl-C reaches the whole process group: a compiler child (g++) that dies of it
                // makes the stage fail before the cooperative cancel is seen. That is a cancel.
                if (g_interrupts.load() > 0 && error.value("code", std::string()) != Protocol::Code::Cancelled) {
                    error["message"] = "cancelled with Ctrl-C during stage '" + error.value("stage", std::string()) +
                                       "' (" + error.value("message", std::string()) + ")";
                    error["code"] = Protocol::Code::Cancelled;
                    error["hint"] = "";
                }
                if (printer.hasLog())
                    std::fprintf(stderr, "aotstudio-cli: full log: %s\n", printer.logFile().c_str());
                std::fprintf(stderr, "%s\n", errorLine(error).c_str()); // last line: what failed and what to do
                if (asJson)
                    std::fprintf(stdoutStream, "%s\n", Protocol::toLine(Json{{"error", error}}).c_str());
                rc = error.value("code", std::string()) == Protocol::Code::Cancelled ? kExitInterrupted : kExitFailed;
            }

            return rc;
        };
        if (showVersion) {
            std::fprintf(stdoutStream, "aotstudio %s (engine protocol %d)\n", hello.value("engine_version", "").c_str(),
                         hello.value("protocol", 0));
            std::fprintf(stdoutStream, "torch %s, CUDA %s, Python %s\n", hello.value("torch_version", "unavailable").c_str(),
                         hello.value("cuda_version", "none").c_str(), hello.value("python_version", "?").c_str());
            for (const auto &d : hello.value("devices", Json::array())) {
                std::string line = "device: " + d.value("type", "");
                if (d.contains("index"))
                    line += ":" + std::to_string(d.value("index", 0));
                line += "  " + d.value("name", "");
                if (d.contains("capability"))
                    line += "  (compute capability " + d.value("capability", "") + ")";
                std::fprintf(stdoutStream, "%s\n", line.c_str());
            }
            if (!hello.value("cuda_available", false))
                std::fprintf(stdoutStream, "device: no CUDA device (CPU only)\n");
            if (auto e = engine.startupError()) {
                std::fprintf(stderr, "%s\n", errorLine(Protocol::makeError(0, *e)).c_str());
                rc = kExitFailed;
            }
        } else if (*quantizeCmd) {
            rc = runJob(Cli::quantizeRequest(quantizeOptions), quantizeOptions.json);
        } else if (*profileCmd) {
            rc = runJob(Cli::profileRequest(profileOptions), profileOptions.json);
        } else if (*sweepCmd) {
            rc = runJob(Cli::sweepRequest(sweepOptions), sweepOptions.json);
        } else if (*exportCmd) {
            Json request{{"type", "export"}, {"id", 1}, {"out", exportOut}, {"pad_safe", padSafe}, {"zip", !noZip},
                         {"cold_start_runs", coldStartRuns}};
            if (!exportFrom.empty())
                request["from"] = std::filesystem::absolute(exportFrom).string();
            if (!exportModel.empty())
                request["model"] = exportModel;
            if (exportCmd->count("--device"))
                request["device"] = device;
            if (!exportDynamic.empty())
                request["dynamic"] = exportDynamic;
            if (!signKey.empty())
                request["sign_key"] = std::filesystem::absolute(signKey).string();
            if (noSharedWeights)
                request["shared_weights"] = false;
            if (!bucketSpec.empty()) {
                // batch=1,4,16 (the "batch=" prefix names the dimension; version 1 knows only batch)
                std::string list = bucketSpec.rfind("batch=", 0) == 0 ? bucketSpec.substr(6) : bucketSpec;
                Json buckets = Json::array();
                std::size_t pos = 0;
                while (pos <= list.size()) {
                    const auto comma = list.find(',', pos);
                    const std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
                    char *end = nullptr;
                    const long v = std::strtol(item.c_str(), &end, 10);
                    if (item.empty() || *end != '\0' || v < 1) {
                        std::fprintf(stderr, "aotstudio-cli: --buckets: cannot read '%s'; write batch=1,4,16\n", bucketSpec.c_str());
                        std::_Exit(kExitUsage);
                    }
                    buckets.push_back(v);
                    if (comma == std::string::npos)
                        break;
                    pos = comma + 1;
                }
                request["buckets"] = buckets;
            }
            if (!dynamicBatchSpec.empty()) {
                long lo = 0, hi = 0;
                char tail = 0;
                if (std::sscanf(dynamicBatchSpec.c_str(), "%ld:%ld%c", &lo, &hi, &tail) != 2 || lo < 1 || lo > hi) {
                    std::fprintf(stderr, "aotstudio-cli: --dynamic-batch: cannot read '%s'; write MIN:MAX, e.g. 1:64\n",
                                 dynamicBatchSpec.c_str());
                    std::_Exit(kExitUsage);
                }
                request["dynamic_batch"] = Json::array({lo, hi});
            }
            rc = runJob(request, exportJson);
        } else {
            Json request{{"type", "compile"}, {"id", 1},        {"model", model},        {"device", device},
                         {"out", out},        {"runs", runs},   {"min_runs", std::min(minRuns, runs)},
                         {"warmup", warmup},  {"max_seconds", maxSeconds},
                         {"dtype", dtype},    {"max_autotune", maxAutotune},
                         {"allow_cache", allowCache}, {"snapshots", !noSnapshots}, {"dynamic", dynamic}};
            if (freezing || noFreezing)
                request["freezing"] = freezing; // else the front end decides (on for quantize/dequantize graphs)
            if (!submodule.empty())
                request["model"] = model + "#" + submodule;
            if (regional) {
                request["regional"] = true;
                request["compare_whole"] = compareWhole;
            }
            if (toleranceOpt)
                request["tolerance"] = *toleranceOpt; // else the frontend's default for the dtype
            request["verify_samples"] = verifySamples;
            if (verifyShapes)
                request["verify_shapes"] = *verifyShapes;
            Cli::setThreads(request, threads);
            rc = runJob(request, json);
        }
        std::fflush(nullptr);
        // Leave without running torch's and Python's static destructors (Python is never finalized).
        std::_Exit(rc);
    }
}
