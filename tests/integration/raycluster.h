// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A throwaway Ray cluster for tests and benchmarks (issue 17): a head and `workers` more nodes on
// 127.0.0.1, each with `cpusPerNode` CPUs, their session folder in a short temporary folder (Ray's
// Unix sockets need short paths), started with the `ray` program beside the engine's Python and
// stopped with `ray stop` (which stops every Ray process of the machine: do not run it beside a
// cluster of your own). Ray rewrites 127.0.0.1 to the host's address unless every node is given
// `--node-ip-address 127.0.0.1`.
#include "processrun.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace AotStudio::Tests {

class RayCluster
{
public:
    /// `python`: the engine's interpreter (its venv's bin holds `ray`).
    explicit RayCluster(QString python)
        : m_python(std::move(python))
    { }
    ~RayCluster() { stop(); }
    RayCluster(const RayCluster &) = delete;
    RayCluster &operator=(const RayCluster &) = delete;

    /// The `ray` program of the engine's venv.
    QString rayProgram() const { return QFileInfo(m_python).absolutePath() + QStringLiteral("/ray"); }

    /// Starts the head and `workers` worker nodes; returns why it cannot ("" when it is up; the
    /// reason starts with "skip:" when Ray is not installed, which is not a failure).
    QString start(int workers = 1, int cpusPerNode = 1)
    {
        const auto probe = TestSupport::run(m_python, {QStringLiteral("-c"), QStringLiteral("import ray")}, 120000);
        if (probe.exitCode != 0 || !QFileInfo(rayProgram()).isExecutable())
            return QStringLiteral(
                "skip: Ray is not installed in the engine's venv (pip install ray, tools/requirements.txt)");
        if (!m_dir.isValid())
            return QStringLiteral("no temporary folder for Ray's session");
        const int port = TestSupport::freePort();
        m_address = QStringLiteral("127.0.0.1:%1").arg(port);
        const QStringList common{QStringLiteral("--num-cpus"),
                                 QString::number(cpusPerNode),
                                 QStringLiteral("--node-ip-address"),
                                 QStringLiteral("127.0.0.1"),
                                 QStringLiteral("--object-store-memory"),
                                 QStringLiteral("200000000"),
                                 QStringLiteral("--disable-usage-stats")};
        QElapsedTimer t;
        t.start();
        m_started = true;
        QByteArray err;
        if (!ray(QStringList{QStringLiteral("start"), QStringLiteral("--head"), QStringLiteral("--port"),
                             QString::number(port), QStringLiteral("--include-dashboard=false"),
                             QStringLiteral("--temp-dir"), m_dir.path()}
                     + common,
                 &err))
            return QStringLiteral("ray start --head failed: ") + QString::fromLocal8Bit(err.right(2000));
        for (int i = 0; i < workers; ++i)
            if (!ray(QStringList{QStringLiteral("start"), QStringLiteral("--address"), m_address} + common, &err))
                return QStringLiteral("ray start --address failed: ") + QString::fromLocal8Bit(err.right(2000));
        m_startSeconds = t.elapsed() / 1000.0;
        return {};
    }

    /// Stops every Ray process of the machine (`ray stop`), once.
    void stop()
    {
        if (m_started)
            ray({QStringLiteral("stop")});
        m_started = false;
    }

    /// The head's GCS address, HOST:PORT (what `--ray` takes).
    QString address() const { return m_address; }
    /// Wall seconds the start took (head and workers).
    double startSeconds() const { return m_startSeconds; }

private:
    bool ray(const QStringList &args, QByteArray *err = nullptr)
    {
        QProcess p;
        p.setProgram(rayProgram());
        p.setArguments(args);
        p.start();
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
        }
        if (err)
            *err = p.readAllStandardError() + p.readAllStandardOutput();
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    QString m_python;
    QTemporaryDir m_dir{QStringLiteral("/tmp/rayXXXXXX")};
    QString m_address;
    bool m_started = false;
    double m_startSeconds = 0;
};

} // namespace AotStudio::Tests
