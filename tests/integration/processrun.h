// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the integration tests: run a program to completion, read its last line, read
// a JSON file.

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace TestSupport {

struct Run {
    int exitCode = -1; ///< -1 when the program crashed or was killed at the timeout
    QByteArray out;
    QByteArray err;
};

/// Run `program` with `args` to completion (killed after `timeoutMs`).
inline Run run(const QString &program, const QStringList &args, int timeoutMs = 600000)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

inline QByteArray lastLine(const QByteArray &text)
{
    const auto lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QByteArray() : lines.last();
}

/// The JSON envelope of a `--json` run (its last line on stdout): {"ok": true, "result": {...}} or
/// {"ok": false, "error": {stage, code, message, hint}} (core/protocol/FORMAT.md "Command-line tools").
inline QJsonObject envelope(const QByteArray &out)
{
    return QJsonDocument::fromJson(lastLine(out)).object();
}

/// The envelope's `result` (also there beside an error when the job still has its report).
inline QJsonObject result(const QByteArray &out)
{
    return envelope(out).value(QLatin1String("result")).toObject();
}

/// The envelope's `error`: {stage, code, message, hint}; empty when it succeeded.
inline QJsonObject error(const QByteArray &out)
{
    return envelope(out).value(QLatin1String("error")).toObject();
}

#ifdef AOTSTUDIO_CLI_PATH
/// aotstudio-cli with `args`, to completion (killed after 10 minutes).
inline Run cli(const QStringList &args)
{
    return run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, 600000);
}

/// `aotstudio-cli compile --json` with few timed runs (the timings are not what these tests check)
/// and `--recipe defaults` (the recipe chooser is not what they check either) unless `extra` names
/// a recipe.
inline Run quickCompile(const QString &model, const QString &out, const QStringList &extra = {})
{
    const QStringList recipe = extra.contains(QStringLiteral("--recipe"))
        ? QStringList()
        : QStringList{QStringLiteral("--recipe"), QStringLiteral("defaults")};
    return cli(QStringList{QStringLiteral("compile"), QStringLiteral("--model"), model, QStringLiteral("--out"), out,
                           QStringLiteral("--json"), QStringLiteral("--runs"), QStringLiteral("3"),
                           QStringLiteral("--min-runs"), QStringLiteral("1"), QStringLiteral("--max-seconds"),
                           QStringLiteral("0.2")}
               + recipe + extra);
}
#endif

/// What is wrong with the progress events of a job's event log (the CLI's OUT/aotstudio.log, one
/// protocol event per line): a fraction outside [0, 1], one below the one before it (progress is
/// monotonic, core/pipeline/job.h), a last one short of 1, or none at all. Empty when all is
/// well. `field`, when given, must be on every progress event (a quantize scheme's `scheme`).
inline QString progressProblems(const QString &logPath, const QString &field = {})
{
    QFile f(logPath);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read ") + logPath;
    double last = -1;
    int n = 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (e.value(QLatin1String("type")).toString() != QLatin1String("progress"))
            continue;
        ++n;
        const double x = e.value(QLatin1String("fraction")).toDouble(-1);
        if (x < 0 || x > 1)
            return QStringLiteral("fraction %1 outside [0, 1]: %2").arg(x).arg(QString::fromUtf8(line));
        if (x < last)
            return QStringLiteral("fraction went back from %1 to %2: %3").arg(last).arg(x).arg(QString::fromUtf8(line));
        if (!field.isEmpty() && !e.contains(field) && e.value(QLatin1String("stage")).toString() != QLatin1String("report"))
            return QStringLiteral("no '%1' on %2").arg(field, QString::fromUtf8(line));
        last = x;
    }
    if (n == 0)
        return QStringLiteral("no progress event in ") + logPath;
    if (last < 1)
        return QStringLiteral("progress ended at %1, not 1").arg(last);
    return {};
}

inline QJsonObject readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

/// A TCP port nothing listens on right now on 127.0.0.1 (bound to port 0 and released), or 0.
inline int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    if (fd >= 0)
        ::close(fd);
    return port;
}

} // namespace TestSupport
