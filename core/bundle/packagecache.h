// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace AotStudio::Bundle {

/// The extraction cache of AOTInductor packages (BUNDLE.md "Package cache").
///
/// LibTorch's AOTIModelPackageLoader extracts a `.pt2` into a new temporary folder on every load
/// (pytorch#169154) and removes it afterwards; given a folder instead, it loads from it as is. The
/// cache extracts each package once per SHA-256 into `<root>/<sha256>/`: written under a
/// `.partial-<pid>-XXXXXX` name (flock()ed, so a killed extraction is recognised and removed by the
/// next one) and renamed into place, so a reader sees a whole folder or none. Every use checks the
/// folder against the list of files written beside it (`.contents.json`: path, size, inode and
/// status-change time of each; a file written, truncated, replaced or chmod-ed since has another
/// st_ctime, which user space cannot set back: git's index makes the same check, and it costs one
/// stat() per file instead of hashing the package again); a folder that fails (a file changed,
/// missing or added) is moved aside and extracted again. Folders not used for
/// `kPackageCacheMaxAgeDays` are removed when a new one is made.
///
/// Root: $AOTSTUDIO_CACHE_DIR/packages, else $XDG_CACHE_HOME/aotstudio/packages, else
/// ~/.cache/aotstudio/packages (created mode 0700).
inline constexpr int kPackageCacheMaxAgeDays = 30;

/// The cache root (see above), created if missing. Throws BundleError naming it when it cannot be
/// created.
std::filesystem::path packageCacheRoot();

/// The folder to hand to AOTIModelPackageLoader for `package` (a `.pt2`, the zip AOTInductor
/// writes), extracted once per content. `sha256` is the package's hex SHA-256 when the caller has
/// verified it (a bundle's manifest); empty: computed here. Throws BundleError naming the package
/// or the cache folder when the package is not a readable zip, or the cache cannot be written.
std::filesystem::path cachedPackageDir(const std::filesystem::path &package, std::string sha256 = {});

/// What a file looks like now: {"bytes", "inode", "ctime_ns"} from stat(), null when it cannot be
/// stat()ed. Any write, truncation, chmod or replacement changes st_ctime, which user space cannot
/// set back, so equal stamps mean the same, unchanged file (git's index makes the same check).
nlohmann::json fileStamp(const std::filesystem::path &path);

/// The hex SHA-256 of `file` (a bundle's file being verified), from the hash cache when the file
/// is unchanged since it was hashed, else computed (sha256File) and recorded (BUNDLE.md "Hash
/// cache"). The cache: one JSON file per bundle folder under `<cache>/hashes/` (the package
/// cache's parent, mode 0700), written atomically, entries keyed by path with the file's stamp and
/// the time they were recorded; files of folders not verified for kPackageCacheMaxAgeDays are
/// removed when a new one is written. An entry is used only when the file's stamp is equal and its
/// ctime is at least kHashCacheSettleSeconds older than the entry (a file written within the
/// timestamp granularity of the hash could otherwise change unseen: git's "racy" rule).
/// AOTSTUDIO_VERIFY_FULL=1 hashes every file. A cache that cannot be read or written is ignored.
/// Throws BundleError as sha256File does.
class HashCache
{
public:
    /// `enabled` false: every file is hashed, nothing is recorded (an extracted zip's folder).
    explicit HashCache(const std::filesystem::path &bundleDir, bool enabled = true);
    ~HashCache(); ///< writes the entries recorded (never throws)
    HashCache(const HashCache &) = delete;
    HashCache &operator=(const HashCache &) = delete;

    std::string sha256(const std::string &rel);

    int hashed() const { return m_hashed; } ///< files read and hashed
    int cached() const { return m_cached; } ///< files taken from the cache

private:
    std::filesystem::path m_dir, m_file;
    nlohmann::json m_entries = nlohmann::json::object();
    bool m_enabled = false, m_changed = false;
    int m_hashed = 0, m_cached = 0;
};
inline constexpr int kHashCacheSettleSeconds = 2;

} // namespace AotStudio::Bundle
