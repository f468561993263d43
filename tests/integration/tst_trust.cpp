// SPDX-License-Identifier: GPL-3.0-or-later
// Measurements a user can trust (issue 13), end to end: `compile` on sample:mlp while this test
// keeps every usable CPU busy must not come out "ok", and must name the load; every speedup has
// its interval and the thread count; --threads is checked before the engine starts. No test here
// asserts a timing.
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"
#include "../bench/busycpus.h"

#include <sched.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace {

using TestSupport::readJson;
using TestSupport::Run;
using TestSupport::BusyCpus;

Run runCli(const QStringList &args)
{
    return TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args);
}

int usableCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

QString joined(const QJsonArray &a)
{
    QStringList s;
    for (const auto &v : a)
        s << v.toString();
    return s.join(QLatin1String(" | "));
}

} // namespace

class TstTrust : public QObject {
    Q_OBJECT

private slots:
    void busyMachineIsNotOk()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("mlp"));
        // The load starts when verify is done, so it covers the measure stage (as another build
        // starting would) without slowing the compile. The measure stage must outlast the moment
        // the load needs to start: sample:mlp's calls take microseconds, so 60 runs were over
        // before the spinning threads began (a verdict of "ok", rightly); here 8000 calls each at least.
        QProcess p;
        p.start(QStringLiteral(AOTSTUDIO_CLI_PATH),
                {QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--out"), out,
                 QStringLiteral("--runs"), QStringLiteral("200000"), QStringLiteral("--min-runs"), QStringLiteral("8000"),
                 QStringLiteral("--max-seconds"), QStringLiteral("2"), QStringLiteral("--json")});
        QByteArray err;
        std::unique_ptr<BusyCpus> busy;
        while (p.state() != QProcess::NotRunning || p.bytesAvailable() > 0) {
            p.waitForReadyRead(1000);
            err += p.readAllStandardError();
            if (!busy && err.contains("verify done"))
                busy = std::make_unique<BusyCpus>();
            if (p.state() == QProcess::NotRunning)
                break;
        }
        p.waitForFinished(-1);
        err += p.readAllStandardError();
        const bool loaded = busy != nullptr;
        busy.reset();
        QVERIFY2(loaded, err.right(3000).constData()); // the load really ran while measuring
        Run r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), err};
        QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
        const QJsonObject result = readJson(out + QStringLiteral("/result.json"));
        const QJsonObject m = result.value(QLatin1String("measurement")).toObject();
        const QString verdict = m.value(QLatin1String("verdict")).toString();
        const QString reasons = joined(m.value(QLatin1String("reasons")).toArray());
        QVERIFY2(verdict == QStringLiteral("noisy") || verdict == QStringLiteral("unreliable"),
                 qPrintable(verdict + QStringLiteral(": ") + reasons));
        // The reason names the cause: other runnable tasks, or the engine's threads waiting for a CPU.
        QVERIFY2(reasons.contains(QStringLiteral("runnable")) || reasons.contains(QStringLiteral("waiting for a CPU")), qPrintable(reasons));
        // The result's warnings carry the verdict line the CLI prints on its own.
        bool line = false;
        for (const auto &w : result.value(QLatin1String("warnings")).toArray())
            line = line || w.toString().startsWith(QStringLiteral("measurement: ") + verdict + QStringLiteral(": "));
        QVERIFY(line);

        // Every speedup with its interval; the threads stated (default: the usable CPUs).
        const QJsonObject interval = result.value(QLatin1String("speedup_interval")).toObject();
        const double est = interval.value(QLatin1String("estimate")).toDouble();
        QCOMPARE(est, result.value(QLatin1String("speedup")).toDouble());
        QVERIFY(est > 0);
        QVERIFY(interval.value(QLatin1String("low")).toDouble() <= est);
        QVERIFY(est <= interval.value(QLatin1String("high")).toDouble());
        QVERIFY(interval.value(QLatin1String("blocks")).toInt() >= 3);
        QCOMPARE(result.value(QLatin1String("threads")).toInt(), usableCpus());
        QCOMPARE(m.value(QLatin1String("usable_cpus")).toInt(), usableCpus());
        // Paired: both variants ran the same number of rounds.
        QVERIFY(m.value(QLatin1String("pairing")).toObject().value(QLatin1String("rounds")).toInt() >= 3);
    }

    void threadsOption_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("negative") << QStringLiteral("-1");
        QTest::newRow("above the usable CPUs") << QString::number(usableCpus() + 1);
        QTest::newRow("not a number") << QStringLiteral("two");
    }
    void threadsOption()
    {
        // Refused by the command line (exit 2) before the engine starts: no output folder made.
        QFETCH(QString, value);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("never"));
        const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--out"), out,
                              QStringLiteral("--threads"), value});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--threads"), r.err.constData());
        QVERIFY(!QDir(out).exists());
        QVERIFY(r.err.trimmed().count('\n') <= 2); // a short error, not a traceback
    }
};

QTEST_GUILESS_MAIN(TstTrust)
#include "tst_trust.moc"
