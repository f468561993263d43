// SPDX-License-Identifier: GPL-3.0-or-later
// Bundles: writing a file atomically, opening a bundle (directory or zip) and verifying it.
#include "bundle/bundle_p.h"
#include "bundle/guards.h"

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

std::string joinProblems(const std::vector<Problem> &problems, const char *sep)
{
    std::string out;
    for (const auto &p : problems)
        out += (out.empty() ? "" : sep) + p.message;
    return out;
}

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

} // namespace Detail

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
        if (b.source.extension() == ".pt2") {
            switch (pt2Kind(b.source)) {
            case Pt2Kind::ExportedProgram:
                throw BundleError(exportedProgramMessage(path));
            case Pt2Kind::AotiPackage:
                throw BundleError(quoted(path) + " is a single AOTInductor package, not a bundle: run it with aotstudio-run "
                                                 "--package " + path.string() + " --input FILE, or make a bundle with aotstudio-cli export");
            default:
                break; // a zip named .pt2, or not a zip: extractZip() says what it is
            }
        }
        b.extracted = std::make_shared<TempDir>();
        b.root = extractZip(b.source, b.extracted->path());
    } else {
        throw BundleError("bundle " + quoted(path) + " is neither a directory nor a zip file");
    }
    b.manifest = loadManifest(b.root, &b.manifestBytes);
    if (b.manifest.formatVersion > kFormatVersion)
        throw BundleError("bundle " + quoted(path) + ": format_version " + std::to_string(b.manifest.formatVersion) +
                          " is newer than this program reads (" + std::to_string(kFormatVersion) + "); use a newer AOT Studio");
    problems = verify(b.root, b.manifest, /*hashCache=*/!b.extracted); // a zip's folder is new every time
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
