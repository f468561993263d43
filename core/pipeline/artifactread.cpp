// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/artifactread.h"

#include "bundle/bundle.h"

#include <openssl/evp.h>
#ifdef AOTSTUDIO_HAVE_ZLIB
#include <zlib.h>
#endif

#include <fstream>

namespace AotStudio::Pipeline {

namespace fs = std::filesystem;
using Protocol::Json;

std::string base64Encode(const char *bytes, std::size_t size)
{
    std::string out(4 * ((size + 2) / 3), '\0');
    // EVP_EncodeBlock takes an int length: encode in slices (multiples of 3 bytes keep it exact).
    constexpr std::size_t slice = std::size_t(3) << 20;
    std::size_t written = 0;
    for (std::size_t from = 0; from < size; from += slice) {
        const std::size_t n = std::min(slice, size - from);
        written += std::size_t(EVP_EncodeBlock(reinterpret_cast<unsigned char *>(out.data() + written),
                                               reinterpret_cast<const unsigned char *>(bytes + from), int(n)));
    }
    out.resize(written);
    return out;
}

void ArtifactReader::addFolder(const fs::path &folder)
{
    if (folder.empty() || !folder.is_absolute())
        return;
    const fs::path clean = folder.lexically_normal();
    std::lock_guard lock(m_mutex);
    for (const auto &f : m_folders) {
        if (f == clean)
            return;
    }
    m_folders.push_back(clean);
}

std::vector<fs::path> ArtifactReader::folders() const
{
    std::lock_guard lock(m_mutex);
    return m_folders;
}

namespace {

/// `path` lies inside `folder` (both canonical: no symlinks, no `..`).
bool isInside(const fs::path &path, const fs::path &folder)
{
    auto p = path.begin();
    for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
        if (f->empty()) // a trailing separator
            continue;
        if (p == path.end() || *p != *f)
            return false;
    }
    return true;
}

Json failure(std::int64_t id, const char *code, const std::string &message, const std::string &hint)
{
    return Protocol::makeError(id, {"read", code, message, hint});
}

} // namespace

Json ArtifactReader::serve(const Protocol::Request &request, Json *log) const
{
    const auto id = request.id;
    const Json &body = request.body;
    const auto pathIt = body.find("path");
    if (pathIt == body.end() || !pathIt->is_string() || pathIt->get<std::string>().empty())
        return failure(id, Protocol::Code::BadRequest, "read has no string \"path\"",
                       "send {\"type\":\"read\",\"id\":N,\"path\":FILE,\"offset\":0,\"length\":BYTES}");
    const std::string requested = pathIt->get<std::string>();
    std::uint64_t offset = 0;
    std::uint64_t length = kMaxReadChunk;
    for (const auto &[key, target] : {std::pair{"offset", &offset}, std::pair{"length", &length}}) {
        const auto it = body.find(key);
        if (it == body.end() || it->is_null())
            continue;
        if (!it->is_number_integer() || it->get<std::int64_t>() < 0)
            return failure(id, Protocol::Code::BadRequest, std::string("read: \"") + key + "\" must be an integer >= 0", "");
        *target = it->get<std::uint64_t>();
    }
    length = std::min<std::uint64_t>(length, kMaxReadChunk);

    const auto refuse = [&](const std::string &why) {
        const std::string message = "read of " + requested + " refused: " + why;
        if (log)
            *log = Protocol::makeLog(id, "warning", message);
        return failure(id, Protocol::Code::Refused, message,
                       "only files under the engine's job folders can be read (the out folders of its jobs "
                       "and folders given with --jobs)");
    };
    const fs::path asked(requested);
    if (!asked.is_absolute())
        return refuse("not an absolute path");
    std::error_code ec;
    // canonical() resolves every symbolic link, so a link inside a job folder that points out of
    // it is judged by where it leads.
    const fs::path real = fs::canonical(asked, ec);
    if (ec) {
        // Not there (or unreadable): say so only when it would be inside a job folder, so that a
        // refused reader learns nothing about the rest of the disk.
        const fs::path lexical = fs::weakly_canonical(asked, ec);
        bool inside = false;
        for (const auto &folder : folders()) {
            const fs::path root = fs::weakly_canonical(folder, ec);
            inside = inside || (!ec && isInside(lexical, root));
        }
        if (!inside)
            return refuse("outside the engine's job folders");
        return failure(id, Protocol::Code::NotFound, requested + ": no such file on the engine's machine",
                       "the job may have been re-run or its folder removed");
    }
    bool inside = false;
    for (const auto &folder : folders()) {
        const fs::path root = fs::canonical(folder, ec);
        inside = inside || (!ec && isInside(real, root));
    }
    if (!inside)
        return refuse(real == asked.lexically_normal() ? "outside the engine's job folders"
                                                       : "it leads to " + real.string() + ", outside the engine's job folders");
    if (!fs::is_regular_file(real, ec))
        return failure(id, Protocol::Code::BadRequest, requested + " is not a regular file", "read files, not folders");

    std::ifstream in(real, std::ios::binary);
    if (!in)
        return failure(id, Protocol::Code::NotFound, requested + ": cannot be opened on the engine's machine", "");
    in.seekg(0, std::ios::end);
    const auto size = std::uint64_t(in.tellg());
    offset = std::min(offset, size);
    length = std::min(length, size - offset);
    std::string bytes(length, '\0');
    in.seekg(std::streamoff(offset));
    if (length > 0 && !in.read(bytes.data(), std::streamsize(length)))
        return failure(id, Protocol::Code::NotFound, requested + ": read error on the engine's machine", "");
    std::string sha;
    const auto hash = body.find("hash");
    if (hash != body.end() && hash->is_boolean() ? hash->get<bool>() : offset == 0) {
        try {
            sha = Bundle::sha256File(real);
        } catch (const std::exception &e) {
            return failure(id, Protocol::Code::NotFound, e.what(), "");
        }
    }
    const auto compress = body.find("compress");
#ifdef AOTSTUDIO_HAVE_ZLIB
    if (compress != body.end() && compress->is_boolean() && compress->get<bool>() && !bytes.empty()) {
        // Level 1: JSON snapshots and sources shrink several times at little cost; a slice that
        // does not shrink (a package, random bytes) goes as it is.
        uLongf packedSize = compressBound(uLong(bytes.size()));
        std::string packed(packedSize, '\0');
        if (compress2(reinterpret_cast<Bytef *>(packed.data()), &packedSize, reinterpret_cast<const Bytef *>(bytes.data()),
                      uLong(bytes.size()), 1) == Z_OK &&
            packedSize < bytes.size()) {
            Json data = Protocol::makeData(id, requested, offset, length, size, sha, base64Encode(packed.data(), packedSize));
            data["encoding"] = "zlib";
            return data;
        }
    }
#else
    (void)compress;
#endif
    return Protocol::makeData(id, requested, offset, length, size, sha, base64Encode(bytes.data(), bytes.size()));
}

} // namespace AotStudio::Pipeline
