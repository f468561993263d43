// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli sweep`: a package checked against eager across the shapes its guards accept, and
// refused outside them (core/pipeline/sweepjob.h, FORMAT.md "sweep").
#include "sweepcmd.h"
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

void addSweepOptions(CLI::App &app, SweepOptions &o)
{
    auto *cmd = &app;
    auto *target = cmd->add_option_group("target", "What to sweep (one of them)");
    target->add_option("-m,--model", o.model,
        "Model: sample:NAME, path/to/file.py:factory or a torch.export.save .pt2; "
        "alone it is compiled first (into OUT/compile), with --package or --bundle "
        "it is the eager reference (default: the one in their result.json/manifest)");
    auto *package = target
                        ->add_option("--package", o.package,
                            "An AOTInductor .pt2 written by compile (its result.json and model.guards.json "
                            "beside it)")
                        ->check(CLI::ExistingFile);
    target->add_option("--bundle", o.bundle, "A bundle (directory or .zip) written by export: every bucket's package")
        ->check(CLI::ExistingPath)
        ->excludes(package);
    target->require_option(1, 3);
    cmd->add_flag("--allow-unsigned", o.allowUnsigned,
                  "With --bundle and a trust store ($AOTSTUDIO_TRUST): sweep an unsigned bundle, or one signed by a "
                  "key outside the store (an invalid signature is always refused; BUNDLE.md \"Who may load a bundle\")");
    cmd->add_option("-d,--device", o.device, "cpu or cuda (default: the package's)")
        ->check(CLI::IsMember({ "cpu", "cuda" }));
    cmd->add_option("-o,--out", o.out, "Output directory (created)")->capture_default_str();
    cmd->add_option("--dtype", o.dtype, "fp32, bf16 or fp16: the compile's (with --model alone, or for a package without its result.json)")
        ->check(CLI::IsMember({ "fp32", "bf16", "fp16" }));
    cmd->add_option("--dynamic", o.dynamic,
        "Dynamic dimension INPUT:DIM[:MIN:MAX][=NAME] as for compile (repeatable; one NAME ties dimensions of "
        "several inputs): with --model alone, or for a package without its result.json")
        ->check(dynamicSpec());
    addShapeOption(cmd, o.shapes);
    cmd->add_option(
           "--from-capture", o.fromCapture,
           "A folder written by aotstudio-cli capture: its distinct recorded shapes join each package's plan "
           "(each on its kept input, or on seeded inputs of that shape); a bundle's bucket takes those it accepts")
        ->check(CLI::ExistingDirectory);
    cmd->add_option(
           "--capture-shapes", o.captureShapes,
           "With --from-capture: most distinct recorded shapes (default 32; past it a sample: each dimension's "
           "smallest and largest size, then the most frequent)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--budget", o.budget, "Most shapes per package (the example included)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--random-points", o.randomPoints, "Seeded interior sizes per dimension")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    cmd->add_option("--seed", o.seed, "Seed of the interior sizes and of the inputs' values")->capture_default_str();
    cmd->add_flag("--no-pairwise", o.noPairwise, "Vary one dimension at a time only");
    cmd->add_flag("--no-outside", o.noOutside, "Do not try sizes outside the range");
    auto *isolate = cmd->add_flag("--isolate", o.isolate,
        "Run each package call in a child aotstudio-run process, so that a crash or a hang "
        "is recorded and the sweep goes on");
    cmd->add_option(
           "--timeout", o.timeout, "With --isolate: seconds for each isolated call, the child process's start (about "
                                   "half a second) included, before it is killed and recorded as hung")
        ->capture_default_str()
        ->check(CLI::Range(0.1, 86400.0))
        ->needs(isolate);
    cmd->add_option("--tolerance", o.tolerance, "Largest accepted max abs difference (default: the compile's)")
        ->check(CLI::Range(0.0, 1e30));
    addThreadsOption(cmd, o.threads);
    addRayOption(cmd, o.ray);
    cmd->add_option("--ray-shards", o.rayShards,
                    "With --ray: the sweep in N Ray tasks, each a whole engine running every Nth shape (default 2: an "
                    "engine's start and the model's load cost seconds, a shape milliseconds)")
        ->check(CLI::Range(1, 1024))
        ->needs("--ray");
    cmd->add_flag(
        "--json", o.json,
        "Print the JSON envelope on stdout, the sweep as its result (also beside the error when shapes fail)");
    cmd->add_flag("-v,--verbose", o.verbose, "Also print debug logs to stderr");
    cmd->footer(
        "Exit status: 0 every shape did what the guards promise (matched inside, refused outside; a shape where eager\n"
        "itself fails is the model's and does not fail the sweep), 1 some did not or the sweep failed, 2 bad command\n"
        "line, 130 cancelled.\n"
        "Examples:\n"
        "  aotstudio-cli sweep --package /tmp/dyn/model.pt2 --out /tmp/dyn-sweep\n"
        "  aotstudio-cli sweep --model sample:mlp --dynamic 0:0:1:64=batch --out /tmp/mlp-sweep\n"
        "  aotstudio-cli sweep --bundle /tmp/mlp-bundle.zip --isolate --timeout 30 --out /tmp/bundle-sweep");
}

json sweepRequest(const SweepOptions &o)
{
    const auto abs = [](const std::string &p) { return std::filesystem::absolute(p).lexically_normal().string(); };
    json r { { "type", "sweep" }, { "id", 1 }, { "out", abs(o.out) }, { "budget", o.budget },
        { "random_points", o.randomPoints }, { "seed", o.seed }, { "pairwise", !o.noPairwise },
        { "outside", !o.noOutside }, { "isolate", o.isolate }, { "timeout", o.timeout } };
    if (!o.model.empty())
        r["model"] = o.model;
    if (!o.package.empty())
        r["package"] = abs(o.package);
    if (!o.bundle.empty())
        r["bundle"] = abs(o.bundle);
    if (o.allowUnsigned)
        r["allow_unsigned"] = true;
    if (!o.device.empty())
        r["device"] = o.device;
    if (!o.dtype.empty())
        r["dtype"] = o.dtype;
    if (!o.dynamic.empty())
        r["dynamic"] = o.dynamic;
    setShapes(r, o.shapes);
    if (o.tolerance >= 0)
        r["tolerance"] = o.tolerance;
    setThreads(r, o.threads);
    setRay(r, o.ray);
    if (o.rayShards > 0)
        r["ray_shards"] = o.rayShards;
    if (!o.fromCapture.empty())
        r["from_capture"] = abs(o.fromCapture);
    if (o.captureShapes >= 0)
        r["capture_shapes"] = o.captureShapes;
    return r;
}

namespace {

/// One character per outcome, for the strip of each dimension.
char mark(const std::string &outcome, bool ok)
{
    if (!ok)
        return 'X';
    if (outcome == "match")
        return '+';
    if (outcome == "refused")
        return '-';
    if (outcome == "eager_error")
        return 'e';
    return '?';
}

} // namespace

void printSweep(std::FILE *out, const json &r)
{
    for (const auto &t : r.value("targets", json::array())) {
        const json plan = t.value("plan", json::object());
        std::fprintf(out, "%s: %s\n", t.value("name", "").c_str(), t.value("package", "").c_str());
        std::fprintf(out, "  guards:  %s (%s)\n", t.value("guards", "").c_str(), t.value("guards_origin", "").c_str());
        std::fprintf(out, "  shapes:  %d (%d varying one dimension, %d pairwise, %d left out by the budget)\n",
            plan.value("points", 0), plan.value("single", 0), plan.value("pairs", 0), plan.value("left_out", 0));
        for (const auto &n : plan.value("notes", json::array()))
            std::fprintf(out, "  note:    %s\n", n.get<std::string>().c_str());
        // Per dimension: every size tried with one other dimension at the example, marked.
        std::size_t width = 8;
        for (const auto &s : t.value("symbols", json::array()))
            width = std::max(width, s.value("label", "").size());
        for (const auto &s : t.value("symbols", json::array())) {
            const std::string label = s.value("label", "");
            std::map<long long, std::string> tried;
            for (const auto &p : t.value("points", json::array())) {
                const json varied = p.value("varied", json::array());
                if (varied.size() != 1 || varied[0] != label || p.value("relation", false))
                    continue;
                const long long v = p.value("/values"_json_pointer / label, 0LL);
                tried[v] = std::string(1, mark(p.value("outcome", ""), p.value("ok", false)));
            }
            std::string line;
            for (const auto &[v, m] : tried)
                line += (line.empty() ? "" : " ") + std::to_string(v) + m;
            const json lo = s.value("min", json()), hi = s.value("max", json());
            std::fprintf(out, "  %-*s %s..%s (example %lld): %s\n", static_cast<int>(width), label.c_str(),
                lo.is_null() ? "?" : lo.dump().c_str(), hi.is_null() ? "inf" : hi.dump().c_str(),
                s.value("example", 0LL), line.c_str());
        }
        for (const auto &p : t.value("points", json::array())) {
            if (p.value("ok", true))
                continue;
            std::string shapes;
            for (const auto &s : p.value("shapes", json::array()))
                shapes += (shapes.empty() ? "" : " ") + s.dump();
            std::fprintf(out, "  FAIL     %s: expected %s, got %s: %s\n", shapes.c_str(),
                p.value("expected", "").c_str(), p.value("outcome", "").c_str(), p.value("message", "").c_str());
        }
    }
    for (const auto &row : r.value("policy", json::array())) {
        if (row.value("ok", true))
            continue;
        std::fprintf(out, "  FAIL     bucket policy, batch %lld in %s%s: %s: %s\n", row.value("batch", 0LL),
                     row.value("bucket", json()).is_string() ? row["bucket"].get<std::string>().c_str() : "no bucket",
                     row.value("padded", false) ? " (padded)" : "", row.value("outcome", "").c_str(), row.value("message", "").c_str());
    }
    std::fprintf(out,
        "marks:          + matched eager, - refused (outside the range), e eager itself fails, X not what the guards "
        "promise\n");
    if (const json ray = r.value("ray", json()); ray.is_object())
        std::fprintf(out, "swept on:       the Ray cluster at %s, %d shards (each shape's host in sweep.json)\n",
                     ray.value("address", "").c_str(), ray.value("shards", 0));
    std::fprintf(out, "sweep:          %s\n", r.value("verdict", "").c_str());
    std::fprintf(out, "result:         %s\n", r.value("sweep_json", "").c_str());
}

namespace {

/// A sweep with shapes that did not do what the guards promise failed its check.
std::string sweepFailure(const json &result)
{
    if (result.value("passed", false))
        return {};
    const std::string verdict = result.value("verdict", std::string());
    return verdict.empty() ? std::string("some shapes did not do what the guards promise") : verdict;
}

} // namespace

Command sweepCommand()
{
    auto o = std::make_shared<SweepOptions>();
    return {"sweep",
            "Verify a package across the shapes it accepts: for every dynamic dimension its range ends and their "
            "neighbours, 0 and 1, the example, both sides of every recorded guard, odd and even sizes, powers of two, "
            "seeded interior points, pairs of dimensions, and sizes just outside the range. Inside the range the "
            "package must match eager on seeded inputs (per output); outside, the runner must refuse the call. "
            "Writes OUT/sweep.json and OUT/sweep.csv",
            [o](CLI::App &cmd) { addSweepOptions(cmd, *o); },
            [o] {
                json shapes;
                return parseShapes(o->shapes, shapes);
            },
            [o](const Globals &g) -> int {
                runEngineJob({sweepRequest(*o), o->json, g.verbose || o->verbose,
                              sweepRequest(*o).value("out", std::string()) + "/aotstudio.log", printSweep,
                              sweepFailure});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
