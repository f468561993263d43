// SPDX-License-Identifier: GPL-3.0-or-later
#include "remoteengine.h"

#include <QProcess>

#include <algorithm>

namespace AotStudio::Client {

QString RemoteEngine::displayName() const
{
    QString s = user.isEmpty() ? host : user + QLatin1Char('@') + host;
    if (port > 0)
        s += QLatin1Char(':') + QString::number(port);
    return s;
}

QStringList RemoteEngine::sshArguments(const QStringList &engineArguments) const
{
    // -T: no terminal (binary-clean pipe); -e none: no escape character in the stream.
    QStringList args{QStringLiteral("-T"), QStringLiteral("-e"), QStringLiteral("none")};
    if (port > 0)
        args << QStringLiteral("-p") << QString::number(port);
    if (!identityFile.isEmpty())
        args << QStringLiteral("-i") << identityFile << QStringLiteral("-o") << QStringLiteral("IdentitiesOnly=yes");
    args << sshOptions;
    args << (user.isEmpty() ? host : user + QLatin1Char('@') + host);
    // The remote command goes through the user's shell on the host: quote each word.
    const auto quote = [](const QString &word) {
        if (!word.isEmpty() && std::all_of(word.begin(), word.end(), [](QChar c) {
                return c.isLetterOrNumber() || QStringLiteral("/._-+=:,@%").contains(c);
            }))
            return word;
        QString q = word;
        q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
        return QLatin1Char('\'') + q + QLatin1Char('\'');
    };
    args << quote(enginePath) << QStringLiteral("--serve");
    if (!jobFolder.isEmpty())
        args << QStringLiteral("--jobs") << quote(jobFolder);
    for (const QString &a : engineArguments)
        args << quote(a);
    return args;
}

QString RemoteEngine::describeExit(int exitCode, const QStringList &stderrLines, bool wasReady) const
{
    const QString all = stderrLines.join(QLatin1Char('\n'));
    QString last;
    for (auto it = stderrLines.rbegin(); it != stderrLines.rend() && last.isEmpty(); ++it)
        last = it->trimmed();
    const QString who = displayName();
    const auto has = [&all](const char *text) { return all.contains(QLatin1String(text), Qt::CaseInsensitive); };
    QString step, what;
    // ssh exits 255 for its own failures; any other status is the remote command's (the shell's
    // 127 for a missing program, 126 for one it cannot run).
    if (exitCode == 127 || (exitCode != 255 && !wasReady && (has("No such file or directory") || has("not found")))) {
        step = tr("starting the engine");
        what = tr("%1 does not exist on the host. Give the full path of aotstudio-engine there.").arg(enginePath);
    } else if (exitCode == 126) {
        step = tr("starting the engine");
        what = tr("%1 cannot be run on the host (not executable).").arg(enginePath);
    } else if (has("Host key verification failed") || has("REMOTE HOST IDENTIFICATION HAS CHANGED") ||
        has("No ED25519 host key is known") || has("host key is known")) {
        step = tr("checking the host key");
        what = tr("the host is unknown or its key changed. Connect once with ssh in a terminal to "
                  "accept its key, then try again.");
    } else if (has("Permission denied") || has("Too many authentication failures") ||
               has("no mutual signature") || has("Load key")) {
        step = tr("authenticating");
        what = tr("the host refused the key. Check the user name and the identity file, or load the key "
                  "into ssh-agent.");
    } else if (has("Could not resolve hostname") || has("Connection refused") || has("Connection timed out") ||
               has("No route to host") || has("Network is unreachable") || has("Name or service not known")) {
        step = tr("connecting");
        what = tr("no SSH server answered. Check the host name and the port.");
    } else if (wasReady) {
        QString message = tr("%1: the connection was lost (ssh exit status %2). Results received so far are kept; "
                             "reconnect to go on.")
                              .arg(who)
                              .arg(exitCode);
        if (!last.isEmpty())
            message += QLatin1Char(' ') + tr("ssh said: %1").arg(last);
        return message;
    } else if (exitCode == 255) {
        step = tr("connecting");
        what = tr("ssh failed (exit status 255).");
    } else {
        step = tr("starting the engine");
        what = tr("the engine exited with status %1 before its handshake.").arg(exitCode);
    }
    QString message = tr("%1: %2 failed: %3").arg(who, step, what);
    if (!last.isEmpty())
        message += QLatin1Char(' ') + tr("ssh said: %1").arg(last);
    return message;
}

namespace {
constexpr auto ProfilesGroup = "remote/profiles";
} // namespace

QList<RemoteEngine> RemoteEngine::loadProfiles(QSettings &settings)
{
    QList<RemoteEngine> profiles;
    settings.beginGroup(QLatin1String(ProfilesGroup));
    for (const QString &key : settings.childGroups()) {
        settings.beginGroup(key);
        RemoteEngine r;
        r.name = settings.value(QStringLiteral("name"), key).toString();
        r.host = settings.value(QStringLiteral("host")).toString();
        r.user = settings.value(QStringLiteral("user")).toString();
        r.port = settings.value(QStringLiteral("port"), 0).toInt();
        r.enginePath = settings.value(QStringLiteral("engine"), r.enginePath).toString();
        r.identityFile = settings.value(QStringLiteral("identity")).toString();
        r.jobFolder = settings.value(QStringLiteral("jobs"), r.jobFolder).toString();
        settings.endGroup();
        if (r.isValid())
            profiles << r;
    }
    settings.endGroup();
    std::sort(profiles.begin(), profiles.end(),
              [](const RemoteEngine &a, const RemoteEngine &b) { return a.name.localeAwareCompare(b.name) < 0; });
    return profiles;
}

namespace {
/// A QSettings group name for a profile name (no '/').
QString profileKey(const QString &name)
{
    return QString::fromLatin1(name.toUtf8().toPercentEncoding());
}
} // namespace

void RemoteEngine::save(QSettings &settings) const
{
    settings.beginGroup(QLatin1String(ProfilesGroup));
    settings.beginGroup(profileKey(name.isEmpty() ? host : name));
    settings.setValue(QStringLiteral("name"), name.isEmpty() ? host : name);
    settings.setValue(QStringLiteral("host"), host);
    settings.setValue(QStringLiteral("user"), user);
    settings.setValue(QStringLiteral("port"), port);
    settings.setValue(QStringLiteral("engine"), enginePath);
    settings.setValue(QStringLiteral("identity"), identityFile);
    settings.setValue(QStringLiteral("jobs"), jobFolder);
    settings.endGroup();
    settings.endGroup();
}

void RemoteEngine::removeProfile(QSettings &settings, const QString &name)
{
    settings.beginGroup(QLatin1String(ProfilesGroup));
    settings.remove(profileKey(name));
    settings.endGroup();
}

bool RemoteEngine::fromCommandLine(const QString &commandLine, RemoteEngine *remote)
{
    QStringList words = QProcess::splitCommand(commandLine);
    if (words.isEmpty() || !words.first().endsWith(QLatin1String("ssh")))
        return false;
    RemoteEngine r;
    int i = 1;
    for (; i < words.size() && words[i].startsWith(QLatin1Char('-')); ++i) {
        const QString &w = words[i];
        const bool takesValue = w == QLatin1String("-p") || w == QLatin1String("-i") || w == QLatin1String("-o") ||
                                w == QLatin1String("-l") || w == QLatin1String("-e") || w == QLatin1String("-F") ||
                                w == QLatin1String("-J");
        const QString value = takesValue && i + 1 < words.size() ? words[i + 1] : QString();
        if (w == QLatin1String("-p"))
            r.port = value.toInt();
        else if (w == QLatin1String("-i"))
            r.identityFile = value;
        else if (w == QLatin1String("-l"))
            r.user = value;
        else if (w != QLatin1String("-T") && w != QLatin1String("-e"))
            r.sshOptions << w << (takesValue ? QStringList{value} : QStringList{});
        if (takesValue)
            ++i;
    }
    if (i + 1 >= words.size())
        return false;
    QString target = words[i++];
    if (const qsizetype at = target.indexOf(QLatin1Char('@')); at > 0) {
        r.user = target.left(at);
        target = target.mid(at + 1);
    }
    r.host = target;
    r.name = r.host;
    r.enginePath = words[i++];
    for (; i < words.size(); ++i) {
        if (words[i] == QLatin1String("--jobs") && i + 1 < words.size())
            r.jobFolder = words[++i];
    }
    *remote = r;
    return r.isValid();
}

} // namespace AotStudio::Client
