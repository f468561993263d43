// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A throwaway OpenSSH server for tests (issue 17): Debian's sshd on 127.0.0.1 at a free port,
// with its own config, host key, user key and authorized_keys in a temporary folder; nothing of
// the machine's SSH set-up is read or changed (sshd only needs its privilege separation folder
// /run/sshd, created empty when missing). The client side is a Client::RemoteEngine that trusts
// the host key on first use into a known_hosts file of the folder and never prompts.
#include "client/remoteengine.h"
#include "processrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace AotStudio::Tests {

class SshServer
{
public:
    /// A TCP port nobody listens on now (TestSupport::freePort).
    static int freePort() { return TestSupport::freePort(); }

    ~SshServer() { stop(); }

    /// Starts sshd; returns why it cannot run here ("" when it is up and accepts the user key).
    QString start()
    {
        if (!m_tmp.isValid())
            return QStringLiteral("no temporary folder");
        const QString sshd = QStringLiteral("/usr/sbin/sshd");
        const QString keygen = QStandardPaths::findExecutable(QStringLiteral("ssh-keygen"));
        if (!QFileInfo(sshd).isExecutable() || keygen.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
            return QStringLiteral("OpenSSH (sshd, ssh, ssh-keygen) is not installed");
        if (!QFileInfo::exists(QStringLiteral("/run/sshd")) && !QDir().mkpath(QStringLiteral("/run/sshd")))
            return QStringLiteral("sshd needs /run/sshd, which cannot be created here");
        QString out;
        for (const char *key : {"host_key", "user_key"}) {
            if (!run(keygen, {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
                              QStringLiteral("-f"), path(QLatin1String(key))},
                     &out))
                return QStringLiteral("ssh-keygen failed: ") + out;
        }
        if (!QFile::copy(path(QStringLiteral("user_key.pub")), path(QStringLiteral("authorized_keys"))))
            return QStringLiteral("cannot write authorized_keys");
        m_port = freePort();
        QFile config(path(QStringLiteral("sshd_config")));
        if (!config.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write sshd_config");
        config.write(
            QStringLiteral(
                "Port %1\nListenAddress 127.0.0.1\nHostKey %2\nPidFile %3\nAuthorizedKeysFile %4\n"
                "UsePAM no\nStrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "PubkeyAuthentication yes\nPermitRootLogin prohibit-password\nAcceptEnv TORCHINDUCTOR_* AOTSTUDIO_*\n"
                "LogLevel VERBOSE\n")
                .arg(m_port)
                .arg(path(QStringLiteral("host_key")), path(QStringLiteral("sshd.pid")),
                     path(QStringLiteral("authorized_keys")))
                .toUtf8());
        config.close();
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        m_sshd.start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), config.fileName()});
        if (!m_sshd.waitForStarted(5000))
            return QStringLiteral("sshd did not start: ") + m_sshd.errorString();
        // Up when a command gets through (this also records the host key: accept-new).
        QStringList probe = remote(QStringLiteral("true")).sshArguments();
        probe = probe.mid(0, probe.indexOf(QStringLiteral("127.0.0.1")) + 1) << QStringLiteral("true");
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10000 && m_sshd.state() == QProcess::Running) {
            if (run(QStringLiteral("ssh"), probe, &out))
                return {};
            QTest::qWait(200);
        }
        return QStringLiteral("sshd on 127.0.0.1:%1 did not accept the test key: %2 %3")
            .arg(m_port)
            .arg(out, QString::fromLocal8Bit(m_sshd.readAll()).right(600));
    }

    void stop()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            if (!m_sshd.waitForFinished(5000))
                m_sshd.kill();
        }
    }

    /// Ends every connection this server holds (the children of its sshd: one per connection),
    /// as a network drop would; the server keeps listening.
    void dropConnections()
    {
        const QString parent = QString::number(m_sshd.processId());
        const QStringList pids = QDir(QStringLiteral("/proc")).entryList({QStringLiteral("[0-9]*")}, QDir::Dirs);
        for (const QString &pid : pids) {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            // "pid (comm) state ppid ...": comm may hold spaces, so split after the last ')'.
            const QByteArray line = stat.readAll();
            const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
            if (fields.size() > 1 && QString::fromLatin1(fields[1]) == parent)
                ::kill(pid.toInt(), SIGTERM);
        }
    }

    int port() const { return m_port; }
    /// The detached engines' folder on the "host" (AOTSTUDIO_RUNTIME_DIR of every session it
    /// runs): their sockets, lock files and logs, apart from the machine's own.
    QString runtimeDir() const { return path(QStringLiteral("runtime")); }
    /// A file in the server's temporary folder.
    QString path(const QString &name) const { return m_tmp.filePath(name); }

    /// The engine at `enginePath` on this server, with `jobFolder` for its jobs.
    Client::RemoteEngine remote(const QString &enginePath, const QString &jobFolder = {}) const
    {
        Client::RemoteEngine r;
        r.host = QStringLiteral("127.0.0.1");
        r.port = m_port;
        r.identityFile = path(QStringLiteral("user_key"));
        r.enginePath = enginePath;
        r.jobFolder = jobFolder;
        r.sshOptions = {QStringLiteral("-o"),
                        QStringLiteral("UserKnownHostsFile=") + path(QStringLiteral("known_hosts")),
                        QStringLiteral("-o"),
                        QStringLiteral("StrictHostKeyChecking=accept-new"),
                        QStringLiteral("-o"),
                        QStringLiteral("BatchMode=yes"),
                        QStringLiteral("-o"),
                        QStringLiteral("SetEnv=TORCHINDUCTOR_CACHE_DIR=")
                            + qEnvironmentVariable("TORCHINDUCTOR_CACHE_DIR", path(QStringLiteral("inductor")))
                            + QStringLiteral(" AOTSTUDIO_RUNTIME_DIR=") + runtimeDir()};
        return r;
    }

private:
    static bool run(const QString &program, const QStringList &args, QString *output)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        const bool ok = p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        *output = QString::fromLocal8Bit(p.readAll());
        return ok;
    }

    QTemporaryDir m_tmp;
    QProcess m_sshd;
    int m_port = 0;
};

} // namespace AotStudio::Tests
