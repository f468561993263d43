// SPDX-License-Identifier: GPL-3.0-or-later
#include "serve/serveoptions.h"

#include "bundle/text.h"
#include "serve/serveerror.h"

#include <wordexp.h>

namespace AotStudio::Serve {

const char *isolationName(Isolation isolation)
{
    switch (isolation) {
    case Isolation::Request:
        return "request";
    case Isolation::Worker:
        return "worker";
    case Isolation::Spawn:
        return "spawn";
    case Isolation::Eager:
        return "eager";
    }
    return "?";
}

std::vector<std::string> splitCommandLine(const std::string &line)
{
    wordexp_t w{};
    // WRDE_NOCMD: $(...) and backquotes are an error, never run; WRDE_UNDEF: so is an unset $VAR.
    const int rc = ::wordexp(line.c_str(), &w, WRDE_NOCMD | WRDE_UNDEF);
    std::vector<std::string> words;
    if (rc == 0) {
        for (std::size_t i = 0; i < w.we_wordc; ++i)
            words.emplace_back(w.we_wordv[i]);
    }
    if (rc == 0 || rc == WRDE_NOSPACE)
        ::wordfree(&w);
    const char *why = rc == WRDE_BADCHAR ? "an unquoted |, &, ;, <, >, (, ), { or }"
        : rc == WRDE_CMDSUB              ? "a command substitution ($(...) or backquotes), which is not run"
        : rc == WRDE_BADVAL              ? "an unset variable"
        : rc == WRDE_SYNTAX              ? "a syntax error (an unmatched quote?)"
        : rc != 0                        ? "out of memory"
        : words.empty()                  ? "no command"
                                         : nullptr;
    if (why)
        throw UsageError("--eager-server '" + Bundle::validUtf8(line) + "': " + why);
    return words;
}

} // namespace AotStudio::Serve
