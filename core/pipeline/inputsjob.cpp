// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/inputsjob.h"

#include "python/frontend.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

constexpr StageSpan kInputsStages[] = {{"load", 0.00, 1.00}};

/// A folder made for this job under the temporary directory, removed with everything in it when
/// the job ends (the compile job's options want an `out`; nothing is written there but its lock).
class ScratchFolder
{
public:
    ScratchFolder()
    {
        std::error_code ec;
        std::string pattern = (fs::temp_directory_path(ec) / "aotstudio-inputs-XXXXXX").string();
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (ec || !::mkdtemp(buf.data()))
            throw JobFailed({"load", Protocol::Code::Internal, "cannot make a scratch folder under '" + pattern + "'",
                             "set TMPDIR to a writable folder on the engine's machine"});
        m_path = buf.data();
    }
    ~ScratchFolder()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;
    const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

} // namespace

Json runInputs(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kInputsStages);
    const std::string model = request.value("model", std::string());
    if (model.empty())
        throw JobFailed(
            {"load", Protocol::Code::BadRequest, "inputs needs a model", "pass a model spec such as sample:mlp"});
    Json jobRequest{{"model", model}, {"snapshots", false}};
    for (const char *k : {"device", "dtype", "shapes"})
        if (request.contains(k))
            jobRequest[k] = request[k];
    const ScratchFolder scratch;
    jobRequest["out"] = scratch.path().string();
    Json result;
    {
        Python::CompileJob job(
            jobRequest,
            [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
                ctx.log(level, message, msg);
            },
            ctx.sink(), ctx.stopToken());
        result = ctx.stage("load", "building the model and example inputs", [&](Json &) {
            const Json loaded = job.load();
            Json described = job.call("describe_inputs");
            described["parameters"] = loaded.value("parameters", Json());
            described["outputs"] = loaded.value("outputs", Json::array());
            described["torch_version"] = loaded.value("torch_version", std::string());
            return described;
        });
        ctx.checkStop("load"); // a cancel while Python built the model: no result after it
    } // the job's lock in the scratch folder is released here, before the folder goes
    result["model"] = model;
    result["device"] = request.value("device", std::string("cpu"));
    result["dtype"] = request.value("dtype", std::string("fp32"));
    result["shapes"] = request.value("shapes", Json());
    return result;
}

} // namespace AotStudio::Pipeline
