// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <type_traits>

namespace AotStudio::Widgets {

/**
 * Runs one kind of work off the UI thread and delivers only the latest result (STYLE.md "off the
 * UI thread, and drop stale results", after hotspot's job tracker). Each start() bumps a
 * generation counter; the work runs on a thread pool; its result comes back to the tracker's
 * thread by a queued call on a guarded pointer, and is handed to `done` only when no later
 * start() (or cancel()) superseded it and the tracker still exists. The work must not touch
 * widgets: it gets its inputs by value and returns a value.
 *
 *     m_loader.start([path] { return load(path); },
 *                    [this](Loaded loaded) { show(std::move(loaded)); });
 */
class JobTracker : public QObject
{
    Q_OBJECT
public:
    explicit JobTracker(QObject *parent = nullptr)
        : QObject(parent)
    { }
    ~JobTracker() override { cancel(); }

    template<class Work, class Done>
    void start(Work work, Done done)
    {
        using Result = std::invoke_result_t<Work>;
        const quint64 generation = ++m_generation;
        ++m_running;
        QPointer<JobTracker> self(this);
        pool()->start([self, generation, work = std::move(work), done = std::move(done)]() mutable {
            auto result = std::make_shared<Result>(work());
            if (!QCoreApplication::instance())
                return; // the application is going away: nobody to deliver to
            // QPointer is read here only to find the tracker's thread; the call itself runs
            // there, where the pointer is checked again before anything is touched.
            QMetaObject::invokeMethod(
                qApp,
                [self, generation, result, done = std::move(done)]() mutable {
                    if (!self)
                        return;
                    --self->m_running;
                    if (generation != self->m_generation)
                        return; // superseded: a later start() or cancel()
                    done(std::move(*result));
                    Q_EMIT self->finished();
                },
                Qt::QueuedConnection);
        });
    }

    /// Drops the result of the work in flight (it still runs to its end).
    void cancel() { ++m_generation; }
    /// Work started and not yet delivered or dropped.
    bool isRunning() const { return m_running > 0; }
    quint64 generation() const { return m_generation; }

    /// Waits (processing events) until no work is in flight; for tests and benchmarks.
    bool waitForIdle(int timeoutMs = 30000);

Q_SIGNALS:
    /// A result was delivered.
    void finished();

private:
    static QThreadPool *pool();
    quint64 m_generation = 0;
    int m_running = 0;
};

} // namespace AotStudio::Widgets
