// SPDX-License-Identifier: GPL-3.0-or-later
// The Memory dock (issue 40 item 1) on a real plan: tests/fixtures/results/memory_convnet_cpu.json
// is the memory.json a compile of sample:convnet wrote (torch 2.14.1, CPU). No engine, no torch.
#include "client/memoryplan.h"
#include "client/session.h"
#include "graphpanel.h"
#include "graphview/graphview.h"
#include "inspectorpanel.h"
#include "memorypanel.h"
#include "selectionhub.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QTableView>
#include <QTreeWidget>
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
        const auto bad = Client::MemoryPlan::parse(
            QByteArray(R"({"available":true,"buffers":[{"name":"b","first_step":4,"last_step":2}]})"));
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
        QVERIFY2(panel.summaryText().contains(QLatin1String("256.0 KiB"))
                     && panel.summaryText().contains(QLatin1String("at step 3")),
                 qPrintable(panel.summaryText()));
        QCOMPARE(panel.table()->model()->rowCount(), 9);
        QCOMPARE(panel.plot()->graphCount(), 2); // predicted and planned
        QCOMPARE(rects(panel.plot()), 9); // one lifetime bar per buffer
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

    // A compile in a session, as the engine reports it: the Memory dock reads its memory.json
    // through the hub (live, no call from outside) and the Inspector says why a node was not fused.
    void followsTheHubAndInspectorSaysWhyNotFused()
    {
        Client::Session session;
        session.recordRequest(
            QJsonObject{{"type", "compile"}, {"id", 1}, {"model", "sample:convnet"}, {"device", "cpu"}});
        SelectionHub hub;
        MemoryPanel memory(&hub);
        InspectorPanel inspector(&hub);
        GraphPanel graph(&hub);
        hub.setSession(&session);
        QVERIFY(!memory.plan()); // running: a note, no plan yet
        session.apply(
            {{"type", "result"},
             {"id", 1},
             {"result",
              QJsonObject{
                  {"out", "/o"},
                  {"memory", QJsonObject{{"path", AOTSTUDIO_FIXTURES_DIR "/results/memory_convnet_cpu.json"}}},
                  {"fusion", QJsonObject{{"path", AOTSTUDIO_FIXTURES_DIR "/results/fusion_convnet_cpu.json"}}}}}});
        hub.selectJob(1);
        QTRY_VERIFY(memory.plan());
        // Headed by its job as every dock is: by MainWindow's JobView (tst_mainwindow
        // everyDockNamesTheSelectedJob), no heading of its own.
        QVERIFY(!memory.findChild<QLabel *>(QStringLiteral("memoryHeading")));
        QCOMPARE(memory.plan()->buffers.size(), 9);

        hub.selectNode(QStringLiteral("mean"));
        QCOMPARE(memory.highlightedBuffers(), (QList<int>{6, 7, 8}));
        QCOMPARE(inspector.value(QStringLiteral("Fusion")), QStringLiteral("fused with other nodes into one kernel"));
        QTreeWidgetItem *fusion = nullptr;
        for (int i = 0; i < inspector.tree()->topLevelItemCount(); ++i)
            if (inspector.tree()->topLevelItem(i)->text(0) == QLatin1String("Fusion"))
                fusion = inspector.tree()->topLevelItem(i);
        QVERIFY(fusion);
        QCOMPARE(fusion->childCount(), 1);
        QVERIFY2(fusion->child(0)->text(0).startsWith(QLatin1String("not fused with ")),
                 qPrintable(fusion->child(0)->text(0)));
        QVERIFY2(fusion->child(0)->text(1).startsWith(QLatin1String("backend: CppScheduling refused vertical")),
                 qPrintable(fusion->child(0)->text(1)));
        hub.selectNode(QStringLiteral("convolution"));
        QCOMPARE(inspector.value(QStringLiteral("Fusion")), QStringLiteral("never a fusion candidate"));

        // The graph's fusion colouring reads the same file through the hub: the legend names
        // the job and the refused pairs.
        graph.graphView()->setColourMode(ColourMode::FusionStatus);
        const QString legend = graph.graphView()->legend()->text();
        QVERIFY2(legend.contains(QLatin1String("Fusion decisions of job 1")), qPrintable(legend));
        QVERIFY(hub.fusionDecisions() && hub.fusionDecisions()->available);

        // Picking a buffer in the table selects the kernel that writes it and its first node.
        const auto &plan = *memory.plan();
        int row = -1, buffer = -1;
        for (int r = 0; r < memory.table()->model()->rowCount() && row < 0; ++r) {
            const int b = memory.table()->model()->index(r, 0).data(Qt::UserRole + 2).toInt(); // the panel's RowRole
            if (b >= 0 && b < plan.buffers.size() && !plan.buffers[b].writerKernel.isEmpty()
                && !plan.buffers[b].nodes.isEmpty()) {
                row = r;
                buffer = b;
            }
        }
        QVERIFY(row >= 0);
        const QModelIndex cell = memory.table()->model()->index(row, 0);
        memory.resize(900, 700);
        memory.show();
        QVERIFY(QTest::qWaitForWindowExposed(&memory));
        memory.table()->scrollTo(cell);
        QTest::mouseClick(memory.table()->viewport(), Qt::LeftButton, {}, memory.table()->visualRect(cell).center());
        QCOMPARE(hub.currentKernel(), plan.buffers[buffer].writerKernel);
        QCOMPARE(hub.currentNode(), plan.buffers[buffer].nodes.first());
    }
};

QTEST_MAIN(TestMemoryPanel)
#include "tst_memorypanel.moc"
