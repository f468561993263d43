// SPDX-License-Identifier: GPL-3.0-or-later
// SHA-256 of files and a bundle checked against its manifest's list.
#include "bundle/bundle_p.h"
#include "bundle/guards.h"
#include "bundle/packagecache.h"
#include "bundle/signing.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace Detail;

namespace Detail {

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

} // namespace Detail

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

std::vector<Problem> verify(const fs::path &bundleDir, const Manifest &manifest, bool hashCache)
{
    std::vector<Problem> problems;
    const std::vector<std::string> present = listFiles(bundleDir, &problems);
    HashCache hashes(bundleDir, hashCache); // files unchanged since they were last hashed are not read again
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
            if (hashes.sha256(rel) != entry.sha256)
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

} // namespace AotStudio::Bundle
