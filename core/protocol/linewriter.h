// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "protocol/messages.h"

#include <cstdio>
#include <mutex>

namespace AotStudio::Protocol {

/// Thread-safe writer of protocol lines (one JSON object + '\n', flushed) to a stream of its own.
class LineWriter {
public:
    explicit LineWriter(std::FILE *stream) : m_stream(stream) {}
    void write(const Json &message);

private:
    std::FILE *m_stream;
    std::mutex m_mutex;
};

/// Keep stdout for protocol lines only. Duplicates file descriptor 1 into a new stream that is
/// returned, then points fd 1 at stderr, so that anything else printing to stdout (Python
/// libraries, Inductor's compiler subprocesses, C++ code) lands in the diagnostics instead of
/// corrupting the JSON stream. Returns stdout itself if the duplication fails.
std::FILE *takeStdoutForProtocol();

} // namespace AotStudio::Protocol
