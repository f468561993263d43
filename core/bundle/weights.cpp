// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/weights.h"
#include "bundle/text.h"
#include "bundle/bundle.h"

#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <set>
#include <vector>

#include <unistd.h>

namespace AotStudio::Bundle {

namespace fs = std::filesystem;

namespace {

constexpr const char *kWeightsDir = "/data/weights/"; // torch.export.pt2_archive.constants.WEIGHTS_DIR under the archive's top folder

} // namespace

std::map<std::string, BucketWeight> shareWeights(const fs::path &package, const fs::path &bundleRoot, const RawWeightWriter &toRaw)
{
    int code = 0;
    zip_t *z = zip_open(package.c_str(), ZIP_CHECKCONS, &code);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        const std::string why = zip_error_strerror(&e);
        zip_error_fini(&e);
        throw BundleError("cannot open package " + quoted(package) + " to share its weights: " + why);
    }
    auto fail = [&](const std::string &what) {
        const std::string msg = "cannot share the weights of package " + quoted(package) + ": " + what;
        zip_discard(z);
        throw BundleError(msg);
    };
    std::map<std::string, BucketWeight> moved;
    const fs::path dir = bundleRoot / kSharedWeightsDir;
    std::error_code ec;
    const zip_int64_t count = zip_get_num_entries(z, 0);
    std::vector<char> buffer(1 << 20);
    for (zip_int64_t i = 0; i < count; ++i) {
        const char *rawName = zip_get_name(z, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
        if (!rawName)
            continue;
        const std::string name = rawName;
        const auto at = name.find(kWeightsDir);
        if (at == std::string::npos || name.back() == '/')
            continue;
        const std::string file = name.substr(at + std::string(kWeightsDir).size());
        if (file.empty() || file.find('/') != std::string::npos)
            continue;
        fs::create_directories(dir, ec);
        const fs::path partial = dir / (".partial-" + std::to_string(::getpid()) + "-" + file);
        {
            zip_file_t *in = zip_fopen_index(z, static_cast<zip_uint64_t>(i), 0);
            if (!in)
                fail(name + ": " + zip_strerror(z));
            std::unique_ptr<std::FILE, decltype(&std::fclose)> out(std::fopen(partial.c_str(), "wb"), &std::fclose);
            if (!out) {
                zip_fclose(in);
                fail("cannot write " + quoted(partial));
            }
            zip_int64_t n = 0;
            while ((n = zip_fread(in, buffer.data(), buffer.size())) > 0) {
                if (std::fwrite(buffer.data(), 1, static_cast<std::size_t>(n), out.get()) != static_cast<std::size_t>(n)) {
                    zip_fclose(in);
                    fail("cannot write " + quoted(partial) + " (disk full?)");
                }
            }
            zip_fclose(in);
            if (n < 0 || std::fflush(out.get()) != 0)
                fail(name + ": read or write error");
        }
        const fs::path raw = dir / (".partial-" + std::to_string(::getpid()) + "-" + file + ".bin");
        BucketWeight weight;
        try {
            weight = toRaw(partial, raw);
        } catch (const BundleError &e) {
            fs::remove(partial, ec);
            fs::remove(raw, ec);
            fail(name + ": " + e.what());
        }
        fs::remove(partial, ec);
        const std::string sha = sha256File(raw);
        const fs::path target = dir / (sha + ".bin");
        if (fs::exists(target, ec))
            fs::remove(raw, ec); // another bucket stored the same weight
        else
            fs::rename(raw, target, ec);
        if (ec)
            fail("cannot store " + quoted(target) + ": " + ec.message());
        weight.file = std::string(kSharedWeightsDir) + "/" + sha + ".bin";
        moved[file] = weight;
        if (zip_delete(z, static_cast<zip_uint64_t>(i)) != 0)
            fail(name + ": " + zip_strerror(z));
    }
    if (moved.empty()) {
        zip_discard(z); // unchanged
        return moved;
    }
    if (zip_close(z) != 0)
        fail(zip_strerror(z));
    return moved;
}

} // namespace AotStudio::Bundle

namespace AotStudio::Bundle {

namespace {

/// Bytes of one element of a manifest dtype; 0 when unknown.
std::size_t elementBytes(const std::string &dtype)
{
    static const std::map<std::string, std::size_t> sizes{
        {"float64", 8}, {"float32", 4}, {"float16", 2}, {"bfloat16", 2}, {"int64", 8}, {"int32", 4}, {"int16", 2},
        {"int8", 1},    {"uint8", 1},   {"bool", 1},    {"complex64", 8}, {"complex128", 16}, {"float8_e4m3fn", 1},
        {"float8_e5m2", 1}, {"uint16", 2}, {"uint32", 4}, {"uint64", 8}};
    const auto it = sizes.find(normalizeDtype(dtype));
    return it == sizes.end() ? 0 : it->second;
}

std::string listed(const std::vector<std::string> &items)
{
    std::string s;
    for (std::size_t i = 0; i < items.size() && i < 8; ++i)
        s += (i ? "; " : "") + items[i];
    if (items.size() > 8)
        s += "; and " + std::to_string(items.size() - 8) + " more";
    return s;
}

} // namespace

std::string BindingProblems::describe() const
{
    std::string s;
    const auto add = [&](const std::vector<std::string> &v, const char *what) {
        if (!v.empty())
            s += (s.empty() ? "" : "; ") + std::to_string(v.size()) + " " + what + " (" + listed(v) + ")";
    };
    add(missing, "missing");
    add(mismatched, "mismatched");
    add(duplicated, "duplicated");
    add(extra, "extra");
    return s;
}

std::map<std::string, WeightView> parseWeightsConfig(const std::string &text, std::vector<std::string> *duplicated,
                                                     std::vector<std::string> *malformed)
{
    // Keys of the top-level object, in order, as the parser meets them: a key seen twice is a
    // constant described twice.
    std::set<std::string> seen;
    nlohmann::json::parser_callback_t callback = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json &parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1 && parsed.is_string() &&
            !seen.insert(parsed.get<std::string>()).second && duplicated)
            duplicated->push_back(parsed.get<std::string>() + ": described twice in weights_config.json");
        return true;
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text, callback);
    } catch (const nlohmann::json::exception &e) {
        throw BundleError(std::string("weights_config.json is not JSON: ") + e.what());
    }
    std::map<std::string, WeightView> out;
    if (!j.is_object()) {
        if (malformed)
            malformed->push_back("weights_config.json: not an object of constants");
        return out;
    }
    for (const auto &[fqn, e] : j.items()) {
        const auto ints = [](const nlohmann::json &a) {
            return a.is_array() && std::all_of(a.begin(), a.end(), [](const nlohmann::json &v) { return v.is_number_integer(); });
        };
        if (!e.is_array() || e.size() != 4 || !e[0].is_string() || !ints(e[1]) || !ints(e[2]) || !e[3].is_number_integer() ||
            e[1].size() != e[2].size()) {
            if (malformed)
                malformed->push_back(fqn + ": not [file, shape, stride, offset]");
            continue;
        }
        out[fqn] = {e[0].get<std::string>(), e[1].get<std::vector<long long>>(), e[2].get<std::vector<long long>>(), e[3].get<long long>()};
    }
    return out;
}

BindingProblems checkWeightBinding(const std::map<std::string, WeightView> &config, const std::map<std::string, BucketWeight> &weights,
                                   const std::map<std::string, std::string> *expectedDtypes)
{
    BindingProblems p;
    std::set<std::string> used;
    for (const auto &[fqn, view] : config) {
        const auto w = weights.find(view.file);
        if (w == weights.end()) {
            p.missing.push_back(fqn + ": its file '" + view.file + "' is given no weight");
            continue;
        }
        used.insert(view.file);
        // The elements the view reaches: offset + sum((size - 1) * stride) + 1.
        long long needed = view.offset + 1;
        bool empty = false, negative = view.offset < 0;
        for (std::size_t d = 0; d < view.shape.size(); ++d) {
            if (view.shape[d] < 0 || view.stride[d] < 0)
                negative = true;
            if (view.shape[d] == 0)
                empty = true;
            else
                needed += (view.shape[d] - 1) * view.stride[d];
        }
        std::string shape;
        for (auto s : view.shape)
            shape += (shape.empty() ? "" : "x") + std::to_string(s);
        if (negative)
            p.mismatched.push_back(fqn + ": negative size, stride or offset in weights_config.json");
        else if (!empty && needed > w->second.numel)
            p.mismatched.push_back(fqn + ": shape [" + shape + "] needs " + std::to_string(needed) + " " + w->second.dtype +
                                   " elements, '" + view.file + "' holds " + std::to_string(w->second.numel));
        if (expectedDtypes) {
            const auto d = expectedDtypes->find(fqn);
            if (d == expectedDtypes->end())
                p.extra.push_back(fqn + ": the compiled model has no such constant");
            else if (!d->second.empty() && !w->second.dtype.empty() && normalizeDtype(d->second) != normalizeDtype(w->second.dtype))
                p.mismatched.push_back(fqn + ": the model expects " + normalizeDtype(d->second) + ", the weight is " +
                                       normalizeDtype(w->second.dtype));
        } else if (elementBytes(w->second.dtype) == 0 && !w->second.dtype.empty()) {
            p.mismatched.push_back(fqn + ": unknown dtype '" + w->second.dtype + "'");
        }
    }
    if (expectedDtypes)
        for (const auto &[fqn, dtype] : *expectedDtypes)
            if (!config.count(fqn))
                p.missing.push_back(fqn + ": the model expects it (" + dtype + ") and weights_config.json does not give it");
    for (const auto &[file, w] : weights)
        if (!used.count(file))
            p.extra.push_back(w.file.empty() ? file : w.file + " (for '" + file + "'): no constant binds it");
    return p;
}

std::vector<std::string> checkBundleWeights(const fs::path &root, const Manifest &manifest)
{
    std::vector<std::string> out;
    for (const auto &bucket : manifest.buckets) {
        if (bucket.weights.empty())
            continue;
        std::string configText;
        std::map<std::string, BucketWeight> given = bucket.weights;
        std::map<std::string, std::uint64_t> inside; // weight files still in the package
        readZipEntries(
            root / bucket.package,
            [&](const std::string &name, std::uint64_t size) {
                if (name.find(kWeightsDir) != std::string::npos) {
                    inside[name.substr(name.find(kWeightsDir) + std::string(kWeightsDir).size())] = size;
                    return false;
                }
                const std::string_view config = "/data/aotinductor/model/weights_config.json";
                return name.size() >= config.size() && name.compare(name.size() - config.size(), config.size(), config) == 0 &&
                    size <= (64u << 20);
            },
            [&](const std::string &, std::string data) { configText = std::move(data); });
        if (configText.empty()) {
            out.push_back("bucket " + bucket.name + ": the manifest gives it " + std::to_string(bucket.weights.size()) +
                          " weight file(s) but its package has no weights_config.json (its weights are inside its .so)");
            continue;
        }
        std::vector<std::string> duplicated, malformed;
        const auto config = parseWeightsConfig(configText, &duplicated, &malformed);
        for (const auto &[file, bytes] : inside)
            if (!given.count(file)) // a torch.save file: its element count is known only to LibTorch's reader
                given[file] = {"(inside the package)", "", std::numeric_limits<long long>::max()};
        BindingProblems p = checkWeightBinding(config, given);
        p.duplicated = duplicated;
        p.mismatched.insert(p.mismatched.end(), malformed.begin(), malformed.end());
        if (!p.ok())
            out.push_back("bucket " + bucket.name + ": " + p.describe());
    }
    return out;
}

} // namespace AotStudio::Bundle
