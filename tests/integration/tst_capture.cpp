// SPDX-License-Identifier: GPL-3.0-or-later
// Shapes from real traffic (issue 39) end to end: a script of ours serves a small model, the
// capture records it, compile --from-capture verifies the package on every recorded shape (the
// kept inputs, seeded ones where none was kept), sweep --from-capture plans a stated sample of
// them, export --from-capture builds the proposed buckets and says what each serves.
// Real CPU compiles: label slow (see tests/integration/CMakeLists.txt for the cost).
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

Run runCli(const QStringList &args, int timeoutMs = 900000)
{
    return TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, timeoutMs);
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

/// The label the engine gives a recorded shape (capture_propose._shape_text).
QString label(int batch, int length)
{
    return QStringLiteral("ids [%1, %2], mask [%1, %2], scale [%1, 1, 4]").arg(batch).arg(length);
}

} // namespace

class TestCapture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void proposalFindsEachDimension();
    void compileVerifiesOnTheRecordedShapes();
    void sweepPlansASampleOfThem();
    void exportBuildsTheProposedBuckets();

private:
    QTemporaryDir m_dir;
    QString m_capture, m_model, m_compile;
    QSet<QString> m_expected; ///< the recorded shapes' labels
};

void TestCapture::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A batch from {2, 3, 4, 8}, a length that is a multiple of 8 tied across ids and mask, the
    // batch tied across all three inputs, scale's dimension 1 always 1. 60 calls, 12 distinct shapes.
    writeFile(
        m_dir.filePath(QStringLiteral("net.py")),
        "import torch\n"
        "class Net(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        torch.manual_seed(0)\n"
        "        self.emb = torch.nn.Embedding(50, 8)\n"
        "        self.proj = torch.nn.Linear(8, 4)\n"
        "    def forward(self, ids, mask, scale):\n"
        "        h = (self.emb(ids) * mask.unsqueeze(-1)).sum(1)\n"
        "        return self.proj(h) * scale.squeeze(1)\n"
        "def make():\n"
        "    return Net().eval(), (torch.zeros(4, 16, dtype=torch.long), torch.ones(4, 16), torch.ones(4, 1, 4))\n");
    writeFile(
        m_dir.filePath(QStringLiteral("serve.py")),
        "import torch, net\n"
        "model = net.Net().eval()\n"
        "g = torch.Generator().manual_seed(1)\n"
        "with torch.no_grad():\n"
        "    for i in range(60):\n"
        "        b, s = [2, 3, 4, 8][i % 4], 8 * (1 + i % 3)\n"
        "        model(torch.randint(0, 50, (b, s), generator=g), (torch.rand(b, s, generator=g) > 0.3).float(),\n"
        "              torch.rand(b, 1, 4, generator=g))\n");
    for (int i = 0; i < 12; ++i)
        m_expected.insert(label(QList<int>{2, 3, 4, 8}[i % 4], 8 * (1 + i % 3)));
    m_capture = m_dir.filePath(QStringLiteral("cap"));
    m_model = m_dir.filePath(QStringLiteral("net.py")) + QStringLiteral(":make");
    m_compile = m_dir.filePath(QStringLiteral("compiled"));
    // A byte bound that keeps the inputs of some shapes only: the rest are verified on seeded inputs.
    const Run r
        = runCli({QStringLiteral("capture"), QStringLiteral("--script"), m_dir.filePath(QStringLiteral("serve.py")),
                  QStringLiteral("--module"), QStringLiteral("model"), QStringLiteral("--max-bytes"),
                  QStringLiteral("9000"), QStringLiteral("--out"), m_capture, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
}

void TestCapture::proposalFindsEachDimension()
{
    QFile f(m_capture + QStringLiteral("/proposal.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject p = QJsonDocument::fromJson(f.readAll()).object();
    QStringList dynamic;
    for (const auto &d : p.value(QLatin1String("compile")).toObject().value(QLatin1String("dynamic")).toArray())
        dynamic << d.toString();
    // The batch tied across the three inputs, the length across ids and mask; scale:1 static.
    for (const char *e : {"ids:0:2:8=batch", "mask:0:2:8=batch", "scale:0:2:8=batch"})
        QVERIFY2(dynamic.contains(QLatin1String(e)), qPrintable(dynamic.join(QLatin1Char(' '))));
    QCOMPARE(dynamic.filter(QRegularExpression(QStringLiteral("^(ids|mask):1:8:24="))).size(), 2);
    QVERIFY2(dynamic.filter(QStringLiteral("scale:1")).isEmpty(), qPrintable(dynamic.join(QLatin1Char(' '))));
    bool multipleOf8 = false;
    for (const auto &d : p.value(QLatin1String("dims")).toArray())
        multipleOf8 = multipleOf8 || d.toObject().value(QLatin1String("multiple_of")).toInt() == 8;
    QVERIFY(multipleOf8);
}

void TestCapture::compileVerifiesOnTheRecordedShapes()
{
    const Run r
        = runCli({QStringLiteral("compile"), QStringLiteral("--model"), m_model, QStringLiteral("--from-capture"),
                  m_capture, QStringLiteral("--out"), m_compile, QStringLiteral("--runs"), QStringLiteral("20"),
                  QStringLiteral("--max-seconds"), QStringLiteral("0.5"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(4000).constData());
    const QJsonObject verify = TestSupport::result(r.out).value(QLatin1String("verify")).toObject();
    const QJsonObject rec = verify.value(QLatin1String("recorded")).toObject();
    QCOMPARE(rec.value(QLatin1String("distinct")).toInt(), 12);
    QCOMPARE(rec.value(QLatin1String("left_out")).toInt(), 0);
    QSet<QString> labels;
    int kept = 0, seeded = 0;
    for (const auto &v : rec.value(QLatin1String("points")).toArray()) {
        const QJsonObject p = v.toObject();
        labels.insert(p.value(QLatin1String("label")).toString());
        QCOMPARE(p.value(QLatin1String("outcome")).toString(), QStringLiteral("match"));
        (p.value(QLatin1String("inputs")).toString() == QLatin1String("recorded") ? kept : seeded) += 1;
    }
    QCOMPARE(labels, m_expected);
    // The byte bound kept some shapes' inputs and not others: both ways were taken.
    QVERIFY2(kept > 0 && seeded > 0, qPrintable(QStringLiteral("kept %1, seeded %2").arg(kept).arg(seeded)));
    QCOMPARE(rec.value(QLatin1String("matched")).toInt(), 12);
    QVERIFY2(verify.value(QLatin1String("verdict")).toString().contains(QLatin1String("12 recorded shapes matched")),
             qPrintable(verify.value(QLatin1String("verdict")).toString()));
    // The log names each recorded shape.
    for (const auto &l : m_expected)
        QVERIFY2(r.err.contains(("verify: recorded shape " + l).toUtf8()), qPrintable(l));
}

void TestCapture::sweepPlansASampleOfThem()
{
    // A stated sample: 4 of the 12 shapes, each dimension's smallest and largest first.
    const Run r
        = runCli({QStringLiteral("sweep"), QStringLiteral("--package"), m_compile + QStringLiteral("/model.pt2"),
                  QStringLiteral("--from-capture"), m_capture, QStringLiteral("--capture-shapes"), QStringLiteral("4"),
                  QStringLiteral("--budget"), QStringLiteral("8"), QStringLiteral("--out"),
                  m_dir.filePath(QStringLiteral("sweep")), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(4000).constData());
    const QJsonObject s = TestSupport::result(r.out);
    const QJsonObject capture = s.value(QLatin1String("capture")).toObject();
    QCOMPARE(capture.value(QLatin1String("distinct")).toInt(), 12);
    QCOMPARE(capture.value(QLatin1String("left_out")).toInt(), 8);
    QVERIFY(capture.value(QLatin1String("chosen")).toString().startsWith(QLatin1String("4 of 12")));
    QSet<QString> labels;
    for (const auto &v :
         s.value(QLatin1String("targets")).toArray().at(0).toObject().value(QLatin1String("points")).toArray()) {
        const QJsonObject rec = v.toObject().value(QLatin1String("recorded")).toObject();
        if (!rec.isEmpty()) {
            labels.insert(rec.value(QLatin1String("label")).toString());
            QCOMPARE(v.toObject().value(QLatin1String("outcome")).toString(), QStringLiteral("match"));
        }
    }
    QCOMPARE(labels.size(), 4);
    // The smallest and largest batch and length are among them.
    QVERIFY(labels.contains(label(2, 8)) || labels.contains(label(2, 16)) || labels.contains(label(2, 24)));
    QVERIFY(labels.contains(label(8, 8)) || labels.contains(label(8, 16)) || labels.contains(label(8, 24)));
}

void TestCapture::exportBuildsTheProposedBuckets()
{
    QFile f(m_capture + QStringLiteral("/proposal.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject proposal = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonArray proposed
        = proposal.value(QLatin1String("buckets")).toObject().value(QLatin1String("buckets")).toArray();
    QVERIFY(!proposed.isEmpty());
    const Run r = runCli({QStringLiteral("export"), QStringLiteral("--model"), m_model,
                          QStringLiteral("--from-capture"), m_capture, QStringLiteral("--out"),
                          m_dir.filePath(QStringLiteral("bundle")), QStringLiteral("--no-zip"),
                          QStringLiteral("--cold-start-runs"), QStringLiteral("0"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(4000).constData());
    const QJsonObject e = TestSupport::result(r.out);
    const QJsonArray buckets = e.value(QLatin1String("buckets")).toArray();
    QCOMPARE(buckets.size(), proposed.size());
    const QJsonObject capture = e.value(QLatin1String("capture")).toObject();
    QCOMPARE(capture.value(QLatin1String("calls")).toInt(), 60);
    // The bundle's own bucket policy gives each bucket the share and the waste the proposal
    // predicted (two implementations of one definition: core/bundle policy, capture_propose.py).
    const QJsonArray rows = capture.value(QLatin1String("buckets")).toArray();
    QCOMPARE(rows.size(), proposed.size());
    double share = 0;
    for (int i = 0; i < rows.size(); ++i) {
        const QJsonObject row = rows.at(i).toObject(), want = proposed.at(i).toObject();
        QCOMPARE(buckets.at(i).toObject().value(QLatin1String("batch")).toInt(),
                 want.value(QLatin1String("batch")).toInt());
        QCOMPARE(row.value(QLatin1String("calls")).toInt(), want.value(QLatin1String("calls")).toInt());
        QVERIFY(qAbs(row.value(QLatin1String("share")).toDouble() - want.value(QLatin1String("share")).toDouble())
                < 1e-3);
        QVERIFY(qAbs(row.value(QLatin1String("waste")).toDouble() - want.value(QLatin1String("waste")).toDouble())
                < 1e-3);
        share += row.value(QLatin1String("share")).toDouble();
    }
    QCOMPARE(capture.value(QLatin1String("unserved")).toObject().value(QLatin1String("calls")).toInt(), 0);
    QVERIFY(qAbs(share - 1.0) < 1e-9);
    QVERIFY2(r.err.contains("of the recorded calls"), r.err.right(3000).constData());
}

QTEST_GUILESS_MAIN(TestCapture)
#include "tst_capture.moc"
