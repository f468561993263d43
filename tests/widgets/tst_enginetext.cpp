// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's texts in the studio's language (FORMAT.md "Message ids"): every catalog id has a
// finished Simplified Chinese translation with the same placeholders, the args are filled in the
// UI locale's number format, unknown ids and plain texts fall back to the English the engine sent,
// and errors, log lines and measurement reasons arrive translated through the client's readers.
#include "client/engineerror.h"
#include "client/enginetext.h"
#include "client/measurement.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>
#include <QTranslator>
#include <QtTest/QtTest>

using namespace AotStudio::Client;

namespace {

QSet<QString> placeholders(const QString &text)
{
    QSet<QString> names;
    static const QRegularExpression field(QStringLiteral(R"((?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(:[^}]*)?\})"));
    for (auto it = field.globalMatch(text); it.hasNext();)
        names.insert(it.next().captured(1));
    return names;
}

QJsonObject msg(const char *id, const QJsonObject &args = {})
{
    return {{QStringLiteral("id"), QLatin1String(id)}, {QStringLiteral("args"), args}};
}

} // namespace

class TestEngineText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup()
    {
        if (m_zh) {
            QCoreApplication::removeTranslator(m_zh.get());
            m_zh.reset();
        }
        QLocale::setDefault(QLocale::c());
    }

    void everyIdIsTranslatedWithItsPlaceholders()
    {
        loadChinese();
        QVERIFY(EngineText::kCatalogSize > 10);
        QStringList missing;
        for (int i = 0; i < EngineText::kCatalogSize; ++i) {
            const auto &entry = EngineText::kCatalog[i];
            const QString source = QString::fromUtf8(entry.text);
            const QString zh = QCoreApplication::translate("EngineMessage", entry.text);
            if (zh == source) {
                missing << QString::fromUtf8(entry.id);
                continue;
            }
            QCOMPARE(placeholders(zh), placeholders(source));
            // Every placeholder names an arg of the entry.
            QSet<QString> args;
            for (const QString &item : QString::fromUtf8(entry.args).split(u',', Qt::SkipEmptyParts))
                args.insert(item.section(u':', 0, 0));
            QCOMPARE(placeholders(source), args);
        }
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("no zh_CN translation: ") + missing.join(QStringLiteral(", "))));
    }

    void fillUsesTheLocale()
    {
        const QJsonObject args{
            {QStringLiteral("x"), 1234.5678}, {QStringLiteral("n"), 3}, {QStringLiteral("s"), QStringLiteral("a{b}")}};
        QCOMPARE(EngineText::fill(QStringLiteral("{x:.2f} {x:.3g} {n} {n:d} {s} {{lit}} {gone}"), args),
                 QStringLiteral("1234.57 1.23e+03 3 3 a{b} {lit} {gone}"));
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(EngineText::fill(QStringLiteral("{x:.2f}"), args), QStringLiteral("1.234,57"));
    }

    void renderFallsBackToTheEnglish()
    {
        QCOMPARE(EngineText::render(QJsonValue(), QStringLiteral("plain")), QStringLiteral("plain"));
        QCOMPARE(EngineText::render(msg("no.such_id_from_a_newer_engine"), QStringLiteral("english")),
                 QStringLiteral("english"));
        // A known id: the studio's own text (naming the studio's action, not a command-line flag).
        const QString hint = EngineText::render(msg("load.file_missing.hint"), QStringLiteral("give --model ..."));
        QVERIFY2(hint.contains(QStringLiteral("Model → Open factory")), qPrintable(hint));
    }

    // Issue 35 item 3: the studio's texts name studio actions, never a command-line flag (an entry
    // whose text has one needs a "studio" text in messages.json).
    void studioTextsNameNoFlags()
    {
        static const QRegularExpression flag(QStringLiteral("(^|[\\s(])--[a-z]"));
        QStringList withFlags;
        for (int i = 0; i < EngineText::kCatalogSize; ++i) {
            const auto &entry = EngineText::kCatalog[i];
            if (QString::fromUtf8(entry.text).contains(flag))
                withFlags << QString::fromUtf8(entry.id);
        }
        QVERIFY2(withFlags.isEmpty(), qPrintable(withFlags.join(QStringLiteral(", "))));
        const QString hint = EngineText::render(msg("load.no_cuda.hint"), QStringLiteral("use --device cpu"));
        QVERIFY2(hint.contains(QStringLiteral("Device selector")), qPrintable(hint));
    }

    // The error event's `where` (the user's frames and source) reaches the studio as sent.
    void errorKeepsWhere()
    {
        const QJsonObject where{{QStringLiteral("frames"),
                                 QJsonArray{QJsonObject{{QStringLiteral("file"), QStringLiteral("/m/net.py")},
                                                        {QStringLiteral("line"), 6}}}}};
        const EngineError e = EngineError::fromJson(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                                                                {QStringLiteral("code"), QStringLiteral("model_error")},
                                                                {QStringLiteral("where"), where}});
        QCOMPARE(e.where, where);
        QVERIFY(
            EngineError::fromJson(QJsonObject{{QStringLiteral("code"), QStringLiteral("internal")}}).where.isEmpty());
    }

    void errorsAndReasonsArriveTranslated()
    {
        loadChinese();
        const QJsonObject event{
            {QStringLiteral("type"), QStringLiteral("error")},
            {QStringLiteral("stage"), QStringLiteral("load")},
            {QStringLiteral("code"), QStringLiteral("unknown_model")},
            {QStringLiteral("message"), QStringLiteral("model file '/m/net.py' does not exist")},
            {QStringLiteral("message_msg"),
             msg("load.file_missing", {{QStringLiteral("path"), QStringLiteral("/m/net.py")}})},
            {QStringLiteral("hint"), QStringLiteral("give --model as path/to/file.py:factory with an existing file")},
            {QStringLiteral("hint_msg"), msg("load.file_missing.hint")},
        };
        const EngineError e = EngineError::fromJson(event);
        QVERIFY2(e.message.contains(QLatin1String("/m/net.py")), qPrintable(e.message));
        QVERIFY2(!e.message.contains(QLatin1String("does not exist")), qPrintable(e.message));
        QVERIFY2(!e.hint.contains(QLatin1String("--model")), qPrintable(e.hint));

        const QJsonObject measurement{
            {QStringLiteral("verdict"), QStringLiteral("noisy")},
            {QStringLiteral("reasons"),
             QJsonArray{QStringLiteral("the CPU was thermally throttled 3 times while timing"),
                        QStringLiteral("an English reason without an id")}},
            {QStringLiteral("reasons_msg"), QJsonArray{msg("machine.throttled", {{QStringLiteral("count"), 3}})}},
            {QStringLiteral("notes"), QJsonArray{QStringLiteral("thermal throttling counters not readable")}},
            {QStringLiteral("notes_msg"), QJsonArray{msg("machine.throttle_unreadable")}},
        };
        const Measurement v = Measurement::fromJson(measurement);
        QCOMPARE(v.reasons.size(), 2);
        QVERIFY2(v.reasons.at(0).contains(u'3') && !v.reasons.at(0).contains(QLatin1String("throttled")),
                 qPrintable(v.reasons.at(0)));
        QCOMPARE(v.reasons.at(1), QStringLiteral("an English reason without an id"));
        QVERIFY2(!v.notes.value(0).contains(QLatin1String("not readable")), qPrintable(v.notes.value(0)));
    }

private:
    void loadChinese()
    {
        m_zh = std::make_unique<QTranslator>();
        QVERIFY(m_zh->load(QStringLiteral(":/i18n/aotstudio_zh_CN.qm")));
        QCoreApplication::installTranslator(m_zh.get());
    }

    std::unique_ptr<QTranslator> m_zh;
};

QTEST_GUILESS_MAIN(TestEngineText)
#include "tst_enginetext.moc"
