// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection (issue 19, item 2; label slow, not in the default run: `ctest --preset faults`).
// The engine is killed with SIGKILL at seeded random points of compile, profile, quantize and export
// (aotstudio-cli runs the engine in process: killing it is killing the engine), and aotstudio-run at
// random points of opening a bundle zip. After every kill: no half-written file under its final name
// (every JSON parses, every .pt2 and .zip opens, every bundle folder verifies against its manifest),
// the children the job started do not outlive it by more than 5 s (those that do are failures, and
// are killed), and after the last kill the same job runs to the end. aotstudio-run: after its next complete run its
// temporary folder holds none of the extraction folders the killed runs left.
//
// AOTSTUDIO_FAULT_SEED (default 19) and AOTSTUDIO_FAULT_POINTS (default 20 per job) change the
// points; each kill point is uniform over the duration of an uninterrupted run of the same job.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "bundle/bundle.h"
#include "bundle/inspect.h"
#include "client/session.h"
#include "processrun.h"

#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace {

using namespace AotStudio;
using TestSupport::Run;

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

/// Processes whose environment carries `marker` (the job and every child it started), except zombies.
QList<pid_t> markedProcesses(const QByteArray &marker)
{
    QList<pid_t> found;
    const auto entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &e : entries) {
        bool ok = false;
        const pid_t pid = e.toInt(&ok);
        if (!ok || pid == ::getpid())
            continue;
        QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
        if (env.open(QIODevice::ReadOnly) && env.readAll().split('\0').contains(marker))
            found.append(pid);
    }
    return found;
}

/// What one killed run left.
struct Kill {
    bool finished = false; ///< the job ended before the kill point
    int exitCode = -1;     ///< its exit status when it did
    int lingering = 0;     ///< children still running a while after the kill (then killed)
    QStringList lingeringCommands; ///< their programs and first argument
    QByteArray err;
};

/// The files under `dir` that a writer publishes under their final name (temporaries are
/// `*.partial*` files or folders and `*.tmp`), each checked: JSON parses, .pt2 and .zip open, a
/// folder with a manifest.json verifies as a bundle, a CSV ends with its last line. Problems are
/// appended to `failures`; returns how many files were checked.
int checkFolder(const QString &dir, QStringList &failures)
{
    int checked = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = QDir(dir).relativeFilePath(path);
        if (rel.contains(QLatin1String(".partial")) || rel.endsWith(QLatin1String(".tmp")))
            continue;
        // Inductor's own debug trace is copied as it is (it is not a result of ours).
        if (rel.startsWith(QLatin1String("trace/")) || rel.contains(QLatin1String("/trace/")))
            continue;
        ++checked;
        const QString name = it.fileName();
        const std::string native = path.toStdString();
        if (name.endsWith(QLatin1String(".json"))) {
            QFile f(path);
            QJsonParseError e{};
            if (!f.open(QIODevice::ReadOnly) || (QJsonDocument::fromJson(f.readAll(), &e), e.error != QJsonParseError::NoError))
                failures << QStringLiteral("%1: does not parse (%2)").arg(path, e.errorString());
            if (name == QLatin1String("manifest.json")) {
                try {
                    Bundle::openBundle(QFileInfo(path).absolutePath().toStdString());
                } catch (const Bundle::BundleError &b) {
                    failures << QStringLiteral("%1: bundle does not verify: %2").arg(path, QString::fromStdString(b.what()));
                }
            }
        } else if (name.endsWith(QLatin1String(".pt2"))) {
            try {
                Bundle::inspectPt2(native);
            } catch (const std::exception &b) {
                failures << QStringLiteral("%1: not a package: %2").arg(path, QString::fromStdString(b.what()));
            }
        } else if (name.endsWith(QLatin1String(".zip"))) {
            try {
                Bundle::openBundle(native);
            } catch (const Bundle::BundleError &b) {
                failures << QStringLiteral("%1: not a complete bundle zip: %2").arg(path, QString::fromStdString(b.what()));
            }
        } else if (name.endsWith(QLatin1String(".csv"))) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly) || !f.readAll().endsWith('\n'))
                failures << QStringLiteral("%1: ends in the middle of a line").arg(path);
        }
    }
    // A bundle folder (an export's --out) without its manifest is half-written.
    QDirIterator dirs(dir, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (dirs.hasNext()) {
        const QString d = dirs.next();
        if (QFileInfo::exists(d + QStringLiteral("/packages")) && !d.contains(QLatin1String(".partial")) &&
            !QFileInfo::exists(d + QStringLiteral("/manifest.json")))
            failures << QStringLiteral("%1: a bundle folder without manifest.json").arg(d);
    }
    return checked;
}

/// Temporaries left in `dir` (any depth): what a later run should have cleaned.
QStringList leftovers(const QString &dir)
{
    QStringList found;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        if (it.fileName().contains(QLatin1String(".partial")))
            found << QDir(dir).relativeFilePath(p);
    }
    return found;
}

} // namespace

class TestFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void profileKilled();
    void exportKilled();
    void runKilledWhileExtracting();
    void quantizeKilled();
    void compileKilled();
    void diskFull();
    void cleanupTestCase();

private:
    /// `program args` with a marker in its environment, SIGKILLed after `delayMs` unless it ended.
    Kill runAndKill(const QString &program, const QStringList &args, qint64 delayMs, const QProcessEnvironment &env = {});
    /// `program args` to the end (marker in its environment as well); its duration in `ms`.
    Run runTimed(const QString &program, const QStringList &args, qint64 &ms, const QProcessEnvironment &env = {});
    /// Kill `job` `m_points` times at seeded points in [0, its duration], checking `watch` after each;
    /// `beforeEach` runs before each try (e.g. removes a finished bundle). Returns the failures.
    QStringList killRepeatedly(const QString &what, const QStringList &job, const QString &watch,
                               const std::function<void()> &beforeEach = {});
    QProcessEnvironment baseEnv() const;

    QTemporaryDir m_dir;
    QRandomGenerator m_random;
    int m_points = 20;
    int m_serial = 0;
    QString m_job; ///< a finished compile of sample:mlp (profile --package, export --from)
    QStringList m_figures;
};

QProcessEnvironment TestFaults::baseEnv() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TMPDIR"), m_dir.filePath(QStringLiteral("tmp")));
    return env;
}

Kill TestFaults::runAndKill(const QString &program, const QStringList &args, qint64 delayMs, const QProcessEnvironment &env)
{
    const QByteArray marker = "AOTSTUDIO_FAULT_MARK=" + QByteArray::number(::getpid()) + "-" + QByteArray::number(++m_serial);
    QProcessEnvironment e = env.isEmpty() ? baseEnv() : env;
    e.insert(QStringLiteral("AOTSTUDIO_FAULT_MARK"), QString::fromLatin1(marker.mid(marker.indexOf('=') + 1)));
    QProcess p;
    p.setProcessEnvironment(e);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(program, args);
    Kill k;
    if (!p.waitForStarted())
        return k;
    if (p.waitForFinished(int(qMax<qint64>(delayMs, 1)))) {
        k.finished = true;
        k.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        k.err = p.readAllStandardError();
    } else {
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        p.waitForFinished(-1);
    }
    // Children (Inductor's compile workers, the compiler, aotstudio-run of a cold start) get a
    // moment to notice that their parent is gone; whatever is still there is counted and killed, so
    // that nothing writes into the folders while they are checked.
    QList<pid_t> left = markedProcesses(marker);
    for (int i = 0; i < 50 && !left.isEmpty(); ++i) {
        QTest::qWait(100);
        left = markedProcesses(marker);
    }
    k.lingering = int(left.size());
    for (const pid_t pid : std::as_const(left)) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        const QList<QByteArray> argv = cmdline.open(QIODevice::ReadOnly) ? cmdline.readAll().split('\0') : QList<QByteArray>();
        k.lingeringCommands << QString::fromUtf8(argv.value(0).split('/').last() + ' ' + argv.value(1).split('/').last());
    }
    for (int i = 0; i < 100 && !left.isEmpty(); ++i) {
        for (const pid_t pid : left)
            ::kill(pid, SIGKILL);
        QTest::qWait(50);
        left = markedProcesses(marker);
    }
    return k;
}

Run TestFaults::runTimed(const QString &program, const QStringList &args, qint64 &ms, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env.isEmpty() ? baseEnv() : env);
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForFinished(900000)) {
        p.kill();
        p.waitForFinished();
    }
    ms = t.elapsed();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

QStringList TestFaults::killRepeatedly(const QString &what, const QStringList &job, const QString &watch,
                                       const std::function<void()> &beforeEach)
{
    QStringList failures;
    const QString cli = QStringLiteral(AOTSTUDIO_CLI_PATH);
    if (beforeEach)
        beforeEach();
    qint64 duration = 0;
    const Run reference = runTimed(cli, job, duration);
    if (reference.exitCode != 0)
        return {what + QStringLiteral(": the uninterrupted run failed: ") + QString::fromUtf8(reference.err.right(2000))};
    checkFolder(watch, failures);
    int finished = 0, lingering = 0, checked = 0;
    QStringList lingeringCommands;
    for (int i = 0; i < m_points; ++i) {
        if (beforeEach)
            beforeEach();
        const qint64 at = qint64(m_random.bounded(double(duration)));
        const Kill k = runAndKill(cli, job, at);
        if (k.finished) {
            ++finished;
            if (k.exitCode != 0)
                failures << QStringLiteral("%1: point %2 (%3 ms): the run ended before the kill with %4: %5")
                                .arg(what).arg(i).arg(at).arg(k.exitCode).arg(QString::fromUtf8(k.err.right(1000)));
        }
        lingering += k.lingering;
        lingeringCommands += k.lingeringCommands;
        // The engine's descendant reaper (core/pipeline/reaper.h) kills them within about a second.
        if (k.lingering)
            failures << QStringLiteral("%1: point %2 (%3 ms): %4 children outlived the job by 5 s: %5")
                            .arg(what)
                            .arg(i)
                            .arg(at)
                            .arg(k.lingering)
                            .arg(k.lingeringCommands.join(QStringLiteral(", ")));
        QStringList here;
        checked += checkFolder(watch, here);
        for (const QString &f : std::as_const(here))
            failures << QStringLiteral("%1: point %2 (%3 ms): %4").arg(what).arg(i).arg(at).arg(f);
    }
    // The next job after the last kill runs to the end, and cleans what the killed ones left.
    if (beforeEach)
        beforeEach();
    qint64 ignored = 0;
    const Run after = runTimed(cli, job, ignored);
    if (after.exitCode != 0)
        failures << what + QStringLiteral(": the run after the kills failed: ") + QString::fromUtf8(after.err.right(2000));
    checkFolder(watch, failures);
    const QStringList left = leftovers(watch);
    m_figures << QStringLiteral("%1: %2 kill points over %3 ms (seed %4), %5 ended first, %6 files checked, %7 children "
                                "outlived the job (%11), %8 temporaries left after the next run: %9, %10 failures")
                     .arg(what)
                     .arg(m_points)
                     .arg(duration)
                     .arg(qEnvironmentVariableIntValue("AOTSTUDIO_FAULT_SEED") ? qEnvironmentVariableIntValue("AOTSTUDIO_FAULT_SEED") : 19)
                     .arg(finished)
                     .arg(checked)
                     .arg(lingering)
                     .arg(left.size())
                     .arg(left.join(QLatin1Char(' ')))
                     .arg(failures.size())
                     .arg(lingeringCommands.join(QStringLiteral(", ")));
    qInfo().noquote() << m_figures.last();
    return failures;
}

void TestFaults::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("tmp"))));
    m_random.seed(quint32(envInt("AOTSTUDIO_FAULT_SEED", 19)));
    m_points = envInt("AOTSTUDIO_FAULT_POINTS", 20);
    m_job = m_dir.filePath(QStringLiteral("job"));
    const Run r = TestSupport::quickCompile(QStringLiteral("sample:mlp"), m_job,
                                            {QStringLiteral("--no-snapshots"), QStringLiteral("--allow-cache")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
}

void TestFaults::compileKilled()
{
    const QString out = m_dir.filePath(QStringLiteral("compile"));
    const QStringList failures =
        killRepeatedly(QStringLiteral("compile"),
                       {QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--out"), out,
                        QStringLiteral("--json"), QStringLiteral("--runs"), QStringLiteral("3"), QStringLiteral("--min-runs"),
                        QStringLiteral("1"), QStringLiteral("--max-seconds"), QStringLiteral("0.2"), QStringLiteral("--allow-cache")},
                       out);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/model.pt2")));
    QVERIFY2(leftovers(out).isEmpty(), qPrintable(leftovers(out).join(QLatin1Char(' '))));
}

void TestFaults::profileKilled()
{
    const QString out = m_dir.filePath(QStringLiteral("profile"));
    const QStringList failures = killRepeatedly(
        QStringLiteral("profile"),
        {QStringLiteral("profile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--package"),
         m_job + QStringLiteral("/model.pt2"), QStringLiteral("--out"), out, QStringLiteral("--json"), QStringLiteral("--runs"),
         QStringLiteral("16"), QStringLiteral("--min-runs"), QStringLiteral("4"), QStringLiteral("--warmup"), QStringLiteral("2"),
         QStringLiteral("--max-seconds"), QStringLiteral("0.5"), QStringLiteral("--runners"), QStringLiteral("1,2"),
         QStringLiteral("--throughput-seconds"), QStringLiteral("0.1"), QStringLiteral("--cold-start-runs"), QStringLiteral("1")},
        out);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/profile.json")));
}

void TestFaults::quantizeKilled()
{
    const QString out = m_dir.filePath(QStringLiteral("quantize"));
    const QStringList failures = killRepeatedly(
        QStringLiteral("quantize"),
        {QStringLiteral("quantize"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--out"), out,
         QStringLiteral("--schemes"), QStringLiteral("fp32,int8-dynamic"), QStringLiteral("--runs"), QStringLiteral("3"),
         QStringLiteral("--min-runs"), QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("1"), QStringLiteral("--max-seconds"),
         QStringLiteral("0.2"), QStringLiteral("--eval-samples"), QStringLiteral("4"), QStringLiteral("--calibration-samples"),
         QStringLiteral("4"), QStringLiteral("--json")},
        out);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/quantize.json")));
}

void TestFaults::exportKilled()
{
    // One --out each try, as a user would retry it: a finished bundle of an earlier try is checked
    // and removed first (export never writes over a bundle).
    const QString parent = m_dir.filePath(QStringLiteral("export"));
    QVERIFY(QDir().mkpath(parent));
    const QString out = parent + QStringLiteral("/bundle");
    int tries = 0;
    const auto removeFinished = [&] {
        QDir(out).removeRecursively();
        QFile::remove(out + QStringLiteral(".zip"));
        // Before the run after the kills: what an export killed while zipping leaves (the kill
        // points may miss that moment), for that run to clean.
        if (++tries == m_points + 2) {
            QFile stale(out + QStringLiteral(".zip.partial-999999999"));
            QVERIFY(stale.open(QIODevice::WriteOnly) && stale.write("PK\3\4") == 4);
        }
    };
    const QStringList failures =
        killRepeatedly(QStringLiteral("export"),
                       {QStringLiteral("export"), QStringLiteral("--from"), m_job, QStringLiteral("--buckets"),
                        QStringLiteral("batch=1,2"), QStringLiteral("--cold-start-runs"), QStringLiteral("1"), QStringLiteral("--out"),
                        out},
                       parent, removeFinished);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QVERIFY(QFileInfo::exists(out + QStringLiteral(".zip")));
    QVERIFY2(leftovers(parent).isEmpty(), qPrintable(leftovers(parent).join(QLatin1Char(' '))));
}

void TestFaults::runKilledWhileExtracting()
{
    QString zip = m_dir.filePath(QStringLiteral("export/bundle.zip"));
    if (!QFileInfo::exists(zip)) { // run on its own: a bundle of its own
        zip = m_dir.filePath(QStringLiteral("run-bundle.zip"));
        const Run e = TestSupport::cli({QStringLiteral("export"), QStringLiteral("--from"), m_job, QStringLiteral("--buckets"),
                                        QStringLiteral("batch=1"), QStringLiteral("--cold-start-runs"), QStringLiteral("0"),
                                        QStringLiteral("--out"), m_dir.filePath(QStringLiteral("run-bundle"))});
        QVERIFY2(e.exitCode == 0, e.err.right(2000).constData());
    }
    const QString tmp = m_dir.filePath(QStringLiteral("run-tmp"));
    QVERIFY(QDir().mkpath(tmp));
    QProcessEnvironment env = baseEnv();
    env.insert(QStringLiteral("TMPDIR"), tmp);
    env.remove(QStringLiteral("AOTSTUDIO_TRUST"));
    const QString runProgram = QStringLiteral(AOTSTUDIO_RUN_PATH);
    const QStringList args{zip, QStringLiteral("--batch"), QStringLiteral("1"), QStringLiteral("--iters"), QStringLiteral("2"),
                           QStringLiteral("--warmup"), QStringLiteral("1")};
    qint64 duration = 0;
    const Run reference = runTimed(runProgram, args, duration, env);
    QVERIFY2(reference.exitCode == 0, reference.err.constData());
    QVERIFY2(QDir(tmp).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             qPrintable(QDir(tmp).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).join(QLatin1Char(' '))));
    int finished = 0;
    qsizetype leftBehind = 0; // by each killed run (the next one removes them)
    for (int i = 0; i < m_points; ++i) {
        // The extraction is the first part of a run: the points lie in its first half.
        const Kill k = runAndKill(runProgram, args, qint64(m_random.bounded(double(duration) / 2)), env);
        finished += k.finished;
        leftBehind += QDir(tmp).entryList({QStringLiteral("aotstudio-bundle-*")}, QDir::Dirs | QDir::Hidden).size();
    }
    qint64 ignored = 0;
    const Run after = runTimed(runProgram, args, ignored, env);
    QVERIFY2(after.exitCode == 0, after.err.constData());
    const QStringList stale = QDir(tmp).entryList({QStringLiteral("aotstudio-bundle-*")}, QDir::Dirs | QDir::Hidden);
    const QStringList other = QDir(tmp).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    m_figures << QStringLiteral("aotstudio-run: %1 kill points over the first %2 ms, %3 ended first, %4 extraction folders seen "
                                "(counted after each kill), %5 after the run after the last kill; in its TMPDIR then: %6")
                     .arg(m_points)
                     .arg(duration / 2)
                     .arg(finished)
                     .arg(leftBehind)
                     .arg(stale.size())
                     .arg(other.join(QLatin1Char(' ')));
    qInfo().noquote() << m_figures.last();
    QVERIFY2(stale.isEmpty(), qPrintable(stale.join(QLatin1Char(' '))));
}

void TestFaults::diskFull()
{
    // A small tmpfs where root may mount one (else skipped, saying why): export and a session's
    // Save As on a device without room for them fail with an error that says so, and leave nothing
    // behind (no bundle, zip, session or temporary folder).
    if (::geteuid() != 0)
        QSKIP("disk full needs a small tmpfs: mounting one needs root");
    const QString full = m_dir.filePath(QStringLiteral("full"));
    QVERIFY(QDir().mkpath(full));
    // The bucket's compile (its package is about 1.7 MB for sample:mlp) fits, its copy beside it does not.
    const Run mount = TestSupport::run(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                                 QStringLiteral("size=3m"), QStringLiteral("tmpfs"), full});
    if (mount.exitCode != 0)
        QSKIP(qPrintable(QStringLiteral("cannot mount a small tmpfs: ") + QString::fromUtf8(mount.err.trimmed())));
    struct Unmount {
        QString dir;
        ~Unmount() { TestSupport::run(QStringLiteral("umount"), {dir}); }
    } unmount{full};
    const auto entries = [&] { return QDir(full).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot); };

    qint64 ms = 0;
    const Run e = runTimed(QStringLiteral(AOTSTUDIO_CLI_PATH),
                           {QStringLiteral("export"), QStringLiteral("--from"), m_job, QStringLiteral("--buckets"), QStringLiteral("batch=1"),
                            QStringLiteral("--cold-start-runs"), QStringLiteral("0"), QStringLiteral("--out"),
                            full + QStringLiteral("/bundle")},
                           ms);
    QCOMPARE(e.exitCode, 1);
    const QByteArray line = TestSupport::lastLine(e.err);
    QVERIFY2(line.contains("No space left on device") || line.contains("no space left on the device"), line.constData());
    QVERIFY2(entries().isEmpty(), qPrintable(entries().join(QLatin1Char(' '))));

    // Save As: two jobs' folders (the compile, package and all: copied twice) do not fit.
    Client::Session session;
    for (int id : {1, 2})
        session.recordRequest(QJsonObject{{QStringLiteral("type"), QStringLiteral("compile")}, {QStringLiteral("id"), id},
                                          {QStringLiteral("model"), QStringLiteral("sample:mlp")}, {QStringLiteral("out"), m_job}});
    QString error;
    QVERIFY(session.saveAs(full + QStringLiteral("/saved"), &error).isEmpty());
    QVERIFY2(error.contains(qt_error_string(ENOSPC)), qPrintable(error));
    QVERIFY2(entries().isEmpty(), qPrintable(entries().join(QLatin1Char(' '))));
    m_figures << QStringLiteral("disk full (3 MiB tmpfs): export: %1; session Save As: %2")
                     .arg(QString::fromUtf8(line), error);
    qInfo().noquote() << m_figures.last();
}

void TestFaults::cleanupTestCase()
{
    for (const QString &f : std::as_const(m_figures))
        qInfo().noquote() << "figures:" << f;
}

int main(int argc, char **argv)
{
    // Each function kills a job 20 times: far longer than QtTest's default 5 minutes a function.
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "7200000");
    QCoreApplication app(argc, argv);
    TestFaults test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_faults.moc"
