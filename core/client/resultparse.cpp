// SPDX-License-Identifier: GPL-3.0-or-later
#include "resultparse.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <limits>

namespace AotStudio::Client {

QString fieldPath(const QString &at, QLatin1String key)
{
    return at.isEmpty() ? QString(key) : at + QLatin1Char('.') + key;
}

namespace {
const char *typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool:
        return "a boolean";
    case QJsonValue::Double:
        return "a number";
    case QJsonValue::String:
        return "a string";
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    default:
        return "null";
    }
}
} // namespace

void ResultReader::fail(const QString &at, const QString &what)
{
    if (m_error.isEmpty())
        m_error = QStringLiteral("%1: %2: %3").arg(m_what, at.isEmpty() ? QStringLiteral("(top level)") : at, what);
}

bool ResultReader::typed(const QJsonValue &v, bool ok, const QString &at, QLatin1String key, const char *expected)
{
    if (v.isUndefined() || v.isNull())
        return false;
    if (!ok) {
        fail(fieldPath(at, key),
             QStringLiteral("expected %1, got %2").arg(QLatin1String(expected), QLatin1String(typeName(v))));
        return false;
    }
    return true;
}

double ResultReader::number(const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QJsonValue v = o.value(key);
    return typed(v, v.isDouble(), at, key, "a number") ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

int ResultReader::integer(const QJsonObject &o, QLatin1String key, const QString &at, int fallback)
{
    const QJsonValue v = o.value(key);
    if (!typed(v, v.isDouble(), at, key, "a number"))
        return fallback;
    const double d = v.toDouble();
    if (d != std::floor(d) || d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max()) {
        fail(fieldPath(at, key), QStringLiteral("expected an integer, got %1").arg(d));
        return fallback;
    }
    return int(d);
}

int ResultReader::count(const QJsonObject &o, QLatin1String key, const QString &at)
{
    const int n = integer(o, key, at);
    if (n < 0) {
        fail(fieldPath(at, key), QStringLiteral("expected a count, got %1").arg(n));
        return 0;
    }
    return n;
}

QString ResultReader::string(const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QJsonValue v = o.value(key);
    return typed(v, v.isString(), at, key, "a string") ? v.toString() : QString();
}

bool ResultReader::boolean(const QJsonObject &o, QLatin1String key, bool fallback, const QString &at)
{
    const QJsonValue v = o.value(key);
    return typed(v, v.isBool(), at, key, "a boolean") ? v.toBool() : fallback;
}

int ResultReader::tristate(const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QJsonValue v = o.value(key);
    return typed(v, v.isBool(), at, key, "a boolean") ? int(v.toBool()) : -1;
}

QJsonObject ResultReader::object(const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QJsonValue v = o.value(key);
    return typed(v, v.isObject(), at, key, "an object") ? v.toObject() : QJsonObject();
}

QJsonArray ResultReader::array(const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QJsonValue v = o.value(key);
    return typed(v, v.isArray(), at, key, "an array") ? v.toArray() : QJsonArray();
}

QStringList ResultReader::strings(const QJsonObject &o, QLatin1String key, const QString &at)
{
    QStringList out;
    const QJsonArray a = array(o, key, at);
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a.at(i).isString()) {
            fail(QStringLiteral("%1[%2]").arg(fieldPath(at, key)).arg(i),
                 QStringLiteral("expected a string, got %1").arg(QLatin1String(typeName(a.at(i)))));
            break;
        }
        out << a.at(i).toString();
    }
    return out;
}

QJsonObject ResultReader::element(const QJsonArray &a, qsizetype i, const QString &at)
{
    const QJsonValue v = a.at(i);
    if (!v.isObject()) {
        fail(QStringLiteral("%1[%2]").arg(at).arg(i),
             QStringLiteral("expected an object, got %1").arg(QLatin1String(typeName(v))));
        return {};
    }
    return v.toObject();
}

bool ResultReader::document(const QByteArray &json, QJsonObject *out)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        fail({}, QStringLiteral("not JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
        return false;
    }
    if (!doc.isObject()) {
        fail({}, QStringLiteral("expected an object"));
        return false;
    }
    *out = doc.object();
    return true;
}

} // namespace AotStudio::Client
