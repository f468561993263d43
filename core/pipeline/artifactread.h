// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "protocol/messages.h"

#include <cstddef>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// The most bytes of a file one `data` event carries (FORMAT.md "read"): 4 MiB, which base64
/// makes about 5.6 MiB, well inside the 16 MiB protocol line (Protocol::kMaxLineBytes).
inline constexpr std::size_t kMaxReadChunk = std::size_t(4) << 20;

/**
 * The engine's answer to `read` requests (FORMAT.md "read"): a slice of a file under one of the
 * engine's job folders, base64 in a `data` event, with the file's size and (for a read at offset
 * 0) the SHA-256 of the whole file. The job folders are the `out` folders of the jobs this engine
 * was given plus folders named at start (`aotstudio-engine --jobs DIR`). Anything else (a
 * relative path, `..`, a symbolic link that leads out of them, a folder) is refused with code
 * `refused` and the refusal is logged. Thread-safe: the engine adds folders from its reader
 * thread while reads are served there too.
 */
class ArtifactReader {
public:
    /// Allow reads below `folder` (an absolute path; it need not exist yet).
    void addFolder(const std::filesystem::path &folder);
    /// The folders reads are allowed under, as added.
    std::vector<std::filesystem::path> folders() const;

    /**
     * Answer one `read` request (`path`, optional `offset` (bytes, default 0) and `length` (bytes,
     * default and at most kMaxReadChunk), optional `hash` (bool, default true at offset 0),
     * `compress` (bool: the slice zlib-compressed, `"encoding":"zlib"`, when that makes it smaller
     * and the engine was built with zlib)).
     * Returns the `data` event, or an `error` event (`bad_request`, `refused`, `not_found`).
     * A refusal also goes to `log` (a warning line for the engine log). Never throws.
     */
    Protocol::Json serve(const Protocol::Request &request, Protocol::Json *log = nullptr) const;

private:
    mutable std::mutex m_mutex;
    std::vector<std::filesystem::path> m_folders;
};

/// `bytes` as standard base64 (RFC 4648, with padding), through OpenSSL's EVP_EncodeBlock.
std::string base64Encode(const char *bytes, std::size_t size);

} // namespace AotStudio::Pipeline
