// SPDX-License-Identifier: GPL-3.0-or-later
// CompareView and its models (File → Compare With…): the recorded jobs of
// tests/fixtures/sessions/full compared through core/compare, a refusal of two jobs of different
// models, and a comparison built in memory with a changed kernel and both sides profiled (delta,
// ratio, source diff).
#include "widgets/charthelpers.h"
#include "widgets/comparemodels.h"
#include "widgets/compareview.h"
#include "widgets/graphview/graphdiffview.h"
#include "widgets/graphview/jobtracker.h"
#include "widgets/mainwindow.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace AotStudio;
using namespace AotStudio::Widgets;

namespace {

const QString kSession = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/sessions/full");

bool copyTree(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    const QDir src(from);
    for (const QFileInfo &e : src.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = to + QLatin1Char('/') + e.fileName();
        if (e.isDir() ? !copyTree(e.filePath(), target) : !QFile::copy(e.filePath(), target))
            return false;
    }
    return true;
}

int rowWhere(const QAbstractItemModel *model, int column, const QString &text)
{
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, column).data().toString() == text)
            return r;
    return -1;
}

} // namespace

class TestCompareView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and job folders in a test location
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
    }
    void recordedJobsSideBySide();
    void differentModelsAreRefused();
    void changedKernelWithTimes();
    void memoryPlansAndFusions();
    void mainWindowOpensCompare();
};

void TestCompareView::recordedJobsSideBySide()
{
    CompareView view;
    new QAbstractItemModelTester(view.fieldModel(), &view);
    new QAbstractItemModelTester(view.kernelModel(), &view);
    view.resize(1000, 700);
    view.show();
    view.compareFolders(kSession + QStringLiteral("/compile-1"), kSession + QStringLiteral("/profile-2"));
    QVERIFY(view.compareJob()->waitForIdle());
    QVERIFY2(view.comparison(), qPrintable(view.refusal()));
    QVERIFY(view.refusal().isEmpty());

    // Fields: a compile against a profile of the same model: the kind differs, the model does not.
    const CompareFieldModel *fields = view.fieldModel();
    const int kind = fields->rowOf(QStringLiteral("kind"));
    const int model = fields->rowOf(QStringLiteral("model"));
    QVERIFY(kind >= 0 && model >= 0);
    QVERIFY(fields->index(kind, 0).data(CompareFieldModel::DiffersRole).toBool());
    QVERIFY(!fields->index(model, 0).data(CompareFieldModel::DiffersRole).toBool());
    QCOMPARE(fields->index(model, CompareFieldModel::AColumn).data().toString(), QStringLiteral("sample:mlp"));
    QVERIFY(fields->rowOf(QStringLiteral("folder")) < 0); // the header names the folders
    // The profile's package size is not recorded: said so, not left blank.
    const int bytes = fields->rowOf(QStringLiteral("package bytes"));
    QVERIFY(bytes >= 0);
    QCOMPARE(fields->index(bytes, CompareFieldModel::BColumn).data().toString(), QStringLiteral("(not recorded)"));

    // Kernels: the same three in both; A (a compile) was not profiled, B (a profile) was.
    const CompareKernelModel *kernels = view.kernelModel();
    QCOMPARE(kernels->rowCount(), 3);
    QVERIFY(!kernels->profiledA());
    QVERIFY(kernels->profiledB());
    const int addmm = kernels->rowOf(QStringLiteral("aoti_torch_cpu_addmm_out"));
    QVERIFY(addmm >= 0);
    QCOMPARE(kernels->row(addmm).status, CompareKernelModel::Status::Unchanged);
    QCOMPARE(kernels->index(addmm, CompareKernelModel::TimeAColumn).data().toString(), QStringLiteral("not profiled"));
    bool isNumber = false;
    kernels->index(addmm, CompareKernelModel::TimeBColumn).data().toString().toDouble(&isNumber);
    QVERIFY(isNumber);
    QCOMPARE(kernels->index(addmm, CompareKernelModel::RatioColumn).data().toString(), QStringLiteral("not profiled"));

    // Time: B measured by a profile, A by the compile's measure stage; no ratio without intervals.
    QVERIFY(view.timeSummaryText().contains(QStringLiteral("profile")));
    QVERIFY(view.timeSummaryText().contains(QStringLiteral("not given")));

    // Graph: every stage both have; post_grad is the same graph in both.
    QVERIFY(view.selectStage(QStringLiteral("post_grad")));
    QVERIFY(!view.selectStage(QStringLiteral("no_such_stage")));
    QCOMPARE(view.currentStage(), QStringLiteral("post_grad"));
    QVERIFY2(view.stageSummaryText().contains(QStringLiteral("0 only in A, 0 only in B, 0 changed")),
             qPrintable(view.stageSummaryText()));
    view.setCurrentTab(CompareView::GraphTab);
    QVERIFY(view.stageJob()->waitForIdle());
    QVERIFY(view.graphDiffView()->beforeView()->snapshot());
    QVERIFY(view.graphDiffView()->afterView()->snapshot());
    QVERIFY(view.graphDiffView()->diff().empty());
}

void TestCompareView::differentModelsAreRefused()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString other = tmp.filePath(QStringLiteral("convnet"));
    QVERIFY(copyTree(kSession + QStringLiteral("/compile-1"), other));
    QFile file(other + QStringLiteral("/result.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject result = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    result.insert(QStringLiteral("model"), QStringLiteral("sample:convnet"));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(result).toJson());
    file.close();

    CompareView view;
    view.compareFolders(kSession + QStringLiteral("/compile-1"), other);
    QVERIFY(view.compareJob()->waitForIdle());
    QVERIFY(!view.comparison());
    QVERIFY2(view.refusal().contains(QStringLiteral("sample:convnet")), qPrintable(view.refusal()));
    QVERIFY(view.refusal().contains(QStringLiteral("sample:mlp")));
    QCOMPARE(view.kernelModel()->rowCount(), 0);
    auto *tabs = view.findChild<QTabWidget *>(QStringLiteral("compareTabs"));
    QVERIFY(!tabs->isEnabled());
    QVERIFY(tabs->isHidden()); // the reason alone, no empty tables

    // A comparison after a refusal shows the tabs again.
    view.compareFolders(kSession + QStringLiteral("/compile-1"), kSession + QStringLiteral("/compile-1"));
    QVERIFY(view.compareJob()->waitForIdle());
    QVERIFY(view.comparison());
    QVERIFY(view.refusal().isEmpty());
    QVERIFY(!tabs->isHidden() && tabs->isEnabled());

    // Not a job folder at all: refused with the folder named.
    view.compareFolders(kSession + QStringLiteral("/compile-1"), tmp.path());
    QVERIFY(view.compareJob()->waitForIdle());
    QVERIFY(!view.comparison());
    QVERIFY2(view.refusal().contains(tmp.path()), qPrintable(view.refusal()));
}

void TestCompareView::changedKernelWithTimes()
{
    using nlohmann::json;
    const auto kernel = [](const std::string &name, const std::string &source, std::vector<std::string> nodes) {
        return json{{"id", name + ":1"},
                    {"name", name},
                    {"kind", "cpp"},
                    {"post_grad_nodes", nodes},
                    {"pre_grad_nodes", json::array()},
                    {"source", source}};
    };
    const auto file = [](json list) {
        return json{{"schema", "aotstudio.kernels"}, {"version", 1}, {"device", "cpu"}, {"kernels", list}};
    };
    auto c = std::make_shared<Compare::Comparison>();
    c->kernels
        = Compare::diffKernels(file(json::array({kernel("cpp_fused_relu_0", "void k() {\n  relu();\n}", {"relu"}),
                                                 kernel("cpp_fused_bn_1", "void bn() {}", {"bn"})})),
                               file(json::array({kernel("cpp_fused_relu_0", "void k() {\n  relu_fast();\n}", {"relu"}),
                                                 kernel("cpp_fused_add_2", "void add() {}", {"add"})})));
    c->time.a.profiled = c->time.b.profiled = true;
    c->time.kernels = {{"cpp_fused_relu_0", "cpp", 0.2, 0.1},
                       {"cpp_fused_bn_1", "cpp", 0.05, 0.0},
                       {"cpp_fused_add_2", "cpp", 0.0, 0.03}};
    c->time.latencyRatio = Compare::Estimate{0.8, 0.7, 0.9};

    CompareView view;
    new QAbstractItemModelTester(view.kernelModel(), &view);
    view.setComparison(c);
    const CompareKernelModel *m = view.kernelModel();
    QCOMPARE(m->rowCount(), 3);
    const int relu = m->rowOf(QStringLiteral("cpp_fused_relu_0"));
    const int bn = m->rowOf(QStringLiteral("cpp_fused_bn_1"));
    const int add = m->rowOf(QStringLiteral("cpp_fused_add_2"));
    QVERIFY(relu >= 0 && bn >= 0 && add >= 0);
    QCOMPARE(m->row(relu).status, CompareKernelModel::Status::Changed);
    QCOMPARE(m->row(bn).status, CompareKernelModel::Status::OnlyA);
    QCOMPARE(m->row(add).status, CompareKernelModel::Status::OnlyB);
    QCOMPARE(m->index(relu, CompareKernelModel::RatioColumn).data().toString(), QStringLiteral("0.50×"));
    QCOMPARE(m->index(relu, CompareKernelModel::DeltaColumn).data().toString(), QStringLiteral("-0.1000"));
    QCOMPARE(m->index(relu, CompareKernelModel::DeltaColumn).data(CompareKernelModel::SortRole).toDouble(), 0.1);
    // A kernel only in B has no time in A: a dash, not a zero.
    QCOMPARE(m->index(add, CompareKernelModel::TimeAColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(m->index(add, CompareKernelModel::TimeBColumn).data().toString(), QStringLiteral("0.0300"));
    QCOMPARE(m->index(add, CompareKernelModel::StatusColumn).data().toString(), QStringLiteral("only in B"));
    // Its difference is the time B added; no ratio without A's time.
    QCOMPARE(m->index(add, CompareKernelModel::DeltaColumn).data().toString(), QStringLiteral("+0.0300"));
    QCOMPARE(m->index(add, CompareKernelModel::RatioColumn).data().toString(), QStringLiteral("—"));

    QVERIFY(view.selectKernel(QStringLiteral("cpp_fused_relu_0")));
    QVERIFY2(view.sourceDiffText().contains(QStringLiteral("+  relu_fast();")), qPrintable(view.sourceDiffText()));
    QVERIFY(view.sourceDiffText().contains(QStringLiteral("-  relu();")));
    QVERIFY(view.selectKernel(QStringLiteral("cpp_fused_bn_1")));
    QVERIFY(view.sourceDiffText().isEmpty());
    QVERIFY(!view.selectKernel(QStringLiteral("nope")));
    // The latency ratio with its interval.
    QVERIFY2(view.timeSummaryText().contains(QStringLiteral("0.80× (95% CI 0.70–0.90)")),
             qPrintable(view.timeSummaryText()));
    // No graph stage in common: said so.
    QVERIFY(view.stageSummaryText().contains(QStringLiteral("no graph stage in common")));
}

// Issue 40: the Memory tab draws two plans' peaks as bars, lists the buffers of one side only and
// counts the refused fusions per reason side by side; a side without a plan is said plainly.
// Cost: well under a second, no engine.
void TestCompareView::memoryPlansAndFusions()
{
    using nlohmann::json;
    const auto buffer = [](const std::string &name, double bytes, std::vector<std::string> nodes) {
        return json{{"name", name}, {"bytes", bytes}, {"dtype", "float32"}, {"shape", {8, 64}}, {"nodes", nodes}};
    };
    const auto plan = [](json buffers, double predicted, double planned) {
        return json{{"format", "aotstudio.memory"},
                    {"available", true},
                    {"complete", true},
                    {"constants_bytes", 1000},
                    {"buffers", std::move(buffers)},
                    {"peak", {{"predicted_bytes", predicted}, {"planned_bytes", planned}}}};
    };
    const auto fusion = [](json byCategory, int refused) {
        json list = json::array();
        for (int i = 0; i < refused; ++i)
            list.push_back({{"node1", "op" + std::to_string(i)}});
        return json{{"available", true},         {"complete", true},
                    {"fused_kernels", 2},        {"refused", list},
                    {"by_category", byCategory}, {"status_counts", {{"fused", 3}, {"refused", refused}}}};
    };
    auto c = std::make_shared<Compare::Comparison>();
    c->memory = Compare::diffMemory(
        plan(json::array({buffer("buf0", 2048, {"addmm"}), buffer("buf2", 4096, {"gelu_only_in_a"})}), 8192, 6144),
        plan(json::array({buffer("buf5", 2048, {"addmm"}), buffer("buf7", 1024, {"mean_only_in_b"})}), 4096, 4096),
        7000.0, std::nullopt);
    c->fusion = Compare::diffFusion(fusion({{"backend", 2}}, 2), fusion({{"memory_deps", 3}, {"backend", 1}}, 4));

    CompareView view;
    view.resize(900, 700);
    view.setComparison(c);
    const QString text = view.memoryText();
    QVERIFY2(text.contains(QLatin1String("1 paired by the nodes they hold, 1 only in A, 1 only in B")),
             qPrintable(text));
    QVERIFY(text.contains(QLatin1String("gelu_only_in_a")) && text.contains(QLatin1String("mean_only_in_b")));
    QVERIFY(text.indexOf(QLatin1String("gelu_only_in_a")) < text.indexOf(QLatin1String("mean_only_in_b")));
    QVERIFY2(text.contains(QLatin1String("2 refused pairs and 2 fused kernels in A; 4 and 2 in B")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("memory_deps")));
    // The chart: A and B bars, four categories each (predicted, planned, measured, weights).
    QCustomPlot *plot = view.memoryChart()->plot();
    QVERIFY(view.memoryChart()->isMeasured());
    int bars = 0;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *b = qobject_cast<QCPBars *>(plot->plottable(i)))
            bars += b->data()->size();
    QVERIFY2(bars >= 7, qPrintable(QString::number(bars))); // B has no measured peak: no bar there

    // A side without a plan or decisions: said which, no chart.
    auto none = std::make_shared<Compare::Comparison>();
    none->memory.why = "B has no memory.json (compiled before memory plans were recorded)";
    none->fusion.why = "B has no fusion.json (compiled before fusion decisions were recorded)";
    view.setComparison(none);
    QVERIFY(view.memoryText().contains(QLatin1String("B has no memory.json")));
    QVERIFY(view.memoryText().contains(QLatin1String("B has no fusion.json")));
    QVERIFY(view.memoryChart()->noteLabel()->text().contains(QLatin1String("B has no memory.json")));
}

void TestCompareView::mainWindowOpensCompare()
{
    MainWindow window;
    auto *action = window.findChild<QAction *>(QStringLiteral("compareAction"));
    QVERIFY(action);
    // In the File menu.
    QMenu *file = window.menuBar()->actions().first()->menu();
    QVERIFY(file && file->actions().contains(action));
    CompareView *view
        = window.compareJobs(kSession + QStringLiteral("/compile-1"), kSession + QStringLiteral("/profile-2"));
    QVERIFY(view);
    QVERIFY(view->window()->isVisible());
    QVERIFY(view->window() != &window);
    QVERIFY(view->compareJob()->waitForIdle());
    QVERIFY(view->comparison());
    QCOMPARE(view->window()->windowTitle(), QStringLiteral("Compare compile-1 with profile-2"));
    view->window()->close();
}

QTEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
