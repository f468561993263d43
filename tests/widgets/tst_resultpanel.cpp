// SPDX-License-Identifier: GPL-3.0-or-later
// ResultPanel on hand-made results: run counts, warnings, number format, stage names.
#include "widgets/latencychart.h"
#include "widgets/resultpanel.h"

#include <QDir>
#include <QFrame>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QTest>
#include <QTranslator>

using AotStudio::Client::CompileResult;
using AotStudio::Client::EngineError;
using AotStudio::Widgets::ResultPanel;

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

QString text(const QWidget &w, const char *name)
{
    auto *label = w.findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<missing %1>").arg(QLatin1String(name));
}
} // namespace

class TestResultPanel : public QObject
{
    Q_OBJECT

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
};

QTEST_MAIN(TestResultPanel)
#include "tst_resultpanel.moc"
