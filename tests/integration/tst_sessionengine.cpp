// SPDX-License-Identifier: GPL-3.0-or-later
// The detached engine behind its relay (`aotstudio-engine --serve --session ID`, FORMAT.md
// "Detached engines") spoken to over the relay's stdio, without ssh: a second client takes the
// session over and the first is told so; a replay that no longer has the events a client missed
// says `gap` and where each job's events lie; a session folder that takes no file is named.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

namespace {

/// One relay: `aotstudio-engine --serve --session ID ...` with AOTSTUDIO_RUNTIME_DIR set.
class Relay
{
public:
    Relay(const QString &runtimeDir, const QStringList &arguments)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("AOTSTUDIO_RUNTIME_DIR"), runtimeDir);
        m_process.setProcessEnvironment(environment);
        m_process.start(QStringLiteral(AOTSTUDIO_ENGINE_PATH), QStringList{QStringLiteral("--serve")} + arguments);
        m_process.waitForStarted(10000);
    }
    ~Relay()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
        m_process.waitForFinished(5000);
    }

    QProcess &process() { return m_process; }

    void send(const QByteArray &line)
    {
        m_process.write(line + '\n');
        m_process.waitForBytesWritten(5000);
    }

    /// The next line as an object; empty when none came within `timeoutMs` or the relay ended.
    QJsonObject next(int timeoutMs = 30000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_process.canReadLine()) {
            if (t.elapsed() > timeoutMs || (m_process.state() != QProcess::Running && !m_process.bytesAvailable()))
                return {};
            m_process.waitForReadyRead(100);
        }
        return QJsonDocument::fromJson(m_process.readLine().trimmed()).object();
    }

private:
    QProcess m_process;
};

QString type(const QJsonObject &o)
{
    return o.value(QLatin1String("type")).toString();
}

/// Whether `pid` runs (a zombie that no init has reaped yet does not).
bool alive(qint64 pid)
{
    if (pid <= 0 || ::kill(pid_t(pid), 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 || line.mid(close + 2, 1) != "Z";
}

} // namespace

class TestSessionEngine : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    qint64 m_enginePid = 0; ///< the detached engine this test started (ended in cleanupTestCase)

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void cleanupTestCase()
    {
        // Only the engine this test started, by its pid (from its hello, else from the line its log
        // begins with), and only if the test failed before its shutdown.
        QFile log(m_tmp.filePath(QStringLiteral("rt/engine-s1.log")));
        if (m_enginePid == 0 && log.open(QIODevice::ReadOnly)) {
            const QRegularExpressionMatch m
                = QRegularExpression(QStringLiteral("session s1 \\(instance \\w+, pid (\\d+)\\)"))
                      .match(QString::fromUtf8(log.readAll()));
            if (m.hasMatch())
                m_enginePid = m.captured(1).toLongLong();
        }
        if (alive(m_enginePid))
            ::kill(pid_t(m_enginePid), SIGKILL);
    }

    /// A session folder that takes no file (/proc/self/fd: this user's, mode 0500, refuses new
    /// names even to root) is refused by the relay before any engine starts, naming the folder and
    /// AOTSTUDIO_RUNTIME_DIR. Well under a second.
    void unwritableFolderIsNamed()
    {
        Relay relay(QStringLiteral("/proc/self/fd"), {QStringLiteral("--session"), QStringLiteral("unwritable")});
        QVERIFY(relay.process().waitForFinished(30000));
        QCOMPARE(relay.process().exitCode(), 1);
        const QString error = QString::fromLocal8Bit(relay.process().readAllStandardError());
        QVERIFY2(error.contains(QLatin1String("/proc/self/fd"))
                     && error.contains(QLatin1String("AOTSTUDIO_RUNTIME_DIR"))
                     && error.contains(QLatin1String("cannot create files")),
                 qPrintable(error));
        QVERIFY(relay.next(100).isEmpty()); // nothing on the protocol's stdout
    }

    /// Client A attaches and sees 6 numbered events; client B connects to the same session: A gets
    /// `detached` (reason replaced) and its relay ends; B attaches after seq 1 to an engine that
    /// keeps 4 events (--replay-events 4): `attached` says gap, first_seq 3, and replays 3..6 once.
    /// `shutdown` then ends the engine and leaves no socket, lock or log. One engine start (Python
    /// and torch imported): about 5 s here.
    void takeOverAndGap()
    {
        const QString runtime = m_tmp.filePath(QStringLiteral("rt"));
        const QStringList arguments{QStringLiteral("--session"),       QStringLiteral("s1"),
                                    QStringLiteral("--replay-events"), QStringLiteral("4"),
                                    QStringLiteral("--idle-exit"),     QStringLiteral("60")};
        Relay a(runtime, arguments);
        const QJsonObject hello = a.next(180000);
        QCOMPARE(type(hello), QStringLiteral("hello"));
        const QJsonObject session = hello.value(QLatin1String("session")).toObject();
        QCOMPARE(session.value(QLatin1String("id")).toString(), QStringLiteral("s1"));
        m_enginePid = session.value(QLatin1String("pid")).toInteger();
        QVERIFY(alive(m_enginePid));
        QCOMPARE(QFile::permissions(runtime) & 0x0077, QFileDevice::Permissions()); // 0700: others get nothing
        a.send(R"({"type":"attach","id":1,"after":0})");
        QJsonObject attached = a.next();
        QCOMPARE(type(attached), QStringLiteral("attached"));
        QCOMPARE(attached.value(QLatin1String("gap")).toBool(), false);
        for (int i = 0; i < 6; ++i) // each an `error` with id 0: numbered events, nothing compiled
            a.send("not json");
        for (qint64 seq = 1; seq <= 6; ++seq) {
            const QJsonObject e = a.next();
            QCOMPARE(type(e), QStringLiteral("error"));
            QCOMPARE(e.value(QLatin1String("seq")).toInteger(), seq);
        }

        Relay b(runtime, arguments);
        QCOMPARE(type(b.next(60000)), QStringLiteral("hello"));
        const QJsonObject notice = a.next();
        QCOMPARE(type(notice), QStringLiteral("detached"));
        QCOMPARE(notice.value(QLatin1String("reason")).toString(), QStringLiteral("replaced"));
        QVERIFY(a.process().waitForFinished(10000));
        QCOMPARE(a.process().exitCode(), 0);

        b.send(R"({"type":"attach","id":1,"after":1})");
        attached = b.next();
        QCOMPARE(type(attached), QStringLiteral("attached"));
        QCOMPARE(attached.value(QLatin1String("gap")).toBool(), true);
        QCOMPARE(attached.value(QLatin1String("first_seq")).toInteger(), 3);
        QCOMPARE(attached.value(QLatin1String("last_seq")).toInteger(), 6);
        QCOMPARE(attached.value(QLatin1String("replayed")).toInteger(), 4);
        for (qint64 seq = 3; seq <= 6; ++seq)
            QCOMPARE(b.next().value(QLatin1String("seq")).toInteger(), seq);
        b.send(R"({"type":"ping","id":2})");
        const QJsonObject pong = b.next();
        QCOMPARE(type(pong), QStringLiteral("pong"));
        QVERIFY(!pong.contains(QLatin1String("seq"))); // transport: never numbered

        b.send(R"({"type":"shutdown","id":3})");
        QVERIFY(b.process().waitForFinished(30000));
        QElapsedTimer t;
        t.start();
        while (alive(m_enginePid) && t.elapsed() < 30000)
            QTest::qWait(50);
        QVERIFY(!alive(m_enginePid));
        QVERIFY2(QDir(runtime).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty(),
                 qPrintable(QDir(runtime)
                                .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)
                                .join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(TestSessionEngine)
#include "tst_sessionengine.moc"
