// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QSettings>
#include <QString>
#include <QStringList>

namespace AotStudio::Client {

/**
 * An engine on another machine, reached as `ssh -T [-p PORT] [-i KEY] [USER@]HOST PATH --serve`
 * (DESIGN.md §2: OpenSSH does the transport, keys and agent; the studio writes no network code
 * and opens no port). Saved as a named profile in QSettings (group "remote/profiles").
 */
struct RemoteEngine
{
    Q_DECLARE_TR_FUNCTIONS(AotStudio::Client::RemoteEngine)

public:
    QString name;          ///< profile name shown in Engine → Connect…; defaults to the host
    QString host;          ///< host name or address as ssh takes it
    QString user;          ///< login name; empty: ssh's default (~/.ssh/config, the local user)
    int port = 0;          ///< ssh port; 0: ssh's default (22 or ~/.ssh/config)
    QString enginePath = QStringLiteral("aotstudio-engine"); ///< engine binary on the host (PATH if bare)
    QString identityFile;  ///< private key (-i); empty: the agent and ssh's defaults
    /// Folder on the host for the studio's jobs (given to the engine as --jobs, so its files can
    /// be read after a reconnect too); empty: none.
    QString jobFolder = QStringLiteral("/tmp/aotstudio-jobs");
    QStringList sshOptions; ///< more ssh arguments before the host (tests: -o UserKnownHostsFile=…)

    bool isValid() const { return !host.trimmed().isEmpty() && !enginePath.trimmed().isEmpty(); }
    /// "alice@gpu-box:2222" (user and port only when set).
    QString displayName() const;
    /// The arguments of `ssh` that start the engine with `--serve` (and `--jobs` when jobFolder
    /// is set), followed by `engineArguments` on the remote command line.
    QStringList sshArguments(const QStringList &engineArguments = {}) const;

    /// Why the ssh process ended, as a sentence naming the host and the step that failed
    /// (connecting, checking the host key, authenticating, starting the engine, or the
    /// connection lost while `wasReady`). `exitCode` is ssh's (255: ssh's own failure),
    /// `stderrLines` its last lines of error output.
    QString describeExit(int exitCode, const QStringList &stderrLines, bool wasReady) const;

    /// Profiles saved by save(), sorted by name.
    static QList<RemoteEngine> loadProfiles(QSettings &settings);
    /// Adds or replaces the profile of this name.
    void save(QSettings &settings) const;
    static void removeProfile(QSettings &settings, const QString &name);

    /**
     * Parses a command line such as `ssh -p 2222 alice@gpu-box /opt/aot/bin/aotstudio-engine
     * --serve` (what `--engine` takes in a terminal) into a RemoteEngine; false when it is not an
     * ssh command with a host and an engine path.
     */
    static bool fromCommandLine(const QString &commandLine, RemoteEngine *remote);
};

} // namespace AotStudio::Client
