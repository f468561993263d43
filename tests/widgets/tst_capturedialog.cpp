// SPDX-License-Identifier: GPL-3.0-or-later
// CaptureDialog (Model → Capture From Script…, issue 39) against the fake engine, whose `capture`
// answer is a real capture's result (tests/fixtures/results/capture_traffic.json: 300 calls of
//     class Net(nn.Module): emb = Embedding(50, 8); forward(ids, mask) = (emb(ids) * mask[..., None]).sum(1)
// with the batch drawn from 1, 2, 3, 4, 4, 5, 8, 8, 8, 12, 16, 16 and the length from 8, 16, ..., 64):
// the request the form makes, the live counts, Cancel, the histograms with the proposed range and
// buckets, edits, and the compile and export requests it starts. Tier gui, about 3 s.
#include "widgets/capturedialog.h"
#include "widgets/capturehistogram.h"
#include "widgets/jobcontroller.h"
#include "widgets/selectionhub.h"
#include "widgets/sessioncontroller.h"

#include "client/engineclient.h"

#include <QCheckBox>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <qcustomplot.h>

using AotStudio::Widgets::CaptureDialog;
using AotStudio::Widgets::CaptureHistogram;
using AotStudio::Widgets::JobController;
using AotStudio::Widgets::SelectionHub;
using AotStudio::Widgets::SessionController;

namespace {

/// A controller as MainWindow sets it up, with every request it sends kept.
struct Fixture {
    QWidget window;
    SelectionHub hub;
    SessionController sessions{&hub, &window};
    JobController jobs{&sessions, &window};
    JobController::Inputs inputs;
    QList<QJsonObject> sent;

    Fixture()
    {
        sessions.showLiveSession();
        jobs.setInputs([this] { return inputs; });
        QObject::connect(jobs.client(), &AotStudio::Client::EngineClient::requestSent,
                         [this](const QJsonObject &r) { sent.append(r); });
    }
    QList<QJsonObject> sentOf(const QString &type) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &r : sent)
            if (r.value(QLatin1String("type")).toString() == type)
                out.append(r);
        return out;
    }
    CaptureDialog *open()
    {
        jobs.startEngine();
        if (!QTest::qWaitFor([this] { return jobs.client()->isReady(); }, 10000))
            return nullptr;
        jobs.showCaptureDialog();
        for (CaptureDialog *d : window.findChildren<CaptureDialog *>())
            if (d->isVisible())
                return d;
        return nullptr;
    }
};

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &x : v.toArray())
        out << x.toString();
    return out;
}

} // namespace

class TestCaptureDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_out;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_capturedialog"));
        QSettings().clear();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QVERIFY(m_out.isValid());
    }

    void recordShowEditAndCompile()
    {
        Fixture f;
        f.inputs = {m_out.filePath(QStringLiteral("net.py:make")), QStringLiteral("cpu"), m_out.path()};
        CaptureDialog *dialog = f.open();
        QVERIFY(dialog);
        // An incomplete form says what is missing and sends nothing.
        dialog->findChild<QPushButton *>(QStringLiteral("captureRecord"))->click();
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("captureError"))->text().contains(QStringLiteral("script")));
        QVERIFY(f.sentOf(QStringLiteral("capture")).isEmpty());
        QVERIFY(!dialog->findChild<QPushButton *>(QStringLiteral("captureCompile"))->isEnabled());

        dialog->setScript(m_out.filePath(QStringLiteral("serve.py")), QStringLiteral("model"));
        dialog->findChild<QLineEdit *>(QStringLiteral("captureArgs"))->setText(QStringLiteral("--port 8000 \"a b\""));
        dialog->findChild<QSpinBox *>(QStringLiteral("captureKeep"))->setValue(3);
        dialog->findChild<QLineEdit *>(QStringLiteral("captureOut"))->setText(m_out.filePath(QStringLiteral("cap")));
        QStringList counts;
        auto *count = dialog->findChild<QLabel *>(QStringLiteral("captureCount"));
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            if (counts.isEmpty() || counts.last() != count->text())
                counts << count->text();
        });
        poll.start(5);
        dialog->record();
        QVERIFY(QTest::qWaitFor([dialog] { return dialog->requestId() == 0; }, 10000));
        poll.stop();
        const auto asked = f.sentOf(QStringLiteral("capture"));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked[0].value(QLatin1String("module")).toString(), QStringLiteral("model"));
        QCOMPARE(strings(asked[0].value(QLatin1String("args"))), (QStringList{"--port", "8000", "a b"}));
        QCOMPARE(asked[0].value(QLatin1String("keep_inputs")).toInt(), 3);
        QVERIFY(!asked[0].contains(QLatin1String("calls"))); // "all"
        // Live counts arrived while the script ran.
        // ("call(s)" without the English plural forms loaded: the count is what matters.)
        QVERIFY2(!counts.filter(QStringLiteral("100 call")).isEmpty(), qPrintable(counts.join(QLatin1Char('|'))));
        QVERIFY2(count->text().startsWith(QStringLiteral("300 call")), qPrintable(count->text()));

        // One histogram per dynamic dimension, the recorded sizes as bars, the range drawn.
        const auto hists = dialog->histograms();
        QCOMPARE(hists.size(), 2);
        CaptureHistogram *batch = hists.at(0);
        QCOMPARE(batch->name(), QStringLiteral("batch"));
        QCOMPARE(batch->histogram().value(1), 27LL); // size 1 in 27 calls
        QCOMPARE(batch->rangeMin(), 2LL); // export specialises 1: the range starts at 2
        QCOMPARE(batch->rangeMax(), 16LL);
        QCOMPARE(batch->callsOutsideRange(), 27LL);
        QCOMPARE(batch->buckets(), (QList<long long>{4, 8, 16}));
        long long calls = 0;
        for (auto it = batch->histogram().begin(); it != batch->histogram().end(); ++it)
            calls += it.value();
        QCOMPARE(calls, 300LL);
        // The bucket shares the bundle's own policy gives equal the proposal's.
        const QString shares = dialog->bucketSummary();
        QVERIFY2(shares.contains(QStringLiteral("batch4: 42.0% of the calls, padding waste 33.7%")),
                 qPrintable(shares));
        QVERIFY2(shares.contains(QStringLiteral("batch16: 24.3% of the calls")), qPrintable(shares));

        // Edits: the batch from 1 is refused by export, so a user may narrow it; the buckets follow.
        dialog->findChild<QSpinBox *>(QStringLiteral("captureMax_batch"))->setValue(12);
        QCOMPARE(batch->rangeMax(), 12LL);
        QVERIFY(dialog->dynamic().contains(QStringLiteral("ids:0:2:12=batch")));
        QVERIFY(dialog->dynamic().contains(QStringLiteral("mask:0:2:12=batch")));
        QVERIFY(dialog->dynamic().contains(QStringLiteral("ids:1:8:64=ids_1")));
        dialog->findChild<QLineEdit *>(QStringLiteral("captureBuckets"))->setText(QStringLiteral("8, 2"));
        QCOMPARE(dialog->buckets(), (QList<int>{2, 8}));
        QCOMPARE(batch->buckets(), (QList<long long>{2, 8}));
        QVERIFY2(dialog->bucketSummary().contains(QStringLiteral("no bucket for 73 call")),
                 qPrintable(dialog->bucketSummary()));
        dialog->findChild<QCheckBox *>(QStringLiteral("capturePadSafe"))->setChecked(false);
        QVERIFY2(dialog->bucketSummary().contains(QStringLiteral("padding waste 0.0%")),
                 qPrintable(dialog->bucketSummary()));

        QVERIFY(QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR)));
        const QString png
            = QDir(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR)).filePath(QStringLiteral("capture_dialog.png"));
        QVERIFY(dialog->grab().save(png));
        qInfo("screenshot: %s", qPrintable(png));

        // Compile from Capture: the window's model, the edited ranges, verified on the record.
        dialog->findChild<QPushButton *>(QStringLiteral("captureCompile"))->click();
        const auto compiles = f.sentOf(QStringLiteral("compile"));
        QCOMPARE(compiles.size(), 1);
        QCOMPARE(compiles[0].value(QLatin1String("model")).toString(), f.inputs.model);
        QCOMPARE(compiles[0].value(QLatin1String("from_capture")).toString(), m_out.filePath(QStringLiteral("cap")));
        QVERIFY(strings(compiles[0].value(QLatin1String("dynamic"))).contains(QStringLiteral("ids:0:2:12=batch")));
        QVERIFY(QTest::qWaitFor([&f] { return !f.jobs.isBusy(); }, 20000));
    }

    void exportFromCapture()
    {
        Fixture f;
        f.inputs = {m_out.filePath(QStringLiteral("net.py:make")), QStringLiteral("cpu"), m_out.path()};
        CaptureDialog *dialog = f.open();
        QVERIFY(dialog);
        dialog->setScript(m_out.filePath(QStringLiteral("serve.py")), QStringLiteral("model"));
        dialog->record();
        QVERIFY(QTest::qWaitFor([dialog] { return dialog->requestId() == 0; }, 10000));
        dialog->findChild<QPushButton *>(QStringLiteral("captureExport"))->click();
        const auto exports = f.sentOf(QStringLiteral("export"));
        QCOMPARE(exports.size(), 1);
        QCOMPARE(exports[0].value(QLatin1String("buckets")).toArray(), (QJsonArray{4, 8, 16}));
        QVERIFY(exports[0].value(QLatin1String("pad_safe")).toBool());
        QVERIFY(!exports[0].value(QLatin1String("from_capture")).toString().isEmpty());
        QCOMPARE(strings(exports[0].value(QLatin1String("dynamic"))),
                 (QStringList{"ids:1:8:64=ids_1", "mask:1:8:64=ids_1"}));
        QVERIFY(QTest::qWaitFor([&f] { return !f.jobs.isBusy(); }, 20000));
    }

    void cancelKeepsTheRecord()
    {
        Fixture f;
        f.inputs = {QStringLiteral("sample:mlp"), QStringLiteral("cpu"), m_out.path()};
        CaptureDialog *dialog = f.open();
        QVERIFY(dialog);
        dialog->setScript(m_out.filePath(QStringLiteral("slow.py")), QStringLiteral("Net"), true);
        dialog->record();
        QCOMPARE(f.sentOf(QStringLiteral("capture")).at(0).value(QLatin1String("module_class")).toString(),
                 QStringLiteral("Net"));
        auto *count = dialog->findChild<QLabel *>(QStringLiteral("captureCount"));
        QVERIFY(QTest::qWaitFor([count] { return count->text().contains(QStringLiteral("recorded")); }, 10000));
        auto *cancel = dialog->findChild<QPushButton *>(QStringLiteral("captureCancel"));
        QVERIFY(cancel->isVisible());
        cancel->click();
        QCOMPARE(dialog->requestId(), 0);
        QVERIFY2(count->text().startsWith(QStringLiteral("Cancelled")), qPrintable(count->text()));
        QVERIFY(dialog->histograms().isEmpty());
        // The engine's answer to the cancel (its error) changes nothing: the request is no longer the dialog's.
        QTest::qWait(300);
        QVERIFY(dialog->histograms().isEmpty());
        QVERIFY(dialog->findChild<QPushButton *>(QStringLiteral("captureRecord"))->isEnabled());
    }
};

QTEST_MAIN(TestCaptureDialog)
#include "tst_capturedialog.moc"
