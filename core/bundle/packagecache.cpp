// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/packagecache.h"
#include "bundle/text.h"
#include "bundle/bundle.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace AotStudio::Bundle {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr const char *kContents = ".contents.json";
constexpr const char *kPartialPrefix = ".partial-";

/// What a file looked like when the cache wrote it: size, inode and status-change time (ns). Any
/// write, truncation, chmod or replacement changes st_ctime, which user space cannot set back, so
/// matching stat() figures mean the file is the one extracted (git's index makes the same check).
json fileStamp(const fs::path &p)
{
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0)
        return nullptr;
    return {{"bytes", static_cast<std::int64_t>(st.st_size)},
            {"inode", static_cast<std::uint64_t>(st.st_ino)},
            {"ctime_ns", static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec}};
}

/// Write the list of files under `dir` with their stamps.
void writeContents(const fs::path &dir)
{
    json files = json::object();
    for (const auto &e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().filename() != kContents)
            files[fs::relative(e.path(), dir).generic_string()] = fileStamp(e.path());
    writeFileAtomic(dir / kContents, json{{"files", files}}.dump());
}

/// Whether `dir` still holds exactly the files its contents list names, unchanged. Never throws.
bool contentsIntact(const fs::path &dir)
{
    try {
        std::ifstream in(dir / kContents);
        if (!in)
            return false;
        const json c = json::parse(in);
        std::size_t count = 0;
        for (const auto &[rel, stamp] : c.at("files").items()) {
            if (fileStamp(dir / rel) != stamp)
                return false;
            ++count;
        }
        std::size_t present = 0;
        for (const auto &e : fs::recursive_directory_iterator(dir))
            if (e.is_regular_file() && e.path().filename() != kContents)
                ++present;
        return present == count; // nothing added (a file dropped next to the library)
    } catch (...) {
        return false;
    }
}

/// Remove cache folders not used for kPackageCacheMaxAgeDays (their mtime is touched on use).
void pruneOld(const fs::path &root)
{
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (const auto &e : fs::directory_iterator(root, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() != 64 || !e.is_directory(ec))
            continue;
        const auto age = now - fs::last_write_time(e.path(), ec);
        if (!ec && age > std::chrono::hours(24 * kPackageCacheMaxAgeDays))
            fs::remove_all(e.path(), ec);
    }
}

} // namespace

fs::path packageCacheRoot()
{
    fs::path root;
    if (const char *own = std::getenv("AOTSTUDIO_CACHE_DIR"); own && *own)
        root = fs::path(own) / "packages";
    else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        root = fs::path(xdg) / "aotstudio" / "packages";
    else if (const char *home = std::getenv("HOME"); home && *home)
        root = fs::path(home) / ".cache" / "aotstudio" / "packages";
    else
        throw BundleError("no cache folder for packages: set AOTSTUDIO_CACHE_DIR (or HOME)");
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec || !fs::is_directory(root))
        throw BundleError("cannot create the package cache " + quoted(root) + ": " + ec.message() +
                          " (set AOTSTUDIO_CACHE_DIR to a writable folder)");
    ::chmod(root.c_str(), 0700);
    return root;
}

fs::path cachedPackageDir(const fs::path &package, std::string sha256)
{
    if (sha256.empty())
        sha256 = sha256File(package);
    if (sha256.size() != 64 || sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw BundleError("package " + quoted(package) + ": '" + sha256 + "' is not a SHA-256 in lower-case hex");
    const fs::path root = packageCacheRoot();
    const fs::path dir = root / sha256;
    std::error_code ec;
    if (fs::is_directory(dir, ec)) {
        if (contentsIntact(dir)) {
            fs::last_write_time(dir, fs::file_time_type::clock::now(), ec); // in use: kept by pruneOld
            return dir;
        }
        // Damaged (a file truncated, edited or missing): moved aside, then extracted again. A
        // process that has the old one's library mapped keeps its mapping.
        const fs::path aside = root / (std::string(kPartialPrefix) + "damaged-" + sha256 + "-" + std::to_string(::getpid()));
        fs::rename(dir, aside, ec);
        fs::remove_all(aside, ec);
    }
    pruneOld(root);
    TempDir partial(kPartialPrefix, root); // removes partial folders of processes that are gone
    try {
        extractZip(package, partial.path());
    } catch (const BundleError &e) {
        throw BundleError("cannot extract package " + quoted(package) + " into the package cache: " + e.what());
    }
    writeContents(partial.path());
    ::chmod(partial.path().c_str(), 0700);
    if (::rename(partial.path().c_str(), dir.c_str()) != 0) {
        if ((errno == ENOTEMPTY || errno == EEXIST) && contentsIntact(dir))
            return dir; // another process extracted the same package meanwhile; `partial` is removed
        throw BundleError("cannot move the extracted package " + quoted(package) + " into " + quoted(dir) + ": " + std::strerror(errno));
    }
    return dir;
}

} // namespace AotStudio::Bundle
