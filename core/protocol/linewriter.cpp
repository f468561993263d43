// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/linewriter.h"

#include <unistd.h>

namespace AotStudio::Protocol {

void LineWriter::write(const Json &message)
{
    const std::string line = toLine(message);
    std::lock_guard lock(m_mutex);
    std::fwrite(line.data(), 1, line.size(), m_stream);
    std::fputc('\n', m_stream);
    std::fflush(m_stream);
}

std::FILE *takeStdoutForProtocol()
{
    std::fflush(stdout);
    const int fd = ::dup(STDOUT_FILENO);
    if (fd < 0)
        return stdout;
    std::FILE *stream = ::fdopen(fd, "w");
    if (!stream) {
        ::close(fd);
        return stdout;
    }
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    return stream;
}

} // namespace AotStudio::Protocol
