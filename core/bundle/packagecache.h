// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

} // namespace AotStudio::Bundle
