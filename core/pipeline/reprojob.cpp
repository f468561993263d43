// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/reprojob.h"

#include "python/frontend.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

constexpr StageSpan kReproStages[]
    = {{"load", 0.00, 0.15}, {"export", 0.15, 0.40}, {"write", 0.40, 0.45}, {"confirm", 0.45, 1.00}};

JobFailed badRequest(const std::string &message, const std::string &hint)
{
    return JobFailed({"load", Protocol::Code::BadRequest, message, hint});
}

/// The compile's own folder for the job's lock: a scratch folder under the temporary directory,
/// removed with everything in it when the job ends (nothing of the original job is touched).
class Scratch
{
public:
    Scratch()
    {
        std::error_code ec;
        std::string pattern = (fs::temp_directory_path(ec) / "aotstudio-repro-XXXXXX").string();
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (ec || !::mkdtemp(buf.data()))
            throw JobFailed({"load", Protocol::Code::Internal, "cannot make a scratch folder under '" + pattern + "'",
                             "set TMPDIR to a writable folder on the engine's machine"});
        m_path = buf.data();
    }
    ~Scratch()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

} // namespace

Json runRepro(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kReproStages);
    const fs::path jobDir = request.value("job", std::string());
    if (jobDir.empty())
        throw badRequest("repro needs the folder of a failed compile (job)", "pass a compile's --out folder");
    const fs::path errorFile = jobDir / "error.json";
    const fs::path numericsFile = jobDir / "numerics.json";
    Json original;
    Json failure;
    Json numerics; // a numerics divergence: the numerics result
    if (!fs::exists(errorFile) && fs::exists(numericsFile)) {
        try {
            std::ifstream in(numericsFile);
            numerics = Json::parse(in);
        } catch (const std::exception &e) {
            throw badRequest(numericsFile.string() + " is not JSON: " + e.what(), "run numerics again");
        }
        const Json first = numerics.value("first_divergent", Json());
        const bool diverged = first.is_object()
            && ((first.contains("compiled") && first["compiled"].is_object())
                || (first.contains("eager") && first["eager"].is_object()));
        if (!diverged)
            throw badRequest("the numerics job in " + jobDir.string()
                                 + " found no divergent node (every node within its tolerance): nothing to reproduce",
                             "a numerics repro needs a node past the tolerance (numerics.json first_divergent)");
        original = numerics.value("request", Json());
        if (!original.is_object() || !original.contains("model")) {
            // Written before numerics recorded its request: the model, device and dtype it names.
            original = Json{{"model", numerics.value("model", std::string())},
                            {"device", numerics.value("device", std::string("cpu"))},
                            {"dtype", numerics.value("dtype", std::string("fp32"))}};
            ctx.log("warning",
                    numericsFile.string()
                        + " does not record its request: rebuilt from its model, device and dtype "
                          "(options such as freezing or Inductor settings of that run are not known)");
        }
        original.erase("tolerance");
        failure = Json{
            {"stage", "numerics"}, {"code", "divergence"}, {"message", numerics.value("verdict", std::string())}};
    } else {
        if (!fs::exists(errorFile)) {
            if (fs::exists(jobDir / "result.json"))
                throw badRequest(jobDir.string()
                                     + " holds a compile that succeeded (result.json): nothing to reproduce",
                                 "repro takes the folder of a failed compile (error.json) or of a numerics job that "
                                 "found a divergence (numerics.json)");
            throw badRequest(jobDir.string()
                                 + " holds no failed compile (no error.json) and no numerics job (no "
                                   "numerics.json)",
                             "give the --out folder of a compile that failed or of a numerics job");
        }
        Json error;
        try {
            std::ifstream in(errorFile);
            error = Json::parse(in);
        } catch (const std::exception &e) {
            throw badRequest(errorFile.string() + " is not JSON: " + e.what(), "");
        }
        const std::string code = error.value("code", std::string());
        if (code != Protocol::Code::CompileFailed && code != Protocol::Code::Mismatch)
            throw badRequest("the compile in " + jobDir.string() + " failed with '" + code
                                 + "': repro covers compile failures (compile_failed), verify mismatches (mismatch) "
                                   "and numerics divergences",
                             code == Protocol::Code::ExportFailed
                                 ? "an export failure has no exported program to save; "
                                   "torch.export.draft_export() lists its problems"
                                 : "");
        original = error.value("request", Json());
        if (!original.is_object() || !original.contains("model"))
            throw badRequest(errorFile.string()
                                 + " does not record the request that failed (written before repro existed)",
                             "compile it again with this version, then run repro on that folder");
        failure = Json{{"stage", error.value("stage", std::string())},
                       {"code", code},
                       {"message", error.value("message", std::string())}};
    }

    const fs::path folder = request.value("out", (jobDir / "repro").string());
    Json jobRequest = original;
    const Scratch scratch;
    jobRequest["out"] = scratch.path().string();
    jobRequest["staging"] = false;
    jobRequest["snapshots"] = false;
    jobRequest["cache"] = false;
    Json record;
    {
        Python::CompileJob job(
            jobRequest,
            [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
                ctx.log(level, message, msg);
            },
            ctx.sink(), ctx.stopToken());
        ctx.stage("load", "building the model and example inputs", [&](Json &) { return job.load(); });
        ctx.stage("export", "capturing the graph with torch.export", [&](Json &) { return job.exportGraph(); });
        record = ctx.stage("write", "writing the repro folder", [&](Json &a) {
            Json what{{"folder", folder.string()}, {"failure", failure}};
            if (!numerics.is_null())
                what["numerics"] = numerics;
            Json r = job.call(numerics.is_null() ? "write_repro" : "write_numerics_repro", Json::array({what}));
            a["repro"] = folder.string();
            return r;
        });
        if (request.value("run", true))
            record = ctx.stage("confirm", "running repro.py once in a fresh process", [&](Json &) {
                return job.call(
                    "confirm_repro",
                    Json::array({Json{{"record", record}, {"timeout", request.value("timeout_s", 900.0)}}}));
            });
    } // the job's lock in the scratch folder is released here, before the folder goes
    record["job"] = jobDir.string();
    return record;
}

} // namespace AotStudio::Pipeline
