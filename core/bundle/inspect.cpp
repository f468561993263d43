// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/inspect.h"

#include "bundle/compat.h"

#include "bundle/bundle.h"
#include "bundle/guards.h"
#include "bundle/signing.h"
#include "bundle/text.h"

#include <zip.h>

#include <algorithm>
#include <map>
#include <memory>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

namespace {

constexpr zip_uint64_t kMaxRecordBytes = 64ull << 20;

/// The manifest's tensor specs as inspect prints them. With `buckets` (inputs): a dimension that a
/// bucket's guards make dynamic is shown by its symbol's name ("seq", "x.shape[2]"), not by the
/// example's size the manifest records, and listed in `dynamic` with its range.
json specsJson(const std::vector<TensorSpec> &specs, const std::vector<Bucket> *buckets = nullptr)
{
    json out = json::array();
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto &s = specs[i];
        json shape = json::array();
        for (auto d : s.shape)
            shape.push_back(d == kBatchDim ? json("batch") : json(d));
        json spec{{"shape", shape}, {"dtype", s.dtype}};
        if (!s.name.empty())
            spec["name"] = s.name;
        json dynamic = json::array();
        for (std::size_t d = 1; buckets && d < s.shape.size(); ++d) {
            for (const auto &b : *buckets) {
                if (!b.guards)
                    continue;
                const auto bindings = b.guards->bindings();
                const auto it = std::find_if(bindings.begin(), bindings.end(),
                                             [&](const InputGuards::Binding &x) { return x.input == i && x.dim == d; });
                if (it == bindings.end())
                    continue;
                const auto sym = b.guards->symbols()[it->symbol];
                std::string name = sym.label;
                if (it->coeff != 1 || it->offset != 0)
                    name = (it->coeff != 1 ? std::to_string(it->coeff) + "*" : std::string()) + name +
                           (it->offset ? (it->offset > 0 ? "+" : "") + std::to_string(it->offset) : std::string());
                spec["shape"][d] = name;
                dynamic.push_back({{"dim", d}, {"name", name}, {"min", sym.min ? json(it->coeff * *sym.min + it->offset) : json()},
                                   {"max", sym.max ? json(it->coeff * *sym.max + it->offset) : json()}, {"bucket", b.name}});
                break;
            }
        }
        if (!dynamic.empty())
            spec["dynamic"] = dynamic;
        out.push_back(std::move(spec));
    }
    return out;
}

/// Read one entry fully (for small records); nullopt when too large or unreadable.
std::optional<std::string> readEntry(zip_t *z, zip_uint64_t index, zip_uint64_t size)
{
    if (size > kMaxRecordBytes)
        return std::nullopt;
    zip_file_t *f = zip_fopen_index(z, index, 0);
    if (!f)
        return std::nullopt;
    std::string data(size, '\0');
    zip_uint64_t done = 0;
    while (done < size) {
        const zip_int64_t n = zip_fread(f, data.data() + done, size - done);
        if (n <= 0)
            break;
        done += static_cast<zip_uint64_t>(n);
    }
    const int rc = zip_fclose(f);
    if (done != size || rc != 0)
        return std::nullopt;
    return data;
}

std::string trim(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

/// `j[key]` when `j` is an object holding a string there, else `fallback`. Records inside a .pt2
/// come from outside: json::value() would throw type_error on a field of another type.
std::string stringField(const json &j, const char *key, const std::string &fallback)
{
    if (!j.is_object())
        return fallback;
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

/// `j[key]` when `j` is an object holding an integer there, else `fallback`.
long long intField(const json &j, const char *key, long long fallback)
{
    if (!j.is_object())
        return fallback;
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<long long>() : fallback;
}

/// The size of `j[key]` when it is an array, else 0.
std::size_t arraySize(const json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_array() ? it->size() : 0;
}

/// Run `describe`, turning any BundleError into one whose message and problems are valid UTF-8
/// (they may quote file names, zip entries or manifest bytes that are not).
template<typename F>
json describeSafely(F &&describe)
{
    try {
        return validUtf8Json(describe());
    } catch (const BundleError &e) {
        std::vector<std::string> problems;
        for (const auto &p : e.problems())
            problems.push_back(validUtf8(p));
        throw BundleError(validUtf8(e.what()), std::move(problems));
    }
}

/// A file of an AOTInductor package (`rest`: its path under data/aotinductor/, MODEL/FILE) into
/// `models[MODEL]`: counted, a shared object listed (never opened or loaded), the metadata and the
/// kernel count read from their JSON files.
void addAotiFile(json &models, zip_t *z, zip_uint64_t index, zip_uint64_t size, const std::string &rest)
{
    const auto slash = rest.find('/');
    if (slash == std::string::npos)
        return;
    const std::string model = rest.substr(0, slash);
    const std::string file = rest.substr(slash + 1);
    json &m = models[model];
    if (!m.contains("metadata")) {
        m["metadata"] = json::object();
        m["shared_objects"] = json::array();
        m["files"] = 0;
    }
    m["files"] = m["files"].get<int>() + 1;
    if (file.size() > 3 && file.compare(file.size() - 3, 3, ".so") == 0)
        m["shared_objects"].push_back(file); // listed, never opened or loaded
    const std::string suffix = "_metadata.json";
    if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
        if (auto data = readEntry(z, index, size)) {
            const json meta = json::parse(*data, nullptr, false);
            if (meta.is_object())
                for (const auto &[k, v] : meta.items())
                    m["metadata"][k] = v;
        }
    }
    if (file == "kernel_information.json") {
        if (auto data = readEntry(z, index, size)) {
            const json info = json::parse(*data, nullptr, false);
            if (info.is_object())
                m["kernels"] = info.size();
        }
    }
}

/// An exported program's models/MODEL.json entry: its schema and torch version, node count, inputs,
/// outputs and ops by target; {"readable": false} when it has no graph.
json describeProgram(zip_t *z, zip_uint64_t index, zip_uint64_t size)
{
    json m = json::object();
    const auto data = readEntry(z, index, size);
    const json program = data ? json::parse(*data, nullptr, false) : json();
    const json *graph = nullptr;
    if (program.is_object() && program.contains("graph_module") && program["graph_module"].is_object() &&
        program["graph_module"].contains("graph") && program["graph_module"]["graph"].is_object())
        graph = &program["graph_module"]["graph"];
    if (!graph) {
        m["readable"] = false;
        return m;
    }
    if (program.contains("schema_version") && program["schema_version"].is_object())
        m["schema_version"] = std::to_string(intField(program["schema_version"], "major", 0)) + "." +
                              std::to_string(intField(program["schema_version"], "minor", 0));
    if (program.contains("torch_version") && program["torch_version"].is_string())
        m["torch_version"] = program["torch_version"];
    std::map<std::string, int> ops;
    int nodes = 0;
    if (const auto list = graph->find("nodes"); list != graph->end() && list->is_array()) {
        for (const auto &n : *list) {
            ++nodes;
            ++ops[stringField(n, "target", "?")];
        }
    }
    m["nodes"] = nodes;
    m["inputs"] = arraySize(*graph, "inputs");
    m["outputs"] = arraySize(*graph, "outputs");
    m["ops"] = ops;
    return m;
}

json describePt2(const fs::path &path)
{
    int code = 0;
    zip_t *z = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        const std::string why = zip_error_strerror(&e);
        zip_error_fini(&e);
        throw BundleError("'" + path.string() + "' cannot be read as a .pt2 archive: " + why +
                          (code == ZIP_ER_NOENT || code == ZIP_ER_OPEN ? "" : " (truncated, corrupt or not a zip)"));
    }
    std::unique_ptr<zip_t, decltype(&zip_discard)> guard(z, &zip_discard);

    struct Entry {
        std::string name;
        zip_uint64_t index, size, csize;
    };
    std::vector<Entry> entries;
    const zip_int64_t count = zip_get_num_entries(z, 0);
    json entriesJson = json::array();
    zip_uint64_t total = 0;
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st) != 0)
            throw BundleError("'" + path.string() + "': entry " + std::to_string(i) + " cannot be read: " + zip_strerror(z));
        Entry e{st.name ? st.name : "", static_cast<zip_uint64_t>(i), st.size, st.comp_size};
        total += e.size;
        entriesJson.push_back({{"name", e.name}, {"bytes", e.size}, {"compressed_bytes", e.csize}});
        entries.push_back(std::move(e));
    }

    // PyTorch archives keep every record under one top-level directory (the archive name).
    std::string prefix;
    if (!entries.empty()) {
        const auto slash = entries.front().name.find('/');
        if (slash != std::string::npos) {
            prefix = entries.front().name.substr(0, slash + 1);
            for (const auto &e : entries)
                if (e.name.rfind(prefix, 0) != 0) {
                    prefix.clear();
                    break;
                }
        }
    }

    json out{{"path", path.string()}, {"archive", prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1)},
             {"entries", entriesJson}, {"bytes", total}};
    const std::map<std::string, const char *> records{{"archive_format", "archive_format"},
                                                      {"archive_version", "archive_version"},
                                                      {".data/version", "data_version"},
                                                      {"byteorder", "byteorder"}};
    json aotiModels = json::object();
    json epModels = json::object();
    for (const auto &e : entries) {
        if (e.name.rfind(prefix, 0) != 0)
            continue;
        const std::string rel = e.name.substr(prefix.size());
        if (auto it = records.find(rel); it != records.end()) {
            if (auto data = readEntry(z, e.index, e.size))
                out[it->second] = trim(*data);
            continue;
        }
        const std::string aotiDir = "data/aotinductor/";
        if (rel.rfind(aotiDir, 0) == 0) {
            addAotiFile(aotiModels, z, e.index, e.size, rel.substr(aotiDir.size()));
            continue;
        }
        const std::string modelsDir = "models/";
        if (rel.rfind(modelsDir, 0) == 0 && rel.size() > 5 && rel.compare(rel.size() - 5, 5, ".json") == 0 &&
            rel.find('/', modelsDir.size()) == std::string::npos) {
            const std::string model = rel.substr(modelsDir.size(), rel.size() - modelsDir.size() - 5);
            epModels[model] = describeProgram(z, e.index, e.size);
        }
    }
    std::vector<std::string> names; // the kind is decided as the runner decides it (pt2Kind)
    for (const auto &e : entries)
        names.push_back(e.name);
    switch (pt2Kind(names)) {
    case Pt2Kind::AotiPackage:
        out["kind"] = "aoti_package";
        out["aoti"] = {{"models", aotiModels}};
        // What it was built for, from its files (bundle/compat.h); a package records no torch version.
        out["compat"] = packageCompat(readPackageTarget(path), "");
        break;
    case Pt2Kind::ExportedProgram:
        out["kind"] = "exported_program";
        out["exported_program"] = {{"models", epModels}};
        break;
    default:
        out["kind"] = "unknown";
    }
    return out;
}

json describeBundle(const fs::path &path, const std::function<std::vector<std::string>(const Manifest &)> &runsHere,
                    const TrustStore *trust, bool allowUnsigned)
{
    std::vector<Problem> problems;
    const OpenedBundle b = openBundleUnverified(path, problems);
    const Manifest &m = b.manifest;
    json buckets = json::array();
    for (const auto &bucket : m.buckets) {
        json j{{"name", bucket.name}, {"package", bucket.package}};
        if (bucket.batch)
            j["batch"] = *bucket.batch;
        else {
            j["batch_min"] = bucket.batchMin;
            j["batch_max"] = bucket.batchMax;
        }
        if (auto it = m.files.find(bucket.package); it != m.files.end())
            j["bytes"] = it->second.bytes;
        buckets.push_back(j);
    }
    std::uintmax_t bytes = 0;
    for (const auto &[_, f] : m.files)
        bytes += f.bytes;
    json problemLines = json::array();
    for (const auto &p : problems)
        problemLines.push_back(p.message);
    json out{{"path", b.source.string()},
                {"root", b.extracted ? std::string() : b.root.string()},
                {"zip", static_cast<bool>(b.extracted)},
                {"format_version", m.formatVersion},
                {"model", m.model},
                {"device", m.device},
                {"compute_capability", m.computeCapability.empty() ? json() : json(m.computeCapability)},
                {"torch_version", m.torchVersion},
                {"cuda_version", m.cudaVersion},
                {"quantization", m.quantization},
                {"producer", m.producer},
                {"created", m.created},
                {"pad_safe", m.padSafe},
                {"inputs", specsJson(m.inputs, &m.buckets)},
                {"outputs", specsJson(m.outputs)},
                {"buckets", buckets},
                {"files", m.files.size()},
                {"bytes", bytes},
                {"problems", problemLines},
                {"ok", problems.empty()},
                {"compat", m.raw.value("compat", json())}};
    if (runsHere) {
        const auto why = runsHere(m);
        out["runs_here"] = {{"ok", why.empty()}, {"reasons", why}};
    }
    const TrustStore none;
    const TrustStore &store = trust ? *trust : none;
    const SignatureCheck signature = checkSignature(b, store);
    json sig = signature.toJson();
    sig["summary"] = describeSignature(signature, store, allowUnsigned);
    const auto refusal = signatureRefusal(signature, store, allowUnsigned, path.string());
    sig["refused"] = refusal ? json(*refusal) : json();
    sig["refused_by_trust"] = refusal.has_value() && refusalIsTrust(signature); // lifted by --allow-unsigned
    out["signature"] = sig;
    return out;
}

} // namespace

json inspectPt2(const fs::path &path)
{
    return describeSafely([&] { return describePt2(path); });
}

json inspectBundle(const fs::path &path, const std::function<std::vector<std::string>(const Manifest &)> &runsHere,
                   const TrustStore *trust, bool allowUnsigned)
{
    return describeSafely([&] { return describeBundle(path, runsHere, trust, allowUnsigned); });
}

} // namespace AotStudio::Bundle
