// SPDX-License-Identifier: GPL-3.0-or-later
#include "serve/bundleworker.h"

#include "bundle/guards.h"
#include "bundle/packagecache.h"
#include "process/childprocess.h"
#include "runtime/libraries.h"
#include "serve/workerpool.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace AotStudio::Serve {

using nlohmann::json;
namespace fs = std::filesystem;

BundleWorker::BundleWorker(const VerifiedBundle &vb, Options options)
    : WorkerBody(Subject{vb.path, vb.bundle.source.string(), vb.bundle.manifest.model, vb.bundle.manifest.device})
    , m_vb(vb)
    , m_options(std::move(options))
{ }

void BundleWorker::prepare()
{
    for (const auto &b : m_vb.bundle.manifest.buckets) {
        try {
            const auto entry = m_vb.bundle.manifest.files.find(b.package);
            Bundle::cachedPackageDir(m_vb.bundle.root / b.package,
                                     entry != m_vb.bundle.manifest.files.end() ? entry->second.sha256 : std::string());
        } catch (const Bundle::BundleError &) { }
    }
    if (m_vb.bundle.manifest.device == "cpu") {
        try {
            Runtime::Libraries::prepareFor("cpu");
        } catch (const Runtime::RuntimeError &) { }
    }
}

void BundleWorker::enterWorker(int threads)
{
    Runtime::setIntraOpThreads(threads);
}

void BundleWorker::leaveWorker()
{
    m_cache.clear(); // unloads the packages, removing LibTorch's extraction of them
}

json BundleWorker::handle(const WorkRequest &request, Clock::time_point begin, bool warm)
{
    try {
        const RequestPlan plan = planRequest(m_vb, request.batch, request.input);
        const double setupMs = msBetween(begin, Clock::now()); // a forked child's set-up and the bucket plan
        double loadMs = 0;
        std::unique_ptr<Runtime::AotiRunner> own;
        std::unique_ptr<Runtime::AotiRunner> &slot = warm ? m_cache[plan.choice.bucket.name] : own;
        if (!slot) {
            const auto t0 = Clock::now();
            slot = loadBucket(m_vb, plan.choice.bucket, 1, m_options.convertLayout);
            loadMs = msBetween(t0, Clock::now());
        }
        Runtime::AotiRunner &runner = *slot;
        double runMs = 0, inputsMs = 0;
        json outputs;
        try {
            const auto t0 = Clock::now();
            setRequestInputs(runner, m_vb, plan, request.seed); // generated (seeded) or read from the file
            const auto t1 = Clock::now();
            runner.run();
            inputsMs = msBetween(t0, t1);
            runMs = msBetween(t1, Clock::now());
            outputs = outputsJson(m_vb.bundle.manifest, runner.outputSummary(plan.batch));
        } catch (const Runtime::InputRefused &e) {
            throw Refusal("refused", e.what());
        } catch (const Runtime::RuntimeError &e) {
            throw Refusal("failed", e.what());
        }
        json answer{{"ok", true},         {"bucket", plan.choice.bucket.name},
                    {"outputs", outputs}, {"setup_ms", setupMs},
                    {"load_ms", loadMs},  {"inputs_ms", inputsMs},
                    {"run_ms", runMs}};
        if (!runner.layoutConversions().empty())
            answer["layout_conversions"] = Bundle::conversionsJson(runner.layoutConversions());
        return answer;
    } catch (const Refusal &e) {
        return {{"ok", false}, {"error", errorJson(e.stage(), e.what(), "", e.code())}};
    } catch (const std::exception &e) { // a c10::Error outside the runner's own wrapping
        return {{"ok", false}, {"error", errorJson("failed", e.what())}};
    }
}

std::vector<std::string> BundleWorker::spawnCommand(const WorkRequest &request) const
{
    std::vector<std::string> args{"/proc/self/exe", m_vb.bundle.source.string()};
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        args[0] = self.string();
    if (request.batch)
        args.insert(args.end(), {"--batch", std::to_string(*request.batch)});
    if (!request.input.empty())
        args.insert(args.end(), {"--input", request.input});
    args.insert(args.end(), {"--seed", std::to_string(request.seed), "--iters", "0", "--warmup", "0", "--json"});
    for (const auto &t : m_options.trustArgs)
        args.insert(args.end(), {"--trust", t});
    if (m_options.allowUnsigned)
        args.push_back("--allow-unsigned");
    return args;
}

void checkRunsHereWithoutCuda(const VerifiedBundle &vb)
{
    if (vb.bundle.manifest.device.rfind("cuda", 0) != 0) {
        checkRunsHere(vb, false, std::string()); // a CPU bundle needs nothing of CUDA
        return;
    }
    // Ask a child: initialising CUDA here would leave every forked worker without a usable device.
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        throw Refusal("failed", std::string("cannot make a pipe: ") + std::strerror(errno));
    Process::ChildSpec spec;
    spec.closeFds = {p[0]};
    spec.out = Process::Stream::toStderr();
    spec.signalState = Process::Signals::Default;
    spec.dieWithParent = true;
    const Process::Child child = Process::forkChild(spec, [&] {
        Runtime::setIntraOpThreads(1);
        const bool cuda = Runtime::cudaAvailable();
        writeAll(p[1], std::string(cuda ? "1 " : "0 ") + (cuda ? Runtime::cudaComputeCapability(0) : std::string()),
                 false);
        return 0;
    });
    ::close(p[1]);
    std::string answer; // empty when the child could not start: no CUDA device, refused below
    char chunk[64];
    ssize_t n;
    while ((n = ::read(p[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            answer.append(chunk, static_cast<std::size_t>(n));
    ::close(p[0]);
    Process::waitFor(child.pid);
    const bool cuda = answer.rfind("1 ", 0) == 0;
    checkRunsHere(vb, cuda, cuda ? answer.substr(2) : std::string());
}

} // namespace AotStudio::Serve
