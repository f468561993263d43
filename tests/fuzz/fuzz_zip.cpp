// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a bundle .zip or a .pt2 archive from outside, read the way `aotstudio-run` (extract
// into a private folder) and `aotstudio-cli inspect` (list entries, read small JSON records) read
// them. Oracles: only BundleError is thrown; extraction writes nothing outside its folder (path
// traversal), makes no symbolic link and never writes a file twice (duplicate names); inspect's
// description dumps as strict JSON.
#include "bundle/bundle.h"
#include "bundle/inspect.h"
#include "bundle/text.h"
#include "fuzzutil.h"

#include <cstddef>
#include <cstdint>

using namespace AotStudio;
using nlohmann::json;
namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fs::path base = FuzzUtil::scratch() / "zip";
    const fs::path archive = base / "in.zip";
    const fs::path out = base / "out";
    std::error_code ec;
    fs::remove_all(out, ec);
    FuzzUtil::writeFile(archive, std::string_view(reinterpret_cast<const char *>(data), size));

    const fs::path dest = out / "a" / "b";
    try {
        const fs::path root = Bundle::extractZip(archive, dest);
        if (root != dest && root.parent_path() != dest)
            FuzzUtil::fail("extractZip() returned a root outside its folder: " + root.string());
    } catch (const Bundle::BundleError &e) {
        (void)Bundle::dumpJson(json{{"ok", false}, {"error", e.what()}}); // aotstudio-run --json's refusal
    }
    // Everything extracted lies under dest, as plain files and folders.
    for (auto it = fs::recursive_directory_iterator(out, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const fs::path rel = it->path().lexically_relative(out);
        const bool onTheWay = rel == "a" || rel == fs::path("a") / "b";
        if (!onTheWay && rel.string().rfind("a/b/", 0) != 0)
            FuzzUtil::fail("extraction wrote outside its folder: " + it->path().string());
        const auto st = it->symlink_status(ec);
        if (fs::is_symlink(st) || (!fs::is_regular_file(st) && !fs::is_directory(st)))
            FuzzUtil::fail("extraction made something other than a file or folder: " + it->path().string());
    }
    for (const auto &e : fs::directory_iterator(base, ec))
        if (e.path() != archive && e.path() != out)
            FuzzUtil::fail("extraction wrote next to its folder: " + e.path().string());

    try {
        FuzzUtil::requireStrictJson(Bundle::inspectPt2(archive), "inspect's description");
    } catch (const Bundle::BundleError &e) {
        FuzzUtil::requireStrictJson(json{{"ok", false}, {"error", e.what()}}, "inspect's error");
    }
    return 0;
}
