// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/jobfolder.h"
#include "bundle/bundle.h" // the bundle layout

#include "graph/graph.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

namespace AotStudio::Compare {

namespace fs = std::filesystem;
using nlohmann::json;

const char *toString(JobKind kind)
{
    switch (kind) {
    case JobKind::Compile:
        return "compile";
    case JobKind::Profile:
        return "profile";
    case JobKind::QuantizeScheme:
        return "quantize scheme";
    case JobKind::Bundle:
        return "bundle";
    }
    return "?";
}

json readJson(const fs::path &path, std::uintmax_t maxBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw CompareError("cannot read '" + path.string() + "'");
    std::string text;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > maxBytes)
            throw CompareError("'" + path.string() + "' is larger than " + std::to_string(maxBytes >> 20)
                + " MiB, the most a job file may take; it is not a file AOT Studio wrote");
    }
    if (in.bad())
        throw CompareError("cannot read '" + path.string() + "'");
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded())
        throw CompareError("'" + path.string() + "' is not valid JSON (cut short or edited?)");
    return j;
}

std::string stringField(const json &j, const char *key)
{
    if (!j.is_object())
        return {};
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

namespace {

std::string str(const json &j, const char *key)
{
    return stringField(j, key);
}

std::optional<std::uintmax_t> fileBytes(const fs::path &p)
{
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    if (ec)
        return std::nullopt;
    return n;
}

/// The snapshot files a result's `stages` name, looked up by file name in `snapshotDir`; the last
/// one of each stage, in the order the stages ran. Fusion's IR text and codegen's kernels.json
/// are not graph snapshots and are left out.
std::vector<StageSnapshot> stagesFromResult(const json &stages, const fs::path &snapshotDir)
{
    std::vector<StageSnapshot> out;
    if (!stages.is_array())
        return out;
    for (const auto &s : stages) {
        const std::string recorded = str(s, "snapshot");
        if (recorded.empty() || !recorded.ends_with(".json") || str(s, "name") == "codegen")
            continue;
        const fs::path file = snapshotDir / fs::path(recorded).filename();
        std::error_code ec;
        if (!fs::is_regular_file(file, ec))
            continue;
        const std::string stage = str(s, "name");
        auto it = std::find_if(out.begin(), out.end(), [&](const StageSnapshot &x) { return x.stage == stage; });
        if (it == out.end())
            out.push_back({ stage, str(s, "pass"), file });
        else
            *it = { stage, str(s, "pass"), file }; // a later pass of the stage: the stage's graph as it left it
    }
    return out;
}

/// Without a result's `stages` (a quantize scheme folder): every snapshot file in name order
/// (NNN_stage[_pass].json, numbered as written), its stage and pass read from the file itself.
std::vector<StageSnapshot> stagesFromFolder(const fs::path &snapshotDir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(snapshotDir, ec))
        if (e.is_regular_file() && e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<StageSnapshot> out;
    for (const auto &f : files) {
        json j;
        try {
            j = readJson(f, Graph::kMaxSnapshotBytes);
        } catch (const CompareError &) {
            continue; // an unreadable file is reported when the stage is diffed, if it is one
        }
        if (str(j, "schema") != "aotstudio.graph")
            continue;
        const std::string stage = str(j, "stage");
        auto it = std::find_if(out.begin(), out.end(), [&](const StageSnapshot &x) { return x.stage == stage; });
        if (it == out.end())
            out.push_back({ stage, str(j, "pass"), f });
        else
            *it = { stage, str(j, "pass"), f };
    }
    return out;
}

void fillFromResult(JobFolder &job, const json &r)
{
    job.result = r;
    job.model = str(r, "model");
    job.device = str(r, "device");
    job.dtype = str(r, "dtype");
    job.torchVersion = str(r, "torch_version");
    job.torchaoVersion = str(r, "torchao_version");
    job.cudaVersion = str(r, "cuda_version");
    if (r.contains("options") && r["options"].is_object())
        job.options = r["options"];
    if (r.contains("package_bytes") && r["package_bytes"].is_number_unsigned())
        job.packageBytes = r["package_bytes"].get<std::uintmax_t>();
}

/// Snapshots, kernels.json and the package found in `dir` (a compile, profile or scheme folder).
void fillFiles(JobFolder &job, const json &stages)
{
    const fs::path snapshots = job.dir / "snapshots";
    std::error_code ec;
    if (fs::is_directory(snapshots, ec)) {
        job.stages
            = stages.is_array() && !stages.empty() ? stagesFromResult(stages, snapshots) : stagesFromFolder(snapshots);
        if (job.stages.empty())
            job.notes.push_back("no graph snapshots in " + snapshots.string() + ": graphs are not compared");
    } else {
        job.notes.push_back("no snapshots/ folder (compiled with --no-snapshots?): graphs are not compared");
    }
    if (fs::is_regular_file(job.dir / "memory.json", ec))
        job.memoryFile = job.dir / "memory.json";
    if (fs::is_regular_file(job.dir / "fusion.json", ec))
        job.fusionFile = job.dir / "fusion.json";
    if (fs::is_regular_file(job.dir / "kernels.json", ec))
        job.kernelsFile = job.dir / "kernels.json";
    else
        job.notes.push_back(
            "no kernels.json (Inductor wrote no debug trace, e.g. a cache hit): kernels are not compared");
    for (const char *name : { "model.pt2", "model.unverified.pt2" }) {
        if (fs::is_regular_file(job.dir / name, ec)) {
            job.package = job.dir / name;
            if (auto n = fileBytes(job.package))
                job.packageBytes = n;
            if (std::string(name) == "model.unverified.pt2")
                job.notes.push_back("its package failed verification (model.unverified.pt2)");
            break;
        }
    }
}

JobFolder loadBundle(JobFolder job, const json &manifest)
{
    job.kind = JobKind::Bundle;
    job.model = str(manifest, "model");
    job.device = str(manifest, "device");
    job.torchVersion = str(manifest, "torch_version");
    job.cudaVersion = str(manifest, "cuda_version");
    job.scheme = str(manifest, "quantization") == "none" ? std::string() : str(manifest, "quantization");
    const json buckets = manifest.value("buckets", json::array());
    if (!buckets.is_array() || buckets.empty() || !buckets[0].is_object())
        throw CompareError("the bundle '" + job.dir.string() + "' lists no buckets in its manifest.json");
    // The graphs and kernels.json of a bundle are its first bucket's (exportjob.cpp).
    job.bucket = str(buckets[0], "name");
    job.package = job.dir / str(buckets[0], "package");
    if (auto n = fileBytes(job.package))
        job.packageBytes = n;
    else if (const json f = manifest.value("files", json::object()).value(str(buckets[0], "package"), json());
             f.is_object() && f.value("bytes", json()).is_number_unsigned())
        job.packageBytes = f["bytes"].get<std::uintmax_t>();
    std::error_code ec;
    const fs::path report = job.dir / Bundle::kReportDir / (job.bucket + ".json");
    json stages;
    if (fs::is_regular_file(report, ec)) {
        const json r = readJson(report);
        const std::string model = job.model, device = job.device;
        fillFromResult(job, r);
        job.model = model.empty() ? job.model : model;
        job.device = device.empty() ? job.device : device;
        stages = r.value("stages", json());
    } else {
        job.notes.push_back("no report/" + job.bucket + ".json: options are not compared");
    }
    const fs::path graphs = job.dir / Bundle::kGraphsDir;
    if (fs::is_directory(graphs, ec)) {
        job.stages = stages.is_array() && !stages.empty() ? stagesFromResult(stages, graphs) : stagesFromFolder(graphs);
        if (fs::is_regular_file(graphs / "kernels.json", ec))
            job.kernelsFile = graphs / "kernels.json";
    }
    if (job.stages.empty())
        job.notes.push_back("the bundle holds no graph snapshots (graphs/): graphs are not compared");
    if (job.kernelsFile.empty())
        job.notes.push_back("the bundle holds no graphs/kernels.json: kernels are not compared");
    if (buckets.size() > 1)
        job.notes.push_back("bundle of " + std::to_string(buckets.size()) + " buckets: bucket '" + job.bucket
            + "' is compared (its graphs and kernels are the ones the bundle keeps)");
    return job;
}

/// `dir` as a scheme folder of a quantize output: the quantize.json row whose `out` names it.
std::optional<JobFolder> loadQuantizeScheme(JobFolder job)
{
    const fs::path parent = job.dir.parent_path();
    std::error_code ec;
    if (!fs::is_regular_file(parent / "quantize.json", ec))
        return std::nullopt;
    const json q = readJson(parent / "quantize.json");
    for (const auto &row : q.value("schemes", json::array())) {
        const std::string out = str(row, "out");
        const std::string scheme = str(row, "scheme");
        if (fs::path(out).filename() != job.dir.filename() && scheme != job.dir.filename().string())
            continue;
        if (str(row, "status") != "ok")
            throw CompareError("'" + job.dir.string() + "' is the quantize scheme " + scheme
                + ", which did not compile (" + str(row, "status") + ": " + str(row, "reason")
                + "); pick a scheme whose status is ok");
        job.kind = JobKind::QuantizeScheme;
        job.result = row;
        job.model = str(q, "model");
        job.device = str(q, "device");
        job.scheme = scheme;
        job.torchVersion = str(q, "torch_version");
        job.torchaoVersion = str(q, "torchao_version");
        // The scheme is the recipe; newer rows also carry the scheme compile's options.
        if (row.contains("options") && row["options"].is_object())
            job.options = row["options"];
        job.options["scheme"] = scheme;
        job.dtype = str(job.options, "dtype");
        if (row.contains("package_bytes") && row["package_bytes"].is_number_unsigned())
            job.packageBytes = row["package_bytes"].get<std::uintmax_t>();
        fillFiles(job, json());
        std::error_code e2;
        if (fs::is_regular_file(job.dir / "profile.json", e2))
            job.profile = readJson(job.dir / "profile.json");
        return job;
    }
    return std::nullopt;
}

} // namespace

namespace {
JobFolder loadJobFolderUnchecked(const fs::path &dirIn);
}

JobFolder loadJobFolder(const fs::path &dir)
{
    try {
        return loadJobFolderUnchecked(dir);
    } catch (const json::exception &e) {
        throw CompareError(
            "a file of '" + dir.string() + "' does not have the shape AOT Studio writes (" + e.what() + ")");
    }
}

namespace {

JobFolder loadJobFolderUnchecked(const fs::path &dirIn)
{
    std::error_code ec;
    JobFolder job;
    job.dir = fs::absolute(dirIn, ec).lexically_normal();
    if (job.dir.has_filename() == false && job.dir.has_parent_path())
        job.dir = job.dir.parent_path(); // "DIR/" -> "DIR"
    if (!fs::exists(job.dir, ec))
        throw CompareError("'" + dirIn.string()
            + "' does not exist; pass a job folder (what compile, profile, export or "
              "quantize --out wrote)");
    if (!fs::is_directory(job.dir, ec))
        throw CompareError("'" + dirIn.string()
            + "' is a file, not a job folder; pass the folder a compile, profile, export "
              "or quantize wrote (the one holding result.json, profile.json or manifest.json)");

    if (fs::is_regular_file(job.dir / Bundle::kManifestName, ec)) {
        const json manifest = readJson(job.dir / Bundle::kManifestName);
        if (str(manifest, "format") == Bundle::kFormat)
            return loadBundle(std::move(job), manifest);
    }
    const bool hasResult = fs::is_regular_file(job.dir / "result.json", ec);
    const bool hasProfile = fs::is_regular_file(job.dir / "profile.json", ec);
    if (hasResult) {
        const json r = readJson(job.dir / "result.json");
        if (!r.is_object() || str(r, "model").empty())
            throw CompareError(
                "'" + (job.dir / "result.json").string() + "' is not a compile result (it names no model)");
        job.kind = JobKind::Compile;
        fillFromResult(job, r);
        fillFiles(job, r.value("stages", json()));
        if (hasProfile)
            job.profile = readJson(job.dir / "profile.json");
        return job;
    }
    if (hasProfile) {
        const json p = readJson(job.dir / "profile.json");
        if (str(p, "format") != "aotstudio.profile")
            throw CompareError(
                "'" + (job.dir / "profile.json").string() + "' is not a profile (its format is not aotstudio.profile)");
        job.kind = JobKind::Profile;
        fillFromResult(job, p);
        job.profile = p;
        if (job.options.empty())
            job.options = json { { "device", job.device }, { "dtype", job.dtype } };
        fillFiles(job, p.value("stages", json()));
        if (str(p, "package_source") == "given")
            job.notes.push_back(
                "profiled a given package (--package): its graphs and kernels are those found beside it, if any");
        return job;
    }
    if (auto scheme = loadQuantizeScheme(job))
        return std::move(*scheme);

    // Not a job: say what is missing, and where the job probably is.
    if (fs::is_regular_file(job.dir / "quantize.json", ec)) {
        const json q = readJson(job.dir / "quantize.json");
        std::string schemes;
        for (const auto &row : q.value("schemes", json::array()))
            if (str(row, "status") == "ok")
                schemes += (schemes.empty() ? "" : ", ") + (job.dir / str(row, "scheme")).string();
        throw CompareError("'" + job.dir.string()
            + "' is a quantize output with one job per scheme; compare two of its scheme "
              "folders"
            + (schemes.empty() ? std::string(" (none compiled)") : ": " + schemes));
    }
    if (fs::is_regular_file(job.dir / "error.json", ec)) {
        std::string why;
        try {
            const json e = readJson(job.dir / "error.json");
            why = str(e, "stage") + " failed (" + str(e, "code") + "): " + str(e, "message");
        } catch (const CompareError &) {
            why = "see error.json";
        }
        throw CompareError("'" + job.dir.string() + "' holds a failed compile (error.json: " + why
            + "); it has no result.json to compare");
    }
    throw CompareError("'" + job.dir.string()
        + "' is not a job folder: it has no result.json (what compile --out writes), "
          "no profile.json (profile --out), no manifest.json (export --out) and no quantize.json beside it "
          "(a quantize scheme folder)");
}

} // namespace

} // namespace AotStudio::Compare
