// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/packagecache.h"
#include "bundle/text.h"
#include "bundle/bundle.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace AotStudio::Bundle {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr const char *kContents = ".contents.json";
constexpr const char *kPartialPrefix = ".partial-";

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

json fileStamp(const fs::path &p)
{
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0)
        return nullptr;
    return {{"bytes", static_cast<std::int64_t>(st.st_size)},
            {"inode", static_cast<std::uint64_t>(st.st_ino)},
            {"ctime_ns", static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec}};
}

namespace {

std::int64_t wallNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

HashCache::HashCache(const fs::path &bundleDir, bool enabled)
    : m_dir(bundleDir)
{
    if (const char *full = std::getenv("AOTSTUDIO_VERIFY_FULL"); !enabled || (full && *full && std::string(full) != "0"))
        return;
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(bundleDir), ec);
    if (ec)
        return;
    m_dir = canonical;
    try {
        const fs::path root = packageCacheRoot().parent_path() / "hashes";
        fs::create_directories(root, ec);
        if (ec || !fs::is_directory(root))
            return;
        ::chmod(root.c_str(), 0700);
        char name[32];
        std::snprintf(name, sizeof name, "%016zx.json", std::hash<std::string>{}(m_dir.string()));
        m_file = root / name;
        m_enabled = true;
        std::ifstream in(m_file);
        if (!in) {
            // A folder seen for the first time: drop the files of folders unused for a month.
            const auto now = fs::file_time_type::clock::now();
            for (const auto &e : fs::directory_iterator(root, ec))
                if (e.path().extension() == ".json"
                    && now - fs::last_write_time(e.path(), ec) > std::chrono::hours(24 * kPackageCacheMaxAgeDays))
                    fs::remove(e.path(), ec);
            return;
        }
        const json j = json::parse(in, nullptr, false);
        // Another folder whose path hashes alike: its entries are not ours.
        if (j.is_object() && j.value("dir", std::string()) == m_dir.string() && j.contains("files")
            && j["files"].is_object())
            m_entries = j["files"];
    } catch (...) {
        m_enabled = false;
    }
}

HashCache::~HashCache()
{
    if (!m_enabled || !m_changed)
        return;
    try {
        writeFileAtomic(m_file, json{{"dir", m_dir.string()}, {"files", m_entries}}.dump());
    } catch (...) {
    }
}

std::string HashCache::sha256(const std::string &rel)
{
    const fs::path file = m_dir / rel;
    if (m_enabled) {
        const json stamp = fileStamp(file);
        const auto it = m_entries.find(rel);
        if (!stamp.is_null() && it != m_entries.end() && it->is_object() && it->value("stamp", json()) == stamp
            && it->value("sha256", std::string()).size() == 64) {
            const std::int64_t recorded = it->value("recorded_ns", std::int64_t{0});
            const std::int64_t ctime = stamp.value("ctime_ns", std::int64_t{0});
            if (ctime + std::int64_t{kHashCacheSettleSeconds} * 1000000000 < recorded) {
                ++m_cached;
                return (*it)["sha256"].get<std::string>();
            }
        }
    }
    // Stamp before reading: a write during the hash changes the ctime, so the entry cannot match.
    const json stamp = m_enabled ? fileStamp(file) : json();
    const std::int64_t before = wallNs();
    std::string sha = sha256File(file);
    ++m_hashed;
    if (m_enabled && !stamp.is_null()) {
        m_entries[rel] = {{"stamp", stamp}, {"sha256", sha}, {"recorded_ns", before}};
        m_changed = true;
    }
    return sha;
}

} // namespace AotStudio::Bundle
