// SPDX-License-Identifier: GPL-3.0-or-later
// The Memory dock (issue 40 item 1) on a real plan: tests/fixtures/results/memory_convnet_cpu.json
// is the memory.json a compile of sample:convnet wrote (torch 2.14.1, CPU). No engine, no torch.
#include "client/memoryplan.h"
#include "memorypanel.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QTableView>
#include <QtTest/QtTest>

using namespace AotStudio;
using namespace AotStudio::Widgets;

namespace {

std::shared_ptr<const Client::MemoryPlan> fixturePlan()
{
    QFile f(QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/results/memory_convnet_cpu.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    return Client::MemoryPlan::parse(f.readAll()).value;
}

int rects(QCustomPlot *plot)
{
    int n = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        n += qobject_cast<QCPItemRect *>(plot->item(i)) != nullptr;
    return n;
}

} // namespace

class TestMemoryPanel : public QObject
{
    Q_OBJECT

    static void screenshot(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QTest::qWait(50);
        const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1.png").arg(name);
        QVERIFY2(w.grab().save(path), qPrintable(path));
    }

private Q_SLOTS:
    void parsesTheRealPlan()
    {
        const auto plan = fixturePlan();
        QVERIFY(plan);
        QVERIFY(plan->available);
        QCOMPARE(plan->steps.size(), 9);
        QCOMPARE(plan->buffers.size(), 9);
        QCOMPARE(plan->predicted.bytes, 262144.0);
        QCOMPARE(plan->predicted.step, 3);
        QCOMPARE(plan->buffers[3].allocation, QStringLiteral("reuse"));
        QCOMPARE(plan->buffers[8].lastStep, -1); // the output, held to the end

        // Broken input is refused by field, never shown half.
        const auto bad = Client::MemoryPlan::parse(QByteArray(R"({"available":true,"buffers":[{"name":"b","first_step":4,"last_step":2}]})"));
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error.contains(QLatin1String("buffers[0]")), qPrintable(bad.error));
        QVERIFY(!Client::MemoryPlan::parse(QByteArray("[1,2]")).ok());
    }

    void drawsCurvesGanttAndTable()
    {
        MemoryPanel panel(nullptr);
        panel.resize(900, 700);
        panel.show();
        const auto plan = fixturePlan();
        panel.setPlan(plan);
        QVERIFY2(panel.summaryText().contains(QLatin1String("256.0 KiB")) && panel.summaryText().contains(QLatin1String("at step 3")),
                 qPrintable(panel.summaryText()));
        QCOMPARE(panel.table()->model()->rowCount(), 9);
        QCOMPARE(panel.plot()->graphCount(), 2); // predicted and planned
        QCOMPARE(rects(panel.plot()), 9);        // one lifetime bar per buffer
        // The reused storage is said as such.
        bool reuse = false;
        for (int r = 0; r < panel.table()->model()->rowCount(); ++r)
            reuse |= panel.table()->model()->index(r, 3).data().toString().startsWith(QLatin1String("reuses buf"));
        QVERIFY(reuse);
        screenshot(panel, QStringLiteral("memorypanel_convnet"));

        // A node picked elsewhere highlights the buffers that hold it.
        panel.onNodeChanged(QStringLiteral("mean"));
        QCOMPARE(panel.highlightedBuffers(), (QList<int>{6, 7, 8}));
        QCOMPARE(panel.table()->selectionModel()->selectedRows().size(), 3);
        panel.onNodeChanged(QString());
        QVERIFY(panel.highlightedBuffers().isEmpty());

        // No plan: a note, never an empty chart.
        panel.showNote(QStringLiteral("none"));
        QVERIFY(!panel.table()->isVisible());
    }
};

QTEST_MAIN(TestMemoryPanel)
#include "tst_memorypanel.moc"
