// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a session file from outside (a colleague's .aotsession, a recording of a remote
// engine), opened the way the studio opens one: Session::load (which parses each profile, quantize
// and sweep result once), then every job's result through the client's typed readers the panels
// use (compile, export, sweep, verify, profile, quantize, the measurement pieces, kernels.json's
// catalog). A refused profile or quantize result must name why. Oracles: only SessionError is
// thrown; a session that loads loads again from the same bytes with the same events, jobs and
// warnings (load is a function of the file); ASan and UBSan.
#include "client/compileresult.h"
#include "client/engineerror.h"
#include "client/engineinfo.h"
#include "client/exportresult.h"
#include "client/kernelcatalog.h"
#include "client/measurement.h"
#include "client/profileresult.h"
#include "client/quantizeresult.h"
#include "client/session.h"
#include "client/sweepresult.h"
#include "client/verifyresult.h"
#include "fuzzutil.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>

using namespace AotStudio;
namespace fs = std::filesystem;

namespace {

/// Every reader a panel runs on a finished job's result.
void readResult(const Client::JobRecord &job)
{
    const QJsonObject &r = job.result;
    if (job.kind == QLatin1String("compile") || job.kind.isEmpty()) {
        (void)Client::CompileResult::fromJson(r);
        (void)Client::VerifyResult::fromJson(r);
    }
    if (job.kind == QLatin1String("export") || job.kind.isEmpty())
        (void)Client::ExportResult::fromJson(r);
    if (job.kind == QLatin1String("sweep") || job.kind.isEmpty())
        (void)Client::SweepResult::fromJson(r);
    // The typed profile and quantize readers (core/client/resultparse.h): a refusal must say why.
    if (const auto p = Client::parseProfileResult(r); !p.ok() && p.error.isEmpty())
        FuzzUtil::fail("parseProfileResult refused without a reason");
    if (const auto q = Client::parseQuantizeResult(r); !q.ok() && q.error.isEmpty())
        FuzzUtil::fail("parseQuantizeResult refused without a reason");
    // The pieces profile and quantize panels read from their results.
    (void)Client::Measurement::fromJson(r.value(QLatin1String("measurement")), r.value(QLatin1String("threads")));
    (void)Client::ColdStart::fromJson(r.value(QLatin1String("cold_start")));
    (void)Client::LatencyStats::fromJson(r.value(QLatin1String("latency")));
    (void)Client::KernelCatalog::fromJson(r);
}

struct Loaded {
    int events = 0;
    qsizetype jobs = 0;
    QStringList warnings;
};

Loaded loadOnce(const QString &path)
{
    std::unique_ptr<Client::Session> s(Client::Session::load(path));
    Loaded l{s->eventCount(), s->jobs().size(), s->warnings()};
    for (const auto &job : s->jobs()) {
        readResult(job);
        if (job.error)
            (void)job.error->code;
        (void)job.outputDirectory();
    }
    (void)Client::EngineInfo::fromJson(QJsonObject());
    return l;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_session";
    static char *argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv); // translate() and applicationPid() want one
    const fs::path file = FuzzUtil::scratch() / "in.aotsession";
    FuzzUtil::writeFile(file, std::string_view(reinterpret_cast<const char *>(data), size));
    const QString path = QString::fromStdString(file.string());
    Loaded first;
    try {
        first = loadOnce(path);
    } catch (const Client::SessionError &e) {
        if (e.message().isEmpty())
            FuzzUtil::fail("a SessionError without a message");
        return 0;
    }
    Loaded second;
    try {
        second = loadOnce(path);
    } catch (const Client::SessionError &e) {
        FuzzUtil::fail("the second load of the same bytes failed: " + e.message().toStdString());
    }
    if (first.events != second.events || first.jobs != second.jobs || first.warnings != second.warnings)
        FuzzUtil::fail("two loads of the same bytes differ");
    return 0;
}
