// SPDX-License-Identifier: GPL-3.0-or-later
// JobTracker (work off the UI thread, stale results dropped) and SnapshotCache (a snapshot parsed
// once, shared by every view), issue 20 item 4.
#include "graphview/jobtracker.h"
#include "graphview/snapshotcache.h"

#include <QCoreApplication>
#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <vector>

using namespace AotStudio::Widgets;

class TestJobTracker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deliversOnTheCallersThread()
    {
        JobTracker tracker;
        QThread *worker = nullptr;
        QThread *delivered = nullptr;
        int value = 0;
        tracker.start(
            [&worker] {
                worker = QThread::currentThread();
                return 42;
            },
            [&](int v) {
                delivered = QThread::currentThread();
                value = v;
            });
        QVERIFY(tracker.isRunning());
        QVERIFY(tracker.waitForIdle());
        QCOMPARE(value, 42);
        QVERIFY(worker && worker != QThread::currentThread());
        QCOMPARE(delivered, QThread::currentThread());
    }

    void dropsSupersededResults()
    {
        JobTracker tracker;
        QSemaphore release;
        QList<int> seen;
        // The first job finishes last: its result must not overwrite the second's.
        tracker.start(
            [&release] {
                release.acquire();
                return 1;
            },
            [&seen](int v) { seen.push_back(v); });
        tracker.start([] { return 2; }, [&seen](int v) { seen.push_back(v); });
        QTRY_COMPARE(seen.size(), 1);
        release.release();
        QVERIFY(tracker.waitForIdle());
        QCOMPARE(seen, QList<int>{2});
        // cancel() drops the one in flight too.
        tracker.start([] { return 3; }, [&seen](int v) { seen.push_back(v); });
        tracker.cancel();
        QVERIFY(tracker.waitForIdle());
        QCOMPARE(seen, QList<int>{2});
    }

    void trackerGoneBeforeTheResult()
    {
        QSemaphore release;
        std::atomic<bool> called = false;
        {
            JobTracker tracker;
            tracker.start(
                [&release] {
                    release.acquire();
                    return 1;
                },
                [&called](int) { called = true; });
        }
        release.release();
        QTest::qWait(100); // the queued delivery finds no tracker and does nothing
        QVERIFY(!called);
    }

    void snapshotParsedOnce()
    {
        const QString path = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/graphs/resnet18_post_grad.json");
        SnapshotCache cache;
        JobTracker a, b;
        std::shared_ptr<const AotStudio::Graph::Snapshot> first, second;
        a.start([&cache, path] { return cache.load(path); }, [&first](SnapshotCache::Loaded l) { first = l.snapshot; });
        b.start([&cache, path] { return cache.load(path); },
                [&second](SnapshotCache::Loaded l) { second = l.snapshot; });
        QVERIFY(a.waitForIdle() && b.waitForIdle());
        QVERIFY(first && first == second); // the same object
        QCOMPARE(cache.parseCount(), 1);
        QCOMPARE(cache.cached(path), first);
        QVERIFY(!first->nodes.empty());
        const auto missing = cache.load(QStringLiteral("/nonexistent/snapshot.json"));
        QVERIFY(!missing.snapshot);
        QVERIFY2(missing.error.contains(QLatin1String("/nonexistent/snapshot.json")), qPrintable(missing.error));
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
