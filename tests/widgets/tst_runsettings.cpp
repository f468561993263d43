// SPDX-License-Identifier: GPL-3.0-or-later
// Run Settings' Ray cluster field (issue 17): which addresses it takes, which requests carry
// `ray` (quantize, export, tune, sweep; never compile, profile or numerics), and the dialog's
// refusal of an address the engine would refuse. Dynamic dimensions kept per model (issue 14):
// they name one model's inputs. Regional compile (issue 14 item 6): only a compile request carries
// `regional` and `compare_whole`.
#include "widgets/runsettings.h"

#include "client/exportrequest.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QJsonArray>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using AotStudio::Widgets::RunSettings;
using AotStudio::Widgets::RunSettingsDialog;

class TestRunSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runsettings"));
        QSettings().clear();
    }

    void rayAddresses_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("taken");
        QTest::newRow("ipv4") << QStringLiteral("10.0.0.5:6379") << true;
        QTest::newRow("name") << QStringLiteral("gpu-head.lab:6380") << true;
        QTest::newRow("ipv6") << QStringLiteral("[::1]:6379") << true;
        QTest::newRow("no port") << QStringLiteral("10.0.0.5") << false;
        QTest::newRow("port 0") << QStringLiteral("head:0") << false;
        QTest::newRow("port too big") << QStringLiteral("head:65536") << false;
        QTest::newRow("ray client url") << QStringLiteral("ray://head:10001") << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("space") << QStringLiteral("head :6379") << false;
    }
    void rayAddresses()
    {
        QFETCH(QString, address);
        QFETCH(bool, taken);
        QCOMPARE(RunSettings::isRayAddress(address), taken);
    }

    void rayGoesToTheFannedOutJobsOnly()
    {
        RunSettings s;
        QVERIFY(!s.requestFields(QStringLiteral("tune")).contains(QLatin1String("ray"))); // none set: not sent
        QVERIFY(!s.quantizeRequest({}).toJson(1).contains(QLatin1String("ray")));
        s.ray = QStringLiteral("127.0.0.1:6379");
        for (const char *type : {"tune", "sweep"})
            QCOMPARE(s.requestFields(QLatin1String(type)).value(QLatin1String("ray")).toString(), s.ray);
        for (const char *type : {"compile", "numerics"})
            QVERIFY2(!s.requestFields(QLatin1String(type)).contains(QLatin1String("ray")), type);
        QCOMPARE(s.quantizeRequest({}).toJson(1).value(QLatin1String("ray")).toString(), s.ray);
        QVERIFY(!s.profileRequest({}).toJson(1).contains(QLatin1String("ray")));
        AotStudio::Client::ExportRequest e;
        e.out = QStringLiteral("/tmp/b");
        QVERIFY(!e.toJson(1).contains(QLatin1String("ray")));
        e.ray = s.ray;
        QCOMPARE(e.toJson(1).value(QLatin1String("ray")).toString(), s.ray);
    }

    void savedAndLoaded()
    {
        RunSettings s;
        s.ray = QStringLiteral("head:6379");
        s.save();
        QCOMPARE(RunSettings::load().ray, s.ray);
        QSettings().setValue(QStringLiteral("run/ray"), QStringLiteral("ray://head:1")); // edited by hand
        QVERIFY(RunSettings::load().ray.isEmpty());
    }

    void dialogRefusesABadAddress()
    {
        RunSettings s;
        s.ray = QStringLiteral("head:6379");
        RunSettingsDialog dialog(s);
        auto *field = dialog.findChild<QLineEdit *>(QStringLiteral("rayAddress"));
        QVERIFY(field);
        QCOMPARE(field->text(), s.ray);
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        field->setText(QStringLiteral("head")); // no port
        ok->click();
        QCOMPARE(accepted.size(), 0);
        QVERIFY(field->toolTip().contains(QLatin1String("is not HOST:PORT")));
        field->setText(QStringLiteral(" 10.1.2.3:6379 "));
        ok->click();
        QCOMPARE(accepted.size(), 1);
        QCOMPARE(dialog.settings().ray, QStringLiteral("10.1.2.3:6379"));
        field->clear();
        QVERIFY(dialog.settings().ray.isEmpty()); // empty: everything runs in the engine
    }

    void dynamicDimensionsPerModel()
    {
        RunSettings s;
        s.setDynamic(QStringLiteral("sample:minilm"), {QStringLiteral("input_ids:0:1:32=batch")});
        QCOMPARE(s.requestFields(QStringLiteral("compile"), QStringLiteral("sample:minilm"))
                     .value(QLatin1String("dynamic"))
                     .toArray(),
                 QJsonArray({QStringLiteral("input_ids:0:1:32=batch")}));
        QCOMPARE(s.requestFields(QStringLiteral("tune"), QStringLiteral("sample:minilm"))
                     .value(QLatin1String("dynamic"))
                     .toArray()
                     .size(),
                 1);
        // Another model's compile does not get them; a numerics request never does.
        QVERIFY(!s.requestFields(QStringLiteral("compile"), QStringLiteral("sample:mlp"))
                     .contains(QLatin1String("dynamic")));
        QVERIFY(!s.requestFields(QStringLiteral("numerics"), QStringLiteral("sample:minilm"))
                     .contains(QLatin1String("dynamic")));

        // The dialog edits the open model's list and leaves the others'.
        s.setDynamic(QStringLiteral("sample:mlp"), {QStringLiteral("0:0:1:64")});
        RunSettingsDialog dialog(s, QStringLiteral("sample:mlp"));
        auto *field = dialog.findChild<QLineEdit *>(QStringLiteral("dynamicDimensions"));
        QVERIFY(field);
        QVERIFY(field->isEnabled());
        QCOMPARE(field->text(), QStringLiteral("0:0:1:64"));
        field->setText(QStringLiteral("0:0:2:16, 0:1"));
        const RunSettings edited = dialog.settings();
        QCOMPARE(edited.dynamic(QStringLiteral("sample:mlp")),
                 QStringList({QStringLiteral("0:0:2:16"), QStringLiteral("0:1")}));
        QCOMPARE(edited.dynamic(QStringLiteral("sample:minilm")),
                 QStringList({QStringLiteral("input_ids:0:1:32=batch")}));
        field->clear();
        QVERIFY(dialog.settings().dynamic(QStringLiteral("sample:mlp")).isEmpty()); // cleared: static again
        QVERIFY(!dialog.settings().dynamicByModel.contains(QStringLiteral("sample:mlp")));

        // Without a model the field cannot be edited, and nothing changes.
        RunSettingsDialog none(s);
        QVERIFY(!none.findChild<QLineEdit *>(QStringLiteral("dynamicDimensions"))->isEnabled());
        QCOMPARE(none.settings().dynamicByModel, s.dynamicByModel);

        // Saved per model; the former one-list key is dropped, not applied to every model.
        QSettings().setValue(QStringLiteral("run/dynamic"), QStringList{QStringLiteral("0:0")});
        edited.save();
        const RunSettings loaded = RunSettings::load();
        QCOMPARE(loaded.dynamic(QStringLiteral("sample:mlp")), edited.dynamic(QStringLiteral("sample:mlp")));
        QCOMPARE(loaded.dynamic(QStringLiteral("sample:minilm")).size(), 1);
        QVERIFY(loaded.dynamic(QStringLiteral("other:model")).isEmpty());
        QVERIFY(!QSettings().contains(QStringLiteral("run/dynamic")));
    }

    void recipeAndFreezing()
    {
        // A compile leaves freezing to the engine's recipe (auto) unless ticked; other jobs send it.
        RunSettings s;
        QCOMPARE(s.recipe, QStringLiteral("auto"));
        QJsonObject compile = s.requestFields(QStringLiteral("compile"), QStringLiteral("sample:mlp"));
        QVERIFY(!compile.contains(QLatin1String("freezing")));
        QVERIFY(!compile.contains(QLatin1String("recipe"))); // auto: the engine's default
        QCOMPARE(s.requestFields(QStringLiteral("numerics")).value(QLatin1String("freezing")), QJsonValue(false));
        s.freezing = true;
        s.recipe = QStringLiteral("defaults");
        compile = s.requestFields(QStringLiteral("compile"), QStringLiteral("sample:mlp"));
        QCOMPARE(compile.value(QLatin1String("freezing")), QJsonValue(true));
        QCOMPARE(compile.value(QLatin1String("recipe")).toString(), QStringLiteral("defaults"));
        QVERIFY(!s.requestFields(QStringLiteral("numerics")).contains(QLatin1String("recipe")));
        // A tune's recipe is taken as it is: recipe "defaults", so auto does not decide again.
        RunSettings t;
        t.applyRecipeOptions(QJsonObject{{QStringLiteral("freezing"), false}});
        QCOMPARE(t.recipe, QStringLiteral("defaults"));
        // The dialog keeps it.
        RunSettingsDialog dialog(s);
        auto *combo = dialog.findChild<QComboBox *>(QStringLiteral("compileRecipe"));
        QVERIFY(combo);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("defaults"));
        combo->setCurrentIndex(combo->findData(QStringLiteral("auto")));
        QCOMPARE(dialog.settings().recipe, QStringLiteral("auto"));
    }

    void regionalGoesToCompileOnly()
    {
        RunSettings s;
        const QJsonObject plain = s.requestFields(QStringLiteral("compile"), QStringLiteral("sample:mlp"));
        QVERIFY(!plain.contains(QLatin1String("regional"))); // off: the engine's default, not sent
        QVERIFY(!plain.contains(QLatin1String("compare_whole")));
        s.compareWhole = true; // without regional it means nothing: not sent
        QVERIFY(!s.requestFields(QStringLiteral("compile")).contains(QLatin1String("compare_whole")));
        s.regional = true;
        const QJsonObject compile = s.requestFields(QStringLiteral("compile"), QStringLiteral("sample:mlp"));
        QCOMPARE(compile.value(QLatin1String("regional")), QJsonValue(true));
        QCOMPARE(compile.value(QLatin1String("compare_whole")), QJsonValue(true));
        s.compareWhole = false;
        QVERIFY(!s.requestFields(QStringLiteral("compile")).contains(QLatin1String("compare_whole")));
        QCOMPARE(s.requestFields(QStringLiteral("compile")).value(QLatin1String("regional")), QJsonValue(true));
        // The jobs that do not support it never get it.
        s.compareWhole = true;
        for (const char *type : {"tune", "numerics", "sweep", "profile", "quantize", "export"}) {
            const QJsonObject o = s.requestFields(QLatin1String(type), QStringLiteral("sample:mlp"));
            QVERIFY2(!o.contains(QLatin1String("regional")), type);
            QVERIFY2(!o.contains(QLatin1String("compare_whole")), type);
        }
        for (const QJsonObject &o : {s.profileRequest({}).toJson(1), s.quantizeRequest({}).toJson(1)}) {
            QVERIFY(!o.contains(QLatin1String("regional")));
            QVERIFY(!o.contains(QLatin1String("compare_whole")));
        }
    }

    void regionalSavedAndInTheDialog()
    {
        RunSettings s;
        RunSettingsDialog dialog(s);
        auto *regional = dialog.findChild<QCheckBox *>(QStringLiteral("regionalCompile"));
        auto *whole = dialog.findChild<QCheckBox *>(QStringLiteral("compareWhole"));
        QVERIFY(regional && whole);
        QVERIFY(!regional->isChecked());
        QVERIFY(!whole->isEnabled()); // only with a regional compile
        regional->setChecked(true);
        QVERIFY(whole->isEnabled());
        whole->setChecked(true);
        dialog.show();
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        const QString shot = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/runsettings_regional.png");
        QVERIFY2(dialog.grab().save(shot), qPrintable(shot));
        const RunSettings edited = dialog.settings();
        QVERIFY(edited.regional);
        QVERIFY(edited.compareWhole);
        regional->setChecked(false);
        QVERIFY(!whole->isEnabled());
        QVERIFY(!dialog.settings().regional);

        edited.save();
        const RunSettings loaded = RunSettings::load();
        QVERIFY(loaded.regional);
        QVERIFY(loaded.compareWhole);
        RunSettingsDialog reopened(loaded);
        QVERIFY(reopened.findChild<QCheckBox *>(QStringLiteral("regionalCompile"))->isChecked());
        QVERIFY(reopened.findChild<QCheckBox *>(QStringLiteral("compareWhole"))->isEnabled());
        RunSettings off;
        off.save();
        QVERIFY(!RunSettings::load().regional);
    }
};

QTEST_MAIN(TestRunSettings)
#include "tst_runsettings.moc"
