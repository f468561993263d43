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

#ifdef AOTSTUDIO_CLI_PATH
/// aotstudio-cli with `args`, to completion (killed after 10 minutes).
inline Run cli(const QStringList &args)
{
    return run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, 600000);
}

/// `aotstudio-cli compile --json` with few timed runs (the timings are not what these tests check).
inline Run quickCompile(const QString &model, const QString &out, const QStringList &extra = {})
{
    return cli(QStringList{QStringLiteral("compile"), QStringLiteral("--model"), model, QStringLiteral("--out"), out,
                           QStringLiteral("--json"), QStringLiteral("--runs"), QStringLiteral("3"), QStringLiteral("--min-runs"),
                           QStringLiteral("1"), QStringLiteral("--max-seconds"), QStringLiteral("0.2")} +
               extra);
}
#endif

inline QJsonObject readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

} // namespace TestSupport
