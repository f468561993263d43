// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to core/bundle (not installed, not included from outside it): the helpers its files
// share. bundle.cpp opens bundles and writes files; manifest.cpp reads and writes manifest.json;
// integrity.cpp hashes and verifies; policy.cpp chooses a bucket and checks this machine;
// archive.cpp zips, extracts and checks zips.

#include "bundle/bundle.h"
#include "bundle/text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace AotStudio::Bundle::Detail {

namespace fs = std::filesystem;

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

/// The messages of `problems` joined by `sep`.
std::string joinProblems(const std::vector<Problem> &problems, const char *sep);
/// A manifest path ("packages/batch1.pt2"): relative, '/'-separated, no empty, "." or ".." parts.
bool isSafeRelative(const std::string &p);
/// Regular files under `dir` as sorted '/'-separated relative paths. Throws on a symbolic link or
/// special file when `odd` is null, else reports them in `odd`.
std::vector<std::string> listFiles(const fs::path &dir, std::vector<Problem> *odd);

} // namespace AotStudio::Bundle::Detail
