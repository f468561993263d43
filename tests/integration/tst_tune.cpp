// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli tune` (issue 16 item 3) on sample:mlp for real: three option sets compiled and
// verified, timed with eager and torch.compile in one paired measurement; the front holds both
// baselines; the recipe it writes is what `compile --recipe` reads and reproduces; a recipe with
// an unknown key or an Inductor option the installed torch lacks is refused by name. Four small
// compiles and a short measurement: about two minutes on an idle machine.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

namespace {

using TestSupport::Run;

QJsonObject rowNamed(const QJsonArray &rows, const QString &name)
{
    for (const auto &v : rows)
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject();
    return {};
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestTune : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tuneMlpFrontAndRecipe();
    void recipeInductorOptionsReachInductor();
    void dynamicShapeWorkload();
    void badRecipesAndRequests();

private:
    QTemporaryDir m_dir;
    QString m_recipe; ///< the tune's recipe.json, for the reproduction check
};

void TestTune::tuneMlpFrontAndRecipe()
{
    const QString out = m_dir.filePath(QStringLiteral("tune"));
    const Run r = TestSupport::cli({QStringLiteral("tune"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                    QStringLiteral("--trials"), QStringLiteral("defaults,freezing,no_epilogue_fusion"),
                                    QStringLiteral("--budget"), QStringLiteral("2m"), QStringLiteral("--runs"),
                                    QStringLiteral("60"), QStringLiteral("--max-seconds"), QStringLiteral("1"),
                                    QStringLiteral("--out"), out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(4000).constData());
    const QJsonObject result = TestSupport::result(r.out);
    QCOMPARE(result.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.tune"));

    // Every trial asked for is a row; each compiled, verified and was timed.
    const QJsonArray rows = result.value(QLatin1String("rows")).toArray();
    QCOMPARE(rows.size(), 3);
    for (const char *name : {"defaults", "freezing", "no_epilogue_fusion"}) {
        const QJsonObject row = rowNamed(rows, QLatin1String(name));
        QVERIFY2(!row.isEmpty(), name);
        QVERIFY2(row.value(QLatin1String("status")).toString() == QLatin1String("ok"),
                 qPrintable(QLatin1String(name) + QLatin1String(": ") + row.value(QLatin1String("reason")).toString()));
        QVERIFY(row.value(QLatin1String("median_ms")).toDouble() > 0);
        QVERIFY(row.value(QLatin1String("compile_seconds")).toDouble() > 0);
        QVERIFY(row.value(QLatin1String("package_bytes")).toDouble() > 0);
        QVERIFY(row.value(QLatin1String("max_abs_error")).isDouble());
        QVERIFY(QFile::exists(row.value(QLatin1String("package")).toString()));
        // Ratios against both baselines, each with its interval (the paired method).
        if (QLatin1String(name) != QLatin1String("defaults")) {
            const QJsonObject iv = row.value(QLatin1String("speedup_vs_defaults_interval")).toObject();
            QVERIFY2(iv.value(QLatin1String("low")).toDouble()
                             <= row.value(QLatin1String("speedup_vs_defaults")).toDouble()
                         && row.value(QLatin1String("speedup_vs_defaults")).toDouble()
                             <= iv.value(QLatin1String("high")).toDouble(),
                     name);
        }
        QVERIFY(row.value(QLatin1String("speedup_vs_torch_compile")).toDouble() > 0);
    }
    // The trial's recorded options are what it asked for.
    QCOMPARE(rowNamed(rows, QStringLiteral("freezing"))
                 .value(QLatin1String("options_recorded"))
                 .toObject()
                 .value(QLatin1String("freezing"))
                 .toBool(),
             true);
    QCOMPARE(rowNamed(rows, QStringLiteral("no_epilogue_fusion"))
                 .value(QLatin1String("options_recorded"))
                 .toObject()
                 .value(QLatin1String("inductor"))
                 .toObject()
                 .value(QLatin1String("epilogue_fusion")),
             QJsonValue(false));

    // Both baselines measured on the same inputs, and on the front.
    const QJsonArray baselines = result.value(QLatin1String("baselines")).toArray();
    QVERIFY(rowNamed(baselines, QStringLiteral("eager")).value(QLatin1String("median_ms")).toDouble() > 0);
    const QJsonObject jit = rowNamed(baselines, QStringLiteral("torch.compile"));
    QVERIFY2(jit.value(QLatin1String("status")).toString() == QLatin1String("ok"),
             qPrintable(jit.value(QLatin1String("reason")).toString()));
    QVERIFY(jit.value(QLatin1String("median_ms")).toDouble() > 0);
    QVERIFY(jit.value(QLatin1String("compile_seconds")).toDouble() > 0);
    const QJsonArray front = result.value(QLatin1String("front")).toArray();
    QVERIFY(front.contains(QStringLiteral("defaults")));
    QVERIFY(front.contains(QStringLiteral("torch.compile")));
    QVERIFY(result.value(QLatin1String("measurement")).toObject().contains(QLatin1String("verdict")));

    // The chosen recipe: the fastest measured trial, on disk as recipe.json.
    const QJsonObject recipe = result.value(QLatin1String("recipe")).toObject();
    const QString chosen = recipe.value(QLatin1String("name")).toString();
    double fastest = 1e300;
    QString fastestName;
    for (const auto &v : rows)
        if (v.toObject().value(QLatin1String("median_ms")).toDouble(1e300) < fastest) {
            fastest = v.toObject().value(QLatin1String("median_ms")).toDouble();
            fastestName = v.toObject().value(QLatin1String("name")).toString();
        }
    // The fastest trial, unless it is not faster than defaults beyond its interval: then defaults,
    // with a warning saying so.
    const QJsonObject fastestRow = rowNamed(rows, fastestName);
    const bool beyond = fastestRow.value(QLatin1String("speedup_vs_defaults_interval"))
                            .toObject()
                            .value(QLatin1String("low"))
                            .toDouble(0)
        > 1.0;
    if (fastestName == QLatin1String("defaults") || beyond) {
        QCOMPARE(chosen, fastestName);
    } else {
        QCOMPARE(chosen, QStringLiteral("defaults"));
        bool said = false;
        for (const auto &w : result.value(QLatin1String("warnings")).toArray())
            said = said || w.toString().contains(QLatin1String("keeps the defaults"));
        QVERIFY(said);
    }
    m_recipe = out + QStringLiteral("/recipe.json");
    const QJsonObject onDisk = TestSupport::readJson(m_recipe);
    QCOMPARE(onDisk.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.recipe"));
    QCOMPARE(onDisk.value(QLatin1String("options")), recipe.value(QLatin1String("options")));
    QVERIFY(QFile::exists(out + QStringLiteral("/tune.csv")));
    QCOMPARE(TestSupport::readJson(out + QStringLiteral("/tune.json")).value(QLatin1String("front")).toArray(), front);

    // compile --recipe reproduces the chosen trial's options.
    const Run c = TestSupport::cli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                    QStringLiteral("--recipe"), m_recipe, QStringLiteral("--runs"), QStringLiteral("5"),
                                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("from-recipe")),
                                    QStringLiteral("--json")});
    QVERIFY2(c.exitCode == 0, c.err.right(3000).constData());
    const QJsonObject got = TestSupport::result(c.out).value(QLatin1String("options")).toObject();
    const QJsonObject want = rowNamed(rows, chosen).value(QLatin1String("options_recorded")).toObject();
    for (const char *k : {"freezing", "max_autotune", "dtype", "inductor"})
        QVERIFY2(got.value(QLatin1String(k)) == want.value(QLatin1String(k)),
                 qPrintable(QLatin1String(k) + QLatin1String(": ")
                            + QString::fromUtf8(QJsonDocument(got).toJson(QJsonDocument::Compact))));
}

void TestTune::recipeInductorOptionsReachInductor()
{
    // A recipe's Inductor options reach Inductor: with epilogue fusion off the compile records it.
    const QString path = m_dir.filePath(QStringLiteral("nofusion.json"));
    writeFile(path, R"({"format": "aotstudio.recipe", "format_version": 1, "name": "hand",
                        "options": {"freezing": true, "inductor": {"epilogue_fusion": false}}})");
    const Run c = TestSupport::cli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                    QStringLiteral("--recipe"), path, QStringLiteral("--runs"), QStringLiteral("5"),
                                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("nofusion")),
                                    QStringLiteral("--json")});
    QVERIFY2(c.exitCode == 0, c.err.right(3000).constData());
    const QJsonObject options = TestSupport::result(c.out).value(QLatin1String("options")).toObject();
    QCOMPARE(options.value(QLatin1String("freezing")).toBool(), true);
    QCOMPARE(options.value(QLatin1String("inductor")).toObject().value(QLatin1String("epilogue_fusion")),
             QJsonValue(false));
}

void TestTune::dynamicShapeWorkload()
{
    // A dynamic batch: the chosen package and a fresh torch.compile meet the same shapes in the
    // same order; torch.compile recompiles at least once (its first shape is compiled static),
    // the package never does.
    const QString out = m_dir.filePath(QStringLiteral("dyn"));
    const Run r = TestSupport::cli({QStringLiteral("tune"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                    QStringLiteral("--trials"), QStringLiteral("defaults"), QStringLiteral("--dynamic"),
                                    QStringLiteral("0:0:1:64"), QStringLiteral("--runs"), QStringLiteral("30"),
                                    QStringLiteral("--max-seconds"), QStringLiteral("0.5"), QStringLiteral("--out"),
                                    out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(4000).constData());
    const QJsonObject workload = TestSupport::result(r.out).value(QLatin1String("workload")).toObject();
    QVERIFY2(!workload.contains(QLatin1String("error")), qPrintable(workload.value(QLatin1String("error")).toString()));
    QCOMPARE(workload.value(QLatin1String("trial")).toString(), QStringLiteral("defaults"));
    const QJsonArray shapes = workload.value(QLatin1String("shapes")).toArray();
    QVERIFY2(shapes.size() >= 3, "the example and the range's ends at least");
    QSet<int> batches;
    for (int i = 0; i < shapes.size(); ++i) {
        const QJsonObject row = shapes.at(i).toObject();
        const QJsonArray first = row.value(QLatin1String("shapes")).toArray().at(0).toArray();
        QCOMPARE(first.size(), 2);
        const int batch = first.at(0).toInt();
        QVERIFY2(batch >= 1 && batch <= 64, qPrintable(QString::number(batch)));
        batches.insert(batch);
        const QJsonObject tc = row.value(QLatin1String("torch_compile")).toObject();
        QVERIFY(tc.value(QLatin1String("cold_ms")).toDouble() > 0);
        QVERIFY(tc.value(QLatin1String("median_ms")).toDouble() > 0);
        QVERIFY(row.value(QLatin1String("aoti")).toObject().value(QLatin1String("median_ms")).toDouble() > 0);
        QVERIFY(row.value(QLatin1String("speedup_vs_torch_compile_interval")).isObject());
        // The first shape is torch.compile's first compile, never counted as a recompile.
        if (i == 0)
            QCOMPARE(tc.value(QLatin1String("recompile")).toBool(), false);
    }
    QCOMPARE(batches.size(), shapes.size()); // distinct shapes
    QVERIFY(workload.value(QLatin1String("torch_compile_recompiles")).toInt() >= 1);
}

void TestTune::badRecipesAndRequests()
{
    const auto compileWith = [&](const QString &recipe, const QString &out) {
        return TestSupport::cli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                 QStringLiteral("--recipe"), recipe, QStringLiteral("--out"), m_dir.filePath(out),
                                 QStringLiteral("--json")});
    };
    // An unknown key: a usage error naming it, before the engine starts.
    const QString unknown = m_dir.filePath(QStringLiteral("unknown.json"));
    writeFile(unknown, R"({"format": "aotstudio.recipe", "options": {"freezing": true, "fast": true}})");
    const Run u = compileWith(unknown, QStringLiteral("u"));
    QCOMPARE(u.exitCode, 2);
    QVERIFY2(u.err.contains("'fast'"), u.err.constData());
    // Not a recipe at all.
    const QString other = m_dir.filePath(QStringLiteral("other.json"));
    writeFile(other, R"({"format": "aotstudio.tune"})");
    QCOMPARE(compileWith(other, QStringLiteral("o")).exitCode, 2);
    // A recipe dtype that contradicts --dtype.
    const QString bf16 = m_dir.filePath(QStringLiteral("bf16.json"));
    writeFile(bf16, R"({"format": "aotstudio.recipe", "options": {"dtype": "bf16"}})");
    QCOMPARE(TestSupport::cli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                               QStringLiteral("--recipe"), bf16, QStringLiteral("--dtype"), QStringLiteral("fp16"),
                               QStringLiteral("--out"), m_dir.filePath(QStringLiteral("d"))})
                 .exitCode,
             2);
    // An Inductor option this torch lacks: refused by the engine with the key and torch's version.
    const QString missing = m_dir.filePath(QStringLiteral("missing.json"));
    writeFile(missing, R"({"format": "aotstudio.recipe", "options": {"inductor": {"no_such_inductor_knob": 1}}})");
    const Run m = compileWith(missing, QStringLiteral("m"));
    QCOMPARE(m.exitCode, 1);
    const QJsonObject error = TestSupport::error(m.out);
    QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("bad_request"));
    const QString message = error.value(QLatin1String("message")).toString();
    QVERIFY2(message.contains(QLatin1String("no_such_inductor_knob")) && message.contains(QLatin1String("torch ")),
             qPrintable(message));
    // An option the job owns (the debug trace) is refused too.
    const QString reserved = m_dir.filePath(QStringLiteral("reserved.json"));
    writeFile(reserved, R"({"format": "aotstudio.recipe", "options": {"inductor": {"trace.enabled": false}}})");
    const Run rs = compileWith(reserved, QStringLiteral("r"));
    QCOMPARE(rs.exitCode, 1);
    QVERIFY2(
        TestSupport::error(rs.out).value(QLatin1String("message")).toString().contains(QLatin1String("trace.enabled")),
        rs.out.constData());
    // tune: an unreadable budget is a usage error; an unknown trial names the known ones.
    QCOMPARE(TestSupport::cli({QStringLiteral("tune"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                               QStringLiteral("--budget"), QStringLiteral("soon"), QStringLiteral("--out"),
                               m_dir.filePath(QStringLiteral("t1"))})
                 .exitCode,
             2);
    const Run t
        = TestSupport::cli({QStringLiteral("tune"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                            QStringLiteral("--trials"), QStringLiteral("defaults,warp_speed"), QStringLiteral("--out"),
                            m_dir.filePath(QStringLiteral("t2")), QStringLiteral("--json")});
    QCOMPARE(t.exitCode, 1);
    const QString tm = TestSupport::error(t.out).value(QLatin1String("message")).toString()
        + TestSupport::error(t.out).value(QLatin1String("hint")).toString();
    QVERIFY2(tm.contains(QLatin1String("warp_speed")) && tm.contains(QLatin1String("freezing")), qPrintable(tm));
}

QTEST_GUILESS_MAIN(TestTune)
#include "tst_tune.moc"
