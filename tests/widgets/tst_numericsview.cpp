// SPDX-License-Identifier: GPL-3.0-or-later
// The numerics heat map (issue 16 item 4b): a folder of `aotstudio-cli numerics` (tests/fixtures/
// numerics: unstable_softmax_factory.py in bf16) opened as a session of one job; the graph panel
// colours the capture snapshot by each node's error, offers the first divergent node, and the
// inspector shows a node's errors. Also the typed reader's refusals and the colour scale.
#include "client/numericsresult.h"
#include "client/session.h"
#include "widgets/graphpanel.h"
#include "widgets/graphview/errorscale.h"
#include "widgets/graphview/graphview.h"
#include "widgets/inspectorpanel.h"
#include "widgets/mainwindow.h"
#include "widgets/selectionhub.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>
#include <memory>

using namespace AotStudio;
using namespace AotStudio::Widgets;

namespace {
const QString kFolder = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/numerics");

int nodeIndex(const GraphView *view, const QString &name)
{
    const auto &nodes = view->snapshot()->nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (QString::fromStdString(nodes[i].id) == name)
            return int(i);
    return -1;
}
} // namespace

class TestNumericsView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and job folders in a test location
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
    }
    void readerReadsTheFixture();
    void readerRefusesBadFields();
    void scaleIsSequentialAndAnchoredAtTolerance();
    void graphColouredByError();
    void folderWithoutResultIsRefused();
    void mainWindowOpensJobFolder();
};

void TestNumericsView::readerReadsTheFixture()
{
    QFile file(kFolder + QStringLiteral("/numerics.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto parsed = Client::parseNumericsResult(file.readAll());
    QVERIFY2(parsed.ok(), qPrintable(parsed.error));
    const Client::NumericsResult &n = *parsed.value;
    QCOMPARE(n.dtype, QStringLiteral("bf16"));
    QCOMPARE(n.tolerance, 0.03);
    QCOMPARE(n.nodes.size(), 4);
    QVERIFY(n.firstEager && n.firstCompiled);
    QCOMPARE(n.firstEager->node, QStringLiteral("softmax"));
    const Client::NumericsNode *softmax = n.find(QStringLiteral("softmax"));
    QVERIFY(softmax && softmax->eager && softmax->compiled);
    QVERIFY(softmax->eager->diverges);
    QVERIFY(!n.find(QStringLiteral("linear"))->eager->diverges);
    QCOMPARE(n.normErrors(Client::NumericsResult::Side::Compiled).size(), 4);
}

void TestNumericsView::readerRefusesBadFields()
{
    // A NaN error travels as the string "nan" and reads as NaN (and diverges as sent).
    QJsonObject nanNode{
        {QStringLiteral("name"), QStringLiteral("x")},
        {QStringLiteral("eager"),
         QJsonObject{{QStringLiteral("norm_error"), QStringLiteral("nan")}, {QStringLiteral("diverges"), true}}},
        {QStringLiteral("compiled"), QJsonValue::Null}};
    auto ok = Client::parseNumericsResult(QJsonObject{{QStringLiteral("format"), QStringLiteral("aotstudio.numerics")},
                                                      {QStringLiteral("nodes"), QJsonArray{nanNode}}});
    QVERIFY2(ok.ok(), qPrintable(ok.error));
    QVERIFY(std::isnan(ok.value->nodes[0].eager->normError));
    QVERIFY(!ok.value->nodes[0].compiled);
    // Another format, a string that is not a number, a node without a name: refused, naming the field.
    auto format
        = Client::parseNumericsResult(QJsonObject{{QStringLiteral("format"), QStringLiteral("aotstudio.tune")}});
    QVERIFY(!format.ok());
    QVERIFY(format.error.contains(QStringLiteral("format")));
    nanNode.insert(QStringLiteral("eager"), QJsonObject{{QStringLiteral("norm_error"), QStringLiteral("big")}});
    auto bad = Client::parseNumericsResult(QJsonObject{{QStringLiteral("nodes"), QJsonArray{nanNode}}});
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error.contains(QStringLiteral("nodes[0].eager.norm_error")), qPrintable(bad.error));
    auto unnamed = Client::parseNumericsResult(QJsonObject{{QStringLiteral("nodes"), QJsonArray{QJsonObject{}}}});
    QVERIFY(!unnamed.ok());
    QVERIFY(!Client::parseNumericsResult(QByteArray("[1, 2]")).ok());
}

void TestNumericsView::scaleIsSequentialAndAnchoredAtTolerance()
{
    const double tol = 0.03;
    QCOMPARE(ErrorScale::position(tol / 1000, tol), 0.0);
    QCOMPARE(ErrorScale::position(tol, tol), 0.75);
    QCOMPARE(ErrorScale::position(tol * 100, tol), 1.0);
    QCOMPARE(ErrorScale::position(0, tol), 0.0);
    QVERIFY(std::isnan(ErrorScale::position(std::nan(""), tol)));
    QCOMPARE(ErrorScale::colour(std::nan(""), tol), ErrorScale::nanColour());
    // Sequential: darker the larger the error.
    double last = 2;
    for (double e = tol / 1000; e <= tol * 10; e *= 10) {
        const double lightness = ErrorScale::colour(e, tol).lightnessF();
        QVERIFY2(lightness < last, qPrintable(QString::number(e)));
        last = lightness;
    }
}

void TestNumericsView::graphColouredByError()
{
    std::unique_ptr<Client::Session> session(Client::Session::fromJobFolder(kFolder));
    QCOMPARE(session->jobs().size(), 1);
    const Client::JobRecord &job = session->jobs().first();
    QCOMPARE(job.kind, QStringLiteral("numerics"));
    QVERIFY(job.numerics);
    QCOMPARE(job.snapshots.size(), 1);
    QCOMPARE(job.snapshots.first().stage, QStringLiteral("capture"));

    SelectionHub hub;
    GraphPanel panel(&hub);
    InspectorPanel inspector(&hub);
    panel.resize(900, 600);
    panel.show();
    hub.setSession(session.get());
    QVERIFY(hub.waitForIdle());
    QVERIFY(panel.graphView()->layoutJob()->waitForIdle());
    QVERIFY(hub.numerics());
    QVERIFY(panel.numericsBar()->isVisible());
    QCOMPARE(panel.graphView()->colourMode(), ColourMode::NumericError);
    QCOMPARE(panel.errorLegend()->tolerance(), 0.03);

    // softmax (0.33, past the tolerance 0.03) is red; linear (0.002) pale; inputs have no value.
    const GraphCanvas *canvas = panel.graphView()->canvas();
    const int softmax = nodeIndex(panel.graphView(), QStringLiteral("softmax"));
    const int linear = nodeIndex(panel.graphView(), QStringLiteral("linear"));
    QVERIFY(softmax >= 0 && linear >= 0);
    const auto errors = hub.numerics()->normErrors(Client::NumericsResult::Side::Eager);
    QCOMPARE(canvas->nodeColour(softmax), ErrorScale::colour(errors.value(QStringLiteral("softmax")), 0.03));
    QCOMPARE(canvas->nodeColour(linear), ErrorScale::colour(errors.value(QStringLiteral("linear")), 0.03));
    QVERIFY(canvas->nodeColour(softmax).lightnessF() < canvas->nodeColour(linear).lightnessF());
    int missing = 0;
    for (int i = 0; i < int(panel.graphView()->snapshot()->nodes.size()); ++i)
        missing += canvas->nodeColour(i) == ErrorScale::missingColour();
    QVERIFY(missing > 0); // placeholders and parameters have no error

    // The first divergent node: one click selects it everywhere.
    QVERIFY(panel.firstDivergentButton()->isEnabled());
    QVERIFY(panel.firstDivergentButton()->text().contains(QStringLiteral("softmax")));
    QTest::mouseClick(panel.firstDivergentButton(), Qt::LeftButton);
    QCOMPARE(hub.currentNode(), QStringLiteral("softmax"));
    QCOMPARE(panel.graphView()->selectedNode(), QStringLiteral("softmax"));
    // Close enough to read its label.
    QTest::qWait(50);
    QVERIFY2(canvas->scale() >= GraphCanvas::LabelScale, qPrintable(QString::number(canvas->scale())));
    const QString shown = inspector.value(QStringLiteral("Numerical error"));
    QVERIFY2(shown.contains(QStringLiteral("0.03")), qPrintable(shown));
    QCOMPARE(inspector.tree()
                 ->findItems(QStringLiteral("Reference"), Qt::MatchExactly | Qt::MatchRecursive)
                 .first()
                 ->text(1),
             QStringLiteral("float64"));
    const auto eagerItems = inspector.tree()->findItems(QStringLiteral("Eager"), Qt::MatchExactly | Qt::MatchRecursive);
    QCOMPARE(eagerItems.size(), 1);
    QVERIFY2(eagerItems.first()->text(1).contains(QStringLiteral("first divergent")),
             qPrintable(eagerItems.first()->text(1)));
    QVERIFY(eagerItems.first()->text(1).contains(QStringLiteral("0.326")));

    // Switching to compiled recolours from the compiled errors.
    panel.errorSideCombo()->setCurrentIndex(panel.errorSideCombo()->findData(QStringLiteral("compiled")));
    const auto compiled = hub.numerics()->normErrors(Client::NumericsResult::Side::Compiled);
    QCOMPARE(canvas->nodeColour(linear), ErrorScale::colour(compiled.value(QStringLiteral("linear")), 0.03));

    // Another session without numerics: the bar goes and the colours go back to op categories.
    hub.setSession(nullptr);
    QVERIFY(!panel.numericsBar()->isVisible());
    QCOMPARE(panel.graphView()->colourMode(), ColourMode::OpCategory);
}

void TestNumericsView::folderWithoutResultIsRefused()
{
    QTemporaryDir empty;
    try {
        delete Client::Session::fromJobFolder(empty.path());
        QFAIL("an empty folder was opened");
    } catch (const Client::SessionError &e) {
        QVERIFY2(e.message().contains(QStringLiteral("numerics.json")), qPrintable(e.message()));
    }
    QFile bad(empty.filePath(QStringLiteral("numerics.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"format": "aotstudio.numerics", "nodes": [{"name": 3}]})");
    bad.close();
    try {
        delete Client::Session::fromJobFolder(empty.path());
        QFAIL("a bad result was opened");
    } catch (const Client::SessionError &e) {
        QVERIFY2(e.message().contains(QStringLiteral("nodes[0].name")), qPrintable(e.message()));
    }
}

void TestNumericsView::mainWindowOpensJobFolder()
{
    MainWindow window;
    QVERIFY(window.findChild<QAction *>(QStringLiteral("openJobFolderAction")));
    QVERIFY(window.openJobFolder(kFolder));
    QVERIFY(window.selectionHub()->numerics());
    QVERIFY(window.windowTitle().contains(QStringLiteral("numerics")));
}

QTEST_MAIN(TestNumericsView)
#include "tst_numericsview.moc"
