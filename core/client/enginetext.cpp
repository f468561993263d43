// SPDX-License-Identifier: GPL-3.0-or-later
#include "enginetext.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QLocale>

#include <cmath>

namespace AotStudio::Client::EngineText {

const CatalogEntry *find(const QString &id)
{
    static const QHash<QString, const CatalogEntry *> index = [] {
        QHash<QString, const CatalogEntry *> h;
        for (int i = 0; i < kCatalogSize; ++i)
            h.insert(QString::fromUtf8(kCatalog[i].id), &kCatalog[i]);
        return h;
    }();
    return index.value(id, nullptr);
}

namespace {

QString number(const QJsonValue &value, QStringView spec)
{
    const QLocale locale;
    const double v = value.toDouble();
    if (spec == u"d")
        return locale.toString(qint64(std::llround(v)));
    if (spec.size() >= 3 && spec.front() == u'.' && (spec.back() == u'f' || spec.back() == u'g')) {
        bool ok = false;
        const int digits = spec.mid(1, spec.size() - 2).toInt(&ok);
        if (ok)
            return locale.toString(v, spec.back() == u'f' ? 'f' : 'g', digits);
    }
    if (v == std::trunc(v) && std::abs(v) < 1e15)
        return locale.toString(qint64(v));
    return locale.toString(v, 'g', 6);
}

} // namespace

QString fill(const QString &templ, const QJsonObject &args)
{
    QString out;
    out.reserve(templ.size() + 32);
    for (qsizetype i = 0; i < templ.size(); ++i) {
        const QChar c = templ.at(i);
        if ((c == u'{' || c == u'}') && i + 1 < templ.size() && templ.at(i + 1) == c) {
            out += c;
            ++i;
            continue;
        }
        const qsizetype close = c == u'{' ? templ.indexOf(u'}', i) : -1;
        if (close < 0) {
            out += c;
            continue;
        }
        const QStringView field = QStringView(templ).mid(i + 1, close - i - 1);
        const qsizetype colon = field.indexOf(u':');
        const QString name = (colon < 0 ? field : field.left(colon)).toString();
        const QStringView spec = colon < 0 ? QStringView() : field.mid(colon + 1);
        const auto it = args.constFind(name);
        if (it == args.constEnd())
            out += QStringView(templ).mid(i, close - i + 1);
        else if (it->isString())
            out += it->toString();
        else if (it->isDouble())
            out += number(*it, spec);
        else if (it->isBool())
            out += it->toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else
            out += QStringView(templ).mid(i, close - i + 1);
        i = close;
    }
    return out;
}

QString render(const QJsonValue &msg, const QString &english)
{
    if (!msg.isObject())
        return english;
    const QJsonObject o = msg.toObject();
    const CatalogEntry *entry = find(o.value(QLatin1String("id")).toString());
    if (!entry)
        return english;
    return fill(QCoreApplication::translate("EngineMessage", entry->text), o.value(QLatin1String("args")).toObject());
}

QString field(const QJsonObject &object, const QString &key)
{
    return render(object.value(key + QLatin1String("_msg")), object.value(key).toString());
}

QStringList list(const QJsonObject &object, const QString &key)
{
    const QJsonArray english = object.value(key).toArray();
    const QJsonArray msgs = object.value(key + QLatin1String("_msg")).toArray();
    QStringList out;
    out.reserve(english.size());
    for (qsizetype i = 0; i < english.size(); ++i) {
        const QString text = english.at(i).toString().trimmed();
        if (!text.isEmpty())
            out.append(render(i < msgs.size() ? msgs.at(i) : QJsonValue(), text));
    }
    return out;
}

QString eventMessage(const QJsonObject &o)
{
    QString message = field(o, QStringLiteral("message"));
    if (o.value(QLatin1String("trial")).isString())
        message = QLatin1Char('[') + o.value(QLatin1String("trial")).toString() + QLatin1String("] ") + message;
    if (o.value(QLatin1String("bucket")).isString())
        message = o.value(QLatin1String("bucket")).toString() + QLatin1String(": ") + message;
    if (o.value(QLatin1String("scheme")).isString())
        message = QLatin1Char('[') + o.value(QLatin1String("scheme")).toString() + QLatin1String("] ") + message;
    return message;
}

} // namespace AotStudio::Client::EngineText
