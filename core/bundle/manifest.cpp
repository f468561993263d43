// SPDX-License-Identifier: GPL-3.0-or-later
// manifest.json: parsed field by field (errors name the field), loaded within its size limit, written.
#include "bundle/bundle_p.h"
#include "bundle/guards.h"
#include "bundle/signing.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace Detail;

namespace {

bool isHex64(const std::string &s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// --- JSON field readers: errors name the origin and the field -----------------------------------

[[noreturn]] void fieldError(const std::string &origin, const std::string &field, const std::string &problem)
{
    throw BundleError(origin + ": " + field + ": " + problem);
}

std::string requireString(const json &j, const char *key, const std::string &origin, const std::string &where = {})
{
    const std::string field = where.empty() ? key : where + "." + key;
    if (!j.contains(key))
        fieldError(origin, field, "missing");
    if (!j.at(key).is_string())
        fieldError(origin, field, "must be a string");
    return j.at(key).get<std::string>();
}

std::string optionalString(const json &j, const char *key, const std::string &origin)
{
    if (!j.contains(key) || j.at(key).is_null())
        return {};
    if (!j.at(key).is_string())
        fieldError(origin, key, "must be a string or null");
    return j.at(key).get<std::string>();
}

long long requireInt(const json &j, const char *key, const std::string &origin, const std::string &where)
{
    const std::string field = where + "." + key;
    if (!j.contains(key))
        fieldError(origin, field, "missing");
    if (!j.at(key).is_number_integer())
        fieldError(origin, field, "must be an integer");
    return j.at(key).get<long long>();
}

std::vector<TensorSpec> parseSpecs(const json &j, const char *key, const std::string &origin)
{
    std::vector<TensorSpec> specs;
    if (!j.contains(key))
        fieldError(origin, key, "missing");
    if (!j.at(key).is_array())
        fieldError(origin, key, "must be an array of {shape, dtype}");
    std::size_t i = 0;
    for (const auto &s : j.at(key)) {
        const std::string where = std::string(key) + "[" + std::to_string(i++) + "]";
        if (!s.is_object())
            fieldError(origin, where, "must be an object {shape, dtype}");
        TensorSpec spec;
        spec.dtype = normalizeDtype(requireString(s, "dtype", origin, where));
        if (s.contains("name")) {
            if (!s.at("name").is_string())
                fieldError(origin, where + ".name", "must be a string");
            spec.name = s.at("name").get<std::string>();
        }
        if (!s.contains("shape") || !s.at("shape").is_array())
            fieldError(origin, where + ".shape", "must be an array of sizes and \"batch\"");
        std::size_t d = 0;
        for (const auto &dim : s.at("shape")) {
            if (dim.is_string() && dim.get<std::string>() == "batch") {
                if (d != 0)
                    fieldError(origin, where + ".shape", "\"batch\" may only be dimension 0 (format version 1)");
                spec.shape.push_back(kBatchDim);
            } else if (dim.is_number_integer() && dim.get<long long>() >= 0) {
                spec.shape.push_back(dim.get<long long>());
            } else {
                fieldError(origin, where + ".shape", "sizes must be integers >= 0 or \"batch\", not " + dim.dump());
            }
            ++d;
        }
        specs.push_back(std::move(spec));
    }
    return specs;
}

/// A bucket's `weights` (BUNDLE.md "Shared weights": file name -> {file, dtype, numel}) at `where`
/// into `bucket`. Throws BundleError naming the field (format_version below 2, an unsafe path, a
/// negative numel).
void parseWeights(const json &b, const std::string &where, const std::string &origin, int formatVersion, Bucket &bucket)
{
    if (formatVersion < 2)
        fieldError(origin, where + ".weights", "needs format_version 2 (a version-1 runtime would run the package without them)");
    if (!b.at("weights").is_object())
        fieldError(origin, where + ".weights", "must be an object {file: path}");
    for (const auto &[file, w] : b.at("weights").items()) {
        const std::string at = where + ".weights." + file;
        if (file.empty() || file.find('/') != std::string::npos || !w.is_object())
            fieldError(origin, at, "must map a file name to {\"file\", \"dtype\", \"numel\"}");
        BucketWeight weight;
        weight.file = requireString(w, "file", origin, at);
        weight.dtype = requireString(w, "dtype", origin, at);
        weight.numel = requireInt(w, "numel", origin, at);
        if (!isSafeRelative(weight.file))
            fieldError(origin, at + ".file", "'" + weight.file + "' is not a relative path inside the bundle");
        if (weight.numel < 0)
            fieldError(origin, at + ".numel", "must be >= 0");
        bucket.weights[file] = std::move(weight);
    }
}

/// The bucket `b` at `where` (BUNDLE.md "Manifest" `buckets[]`): name (not one of `names`, which
/// gets it), package, exact batch or dynamic range (one dynamic bucket at most among `earlier`),
/// guards and shared weights. Throws BundleError naming the field.
Bucket parseBucket(const json &b, const std::string &where, const std::string &origin, int formatVersion,
                   const std::vector<Bucket> &earlier, std::set<std::string> &names)
{
    if (!b.is_object())
        fieldError(origin, where, "must be an object");
    Bucket bucket;
    bucket.name = requireString(b, "name", origin, where);
    bucket.package = requireString(b, "package", origin, where);
    if (!isSafeRelative(bucket.package))
        fieldError(origin, where + ".package", "'" + bucket.package + "' is not a relative path inside the bundle");
    if (!names.insert(bucket.name).second)
        fieldError(origin, where + ".name", "'" + bucket.name + "' names two buckets");
    const bool exact = b.contains("batch");
    const bool dynamic = b.contains("batch_min") || b.contains("batch_max");
    if (exact == dynamic)
        fieldError(origin, where, "needs either \"batch\" (exact) or \"batch_min\" and \"batch_max\" (dynamic)");
    if (exact) {
        bucket.batch = requireInt(b, "batch", origin, where);
        if (*bucket.batch < 1)
            fieldError(origin, where + ".batch", "must be >= 1");
    } else {
        bucket.batchMin = requireInt(b, "batch_min", origin, where);
        bucket.batchMax = requireInt(b, "batch_max", origin, where);
        if (bucket.batchMin < 1 || bucket.batchMax < bucket.batchMin)
            fieldError(origin, where, "needs 1 <= batch_min <= batch_max");
        for (const auto &other : earlier)
            if (other.isDynamic())
                fieldError(origin, where, "a second dynamic bucket (at most one is allowed)");
    }
    if (b.contains("guards"))
        bucket.guards = std::make_shared<const InputGuards>(InputGuards::parse(b.at("guards"), origin + ": " + where + ".guards"));
    if (b.contains("weights"))
        parseWeights(b, where, origin, formatVersion, bucket);
    return bucket;
}

/// The manifest's `files` (path -> {sha256, bytes}) into `m`: safe relative paths, never the
/// manifest or its signature, 64 hex digits (lowered), bytes >= 0. Throws BundleError naming the
/// field.
void parseFiles(const json &j, const std::string &origin, Manifest &m)
{
    if (!j.contains("files") || !j.at("files").is_object())
        fieldError(origin, "files", "missing or not an object {path: {sha256, bytes}}");
    for (const auto &[path, entry] : j.at("files").items()) {
        const std::string where = "files[\"" + path + "\"]";
        if (!isSafeRelative(path))
            fieldError(origin, where, "not a relative path inside the bundle");
        if (path == kManifestName)
            fieldError(origin, where, "manifest.json does not list itself");
        if (path == kSignatureName)
            fieldError(origin, where, "manifest.sig is not listed (it signs manifest.json and sits beside it)");
        if (!entry.is_object())
            fieldError(origin, where, "must be an object {sha256, bytes}");
        FileEntry f;
        f.sha256 = requireString(entry, "sha256", origin, where);
        std::transform(f.sha256.begin(), f.sha256.end(), f.sha256.begin(), [](unsigned char c) { return std::tolower(c); });
        if (!isHex64(f.sha256))
            fieldError(origin, where + ".sha256", "must be 64 hex digits");
        const long long bytes = requireInt(entry, "bytes", origin, where);
        if (bytes < 0)
            fieldError(origin, where + ".bytes", "must be >= 0");
        f.bytes = static_cast<std::uintmax_t>(bytes);
        m.files.emplace(path, std::move(f));
    }
}

/// The types of the manifest's `compat` object (BUNDLE.md "Compatibility key"), when present.
/// Throws BundleError naming the field.
void checkCompatFields(const json &j, const std::string &origin)
{
    if (!j.contains("compat") || j.at("compat").is_null())
        return;
    const json &c = j.at("compat");
    if (!c.is_object())
        fieldError(origin, "compat", "must be an object (the compatibility key, BUNDLE.md)");
    for (const char *key : {"key", "torch", "device", "machine", "cpu_isa", "march"})
        if (c.contains(key) && !c.at(key).is_string() && !c.at(key).is_null())
            fieldError(origin, std::string("compat.") + key, "must be a string or null");
    if (c.contains("cpu_features") && (!c.at("cpu_features").is_array() ||
                                       !std::all_of(c.at("cpu_features").begin(), c.at("cpu_features").end(),
                                                    [](const json &f) { return f.is_string(); })))
        fieldError(origin, "compat.cpu_features", "must be an array of CPU flag names");
    if (c.contains("cuda_archs")) {
        const json &a = c.at("cuda_archs");
        if (!a.is_object())
            fieldError(origin, "compat.cuda_archs", "must be an object {\"sass\": [...], \"ptx\": [...]}");
        for (const char *key : {"sass", "ptx"})
            if (a.contains(key) && (!a.at(key).is_array() || !std::all_of(a.at(key).begin(), a.at(key).end(), [](const json &v) {
                                        return v.is_number_integer();
                                    })))
                fieldError(origin, std::string("compat.cuda_archs.") + key, "must be an array of SM numbers (90 = sm_90)");
    }
}

/// The manifest's `signer` ({key_id: 16 lowercase hex digits, algorithm}) into `m`, when present.
/// Throws BundleError naming the field.
void parseSigner(const json &j, const std::string &origin, Manifest &m)
{
    if (!j.contains("signer") || j.at("signer").is_null())
        return;
    const json &s = j.at("signer");
    if (!s.is_object())
        fieldError(origin, "signer", "must be an object {\"key_id\", \"algorithm\"}");
    m.signerKeyId = requireString(s, "key_id", origin, "signer");
    m.signerAlgorithm = requireString(s, "algorithm", origin, "signer");
    if (m.signerKeyId.size() != 16 || !std::all_of(m.signerKeyId.begin(), m.signerKeyId.end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        }))
        fieldError(origin, "signer.key_id", "must be 16 lowercase hex digits (aotstudio-cli keygen prints it)");
}

Manifest parseFields(const json &j, const std::string &origin)
{
    Manifest m;
    m.raw = j;
    m.format = requireString(j, "format", origin);
    if (!j.contains("format_version") || !j.at("format_version").is_number_integer())
        fieldError(origin, "format_version", "missing or not an integer");
    m.formatVersion = j.at("format_version").get<int>();
    m.created = optionalString(j, "created", origin);
    m.producer = optionalString(j, "producer", origin);
    m.model = requireString(j, "model", origin);
    m.torchVersion = requireString(j, "torch_version", origin);
    m.cudaVersion = optionalString(j, "cuda_version", origin);
    m.device = requireString(j, "device", origin);
    if (j.contains("compute_capability") && !j.at("compute_capability").is_null()) {
        const json &cc = j.at("compute_capability");
        if (cc.is_string())
            m.computeCapability = cc.get<std::string>();
        else if (cc.is_number()) {
            std::ostringstream s;
            s << cc.get<double>();
            m.computeCapability = s.str();
            if (m.computeCapability.find('.') == std::string::npos)
                m.computeCapability += ".0";
        } else
            fieldError(origin, "compute_capability", "must be a string such as \"9.0\" or null");
    }
    m.quantization = optionalString(j, "quantization", origin);
    if (m.quantization.empty())
        m.quantization = "none";
    m.inputs = parseSpecs(j, "inputs", origin);
    m.outputs = parseSpecs(j, "outputs", origin);
    if (j.contains("batch")) {
        const json &b = j.at("batch");
        if (!b.is_object())
            fieldError(origin, "batch", "must be an object {\"pad_safe\": bool}");
        if (b.contains("pad_safe")) {
            if (!b.at("pad_safe").is_boolean())
                fieldError(origin, "batch.pad_safe", "must be true or false");
            m.padSafe = b.at("pad_safe").get<bool>();
        }
    }

    if (!j.contains("buckets") || !j.at("buckets").is_array() || j.at("buckets").empty())
        fieldError(origin, "buckets", "missing or empty (a bundle has at least one bucket)");
    std::set<std::string> names;
    std::size_t i = 0;
    for (const auto &b : j.at("buckets"))
        m.buckets.push_back(parseBucket(b, "buckets[" + std::to_string(i++) + "]", origin, m.formatVersion, m.buckets, names));
    parseFiles(j, origin, m);
    checkCompatFields(j, origin);
    parseSigner(j, origin, m);
    return m;
}

} // namespace

std::vector<long long> TensorSpec::withBatch(long long batch) const
{
    std::vector<long long> s = shape;
    for (auto &d : s)
        if (d == kBatchDim)
            d = batch;
    return s;
}

std::map<std::string, BucketWeight> Bucket::weightsUnder(const fs::path &root) const
{
    std::map<std::string, BucketWeight> out;
    for (auto [file, w] : weights) {
        w.file = (root / w.file).string();
        out.emplace(file, std::move(w));
    }
    return out;
}

std::string Bucket::describe() const
{
    if (batch)
        return name + " (batch " + std::to_string(*batch) + ")";
    return name + " (batch " + std::to_string(batchMin) + ".." + std::to_string(batchMax) + ")";
}

std::string normalizeDtype(const std::string &dtype)
{
    return dtype.rfind("torch.", 0) == 0 ? dtype.substr(6) : dtype;
}

Manifest parseManifest(const json &j, const std::string &origin)
{
    if (!j.is_object())
        throw BundleError(origin + ": not a JSON object");
    if (j.contains("format") && j.at("format").is_string() && j.at("format").get<std::string>() != kFormat)
        throw BundleError(origin + ": format: '" + j.at("format").get<std::string>() + "' is not an AOT Studio bundle (expected '" +
                          kFormat + "')");
    const int version = j.contains("format_version") && j.at("format_version").is_number_integer() ? j.at("format_version").get<int>() : 0;
    try {
        return parseFields(j, origin);
    } catch (const BundleError &e) {
        if (version > kFormatVersion)
            throw BundleError(origin + ": format_version " + std::to_string(version) + " is newer than this program reads (" +
                              std::to_string(kFormatVersion) + "); use a newer AOT Studio. (" + e.what() + ")");
        throw;
    }
}

Manifest loadManifest(const fs::path &bundleDir, std::string *bytes, std::uintmax_t maxBytes)
{
    const fs::path file = bundleDir / kManifestName;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
        if (fs::is_regular_file(bundleDir / kBlocksIndexName, ec))
            throw BundleError(quoted(bundleDir) + " is a block layout (blocks.json: one weightless package per repeated "
                              "block class, for spaces.aoti_blocks_load), not a bundle: its packages need each "
                              "block's weights bound at run time; export without --layout blocks for aotstudio-run");
        throw BundleError(quoted(bundleDir) + " has no manifest.json: not a bundle (or an interrupted export)");
    }
    // Read at most maxBytes + 1 whatever the file claims to be: the size is checked on what was
    // read, so a file that grows under us cannot make us allocate more.
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw BundleError("cannot read " + quoted(file) + ": " + std::strerror(errno));
    std::string data;
    readChunks(fd, file, 64 * 1024, [&](const char *chunk, std::size_t n) {
        data.append(chunk, n);
        if (data.size() > maxBytes)
            throw BundleError(quoted(file) + " is larger than " + std::to_string(maxBytes) +
                              " bytes, the limit for a bundle manifest (a real one is a few KiB): refused unread");
    });
    json j;
    try {
        j = json::parse(data);
    } catch (const json::exception &e) {
        throw BundleError(quoted(file) + " is not valid JSON: " + e.what());
    }
    Manifest m = parseManifest(j, file.string());
    if (bytes)
        *bytes = std::move(data);
    return m;
}

json batchShapes(const json &tensors)
{
    json out = json::array();
    for (const auto &t : tensors) {
        json shape = t.value("shape", json::array());
        if (!shape.empty() && t.value("batched", true)) // inputs without a batch dimension keep their size
            shape[0] = "batch";
        json spec{{"shape", shape}, {"dtype", t.value("dtype", "")}};
        if (t.contains("name") && t["name"].is_string())
            spec["name"] = t["name"]; // forward's parameter / the output's pytree path
        out.push_back(std::move(spec));
    }
    return out;
}

json newManifest(const ManifestDraft &d)
{
    const bool sharedWeights = std::any_of(d.buckets.begin(), d.buckets.end(), [](const json &b) { return b.contains("weights"); });
    const bool strides = std::any_of(d.buckets.begin(), d.buckets.end(), [](const json &b) {
        return b.contains("guards") && b["guards"].is_object() && b["guards"].value("version", 1) >= 2;
    });
    json m{
        {"format", kFormat},
        // The lowest version that describes it: 3 for stride guards or a compatibility key (a
        // runtime that would ignore the key's CPU and GPU checks must refuse the bundle instead).
        {"format_version", strides || d.compat.is_object() ? 3 : sharedWeights ? 2 : 1},
        {"created", d.created},
        {"producer", d.producer},
        {"model", d.model},
        {"torch_version", d.torchVersion},
        {"cuda_version", d.cudaVersion},
        {"device", d.device},
        {"compute_capability", d.computeCapability},
        {"quantization", d.quantization},
        {"inputs", batchShapes(d.inputs)},
        {"outputs", batchShapes(d.outputs)},
        {"batch", {{"pad_safe", d.padSafe}}},
        {"buckets", d.buckets},
    };
    if (!d.signer.is_null())
        m["signer"] = d.signer;
    if (d.compat.is_object())
        m["compat"] = d.compat; // format 3 (BUNDLE.md "Compatibility key")
    return m;
}

void writeManifest(const fs::path &bundleDir, json manifest)
{
    if (!manifest.is_object())
        throw BundleError("manifest for " + quoted(bundleDir) + " must be a JSON object");
    if (!manifest.contains("format"))
        manifest["format"] = kFormat;
    if (!manifest.contains("format_version"))
        manifest["format_version"] = kFormatVersion;
    // A signature of the previous manifest would not match the new one: remove it (sign again).
    std::error_code removed;
    fs::remove(bundleDir / kSignatureName, removed);
    if (removed)
        throw BundleError("cannot remove the old " + quoted(bundleDir / kSignatureName) + ": " + removed.message());
    json files = json::object();
    for (const auto &rel : listFiles(bundleDir, nullptr)) {
        if (rel == kManifestName || rel == kSignatureName)
            continue;
        const fs::path file = bundleDir / rel;
        std::error_code ec;
        const auto bytes = fs::file_size(file, ec);
        if (ec)
            throw BundleError("cannot read the size of " + quoted(file) + ": " + ec.message());
        files[rel] = {{"sha256", sha256File(file)}, {"bytes", bytes}};
    }
    manifest["files"] = std::move(files);
    parseManifest(manifest, (bundleDir / kManifestName).string()); // never write what we cannot read
    writeFileAtomic(bundleDir / kManifestName, manifest.dump(2) + "\n");
}

} // namespace AotStudio::Bundle
