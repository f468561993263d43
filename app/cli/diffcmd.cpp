// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli diff BEFORE AFTER`: the structural diff of two graph snapshots (files only).
#include "command.h"

#include "graph/graphdiff.h"
#include "protocol/envelope.h"

#include <cstdio>
#include <memory>

namespace AotStudio::Cli {

namespace {

struct DiffOptions {
    std::string before, after;
    bool json = false;
};

int runDiff(const DiffOptions &o)
{
    try {
        const auto before = Graph::loadSnapshot(o.before);
        const auto after = Graph::loadSnapshot(o.after);
        const auto diff = Graph::diffSnapshots(before, after);
        if (o.json) {
            Protocol::printEnvelope(stdout, Protocol::okEnvelope(Graph::toJson(diff)));
            return Protocol::kExitOk;
        }
        std::printf("%s%s%s -> %s%s%s: %zu added, %zu removed, %zu changed, %zu unchanged\n", before.stage.c_str(),
                    before.pass.empty() ? "" : "/", before.pass.c_str(), after.stage.c_str(),
                    after.pass.empty() ? "" : "/", after.pass.c_str(), diff.added.size(), diff.removed.size(),
                    diff.changed.size(), diff.unchanged);
        for (const auto &id : diff.removed)
            std::printf("- %-28s %s\n", id.c_str(), before.find(id)->target.c_str());
        for (const auto &id : diff.added)
            std::printf("+ %-28s %s\n", id.c_str(), after.find(id)->target.c_str());
        for (const auto &c : diff.changed) {
            std::string fields;
            for (const auto &f : c.fields)
                fields += (fields.empty() ? "" : ",") + f;
            std::printf("~ %-28s -> %s  [%s; matched by %s]\n", c.before.c_str(), c.after.c_str(), fields.c_str(),
                        Graph::toString(c.via));
        }
        return Protocol::kExitOk;
    } catch (const Graph::GraphError &e) {
        const std::string hint = "pass two snapshot files from OUT/snapshots/";
        std::fprintf(stderr, "aotstudio-cli: diff failed: %s. Hint: %s\n", e.what(), hint.c_str());
        if (o.json)
            Protocol::printEnvelope(
                stdout, Protocol::errorEnvelope(Protocol::Error{"diff", Protocol::Code::BadRequest, e.what(), hint}));
        return Protocol::kExitFailed;
    }
}

} // namespace

Command diffCommand()
{
    auto o = std::make_shared<DiffOptions>();
    return {
        "diff",
        "Structural diff of two graph snapshots (OUT/snapshots/*.json): added, removed and changed nodes, paired by "
        "provenance, then name, then structure",
        [o](CLI::App &cmd) {
            cmd.add_option("before", o->before, "Snapshot before (JSON)")->required()->check(CLI::ExistingFile);
            cmd.add_option("after", o->after, "Snapshot after (JSON)")->required()->check(CLI::ExistingFile);
            cmd.add_flag("--json", o->json, "Print the JSON envelope: {\"ok\": true, \"result\": DIFF}");
            cmd.footer("Exit status: 0 compared, 1 a file is not a graph snapshot, 2 bad command line.");
        },
        [] { return std::string(); },
        [o](const Globals &) { return runDiff(*o); },
        [o] { return o->json; }};
}

} // namespace AotStudio::Cli
