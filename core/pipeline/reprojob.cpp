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
    if (!fs::exists(errorFile)) {
        if (fs::exists(jobDir / "result.json"))
            throw badRequest(jobDir.string() + " holds a compile that succeeded (result.json): nothing to reproduce",
                             "repro takes the folder of a failed compile (error.json)");
        throw badRequest(jobDir.string() + " holds no failed compile (no error.json)",
                         "give the --out folder of a compile that failed");
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
                             + "': repro covers compile failures (compile_failed) and verify mismatches (mismatch)",
                         code == Protocol::Code::ExportFailed ? "an export failure has no exported program to save; "
                                                                "torch.export.draft_export() lists its problems"
                                                              : "");
    const Json original = error.value("request", Json());
    if (!original.is_object() || !original.contains("model"))
        throw badRequest(errorFile.string() + " does not record the request that failed (written before repro existed)",
                         "compile it again with this version, then run repro on that folder");

    const fs::path folder = request.value("out", (jobDir / "repro").string());
    Json jobRequest = original;
    const Scratch scratch;
    jobRequest["out"] = scratch.path().string();
    jobRequest["staging"] = false;
    jobRequest["snapshots"] = false;
    jobRequest["cache"] = false;
    const Json failure{{"stage", error.value("stage", std::string())},
                       {"code", code},
                       {"message", error.value("message", std::string())}};
    try {
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
                const Json what{{"folder", folder.string()}, {"failure", failure}};
                Json r = job.call("write_repro", Json::array({what}));
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
    } catch (const Python::FrontendException &e) {
        if (!e.details().empty())
            ctx.log("debug", e.details());
        throw JobFailed(e.error());
    }
}

} // namespace AotStudio::Pipeline
