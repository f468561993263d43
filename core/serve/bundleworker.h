// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bundle's serving worker (a WorkerBody, workerbody.h): what aotstudio-run --serve's and the
// replay's workers do with a request, with the steps the one-shot run uses (bundlerun.h), and the
// spawn baseline's command line. Links the runtime (LibTorch) through the torch-free aotirunner.h.
#include "serve/bundlerun.h"
#include "serve/workerbody.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace AotStudio::Serve {

/// A verified bundle served request by request: the bucket planned, its package loaded (kept per
/// bucket in a warm worker), the inputs set and checked, one run, the outputs summarised. The
/// parent only prepares (the package cache, the CPU stand-in for libtorch.so): the fork rules.
class BundleWorker : public WorkerBody
{
public:
    struct Options {
        /// --convert-layout: a request's input file in another layout than the package's is copied
        /// into it (the answer's `layout_conversions` says so) instead of refused.
        bool convertLayout = false;
        std::vector<std::string> trustArgs; ///< --trust paths, passed on to the spawn baseline
        bool allowUnsigned = false; ///< likewise
    };

    /// `vb` must outlive the worker body.
    BundleWorker(const VerifiedBundle &vb, Options options);

    /// Each bucket's package extracted into the package cache (file I/O only: no code of the
    /// bundle runs in the parent), and for a CPU bundle the stand-in for libtorch.so mapped once
    /// (core/runtime/libraries.h). Failures are left for the worker that loads the bucket.
    void prepare() override;
    /// LibTorch's intra-op thread count.
    void enterWorker(int threads) override;
    /// The same plan, load, input checks and output summary as a one-shot aotstudio-run.
    nlohmann::json handle(const WorkRequest &request, Clock::time_point begin, bool warm) override;
    void leaveWorker() override;
    /// `aotstudio-run BUNDLE --batch B --seed S --iters 0 --warmup 0 --json` (this executable) with
    /// the server's trust options.
    std::vector<std::string> spawnCommand(const WorkRequest &request) const override;

private:
    const VerifiedBundle &m_vb;
    Options m_options;
    std::map<std::string, std::unique_ptr<Runtime::AotiRunner>> m_cache; ///< a warm worker's packages, by bucket
};

/// checkRunsHere() without initialising CUDA in this process: a CPU bundle does not ask about
/// CUDA at all; for a CUDA bundle a forked child asks LibTorch for the device and its capability
/// and exits. Throws Refusal("refused") as checkRunsHere() does.
void checkRunsHereWithoutCuda(const VerifiedBundle &vb);

} // namespace AotStudio::Serve
