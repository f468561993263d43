// SPDX-License-Identifier: GPL-3.0-or-later
// Zips: a bundle zipped, a zip checked (consistency, names, declared sizes) and extracted; private temporary folders.
#include "bundle/bundle_p.h"
#include "bundle/guards.h"

#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace Detail;

namespace {

std::string libzipError(int code)
{
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    std::string s = zip_error_strerror(&e);
    zip_error_fini(&e);
    return s;
}

} // namespace

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

void readZipEntries(const fs::path &zipPath, const std::function<bool(const std::string &, std::uint64_t)> &want,
                    const std::function<void(const std::string &, std::string)> &take, const ExtractLimits &limits)
{
    const std::string name = quoted(zipPath);
    const auto z = openZipChecked(zipPath, name);
    for (const ZipEntry &e : zipEntries(z.get(), name, limits)) {
        if (e.isDir || !want(e.rel, e.size))
            continue;
        zip_file_t *f = zip_fopen_index(z.get(), e.index, 0);
        if (!f)
            throw BundleError("zip " + name + ": entry '" + e.rel + "' cannot be opened: " + zip_strerror(z.get()) + " (corrupt)");
        std::unique_ptr<zip_file_t, decltype(&zip_fclose)> file(f, &zip_fclose);
        std::string data(static_cast<std::size_t>(e.size), '\0');
        const zip_int64_t n = data.empty() ? 0 : zip_fread(f, data.data(), data.size());
        if (n < 0 || static_cast<zip_uint64_t>(n) != e.size)
            throw BundleError("zip " + name + ": entry '" + e.rel + "' cannot be read: " + zip_file_strerror(f) + " (truncated or corrupt)");
        take(e.rel, std::move(data));
    }
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

Pt2Kind pt2Kind(const std::vector<std::string> &entries)
{
    bool program = false;
    for (const std::string &e : entries) {
        // AOTInductor: <name>/data/aotinductor/<model>/...; torch.export.save: <name>/models/<model>.json.
        if (e.find("/data/aotinductor/") != std::string::npos || e.rfind("data/aotinductor/", 0) == 0)
            return Pt2Kind::AotiPackage;
        const auto m = e.find("models/");
        if (m != std::string::npos && (m == 0 || e[m - 1] == '/') && e.size() > 5 && e.compare(e.size() - 5, 5, ".json") == 0)
            program = true;
    }
    return program ? Pt2Kind::ExportedProgram : Pt2Kind::Unknown;
}

Pt2Kind pt2Kind(const fs::path &path)
{
    std::error_code ec;
    std::vector<std::string> names;
    if (fs::is_directory(path, ec)) {
        for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            names.push_back(fs::relative(it->path(), path, ec).generic_string() + (it->is_directory(ec) ? "/" : ""));
        return pt2Kind(names);
    }
    try {
        auto z = openZipChecked(path, quoted(path));
        for (const auto &e : zipEntries(z.get(), quoted(path), ExtractLimits{}))
            names.push_back(e.rel + (e.isDir ? "/" : ""));
    } catch (const BundleError &) {
        return Pt2Kind::NotAZip;
    }
    return pt2Kind(names);
}

std::string exportedProgramMessage(const fs::path &path)
{
    return quoted(path) + " is a torch.export.save program (an ExportedProgram: a graph and its weights, no compiled "
                          "code), not an AOTInductor package; compile it first: aotstudio-cli compile --model " +
        path.string() + " --out DIR, then run DIR/model.pt2 (aotstudio-run --package DIR/model.pt2 --input FILE) or "
                        "make a bundle (aotstudio-cli export --from DIR --out BUNDLE)";
}

} // namespace AotStudio::Bundle
