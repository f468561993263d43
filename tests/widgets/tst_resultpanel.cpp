// SPDX-License-Identifier: GPL-3.0-or-later
// ResultPanel on hand-made results: run counts, warnings, number format, stage names; a recorded
// regional compile (issue 14 item 6): its blocks table, compile times and ratios with intervals.
#include "widgets/latencychart.h"
#include "widgets/measurementtext.h"
#include "widgets/resultpanel.h"
#include "widgets/verifyoutputmodel.h"
#include "widgets/verifytext.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFrame>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTest>
#include <QTranslator>

namespace Client = AotStudio::Client;
using AotStudio::Client::CompileResult;
using AotStudio::Client::EngineError;
using AotStudio::Widgets::ResultPanel;
using AotStudio::Widgets::VerifyOutputModel;

namespace {
CompileResult parse(const char *json)
{
    return CompileResult::fromJson(QJsonDocument::fromJson(json).object());
}

constexpr auto NoisyResult = R"({
  "model":"sample:minilm","device":"cpu","package":"/jobs/1/model.pt2","torch_version":"2.14.1",
  "max_abs_error":5.96e-8,"tolerance":0.001,"eager_ms":0.05,"compiled_ms":0.034,"speedup":1.47,
  "runs":40,"eager_runs":80,"compiled_runs":40,
  "eager":{"median_ms":0.05,"p10_ms":0.045,"p90_ms":32.0,"runs":80},
  "compiled":{"median_ms":0.034,"p10_ms":0.031,"p90_ms":0.041,"runs":40},
  "warnings":["eager timings are noisy (p10 0.045 ms, median 0.05 ms, p90 32 ms): the machine was busy"]
})";

constexpr auto PlainResult = R"({
  "model":"sample:mlp","device":"cpu","package":"/jobs/2/model.pt2","torch_version":"2.14.1",
  "max_abs_error":1.2e-7,"tolerance":0.001,"eager_ms":0.081,"compiled_ms":0.034,"speedup":2.38,
  "runs":30})";

/// `text` with ' for " (JSON written inside a C++ string without escapes).
QByteArray json(const char *text)
{
    return QByteArray(text).replace('\'', '"');
}

QJsonObject fixture(const QString &name)
{
    QFile file(QFINDTESTDATA(QStringLiteral("../fixtures/results/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(name));
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// PlainResult with a paired-timing interval and a verdict.
CompileResult paired(double estimate, const char *low, const char *high, const char *verdict, const char *reasons = "")
{
    return parse(QStringLiteral(R"({"model":"sample:mlp","device":"cpu","package":"/p.pt2","eager_ms":0.081,
        "compiled_ms":0.1,"speedup":%1,"threads":2,
        "speedup_interval":{"estimate":%1,"low":%2,"high":%3,"level":0.95,"blocks":%4,"resamples":2000},
        "measurement":{"verdict":"%5","reasons":[%6],"threads":2,"usable_cpus":2}})")
                     .arg(estimate)
                     .arg(QLatin1String(low), QLatin1String(high))
                     .arg(QLatin1String(low) == QLatin1String("null") ? 2 : 24)
                     .arg(QLatin1String(verdict), QLatin1String(reasons))
                     .toUtf8()
                     .constData());
}

QString text(const QWidget &w, const char *name)
{
    auto *label = w.findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<missing %1>").arg(QLatin1String(name));
}
} // namespace

Q_DECLARE_METATYPE(AotStudio::Client::CompileResult)

class TestResultPanel : public QObject
{
    Q_OBJECT

    QTranslator m_english;

private:
    static void screenshot(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QTest::qWait(50);
        const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1.png").arg(name);
        QVERIFY2(w.grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

private Q_SLOTS:
    void initTestCase()
    {
        // English plural forms ("2 blocks", "2 usable CPUs"), as the studio loads them.
        QVERIFY(m_english.load(QStringLiteral(":/i18n/aotstudio_en.qm")));
        QCoreApplication::installTranslator(&m_english);
    }

    void cleanup() { QLocale::setDefault(QLocale::c()); }

    void runsAndWarnings()
    {
        ResultPanel panel;
        panel.resize(760, 520);
        panel.show();
        panel.showResult(parse(NoisyResult));
        QCOMPARE(text(panel, "resultRuns"), QStringLiteral("eager 80, compiled 40"));
        auto *warnings = panel.findChild<QFrame *>(QStringLiteral("resultWarnings"));
        QVERIFY(warnings && warnings->isVisible());
        QVERIFY(text(panel, "resultWarningsText").contains(QLatin1String("noisy")));
        QVERIFY(panel.summaryText().contains(QLatin1String("noisy")));
        // The chart keeps the bars readable and labels the clipped eager whisker.
        auto *chart = panel.findChild<AotStudio::Widgets::LatencyChart *>();
        QVERIFY(chart);
        QVERIFY(chart->valueRange().second < 0.2);
        QCOMPARE(chart->clippedLabels().size(), 1);
        screenshot(panel, QStringLiteral("resultpanel_noisy"));

        // A result without warnings (an older engine) hides the note again.
        panel.showResult(parse(PlainResult));
        QVERIFY(!warnings->isVisible());
        QVERIFY(!panel.summaryText().contains(QLatin1String("noisy")));
        QCOMPARE(text(panel, "resultRuns"), QStringLiteral("30")); // no per-variant counts
    }

    void unreliableVerdictGreysTheFigures()
    {
        // The issue's case: 326.94× on a machine another build kept busy.
        ResultPanel panel;
        panel.resize(760, 620);
        panel.show();
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_unreliable_cpu.json"))));
        QCOMPARE(text(panel, "resultSpeedup"), QStringLiteral("327× (95% CI 118–352)"));
        const QString verdict = text(panel, "resultVerdict");
        QVERIFY2(verdict.contains(QLatin1String("<b>unreliable</b>")), qPrintable(verdict));
        QVERIFY2(verdict.contains(QLatin1String("other runnable tasks averaged 3.1")), qPrintable(verdict));
        // One line (issue 35): the first reason, shortened, and how many more; all of them on demand.
        QVERIFY2(verdict.contains(QLatin1String("(+1 more)")), qPrintable(verdict));
        QVERIFY2(!verdict.contains(QLatin1String("run delay")) && !verdict.contains(QLatin1String("OpenMP")),
                 qPrintable(verdict));
        QVERIFY2(verdict.size() < 140, qPrintable(verdict));
        const QString details = panel.findChild<QLabel *>(QStringLiteral("resultVerdict"))->toolTip();
        QVERIFY2(details.contains(QLatin1String("eager's OpenMP threads lost the CPU")), qPrintable(details));
        QVERIFY2(details.contains(QLatin1String("run delay")), qPrintable(details));
        QVERIFY2(details.contains(QLatin1String("CPU frequency governor not readable")), qPrintable(details));
        // The engine's verdict log line (the command line's paragraph) is one line in the log too.
        const QString engineLine = fixture(QStringLiteral("compile_unreliable_cpu.json"))
                                       .value(QLatin1String("warnings"))
                                       .toArray()
                                       .at(0)
                                       .toString();
        const QString logged = AotStudio::Widgets::MeasurementText::logLine(engineLine);
        QVERIFY2(logged.startsWith(QLatin1String("measurement: unreliable: other runnable tasks averaged 3.1")),
                 qPrintable(logged));
        QVERIFY2(!logged.contains(QLatin1String("run delay")) && logged.size() < 160, qPrintable(logged));
        QCOMPARE(AotStudio::Widgets::MeasurementText::logLine(QStringLiteral("compiling x")),
                 QStringLiteral("compiling x"));
        // A Chinese reason is cut at its full-width colon.
        const auto zh = AotStudio::Client::Measurement::fromJson(QJsonObject{
            {QStringLiteral("verdict"), QStringLiteral("unreliable")},
            {QStringLiteral("reasons"), QJsonArray{QStringLiteral("超额占用：计时期间平均有 11.9 个其他可运行任务")}}});
        QCOMPARE(AotStudio::Widgets::MeasurementText::verdictSummary(zh), QStringLiteral("unreliable: 超额占用"));
        QCOMPARE(text(panel, "resultThreads"), QStringLiteral("2 (of 2 usable CPUs)"));
        QCOMPARE(text(panel, "resultSource"), QStringLiteral("Compile (its quick measurement)"));
        QVERIFY(panel.figuresGreyed());
        // The chart beside the greyed figures is greyed and marked too.
        auto *chart = panel.findChild<AotStudio::Widgets::LatencyChart *>();
        QVERIFY(chart->isGreyed());
        auto *speedup = panel.findChild<QLabel *>(QStringLiteral("resultSpeedup"));
        QVERIFY(speedup->property("greyed").toBool());
        QVERIFY(speedup->styleSheet().contains(QLatin1String("#9e9e9e")));
        // The "measurement: …" warning is the verdict line: not repeated in the warning box.
        QVERIFY(!panel.findChild<QFrame *>(QStringLiteral("resultWarnings"))->isVisible());
        const QString summary = panel.summaryText();
        QVERIFY2(summary.contains(QLatin1String("Measurement: unreliable: other runnable tasks")), qPrintable(summary));
        QVERIFY(!summary.contains(QLatin1String("<b>")));
        screenshot(panel, QStringLiteral("resultpanel_unreliable"));

        // A later result that the machine allowed: no longer greyed.
        panel.showResult(paired(2.38, "2.31", "2.44", "ok"));
        QVERIFY(!panel.figuresGreyed());
        QVERIFY(!chart->isGreyed());
        QVERIFY(!speedup->property("greyed").toBool());
        QVERIFY(speedup->styleSheet().isEmpty());
        QCOMPARE(text(panel, "resultSpeedup"), QStringLiteral("2.38× (95% CI 2.31–2.44)"));
        QVERIFY(text(panel, "resultVerdict").contains(QLatin1String("<b>ok</b>")));
    }

    void verificationPerOutput()
    {
        ResultPanel panel;
        panel.resize(760, 720);
        panel.show();
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_verify_cpu.json"))));
        QVERIFY(panel.showsVerification());
        const QString verdict = text(panel, "resultVerify");
        QVERIFY2(verdict.contains(QLatin1String("passed: 2 outputs within 0.001 of eager (largest 2.4e-07)")),
                 qPrintable(verdict));
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("resultVerify"))->property("passed").toBool());
        // A quantize scheme's verify (tolerance 1e30, only NaN fails): what was compared, never
        // "within 1e+30 of eager".
        {
            QJsonObject q = fixture(QStringLiteral("compile_verify_cpu.json"));
            QJsonObject v = q.value(QLatin1String("verify")).toObject();
            v.insert(QStringLiteral("tolerance"), 1e30);
            q.insert(QStringLiteral("verify"), v);
            q.insert(QStringLiteral("tolerance"), 1e30);
            const QString headline
                = AotStudio::Widgets::VerifyText::headline(AotStudio::Client::VerifyResult::fromJson(q));
            QVERIFY2(headline.startsWith(QLatin1String("compared: 2 outputs with the scheme's eager model, largest "
                                                       "difference 2.4e-07 (no tolerance)")),
                     qPrintable(headline));
        }
        QCOMPARE(text(panel, "resultVerifyMode"), QStringLiteral("compiled against eager"));
        QCOMPARE(text(panel, "resultVerifyInputs"), QStringLiteral("the example input and 2 seeded inputs (3 calls)"));
        VerifyOutputModel *model = panel.verifyModel();
        QCOMPARE(model->rowCount(), 2);
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model->columnCount(), int(VerifyOutputModel::ColumnCount) - 2); // no reference columns
        QCOMPARE(model->columnOf(VerifyOutputModel::CompiledReferenceColumn), -1);
        QCOMPARE(model->columnOf(VerifyOutputModel::PassedColumn), 1); // beside the name, in a narrow dock
        QCOMPARE(model->index(1, model->columnOf(VerifyOutputModel::NameColumn)).data().toString(), QStringLiteral("extra.hidden.1"));
        QCOMPARE(model->index(1, model->columnOf(VerifyOutputModel::ShapeColumn)).data().toString(), QStringLiteral("[8, 64]"));
        QCOMPARE(model->index(0, model->columnOf(VerifyOutputModel::MaxAbsErrorColumn)).data().toString(), QStringLiteral("2.4e-07"));
        QCOMPARE(model->index(0, model->columnOf(VerifyOutputModel::PassedColumn)).data().toString(), QStringLiteral("passed"));
        QVERIFY(panel.findChild<QWidget *>(QStringLiteral("resultVerifyTable"))->isVisible());
        const QString summary = panel.summaryText();
        QVERIFY2(summary.contains(QLatin1String("Verification: passed: 2 outputs")), qPrintable(summary));
        // The copied table keeps the view's columns: name, result, errors, cosine, shape, dtype.
        QVERIFY2(summary.contains(QLatin1String("extra.hidden.1\tpassed\t5.96e-08\t2.2e-06\t1.000000\t[8, 64]\tfloat32")),
                 qPrintable(summary));
        screenshot(panel, QStringLiteral("resultpanel_verify"));

        // bf16: against a float64 reference, stateful, one seeded input skipped.
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_bf16_cpu.json"))));
        QVERIFY2(text(panel, "resultVerify").contains(QLatin1String("against the float64 reference the package is off "
                                                                    "by 0.0078 and eager by 0.0071")),
                 qPrintable(text(panel, "resultVerify")));
        QCOMPARE(text(panel, "resultVerifyMode"),
                 QStringLiteral("reduced precision: compiled and eager against a float64 reference"));
        QVERIFY2(text(panel, "resultVerifyInputs").contains(QLatin1String("(3 calls); 1 seeded input skipped")),
                 qPrintable(text(panel, "resultVerifyInputs")));
        QVERIFY(text(panel, "resultVerifyStateful").contains(QLatin1String("norm.running_mean")));
        QCOMPARE(model->columnCount(), int(VerifyOutputModel::ColumnCount));
        QCOMPARE(model->index(0, model->columnOf(VerifyOutputModel::CompiledReferenceColumn)).data().toString(), QStringLiteral("0.0078"));
        QCOMPARE(model->index(0, model->columnOf(VerifyOutputModel::EagerReferenceColumn)).data().toString(), QStringLiteral("0.0071"));
        screenshot(panel, QStringLiteral("resultpanel_verify_bf16"));

        // An older result: shown as before, no verification rows or table.
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_cpu.json"))));
        QVERIFY(!panel.showsVerification());
        QVERIFY(!panel.findChild<QWidget *>(QStringLiteral("resultVerifyTable"))->isVisible());
        QVERIFY(!panel.summaryText().contains(QLatin1String("Verification")));
        QVERIFY(text(panel, "resultMaxAbsError").startsWith(QLatin1String("5.96e-08")));
    }

    void recipeAndWhy()
    {
        ResultPanel panel;
        panel.resize(760, 520);
        panel.show();
        // An older result has no recipe: no row.
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_cpu.json"))));
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("resultRecipe"))->isVisible());
        QVERIFY(!panel.summaryText().contains(QLatin1String("Recipe:")));
        // The rule chose freezing (FORMAT.md "compile result" recipe): name, who, why, and its cost.
        QJsonObject r = fixture(QStringLiteral("compile_cpu.json"));
        const QJsonObject args{
            {QStringLiteral("share"), 99.97}, {QStringLiteral("gflops"), 3.63}, {QStringLiteral("convs"), 20}};
        r.insert(QStringLiteral("recipe"),
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("freezing")},
                             {QStringLiteral("chosen_by"), QStringLiteral("rule")},
                             {QStringLiteral("reason"), QStringLiteral("English from the engine")},
                             {QStringLiteral("reason_msg"),
                              QJsonObject{{QStringLiteral("id"), QStringLiteral("recipe.rule_conv_freezing")},
                                          {QStringLiteral("args"), args}}},
                             {QStringLiteral("cost"),
                              QJsonObject{{QStringLiteral("weight_bytes"), 46796608},
                                          {QStringLiteral("reason"), QStringLiteral("weights per package")}}}});
        panel.showResult(CompileResult::fromJson(r));
        const QString shown = text(panel, "resultRecipe");
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("resultRecipe"))->isVisible());
        // The catalog's text with the args filled in, not the English the engine sent.
        QVERIFY2(shown.startsWith(QLatin1String("freezing, chosen by the rule: convolutions are 100% of the graph's "
                                                "3.63 GFLOP (20 convolutions)")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("\nCost: weights per package")), qPrintable(shown));
        QVERIFY(panel.summaryText().contains(QLatin1String("Recipe: freezing, chosen by the rule")));
        // Named by the user, no cost.
        r.insert(QStringLiteral("recipe"),
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("defaults")},
                             {QStringLiteral("chosen_by"), QStringLiteral("user")},
                             {QStringLiteral("reason"), QStringLiteral("named")}});
        panel.showResult(CompileResult::fromJson(r));
        QCOMPARE(text(panel, "resultRecipe"), QStringLiteral("defaults, as requested: named"));
    }

    void failedVerificationNamesTheOutput()
    {
        ResultPanel panel;
        const EngineError error{QStringLiteral("verify"), QStringLiteral("mismatch"),
                                QStringLiteral("compiled output 'logits' differs from eager by 0.031 (max abs) on "
                                               "seeded input 1 (seed 1001), above the tolerance 0.001"),
                                QStringLiteral("report it")};
        Client::VerifyFailure failure;
        failure.failedOutput = QStringLiteral("logits");
        panel.showError(QStringLiteral("sample:mlp"), error, failure);
        QVERIFY2(text(panel, "resultErrorText").contains(QLatin1String("1 output failed verification: logits")),
                 qPrintable(text(panel, "resultErrorText")));
        QCOMPARE(panel.failedVerifyModel()->rowCount(), 0); // no log lines: the name alone

        // Another failure clears what the previous one showed.
        panel.showError(QStringLiteral("sample:mlp"),
                        EngineError{QStringLiteral("compile"), QStringLiteral("compile_failed"), QStringLiteral("boom"), {}});
        QVERIFY(!text(panel, "resultErrorText").contains(QLatin1String("logits")));
    }

    void ratiosInWords_data()
    {
        QTest::addColumn<CompileResult>("result");
        QTest::addColumn<QString>("speedup");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("slower") << paired(0.81, "0.78", "0.84", "ok")
                                << "0.810× (95% CI 0.780–0.840): compiled is slower than eager" << "<b>ok</b>";
        QTest::newRow("no clear difference")
            << paired(0.97, "0.91", "1.04", "noisy", R"("the blocks spread over 14% of their median")")
            << "0.970× (95% CI 0.910–1.04): no clear difference (the interval holds 1)"
            << "<b>noisy</b>: the blocks spread over 14% of their median";
        // Wider than the estimate (high − low > estimate): no figure, the interval as the reason.
        QTest::newRow("interval wider than the ratio")
            << paired(2.44, "0.010", "3.14", "noisy", R"("the blocks spread over 90% of their median")")
            << "no reliable ratio: its 95% interval 0.010–3.14 is wider than the estimate 2.44×"
            << "<b>noisy</b>: the blocks spread over 90% of their median";
        QTest::newRow("too few blocks") << paired(1.5, "null", "null", "unknown", R"("/proc/stat is not readable")")
                                        << "1.50× (no interval: 2 blocks)"
                                        << "<b>unknown</b>: the machine load could not be read (/proc/stat is not readable)";
        QTest::newRow("before paired timing") << parse(PlainResult) << "2.38× (no interval)"
                                              << "<b>not assessed</b>: the result predates machine verdicts";
    }

    void ratiosInWords()
    {
        QFETCH(CompileResult, result);
        QFETCH(QString, speedup);
        QFETCH(QString, verdict);
        ResultPanel panel;
        panel.showResult(result);
        QCOMPARE(text(panel, "resultSpeedup"), speedup);
        QVERIFY2(text(panel, "resultVerdict").contains(verdict), qPrintable(text(panel, "resultVerdict")));
        QVERIFY(!panel.figuresGreyed());
    }

    void laterProfileSupersedesTheCompile()
    {
        ResultPanel panel;
        panel.resize(760, 620);
        panel.show();
        panel.showFigure(Client::SpeedupFigure::fromProfile(fixture(QStringLiteral("profile_paired_cpu.json"))));
        QVERIFY(!panel.hasResult()); // nothing to supersede yet
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_unreliable_cpu.json"))));
        panel.showFigure(Client::SpeedupFigure::fromProfile(fixture(QStringLiteral("profile_paired_cpu.json"))));
        QCOMPARE(text(panel, "resultSpeedup"), QStringLiteral("2.38× (95% CI 2.31–2.44)"));
        QCOMPARE(text(panel, "resultEager"), QStringLiteral("0.081 ms (p10 0.078, p90 0.090)"));
        QCOMPARE(text(panel, "resultRuns"), QStringLiteral("eager 200, compiled 200"));
        const QString source = text(panel, "resultSource");
        QVERIFY2(source.startsWith(QLatin1String("Profile at ")), qPrintable(source));
        QVERIFY(source.contains(QLatin1String("supersedes the compile's quick measurement")));
        QVERIFY(text(panel, "resultVerdict").contains(QLatin1String("<b>noisy</b>")));
        QVERIFY(!panel.figuresGreyed()); // noisy is a warning, not greyed
        auto *chart = panel.findChild<AotStudio::Widgets::LatencyChart *>();
        QVERIFY(chart->valueRange().second < 0.2); // the profile's medians, not the compile's 8 ms
        screenshot(panel, QStringLiteral("resultpanel_superseded"));
        // A new compile shows its own figure again.
        panel.showResult(parse(PlainResult));
        QCOMPARE(text(panel, "resultSource"), QStringLiteral("Compile (its quick measurement)"));
    }

    void bundleColdStartPhases()
    {
        ResultPanel panel;
        panel.resize(760, 720);
        panel.show();
        panel.showResult(parse(PlainResult));
        auto e = Client::ExportResult::fromJson(QJsonDocument::fromJson(R"({"bundle":"/b","zip":"/b.zip",
            "buckets":[{"name":"batch8","batch":8}],"cold_start":{"bundle_ms":310,"eager_ms":2900,"ratio":9.35,"runs":5,
            "ratio_interval":{"estimate":9.35,"low":8.9,"high":9.8,"blocks":5},
            "phases":{"to_main_ms":{"median_ms":120,"low_ms":112,"high_ms":131,"runs":5},"verify_ms":null,
                      "load_ms":{"median_ms":140,"low_ms":128,"high_ms":152,"runs":5},
                      "first_run_ms":{"median_ms":22,"low_ms":19,"high_ms":26,"runs":5}}}})").object());
        panel.showBundle(e);
        QCOMPARE(text(panel, "resultBundleColdStart"),
                 QStringLiteral("bundle 310 ms vs eager 2900 ms: eager / bundle 9.35× (95% CI 8.90–9.80)"));
        QCOMPARE(text(panel, "resultBundlePhases"),
                 QStringLiteral("spawn to main 120.0 ms (95% CI 112.0–131.0); load 140.0 ms (95% CI 128.0–152.0); "
                                "first run 22.0 ms (95% CI 19.0–26.0)"));
        screenshot(panel, QStringLiteral("resultpanel_bundle_phases"));

        // An older export: aoti_run_ms, no interval, no phases.
        e = Client::ExportResult::fromJson(QJsonDocument::fromJson(R"({"bundle":"/b","cold_start":{
            "aoti_run_ms":310,"eager_ms":2900,"ratio":9.35,"runs":3}})").object());
        panel.showBundle(e);
        QCOMPARE(text(panel, "resultBundleColdStart"),
                 QStringLiteral("bundle 310 ms vs eager 2900 ms: eager / bundle 9.35× (no interval)"));
        QCOMPARE(text(panel, "resultBundlePhases"), QStringLiteral("not measured (an older result)"));
    }

    // Issue 37: the bundle's compatibility key in words and the export's preflight against the
    // default GPU profile, with what failed named and every check's sentence in the tooltip.
    void bundleBuiltForAndPreflight()
    {
        ResultPanel panel;
        panel.resize(760, 720);
        panel.show();
        panel.showResult(parse(PlainResult));
        auto e = Client::ExportResult::fromJson(
            QJsonDocument::fromJson(R"({"bundle":"/b","buckets":[{"name":"batch1","batch":1}],
            "compat":{"key":"torch2.14-cu13.0-sm90-bf16-dynamic-1a2b3c4d","torch":"2.14.1+cu130","cuda":"13.0","device":"cuda",
                      "cuda_archs":{"sass":[90],"ptx":[]},"precision":"bf16","shape_mode":"dynamic","runtime":"libtorch"},
            "preflight":{"profile":{"name":"rtx-pro-6000-half","description":"half an RTX Pro 6000"},"verdict":"refused",
                         "checks":[{"name":"architectures","status":"fail","summary":"no SASS or PTX for sm_120"},
                                   {"name":"torch","status":"fail","summary":"built with torch 2.14"},
                                   {"name":"memory","status":"ok","summary":"fits: 3.0 GiB of 47.8 GiB"}]}})")
                .object());
        panel.showBundle(e);
        QCOMPARE(text(panel, "resultBundleBuiltFor"),
                 QStringLiteral("torch 2.14, CUDA 13.0, sm_90, no PTX, bf16, dynamic shapes"));
        const QString preflight = text(panel, "resultBundlePreflight");
        QVERIFY2(preflight.contains(QLatin1String("rtx-pro-6000-half"))
                     && preflight.contains(QLatin1String("does not run there"))
                     && preflight.contains(QLatin1String("GPU architectures"))
                     && preflight.contains(QLatin1String("torch version"))
                     && !preflight.contains(QLatin1String("memory")), // only what did not pass is listed
                 qPrintable(preflight));
        const QString tip = panel.findChild<QLabel *>(QStringLiteral("resultBundlePreflight"))->toolTip();
        QVERIFY2(tip.contains(QLatin1String("fits: 3.0 GiB"))
                     && tip.contains(QLatin1String("no SASS or PTX for sm_120")),
                 qPrintable(tip));
        screenshot(panel, QStringLiteral("resultpanel_bundle_preflight"));

        // An engine from before the key.
        panel.showBundle(Client::ExportResult::fromJson(QJsonDocument::fromJson(R"({"bundle":"/b"})").object()));
        QCOMPARE(text(panel, "resultBundleBuiltFor"), QStringLiteral("not recorded (an older engine)"));
    }

    void numbersUseLowercaseExponent_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::newRow("C") << "C";
        QTest::newRow("en") << "en";
        QTest::newRow("zh_CN") << "zh_CN";
    }

    void numbersUseLowercaseExponent()
    {
        QFETCH(QString, locale);
        QLocale::setDefault(QLocale(locale));
        ResultPanel panel;
        panel.showResult(parse(NoisyResult));
        const QString error = text(panel, "resultMaxAbsError");
        QVERIFY2(error.startsWith(QLatin1String("5.96e-08")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('E')), qPrintable(error));
    }

    void regionalCompile()
    {
        // Recorded: repeated_blocks_factory.py (4 × Block) with --regional --compare-whole.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "1,120"
        ResultPanel panel;
        panel.resize(760, 900);
        panel.show();
        const CompileResult r = CompileResult::fromJson(fixture(QStringLiteral("compile_regional_cpu.json")));
        QVERIFY(r.isRegional());
        panel.showResult(r);
        QVERIFY(panel.showsRegional());
        QVERIFY(panel.findChild<QWidget *>(QStringLiteral("resultRegionalTable"))->isVisible());
        QCOMPARE(text(panel, "resultTitle"),
                 QStringLiteral("Compiled tests/fixtures/repeated_blocks_factory.py:make regionally"));
        QCOMPARE(text(panel, "resultPackage"),
                 QStringLiteral("none of the whole model: one per block class in /OUT/blocks"));
        // The compiled side is named for what it is.
        const auto labelTexts = [&panel] {
            QStringList texts;
            for (const QLabel *l : panel.findChildren<QLabel *>())
                texts << l->text();
            return texts;
        };
        QVERIFY(labelTexts().contains(QStringLiteral("Regional median:")));
        QVERIFY(!labelTexts().contains(QStringLiteral("Compiled median:")));
        // The regional verify's outputs carry `passed` as a whole compile's do.
        VerifyOutputModel *outputs = panel.verifyModel();
        QCOMPARE(outputs->rowCount(), 1);
        QCOMPARE(outputs->index(0, outputs->columnOf(VerifyOutputModel::PassedColumn)).data().toString(),
                 QStringLiteral("passed"));

        QStandardItemModel *blocks = panel.regionalBlocksModel();
        QAbstractItemModelTester tester(blocks, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(blocks->rowCount(), 1);
        QCOMPARE(blocks->columnCount(), 5);
        QCOMPARE(blocks->index(0, 0).data().toString(), QStringLiteral("Block"));
        QCOMPARE(blocks->index(0, 1).data().toString(), QStringLiteral("4"));
        QCOMPARE(blocks->index(0, 1).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("blocks.0, blocks.1, blocks.2, blocks.3"));
        QCOMPARE(blocks->index(0, 2).data().toString(), QStringLiteral("1,120"));
        QCOMPARE(blocks->index(0, 3).data().toString(), QStringLiteral("18.5")); // export 0.06 s + compile 18.41 s
        QCOMPARE(blocks->index(0, 4).data().toString(), QLocale().formattedDataSize(1599299));

        QCOMPARE(text(panel, "resultRegionalBlocks"),
                 QStringLiteral("1 block class, 4 instances, holding 91% of the parameters"));
        QCOMPARE(
            text(panel, "resultRegionalCompileTime"),
            QStringLiteral("regional 18.5 s, whole 68.8 s: regional / whole 0.27× (one compile each: no interval)"));
        QCOMPARE(text(panel, "resultRegionalLatency"),
                 QStringLiteral("eager 168.076 ms, regional 68.886 ms, whole 71.894 ms"));
        QCOMPARE(text(panel, "resultRegionalVsEager"), QStringLiteral("2.44× (95% CI 2.33–2.59)"));
        // 0.997–1.12 holds 1: said in words, not left to be read as "faster".
        QCOMPARE(text(panel, "resultRegionalVsWhole"),
                 QStringLiteral("1.04× (95% CI 0.997–1.12): no clear difference (the interval holds 1)"));
        // Recorded on a busy machine: the verdict is unreliable, so the timings are greyed, the
        // compile times and sizes are not.
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("resultRegionalVsEager"))->property("greyed").toBool());
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("resultRegionalCompileTime"))->property("greyed").toBool());
        QVERIFY(text(panel, "resultRegionalSize").startsWith(QLatin1String("blocks ")));
        QVERIFY(text(panel, "resultRegionalSize").contains(QLatin1String("(no weights), whole")));
        // The compile's own rows show the regional model against eager.
        QCOMPARE(text(panel, "resultSpeedup"), QStringLiteral("2.44× (95% CI 2.33–2.59)"));
        const QString summary = panel.summaryText();
        QVERIFY2(summary.contains(QLatin1String("Regional compile")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("Block\t4\t1,120\t18.5")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Regional vs whole: 1.04×")), qPrintable(summary));
        screenshot(panel, QStringLiteral("resultpanel_regional"));

        // Without the whole model: no "vs whole" row, compile time of the blocks alone.
        QJsonObject blocksOnly = fixture(QStringLiteral("compile_regional_cpu.json"));
        blocksOnly.insert(QLatin1String("whole"), QJsonValue::Null);
        QJsonObject regional = blocksOnly.value(QLatin1String("regional")).toObject();
        regional.remove(QLatin1String("compile_time_ratio"));
        blocksOnly.insert(QLatin1String("regional"), regional);
        panel.showResult(CompileResult::fromJson(blocksOnly));
        QVERIFY(panel.showsRegional());
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("resultRegionalVsWhole"))->isVisibleTo(&panel));
        QCOMPARE(text(panel, "resultRegionalCompileTime"), QStringLiteral("regional 18.5 s"));
        QCOMPARE(text(panel, "resultRegionalLatency"), QStringLiteral("eager 168.076 ms, regional 68.886 ms"));
        QVERIFY(!panel.summaryText().contains(QLatin1String("Regional vs whole")));

        // A field of the wrong type: the section says why instead of showing made-up numbers.
        regional.insert(QLatin1String("compile_seconds"), QStringLiteral("18"));
        blocksOnly.insert(QLatin1String("regional"), regional);
        panel.showResult(CompileResult::fromJson(blocksOnly));
        QVERIFY(panel.showsRegional());
        QVERIFY2(
            text(panel, "resultRegionalBlocks").contains(QLatin1String("regional.compile_seconds: expected a number")),
            qPrintable(text(panel, "resultRegionalBlocks")));
        QVERIFY(!panel.findChild<QWidget *>(QStringLiteral("resultRegionalTable"))->isVisibleTo(&panel));

        // A whole compile hides the section again.
        panel.showResult(CompileResult::fromJson(fixture(QStringLiteral("compile_cpu.json"))));
        QVERIFY(!panel.showsRegional());
        QCOMPARE(blocks->rowCount(), 0);
        QVERIFY(!panel.summaryText().contains(QLatin1String("Regional compile")));
        QVERIFY(text(panel, "resultPackage").endsWith(QLatin1String("model.pt2")));
        QVERIFY(labelTexts().contains(QStringLiteral("Compiled median:")));
        QVERIFY(!labelTexts().contains(QStringLiteral("Regional median:")));
    }

    void errorNamesTheStage()
    {
        ResultPanel panel;
        panel.showError(QStringLiteral("sample:mlp"),
                        EngineError{QStringLiteral("export"), QStringLiteral("export_failed"),
                                    QStringLiteral("boom"), QString()});
        QString shown = text(panel, "resultErrorText");
        QVERIFY2(shown.contains(QLatin1String("<i>Exporting the graph</i>")), qPrintable(shown));
        QVERIFY(shown.contains(QLatin1String("export_failed")));

        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/aotstudio_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
        panel.showError(QStringLiteral("sample:mlp"),
                        EngineError{QStringLiteral("load_package"), QStringLiteral("load_failed"),
                                    QStringLiteral("boom"), QString()});
        shown = text(panel, "resultErrorText");
        QCoreApplication::removeTranslator(&translator);
        QVERIFY2(!shown.contains(QLatin1String("load_package")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("加载")), qPrintable(shown));
    }

    // Issue 35 item 3: a failure in the user's code shows the user's frames (not torch's, not the
    // studio's) and the source around the failing line, the line marked; a syntax error its column.
    void errorShowsTheUsersCode()
    {
        ResultPanel panel;
        panel.resize(760, 620);
        panel.show();
        const QJsonObject where
            = QJsonDocument::fromJson(
                  json("{ "
                       "'frames': [{'file': '/m/net.py', 'line': 10, 'function': 'factory', 'code': 'helper(3)'}, "
                       "{'file': '/m/net.py', 'line': 6, 'function': 'helper', 'code': 'raise ValueError(n)'}], "
                       "'excerpt': {'file': '/m/net.py', 'line': 6, 'first': 4, "
                       "'lines': ['def helper(n):', '    x = torch.zeros(n)', '    raise ValueError(n)', '', 'def "
                       "factory():']} "
                       "} "))
                  .object();
        QVERIFY(!where.isEmpty());
        EngineError error{QStringLiteral("load"), QStringLiteral("model_error"),
                          QStringLiteral("factory 'factory' in '/m/net.py' raised ValueError: 3 at /m/net.py:6"),
                          QStringLiteral("fix the factory; it must return (model, example_inputs)"), where};
        panel.showError(QStringLiteral("/m/net.py:factory"), error);
        const QString shown = text(panel, "resultErrorText");
        QVERIFY2(shown.contains(QLatin1String("In your code")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("net.py:10, in factory: <code>helper(3)</code>")), qPrintable(shown));
        QVERIFY2(shown.indexOf(QLatin1String("in factory")) < shown.indexOf(QLatin1String("in helper")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("/m/net.py, line 6:")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("<b>→ 6     raise ValueError(n)</b>")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("  5     x = torch.zeros(n)")), qPrintable(shown));
        QVERIFY(!panel.findChild<QFrame *>(QStringLiteral("resultError"))->property("cancelled").toBool());
        screenshot(panel, QStringLiteral("resultpanel_user_error"));

        // A syntax error: its one frame and a caret under the column.
        error.where
            = QJsonDocument::fromJson(json("{ "
                                           "'frames': [{'file': '/m/broken.py', 'line': 3, 'function': '<module>', "
                                           "'code': 'def factory(:'}], "
                                           "'excerpt': {'file': '/m/broken.py', 'line': 3, 'first': 1, 'column': 13, "
                                           "'lines': ['import torch', '', 'def factory(:', '    return 1']} "
                                           "} "))
                  .object();
        panel.showError(QStringLiteral("/m/broken.py:factory"), error);
        const QString syntax = text(panel, "resultErrorText");
        QVERIFY2(syntax.contains(QStringLiteral("<b>→ 3 def factory(:</b>\n") + QString(16, QLatin1Char(' '))
                                 + QLatin1Char('^')),
                 qPrintable(syntax));
        // No `where` (an engine error, an older engine): nothing of it.
        panel.showError(QStringLiteral("sample:mlp"),
                        EngineError{QStringLiteral("compile"), QStringLiteral("compile_failed"), QStringLiteral("boom"),
                                    QString()});
        QVERIFY(!text(panel, "resultErrorText").contains(QLatin1String("In your code")));
        // A cancel is not drawn as a failure.
        panel.showError(QStringLiteral("sample:mlp"),
                        EngineError{QStringLiteral("compile"), QStringLiteral("cancelled"), QStringLiteral("cancelled"),
                                    QString()});
        QVERIFY(panel.findChild<QFrame *>(QStringLiteral("resultError"))->property("cancelled").toBool());
    }
};

QTEST_MAIN(TestResultPanel)
#include "tst_resultpanel.moc"
