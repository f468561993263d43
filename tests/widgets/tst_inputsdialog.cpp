// SPDX-License-Identifier: GPL-3.0-or-later
// InputsDialog (Model → Inputs…) against the fake engine's canned `inputs` answers
// (tests/fixtures/fake_engine.py FAKE_INPUTS): the table it builds, editing shapes and marking
// dimensions dynamic, what OK leaves in RunSettings and what the next requests carry.
#include "widgets/inputsdialog.h"
#include "widgets/jobcontroller.h"
#include "widgets/selectionhub.h"
#include "widgets/sessioncontroller.h"

#include "client/engineclient.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using AotStudio::Widgets::InputsDialog;
using AotStudio::Widgets::JobController;
using AotStudio::Widgets::RunSettings;
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
    bool startEngine()
    {
        jobs.startEngine();
        return QTest::qWaitFor([this] { return jobs.client()->isReady(); }, 10000);
    }
    QList<QJsonObject> sentOf(const QString &type) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &r : sent)
            if (r.value(QLatin1String("type")).toString() == type)
                out.append(r);
        return out;
    }
    /// The dialog on screen (one closed earlier may wait for its deferred delete).
    InputsDialog *shownDialog() const
    {
        for (InputsDialog *d : window.findChildren<InputsDialog *>())
            if (d->isVisible())
                return d;
        return nullptr;
    }
    /// Opens the dialog through the controller and waits for the engine's answer.
    InputsDialog *openDialog()
    {
        jobs.showInputsDialog();
        InputsDialog *dialog = shownDialog();
        if (!dialog)
            return nullptr;
        if (!QTest::qWaitFor([dialog] { return dialog->requestId() == 0; }, 10000))
            return nullptr;
        return dialog;
    }
};

template<typename W>
W *cell(InputsDialog *dialog, int row, int column)
{
    return qobject_cast<W *>(dialog->findChild<QTableWidget *>(QStringLiteral("inputsTable"))->cellWidget(row, column));
}

QJsonArray sizes(std::initializer_list<int> values)
{
    QJsonArray a;
    for (int v : values)
        a.append(v);
    return a;
}

} // namespace

class TestInputsDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_out;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_inputsdialog"));
        QSettings().clear();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QVERIFY(m_out.isValid());
    }

    void editShapesAndDynamicThenOk()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        f.inputs = {QStringLiteral("sample:minilm"), QStringLiteral("cpu"), m_out.path()};
        InputsDialog *dialog = f.openDialog();
        QVERIFY(dialog);

        // The request: the toolbar's model and device, the run settings' dtype, no shapes yet.
        const auto asked = f.sentOf(QStringLiteral("inputs"));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked[0].value(QLatin1String("model")).toString(), QStringLiteral("sample:minilm"));
        QCOMPARE(asked[0].value(QLatin1String("device")).toString(), QStringLiteral("cpu"));
        QVERIFY(!asked[0].contains(QLatin1String("shapes")));

        // One row per dimension: input_ids 0, 1, attention_mask 0, 1.
        auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("inputsTable"));
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->item(0, InputsDialog::InputColumn)->text(), QStringLiteral("input_ids"));
        QCOMPARE(table->item(2, InputsDialog::InputColumn)->text(), QStringLiteral("attention_mask"));
        QVERIFY(table->item(0, InputsDialog::TypeColumn)->text().contains(QStringLiteral("int64")));
        QCOMPARE(cell<QSpinBox>(dialog, 1, InputsDialog::SizeColumn)->value(), 23);
        QCOMPARE(dialog->findChild<QLabel *>(QStringLiteral("inputsSignature"))->text(),
                 QStringLiteral("forward(input_ids, attention_mask)"));
        QVERIFY(
            dialog->findChild<QLabel *>(QStringLiteral("inputsOutputs"))->text().contains(QStringLiteral("[4, 384]")));
        QVERIFY(dialog->shapes().isEmpty()); // nothing edited yet
        QVERIFY(dialog->dynamic().isEmpty());

        // The sequence length of both inputs to 16; the batch of both dynamic (tied as "batch").
        cell<QSpinBox>(dialog, 1, InputsDialog::SizeColumn)->setValue(16);
        cell<QSpinBox>(dialog, 3, InputsDialog::SizeColumn)->setValue(16);
        cell<QCheckBox>(dialog, 0, InputsDialog::DynamicColumn)->setChecked(true);
        cell<QCheckBox>(dialog, 2, InputsDialog::DynamicColumn)->setChecked(true);
        QCOMPARE(cell<QLineEdit>(dialog, 0, InputsDialog::TieColumn)->text(), QStringLiteral("batch"));
        QCOMPARE(cell<QSpinBox>(dialog, 0, InputsDialog::MinColumn)->value(), 1);
        QCOMPARE(cell<QSpinBox>(dialog, 0, InputsDialog::MaxColumn)->value(), 8); // 2 × the size 4
        QVERIFY(cell<QSpinBox>(dialog, 0, InputsDialog::MaxColumn)->isEnabled());
        QVERIFY(!cell<QSpinBox>(dialog, 1, InputsDialog::MaxColumn)->isEnabled()); // not dynamic
        QCOMPARE(cell<QSpinBox>(dialog, 2, InputsDialog::MaxColumn)->value(), 8);
        cell<QSpinBox>(dialog, 0, InputsDialog::MaxColumn)->setValue(32);
        QCOMPARE(cell<QSpinBox>(dialog, 2, InputsDialog::MaxColumn)->value(), 32); // one name, one range
        // A dimension given a name of its own keeps its range apart.
        cell<QLineEdit>(dialog, 2, InputsDialog::TieColumn)->setText(QStringLiteral("rows"));
        cell<QSpinBox>(dialog, 2, InputsDialog::MaxColumn)->setValue(12);
        QCOMPARE(cell<QSpinBox>(dialog, 0, InputsDialog::MaxColumn)->value(), 32);
        QCOMPARE(dialog->dynamic().at(1), QStringLiteral("attention_mask:0:1:12=rows"));
        cell<QLineEdit>(dialog, 2, InputsDialog::TieColumn)->setText(QStringLiteral("batch"));
        cell<QSpinBox>(dialog, 0, InputsDialog::MaxColumn)->setValue(31);
        cell<QSpinBox>(dialog, 0, InputsDialog::MaxColumn)->setValue(32);
        QCOMPARE(cell<QSpinBox>(dialog, 2, InputsDialog::MaxColumn)->value(), 32);

        // Check Shapes asks again with the edited shapes; the model's outputs at them come back.
        dialog->findChild<QPushButton *>(QStringLiteral("checkShapesButton"))->click();
        QVERIFY(QTest::qWaitFor([dialog] { return dialog->requestId() == 0; }, 10000));
        const auto checked = f.sentOf(QStringLiteral("inputs"));
        QCOMPARE(checked.size(), 2);
        const QJsonObject expected{{QStringLiteral("input_ids"), sizes({4, 16})},
                                   {QStringLiteral("attention_mask"), sizes({4, 16})}};
        QCOMPARE(checked[1].value(QLatin1String("shapes")).toObject(), expected);
        QVERIFY(
            dialog->findChild<QLabel *>(QStringLiteral("inputsOutputs"))->text().contains(QStringLiteral("edited")));
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("inputsError"))->isHidden());

        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        const QString png = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/inputs_dialog.png");
        QVERIFY(dialog->grab().save(png));
        qInfo("screenshot: %s", qPrintable(png));

        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        const RunSettings &settings = f.jobs.runSettings();
        QCOMPARE(settings.shapes(QStringLiteral("sample:minilm")), expected);
        QCOMPARE(
            settings.dynamic(QStringLiteral("sample:minilm")),
            QStringList({QStringLiteral("input_ids:0:1:32=batch"), QStringLiteral("attention_mask:0:1:32=batch")}));
        QVERIFY(settings.shapes(QStringLiteral("sample:mlp")).isEmpty()); // per model
        QVERIFY(settings.dynamic(QStringLiteral("sample:mlp")).isEmpty());
        QCOMPARE(RunSettings::load().dynamic(QStringLiteral("sample:minilm")).size(), 2); // saved
        QCOMPARE(RunSettings::load().shapes(QStringLiteral("sample:minilm")), expected); // saved

        // The next compile and profile of that model carry them.
        QVERIFY(f.jobs.compile());
        QVERIFY(QTest::qWaitFor([&f] { return !f.jobs.isBusy(); }, 20000));
        const auto compiles = f.sentOf(QStringLiteral("compile"));
        QCOMPARE(compiles.size(), 1);
        QCOMPARE(compiles[0].value(QLatin1String("shapes")).toObject(), expected);
        QCOMPARE(compiles[0].value(QLatin1String("dynamic")).toArray().size(), 2);
        QCOMPARE(compiles[0].value(QLatin1String("dynamic")).toArray().at(0).toString(),
                 QStringLiteral("input_ids:0:1:32=batch"));
        AotStudio::Client::CompileRequest request;
        request.model = QStringLiteral("sample:minilm");
        QCOMPARE(settings.profileRequest(request).toJson(1).value(QLatin1String("shapes")).toObject(), expected);
        QCOMPARE(settings.quantizeRequest(request).toJson(1).value(QLatin1String("shapes")).toObject(), expected);
        QCOMPARE(settings.requestFields(QStringLiteral("tune"), QStringLiteral("sample:minilm"))
                     .value(QLatin1String("shapes"))
                     .toObject(),
                 expected);
        request.model = QStringLiteral("sample:mlp");
        QVERIFY(!settings.profileRequest(request).toJson(1).contains(QLatin1String("shapes")));

        // Opening it again shows the saved shapes and dynamic dimensions.
        InputsDialog *again = f.openDialog();
        QVERIFY(again);
        QCOMPARE(cell<QSpinBox>(again, 1, InputsDialog::SizeColumn)->value(), 16);
        QVERIFY(cell<QCheckBox>(again, 2, InputsDialog::DynamicColumn)->isChecked());
        QCOMPARE(cell<QSpinBox>(again, 2, InputsDialog::MaxColumn)->value(), 32);
        QCOMPARE(again->shapes(), expected);
        // A range that leaves out the example's size is refused on OK, saying which.
        cell<QSpinBox>(again, 0, InputsDialog::SizeColumn)->setValue(40);
        QVERIFY(again->problem().contains(QStringLiteral("outside")));
        again->accept();
        QVERIFY(again->isVisible());
        QVERIFY(!again->findChild<QLabel *>(QStringLiteral("inputsError"))->isHidden());
        again->reject();
    }

    void runSettingsShowAndResetShapes()
    {
        RunSettings settings;
        settings.setShapes(QStringLiteral("sample:minilm"), QJsonObject{{QStringLiteral("input_ids"), sizes({2, 16})}});
        settings.setShapes(QStringLiteral("sample:mlp"), QJsonObject{{QStringLiteral("x"), sizes({3, 64})}});
        AotStudio::Widgets::RunSettingsDialog dialog(settings, QStringLiteral("sample:minilm"));
        auto *label = dialog.findChild<QLabel *>(QStringLiteral("shapesLabel"));
        QCOMPARE(label->text(), QStringLiteral("input_ids 2×16"));
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QVERIFY(dialog.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/run_settings_shapes.png")));
        QCOMPARE(dialog.settings().shapes(QStringLiteral("sample:minilm")),
                 settings.shapes(QStringLiteral("sample:minilm")));
        auto *reset = dialog.findChild<QPushButton *>(QStringLiteral("resetShapesButton"));
        QVERIFY(reset->isEnabled());
        reset->click();
        QVERIFY(!reset->isEnabled());
        QVERIFY(dialog.settings().shapes(QStringLiteral("sample:minilm")).isEmpty());
        QCOMPARE(dialog.settings().shapes(QStringLiteral("sample:mlp")).value(QLatin1String("x")).toArray(),
                 sizes({3, 64})); // another model's stay
    }

    void engineErrorIsShownInTheDialog()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        f.inputs = {QStringLiteral("fake:error"), QStringLiteral("cpu"), m_out.path()};
        InputsDialog *dialog = f.openDialog();
        QVERIFY(dialog);
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("inputsError"));
        QVERIFY(!error->isHidden());
        QVERIFY(error->text().contains(QStringLiteral("broken.py:7")));
        QVERIFY(!dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        dialog->reject();
    }

    void cancelWhileTheEngineLoads()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        f.inputs = {QStringLiteral("fake:slow"), QStringLiteral("cpu"), m_out.path()};
        f.jobs.showInputsDialog();
        InputsDialog *dialog = f.shownDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->requestId() != 0);
        auto *cancel = dialog->findChild<QPushButton *>(QStringLiteral("inputsCancelRequest"));
        QVERIFY(!cancel->isHidden());
        cancel->click();
        QCOMPARE(dialog->requestId(), 0);
        QVERIFY(cancel->isHidden());
        dialog->reject();
        // The engine ended the cancelled load (it runs one request at a time): the next one is answered.
        f.inputs.model = QStringLiteral("sample:mlp");
        InputsDialog *next = f.openDialog();
        QVERIFY(next);
        QCOMPARE(next->findChild<QTableWidget *>(QStringLiteral("inputsTable"))->rowCount(), 2);
        next->reject();
    }
};

QTEST_MAIN(TestInputsDialog)
#include "tst_inputsdialog.moc"
