// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/bundle.h"
#include "bundle/text.h"
#include "bundle/guards.h"
#include "bundle/signing.h"

#include <openssl/evp.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

namespace {

/// Read the open file `fd` (of `path`) to its end in chunks of `chunk` bytes, handing each to
/// `take(data, size)`; `fd` is closed however it ends. Throws BundleError naming `path` on a read
/// error; what `take` throws propagates. The one read loop of this file (manifest, hashing).
template<typename F>
void readChunks(int fd, const fs::path &path, std::size_t chunk, F &&take)
{
    struct Close {
        int fd;
        ~Close() { ::close(fd); }
    } close{fd};
    std::vector<char> buffer(chunk);
    while (true) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw BundleError("cannot read " + quoted(path) + ": " + std::strerror(errno));
        if (n == 0)
            return;
        take(buffer.data(), static_cast<std::size_t>(n));
    }
}

std::string joinProblems(const std::vector<Problem> &problems, const char *sep)
{
    std::string out;
    for (const auto &p : problems)
        out += (out.empty() ? "" : sep) + p.message;
    return out;
}

/// A manifest path ("packages/batch1.pt2"): relative, '/'-separated, no empty, "." or ".." parts.
bool isSafeRelative(const std::string &p)
{
    if (p.empty() || p.front() == '/' || p.find('\\') != std::string::npos || p.find('\0') != std::string::npos)
        return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = p.find('/', start);
        const std::string part = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (part.empty() || part == "." || part == "..")
            return false;
        if (end == std::string::npos)
            return true;
        start = end + 1;
    }
}

bool isHex64(const std::string &s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

} // namespace

void writeFileAtomic(const fs::path &path, const std::string &content, const WriteOptions &options)
{
    const fs::path tmp = path.parent_path() / ("." + path.filename().string() + ".partial-" + std::to_string(::getpid()));
    ::unlink(tmp.c_str()); // a stale one of a killed writer with this pid would keep its old mode
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, static_cast<mode_t>(options.permissions));
    if (fd < 0)
        throw BundleError("cannot write " + quoted(tmp) + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int e = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            throw BundleError("cannot write " + quoted(tmp) + ": " + std::strerror(e));
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        throw BundleError("cannot write " + quoted(tmp) + ": " + std::strerror(e));
    }
    if (options.neverReplace) {
        const int rc = ::link(tmp.c_str(), path.c_str());
        const int e = errno;
        ::unlink(tmp.c_str());
        if (rc != 0)
            throw BundleError("cannot create " + quoted(path) + ": " + std::strerror(e) +
                              (e == EEXIST ? " (it exists and is never overwritten: choose another name)" : ""));
        return;
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw BundleError("cannot rename " + quoted(tmp) + " to " + quoted(path) + ": " + ec.message());
    }
}

namespace {

std::string libzipError(int code)
{
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    std::string s = zip_error_strerror(&e);
    zip_error_fini(&e);
    return s;
}

/// "2.14.1+cu130" -> "2.14"; empty when it does not start with major.minor.
std::string majorMinor(const std::string &version)
{
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t start = i;
        while (i < version.size() && version[i] >= '0' && version[i] <= '9')
            ++i;
        return i > start;
    };
    if (!digits() || i >= version.size() || version[i] != '.')
        return {};
    ++i;
    if (!digits())
        return {};
    return version.substr(0, i);
}

/// "9.0" -> 90, "8.6" -> 86; -1 when unparsable.
int capabilityValue(const std::string &cap)
{
    int major = 0, minor = 0;
    char dot = 0;
    std::istringstream in(cap);
    if (!(in >> major))
        return -1;
    if (in >> dot) {
        if (dot != '.' || !(in >> minor))
            return -1;
    }
    return major * 10 + minor;
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
    for (const auto &b : j.at("buckets")) {
        const std::string where = "buckets[" + std::to_string(i++) + "]";
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
            for (const auto &other : m.buckets)
                if (other.isDynamic())
                    fieldError(origin, where, "a second dynamic bucket (at most one is allowed)");
        }
        if (b.contains("guards"))
            bucket.guards = std::make_shared<const InputGuards>(InputGuards::parse(b.at("guards"), origin + ": " + where + ".guards"));
        if (b.contains("weights")) {
            if (m.formatVersion < 2)
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
        m.buckets.push_back(std::move(bucket));
    }

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

    if (j.contains("signer") && !j.at("signer").is_null()) {
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
    return m;
}

/// Regular files under `dir` as sorted '/'-separated relative paths. Throws on a symbolic link or
/// special file when `strict`, else reports them in `odd`.
std::vector<std::string> listFiles(const fs::path &dir, std::vector<Problem> *odd)
{
    std::vector<std::string> files;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
    if (ec)
        throw BundleError("cannot list bundle directory " + quoted(dir) + ": " + ec.message());
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec)
            throw BundleError("cannot list bundle directory " + quoted(dir) + ": " + ec.message());
        const fs::file_status st = it->symlink_status(ec);
        const std::string rel = it->path().lexically_relative(dir).generic_string();
        if (fs::is_symlink(st)) {
            if (!odd)
                throw BundleError(quoted(it->path()) + " is a symbolic link: bundles hold plain files only");
            odd->push_back({rel, rel + ": is a symbolic link (bundles hold plain files only)"});
        } else if (fs::is_directory(st)) {
            continue;
        } else if (fs::is_regular_file(st)) {
            files.push_back(rel);
        } else {
            if (!odd)
                throw BundleError(quoted(it->path()) + " is not a regular file: bundles hold plain files only");
            odd->push_back({rel, rel + ": is not a regular file"});
        }
    }
    std::sort(files.begin(), files.end());
    return files;
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
    if (!fs::is_regular_file(file, ec))
        throw BundleError(quoted(bundleDir) + " has no manifest.json: not a bundle (or an interrupted export)");
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

std::string sha256File(const fs::path &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw BundleError("cannot open " + quoted(path) + " to hash it: " + std::strerror(errno));
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
        ::close(fd);
        throw BundleError("OpenSSL cannot start a SHA-256 digest");
    }
    readChunks(fd, path, 1 << 20, [&](const char *chunk, std::size_t n) {
        if (EVP_DigestUpdate(ctx.get(), chunk, n) != 1)
            throw BundleError("OpenSSL SHA-256 update failed on " + quoted(path));
    });
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1)
        throw BundleError("OpenSSL SHA-256 final failed on " + quoted(path));
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

std::vector<Problem> verify(const fs::path &bundleDir, const Manifest &manifest)
{
    std::vector<Problem> problems;
    const std::vector<std::string> present = listFiles(bundleDir, &problems);
    for (const auto &rel : present) {
        if (rel != kManifestName && rel != kSignatureName && !manifest.files.count(rel))
            problems.push_back({rel, rel + ": present but not listed in manifest.json (added or renamed after export?)"});
    }
    for (const auto &[rel, entry] : manifest.files) {
        const fs::path file = bundleDir / rel;
        std::error_code ec;
        const fs::file_status st = fs::symlink_status(file, ec);
        if (!fs::exists(st)) {
            problems.push_back({rel, rel + ": listed in manifest.json but missing"});
            continue;
        }
        if (!fs::is_regular_file(st))
            continue; // already reported by listFiles (symbolic link or special file)
        const std::uintmax_t size = fs::file_size(file, ec);
        if (ec) {
            problems.push_back({rel, rel + ": cannot read its size: " + ec.message()});
            continue;
        }
        if (size != entry.bytes) {
            problems.push_back({rel, rel + ": size differs: " + std::to_string(size) + " bytes, manifest.json says " +
                                         std::to_string(entry.bytes) + " (truncated or replaced)"});
            continue;
        }
        try {
            if (sha256File(file) != entry.sha256)
                problems.push_back({rel, rel + ": SHA-256 differs (tampered or corrupt)"});
        } catch (const BundleError &e) {
            problems.push_back({rel, rel + ": " + e.what()});
        }
    }
    for (const auto &b : manifest.buckets) {
        if (!manifest.files.count(b.package))
            problems.push_back({b.package, b.package + ": package of bucket '" + b.name + "' is not listed in manifest.json files"});
        for (const auto &[file, w] : b.weights)
            if (!manifest.files.count(w.file))
                problems.push_back({w.file, w.file + ": weights '" + file + "' of bucket '" + b.name + "' are not listed in manifest.json files"});
    }
    std::stable_sort(problems.begin(), problems.end(), [](const Problem &a, const Problem &b) { return a.path < b.path; });
    return problems;
}

BucketChoice chooseBucket(const Manifest &manifest, long long batch)
{
    auto available = [&] {
        std::string s;
        for (const auto &b : manifest.buckets)
            s += (s.empty() ? "" : ", ") + b.describe();
        return s.empty() ? std::string("none") : s;
    };
    if (batch < 1)
        throw BundleError("batch " + std::to_string(batch) + " is not a batch size (must be >= 1); buckets: " + available());
    for (const auto &b : manifest.buckets)
        if (b.batch && *b.batch == batch)
            return {b, batch, false};
    if (manifest.padSafe) {
        const Bucket *best = nullptr;
        for (const auto &b : manifest.buckets)
            if (b.batch && *b.batch > batch && (!best || *b.batch < *best->batch))
                best = &b;
        if (best)
            return {*best, *best->batch, true};
    }
    for (const auto &b : manifest.buckets)
        if (b.isDynamic() && b.batchMin <= batch && batch <= b.batchMax)
            return {b, batch, false};
    std::string why = "no bucket for batch " + std::to_string(batch) + "; buckets: " + available();
    if (!manifest.padSafe)
        why += " (not pad_safe: a smaller batch cannot be padded into a larger bucket)";
    throw BundleError(why);
}

std::vector<std::string> checkCompatible(const Manifest &manifest, const std::string &runtimeTorchVersion, bool cudaAvailable,
                                         const std::string &deviceCapability)
{
    std::vector<std::string> why;
    if (manifest.format != kFormat)
        why.push_back("unknown bundle format '" + manifest.format + "' (expected '" + kFormat + "')");
    if (manifest.formatVersion > kFormatVersion)
        why.push_back("bundle format_version " + std::to_string(manifest.formatVersion) + " is newer than this runtime reads (" +
                      std::to_string(kFormatVersion) + "); use a newer aotstudio-run");
    else if (manifest.formatVersion < 1)
        why.push_back("bundle format_version " + std::to_string(manifest.formatVersion) + " is invalid");

    const std::string bundleTorch = majorMinor(manifest.torchVersion);
    const std::string runtimeTorch = majorMinor(runtimeTorchVersion);
    if (bundleTorch.empty())
        why.push_back("bundle torch_version '" + manifest.torchVersion + "' is not a version");
    else if (bundleTorch != runtimeTorch)
        why.push_back("bundle was built with torch " + manifest.torchVersion + " but this runtime has LibTorch " + runtimeTorchVersion +
                      " (AOTInductor packages need the same major.minor; re-export with this torch)");

    const bool cuda = manifest.device.rfind("cuda", 0) == 0;
    if (!cuda && manifest.device != "cpu")
        why.push_back("unknown bundle device '" + manifest.device + "' (this runtime knows cpu and cuda)");
    if (cuda && !cudaAvailable)
        why.push_back("bundle is for device " + manifest.device + " but this machine has no usable CUDA device");
    if (cuda && cudaAvailable && !manifest.computeCapability.empty() && !deviceCapability.empty()) {
        const int need = capabilityValue(manifest.computeCapability);
        const int have = capabilityValue(deviceCapability);
        if (need < 0)
            why.push_back("bundle compute_capability '" + manifest.computeCapability + "' is not a version");
        else if (have >= 0 && need > have)
            why.push_back("bundle was compiled for compute capability " + manifest.computeCapability + " but this GPU has " +
                          deviceCapability + " (re-export on this GPU)");
    }
    return why;
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

void zipDirectory(const fs::path &dir, const fs::path &zipPath)
{
    const std::vector<std::string> files = listFiles(dir, nullptr);
    const fs::path partial = zipPath.string() + ".partial-" + std::to_string(::getpid());
    std::error_code ec;
    fs::remove(partial, ec);
    int code = 0;
    zip_t *z = zip_open(partial.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z)
        throw BundleError("cannot create zip " + quoted(partial) + ": " + libzipError(code));
    auto fail = [&](const std::string &what) {
        const std::string msg = "cannot write zip " + quoted(zipPath) + ": " + what;
        zip_discard(z);
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw BundleError(msg);
    };
    for (const auto &rel : files) {
        const fs::path file = dir / rel;
        zip_source_t *src = zip_source_file(z, file.c_str(), 0, -1);
        if (!src)
            fail(file.string() + ": " + zip_strerror(z));
        const zip_int64_t index = zip_file_add(z, rel.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
        if (index < 0) {
            zip_source_free(src);
            fail(rel + ": " + zip_strerror(z));
        }
        // Packages (zips already) and raw weights (floats barely compress): stored, so they can be read in place.
        const bool store = fs::path(rel).extension() == ".pt2" || fs::path(rel).extension() == ".bin";
        if (zip_set_file_compression(z, static_cast<zip_uint64_t>(index), store ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0) != 0)
            fail(rel + ": " + zip_strerror(z));
    }
    if (zip_close(z) != 0)
        fail(zip_strerror(z)); // zip_close failed: z is still valid and discarded by fail()
    fs::rename(partial, zipPath, ec);
    if (ec) {
        fs::remove(partial, ec);
        throw BundleError("cannot rename " + quoted(partial) + " to " + quoted(zipPath) + ": " + ec.message());
    }
}

namespace {

/// One entry of a zip that zipEntries() accepted.
struct ZipEntry {
    zip_uint64_t index;
    std::string rel; ///< the name without a trailing '/'
    bool isDir;
    zip_uint64_t size; ///< declared, uncompressed
};

/// Every entry's name and declared size against `limits`, before anything is read or written: the
/// one check extractZip() and checkZip() share. `name` is the zip's quoted path for messages.
std::vector<ZipEntry> zipEntries(zip_t *z, const std::string &name, const ExtractLimits &limits)
{
    const zip_int64_t count = zip_get_num_entries(z, 0);
    const auto gib = [](std::uint64_t bytes) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
        return std::string(buf);
    };
    const std::string advice = " (a zip bomb, or not a bundle of ours; a bundle this large runs as a directory: unzip it yourself)";
    if (count < 0 || static_cast<std::uint64_t>(count) > limits.maxEntries)
        throw BundleError("zip " + name + " has " + std::to_string(count) + " entries, over the limit of " +
                          std::to_string(limits.maxEntries) + " entries for a bundle zip: refused" + advice);
    std::vector<ZipEntry> entries;
    std::set<std::string> seen;
    std::uint64_t declaredTotal = 0;
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
            throw BundleError("zip " + name + ": entry " + std::to_string(i) + " cannot be read: " + zip_strerror(z) + " (corrupt)");
        std::string entry = st.name;
        const bool isDir = !entry.empty() && entry.back() == '/';
        const std::string rel = isDir ? entry.substr(0, entry.size() - 1) : entry;
        if (!isSafeRelative(rel))
            throw BundleError("zip " + name + ": entry '" + entry + "' would be written outside the bundle (absolute path or '..'): refused");
        if (!seen.insert(rel).second)
            throw BundleError("zip " + name + ": entry '" + rel + "' appears twice: refused");
        if (!(st.valid & ZIP_STAT_SIZE))
            throw BundleError("zip " + name + ": entry '" + rel + "' declares no size (corrupt)");
        if (st.size > limits.maxEntryBytes)
            throw BundleError("zip " + name + ": entry '" + rel + "' is " + gib(st.size) + " (" + std::to_string(st.size) +
                              " bytes) uncompressed, over the limit of " + gib(limits.maxEntryBytes) + " for one entry: refused" + advice);
        if (st.size > limits.maxTotalBytes - declaredTotal) // declaredTotal <= maxTotalBytes: no wrap
            throw BundleError("zip " + name + " holds more than " + gib(limits.maxTotalBytes) +
                              " uncompressed, the limit for a whole bundle zip: refused" + advice);
        declaredTotal += st.size;
        entries.push_back({static_cast<zip_uint64_t>(i), rel, isDir, st.size});
    }
    return entries;
}

/// Opens `zipPath` with libzip's consistency check; throws BundleError naming it.
std::unique_ptr<zip_t, decltype(&zip_discard)> openZipChecked(const fs::path &zipPath, const std::string &name)
{
    int code = 0;
    zip_t *z = zip_open(zipPath.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
    if (!z)
        throw BundleError("zip " + name + " cannot be read: " + libzipError(code) +
                          (code == ZIP_ER_NOENT || code == ZIP_ER_OPEN ? "" : " (truncated or corrupt)"));
    return {z, &zip_discard};
}

} // namespace

namespace {

/// `bytes` opened by libzip with its consistency check (the zip does not own the bytes); throws
/// BundleError with "zip `name`".
std::unique_ptr<zip_t, decltype(&zip_discard)> openZipBuffer(std::string_view bytes, const std::string &name)
{
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t *source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    zip_t *z = source ? zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) : nullptr;
    if (!z) {
        const std::string why = zip_error_strerror(&error);
        zip_error_fini(&error);
        if (source)
            zip_source_free(source); // still ours when the open failed
        throw BundleError("zip " + name + " cannot be read: " + why + " (truncated or corrupt)");
    }
    zip_error_fini(&error);
    return {z, &zip_discard}; // the zip owns the source now
}

} // namespace

std::vector<std::string> checkZip(std::string_view bytes, const std::string &name, const ExtractLimits &limits)
{
    const auto z = openZipBuffer(bytes, name);
    std::vector<std::string> names;
    for (const ZipEntry &e : zipEntries(z.get(), name, limits))
        names.push_back(e.isDir ? e.rel + "/" : e.rel);
    return names;
}

std::string readZipEntry(std::string_view bytes, const std::string &entry, std::uint64_t maxBytes, const std::string &name)
{
    const auto z = openZipBuffer(bytes, name);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(z.get(), entry.c_str(), ZIP_FL_ENC_RAW, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
        throw BundleError("zip " + name + " has no entry '" + entry + "'");
    if (st.size > maxBytes)
        throw BundleError("zip " + name + ": entry '" + entry + "' is " + std::to_string(st.size) + " bytes, over the limit of " +
                          std::to_string(maxBytes) + " for it: refused");
    zip_file_t *f = zip_fopen(z.get(), entry.c_str(), ZIP_FL_ENC_RAW);
    if (!f)
        throw BundleError("zip " + name + ": entry '" + entry + "' cannot be opened: " + zip_strerror(z.get()) + " (corrupt)");
    std::unique_ptr<zip_file_t, decltype(&zip_fclose)> file(f, &zip_fclose);
    std::string data(static_cast<std::size_t>(st.size), '\0');
    const zip_int64_t n = data.empty() ? 0 : zip_fread(f, data.data(), data.size());
    if (n < 0 || static_cast<zip_uint64_t>(n) != st.size)
        throw BundleError("zip " + name + ": entry '" + entry + "' cannot be read: " + zip_file_strerror(f) + " (truncated or corrupt)");
    return data;
}

fs::path extractZip(const fs::path &zipPath, const fs::path &destDir, const ExtractLimits &limits)
{
    const std::string name = quoted(zipPath);
    const auto guard = openZipChecked(zipPath, name);
    zip_t *z = guard.get();
    // 1. Every entry's name and declared size against the limits, before anything is written.
    const std::vector<ZipEntry> entries = zipEntries(z, name, limits);

    // 2. Extract, each entry stopped at its declared size (libzip checks size and CRC at the end).
    std::error_code ec;
    fs::create_directories(destDir, ec);
    if (ec)
        throw BundleError("cannot create " + quoted(destDir) + " to extract " + name + ": " + ec.message());
    std::vector<char> buffer(1 << 20);
    for (const ZipEntry &e : entries) {
        const std::string &rel = e.rel;
        const bool isDir = e.isDir;
        const zip_uint64_t i = e.index;
        const fs::path target = destDir / rel;
        if (isDir) {
            fs::create_directories(target, ec);
            if (ec)
                throw BundleError("zip " + name + ": cannot create " + quoted(target) + ": " + ec.message());
            continue;
        }
        fs::create_directories(target.parent_path(), ec);
        if (ec)
            throw BundleError("zip " + name + ": cannot create " + quoted(target.parent_path()) + ": " + ec.message());
        zip_file_t *f = zip_fopen_index(z, i, 0);
        if (!f)
            throw BundleError("zip " + name + ": entry '" + rel + "' cannot be opened: " + zip_strerror(z) + " (truncated or corrupt)");
        std::unique_ptr<zip_file_t, decltype(&zip_fclose)> file(f, &zip_fclose);
        const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0)
            throw BundleError("zip " + name + ": cannot create " + quoted(target) + ": " + std::strerror(errno));
        zip_uint64_t total = 0;
        while (true) {
            // Ask for one byte more than the entry declares at most: more is corruption, not data.
            const zip_uint64_t want = std::min<zip_uint64_t>(buffer.size(), e.size - std::min(e.size, total) + 1);
            const zip_int64_t n = zip_fread(f, buffer.data(), want);
            if (n < 0) {
                const std::string why = zip_file_strerror(f);
                ::close(fd);
                throw BundleError("zip " + name + ": entry '" + rel + "' cannot be read: " + why + " (truncated or corrupt)");
            }
            if (n == 0)
                break;
            zip_int64_t off = 0;
            while (off < n) {
                const ssize_t w = ::write(fd, buffer.data() + off, static_cast<std::size_t>(n - off));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    const int e = errno;
                    ::close(fd);
                    throw BundleError("zip " + name + ": cannot write " + quoted(target) + ": " + std::strerror(e));
                }
                off += w;
            }
            total += static_cast<zip_uint64_t>(n);
            if (total > e.size)
                break;
        }
        if (::close(fd) != 0)
            throw BundleError("zip " + name + ": cannot write " + quoted(target) + ": " + std::strerror(errno));
        if (total != e.size)
            throw BundleError("zip " + name + ": entry '" + rel + "' has " + (total > e.size ? "more than " : "") +
                              std::to_string(total > e.size ? e.size : total) + " bytes, the directory says " +
                              std::to_string(e.size) + " (truncated or corrupt)");
        const int rc = zip_fclose(file.release());
        if (rc != 0)
            throw BundleError("zip " + name + ": entry '" + rel + "' is damaged: " + libzipError(rc) + " (truncated or corrupt)");
    }

    if (fs::is_regular_file(destDir / kManifestName))
        return destDir;
    std::vector<fs::path> top;
    for (const auto &e : fs::directory_iterator(destDir, ec))
        top.push_back(e.path());
    if (top.size() == 1 && fs::is_directory(top[0]) && fs::is_regular_file(top[0] / kManifestName))
        return top[0];
    return destDir;
}

int removeStaleTempDirs(const fs::path &base, const std::string &prefix)
{
    int removed = 0;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(base, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        // <prefix><pid>-XXXXXX: folders of another naming (older versions) are left alone.
        const std::string rest = name.substr(prefix.size());
        const auto dash = rest.find('-');
        if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash)
            continue;
        const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
        if (pid <= 0 || pid == ::getpid() || !(::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH))
            continue;
        // The pid may name a process of another PID namespace sharing this folder: its lock says.
        const int fd = ::open(e.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            std::error_code rec;
            if (fs::remove_all(e.path(), rec) > 0 && !rec)
                ++removed;
        }
        ::close(fd);
    }
    return removed;
}

TempDir::TempDir(const std::string &prefix, const fs::path &under)
{
    const char *env = std::getenv("TMPDIR");
    const fs::path base = !under.empty() ? under : env && *env ? fs::path(env) : fs::path("/tmp");
    removeStaleTempDirs(base, prefix);
    std::string templ = (base / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(templ.data()))
        throw BundleError("cannot create a temporary directory under " + quoted(base) + ": " + std::strerror(errno) +
                          " (set TMPDIR to a writable directory)");
    m_path = templ;
    m_lock = ::open(m_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_lock >= 0)
        ::flock(m_lock, LOCK_EX | LOCK_NB);
}

TempDir::~TempDir()
{
    std::error_code ec;
    fs::remove_all(m_path, ec);
    if (m_lock >= 0)
        ::close(m_lock);
}

OpenedBundle openBundleUnverified(const fs::path &path, std::vector<Problem> &problems)
{
    OpenedBundle b;
    std::error_code ec;
    b.source = fs::absolute(path, ec).lexically_normal();
    if (ec)
        b.source = path;
    const fs::file_status st = fs::status(b.source, ec);
    if (!fs::exists(st))
        throw BundleError("bundle " + quoted(path) + " does not exist");
    if (fs::is_directory(st)) {
        b.root = b.source;
    } else if (fs::is_regular_file(st)) {
        if (b.source.extension() == ".pt2")
            throw BundleError(quoted(path) + " is a single AOTInductor package, not a bundle (make one with aotstudio-cli export)");
        b.extracted = std::make_shared<TempDir>();
        b.root = extractZip(b.source, b.extracted->path());
    } else {
        throw BundleError("bundle " + quoted(path) + " is neither a directory nor a zip file");
    }
    b.manifest = loadManifest(b.root, &b.manifestBytes);
    if (b.manifest.formatVersion > kFormatVersion)
        throw BundleError("bundle " + quoted(path) + ": format_version " + std::to_string(b.manifest.formatVersion) +
                          " is newer than this program reads (" + std::to_string(kFormatVersion) + "); use a newer AOT Studio");
    problems = verify(b.root, b.manifest);
    return b;
}

OpenedBundle openBundle(const fs::path &path)
{
    std::vector<Problem> problems;
    OpenedBundle b = openBundleUnverified(path, problems);
    if (!problems.empty()) {
        std::vector<std::string> lines;
        for (const auto &p : problems)
            lines.push_back(p.message);
        throw BundleError("bundle " + quoted(path) + " failed verification (" + std::to_string(problems.size()) +
                              (problems.size() == 1 ? " problem" : " problems") + "): " + joinProblems(problems, "; "),
                          std::move(lines));
    }
    return b;
}

} // namespace AotStudio::Bundle
