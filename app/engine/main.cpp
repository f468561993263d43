// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-engine: the background engine process. Speaks the JSON-lines protocol of
// core/protocol/FORMAT.md on stdin/stdout; diagnostics go to stderr.
#include "bundle/targets.h"
#include "pipeline/engine.h"
#include "protocol/linewriter.h"
#include "sessionengine.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>
#include <cstring>
#include <iostream>
#include <string>

using namespace AotStudio;

namespace {
void printHelp()
{
    std::printf(
        "Usage: aotstudio-engine [--serve]\n\n"
        "The AOT Studio engine: runs torch.export, AOTInductor and the profiler for the studio\n"
        "and the CLI. It reads one JSON request per line on stdin and writes one JSON event per\n"
        "line on stdout (protocol %d, see core/protocol/FORMAT.md); diagnostics go to stderr.\n"
        "Over ssh it serves a remote GPU machine: ssh HOST aotstudio-engine --serve\n\n"
        "Options:\n"
        "  --serve     serve the protocol on stdin/stdout (the default)\n"
        "  --jobs DIR  let clients read files under DIR (the protocol's read request) besides\n"
        "              the out folders of this engine's jobs; may be repeated\n"
        "  --target NAME\n"
        "              run the engine of the target environment NAME instead (another torch,\n"
        "              made by aotstudio-cli target add; its hello names the target):\n"
        "              ssh HOST aotstudio-engine --target zerogpu --serve\n"
        "  --session ID\n"
        "              serve through the detached engine of session ID, which outlives this\n"
        "              process and its ssh link (started here when none runs; it listens on a\n"
        "              0600 Unix socket in $AOTSTUDIO_RUNTIME_DIR or ~/.cache/aotstudio/engines);\n"
        "              a client reattaches with the protocol's attach request (FORMAT.md \"Detached engines\")\n"
        "  --idle-exit SECONDS\n"
        "              with --session: the detached engine exits after SECONDS with no client\n"
        "              and no job (default %d)\n"
        "  --replay-events N\n"
        "              with --session: events kept for a reattach (default and most %zu;\n"
        "              tests make it small to see a gap)\n"
        "  --version   print the engine and protocol version\n"
        "  -h, --help  show this help\n\n"
        "Environment: AOTSTUDIO_PYTHON (python of the torch venv), AOTSTUDIO_PYTHONPATH\n"
        "(directory holding aotstudio_frontend/), AOTSTUDIO_RUNTIME_DIR (the sessions' folder).\n",
        Protocol::kProtocolVersion, EngineApp::kDefaultIdleExitSeconds, EngineApp::kReplayBufferEvents);
}
} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> readFolders;
    for (int i = 1; i < argc; ++i) { // --target first: the target's engine parses the rest
        const std::string a = argv[i];
        if (a != "--target" && a.rfind("--target=", 0) != 0)
            continue;
        const std::string name = a == "--target" ? (i + 1 < argc ? argv[i + 1] : "") : a.substr(9);
        if (name.empty()) {
            std::fprintf(stderr, "aotstudio-engine: --target needs a target's name (aotstudio-cli target list)\n");
            return 2;
        }
        const std::string why
            = Bundle::execInTarget(name, Bundle::withoutTargetOption(argc, argv), Bundle::TargetExecutable::Engine);
        std::fprintf(stderr, "aotstudio-engine: %s\n", why.c_str());
        return 2;
    }
    EngineApp::SessionOptions session;
    bool detached = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--session") || !std::strcmp(argv[i], "--idle-exit")
            || !std::strcmp(argv[i], "--replay-events")) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "aotstudio-engine: %s needs a value (try --help)\n", argv[i]);
                return 2;
            }
            if (!std::strcmp(argv[i], "--session")) {
                session.id = argv[++i];
                if (const std::string why = EngineApp::checkSessionId(session.id); !why.empty()) {
                    std::fprintf(stderr, "aotstudio-engine: --session %s: %s\n", session.id.c_str(), why.c_str());
                    return 2;
                }
            } else if (!std::strcmp(argv[i], "--replay-events")) {
                char *end = nullptr;
                const long events = std::strtol(argv[++i], &end, 10);
                if (!end || *end || events < 1 || events > long(EngineApp::kReplayBufferEvents)) {
                    std::fprintf(stderr, "aotstudio-engine: --replay-events takes a count from 1 to %zu\n",
                                 EngineApp::kReplayBufferEvents);
                    return 2;
                }
                session.replayEvents = std::size_t(events);
            } else {
                char *end = nullptr;
                const long seconds = std::strtol(argv[++i], &end, 10);
                if (!end || *end || seconds < 1 || seconds > 7 * 24 * 3600) {
                    std::fprintf(stderr, "aotstudio-engine: --idle-exit takes whole seconds from 1 to 604800\n");
                    return 2;
                }
                session.idleExitSeconds = int(seconds);
            }
            continue;
        }
        if (!std::strcmp(argv[i], "--detached")) { // internal: the engine a --session relay starts
            detached = true;
            continue;
        }
        if (!std::strcmp(argv[i], "--jobs")) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "aotstudio-engine: --jobs needs a folder (try --help)\n");
                return 2;
            }
            readFolders.emplace_back(argv[++i]);
            continue;
        }
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            printHelp();
            return 0;
        }
        if (!std::strcmp(argv[i], "--version")) {
            std::printf("aotstudio-engine %s (protocol %d)\n", std::string(Protocol::kEngineVersion).c_str(),
                        Protocol::kProtocolVersion);
            return 0;
        }
        if (std::strcmp(argv[i], "--serve") != 0) {
            std::fprintf(stderr, "aotstudio-engine: unknown option '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }

    if (!session.id.empty()) {
        for (const auto &folder : readFolders)
            session.readFolders.push_back(std::filesystem::absolute(folder).string());
        if (detached)
            return EngineApp::runDetachedEngine(session);
        std::vector<std::string> daemon{(std::filesystem::path("/proc/self/exe").lexically_normal()).string()};
        std::error_code ec;
        if (const auto self = std::filesystem::read_symlink("/proc/self/exe", ec); !ec)
            daemon[0] = self.string();
        daemon.insert(daemon.end(),
                      {"--detached", "--session", session.id, "--idle-exit", std::to_string(session.idleExitSeconds),
                       "--replay-events", std::to_string(session.replayEvents)});
        for (const auto &folder : session.readFolders)
            daemon.insert(daemon.end(), {"--jobs", folder});
        return EngineApp::runRelay(session, daemon);
    }
    if (detached) {
        std::fprintf(stderr, "aotstudio-engine: --detached needs --session ID\n");
        return 2;
    }

    Protocol::LineWriter out(Protocol::takeStdoutForProtocol());
    int exitCode = 0;
    {
        Pipeline::Engine engine([&out](const Protocol::Json &event) { out.write(event); });
        for (const auto &folder : readFolders)
            engine.addReadFolder(std::filesystem::absolute(folder));
        out.write(engine.start());
        if (auto error = engine.startupError())
            out.write(Protocol::makeError(0, *error));

        std::string line;
        for (Protocol::LineRead read; (read = Protocol::readLine(std::cin, line)) != Protocol::LineRead::End;) {
            if (read == Protocol::LineRead::TooLong) { // skipped whole: never buffered past the limit
                out.write(Protocol::makeError(0, {"protocol", Protocol::Code::BadRequest,
                                                  "request line longer than " + std::to_string(Protocol::kMaxLineBytes >> 20) +
                                                      " MiB, the protocol's line limit: skipped",
                                                  "send large data as files and name them in the request (FORMAT.md \"Framing\")"}));
                continue;
            }
            if (line.empty())
                continue;
            Protocol::Error error;
            const auto request = Protocol::parseRequest(line, error);
            if (!request) {
                out.write(Protocol::makeError(0, error));
                continue;
            }
            if (!engine.handle(*request))
                break; // shutdown
        }
        // stdin closed or shutdown: finish what is queued, then leave without finalizing Python.
        engine.waitIdle();
        std::fflush(nullptr);
        std::_Exit(exitCode);
    }
}
