// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <memory>

namespace AotStudio::Client {

/**
 * A result object parsed once: the value shared by every view, or why the input was refused.
 * Parsers (parseProfileResult(), parseQuantizeResult()) never throw and never crash on bad
 * input; a fuzz target calls them with arbitrary bytes.
 */
template<class T>
struct Parsed {
    std::shared_ptr<const T> value; ///< null when refused
    QString error; ///< names the field and what was wrong; empty when parsed

    bool ok() const { return value != nullptr; }
    static Parsed refused(QString why) { return {nullptr, std::move(why)}; }
};

/**
 * Reads the fields of one result object, remembering the first field of the wrong type. Absent
 * and null fields read as "missing" (NaN, 0, empty): results from older engines lack fields this
 * version knows, and that is not an error. A field of another JSON type than its schema says is.
 */
class ResultReader
{
public:
    explicit ResultReader(QString what)
        : m_what(std::move(what))
    { }

    /// A number; NaN when absent or null.
    double number(const QJsonObject &o, QLatin1String key, const QString &at = {});
    /// A count (integer, 0 .. 2^31-1); 0 when absent or null.
    int count(const QJsonObject &o, QLatin1String key, const QString &at = {});
    /// An integer that may be negative; `fallback` when absent or null.
    int integer(const QJsonObject &o, QLatin1String key, const QString &at = {}, int fallback = 0);
    QString string(const QJsonObject &o, QLatin1String key, const QString &at = {});
    bool boolean(const QJsonObject &o, QLatin1String key, bool fallback, const QString &at = {});
    /// -1 absent or null, 0 false, 1 true.
    int tristate(const QJsonObject &o, QLatin1String key, const QString &at = {});
    QJsonObject object(const QJsonObject &o, QLatin1String key, const QString &at = {});
    QJsonArray array(const QJsonObject &o, QLatin1String key, const QString &at = {});
    /// The strings of an array of strings.
    QStringList strings(const QJsonObject &o, QLatin1String key, const QString &at = {});
    /// Element `i` of an array of objects (an error when it is not an object).
    QJsonObject element(const QJsonArray &a, qsizetype i, const QString &at);

    /// Records a problem found by the caller (first one wins).
    void fail(const QString &at, const QString &what);
    bool failed() const { return !m_error.isEmpty(); }
    QString error() const { return m_error; }

    /// Parses `json` as one object; false (with error()) for anything else.
    bool document(const QByteArray &json, QJsonObject *out);

private:
    bool typed(const QJsonValue &v, bool ok, const QString &at, QLatin1String key, const char *expected);
    QString m_what;
    QString m_error;
};

/// "a.b" or "b" when `at` is empty.
QString fieldPath(const QString &at, QLatin1String key);

/// `json` (the bytes of a result file) as one object handed to `parseObject` (a
/// `Parsed<T>(const QJsonObject &)`), or refused naming `what` when it is not one object: the one
/// "parse from bytes" of every typed result.
template<class T, class F>
Parsed<T> parseDocument(const QByteArray &json, const QString &what, F &&parseObject)
{
    ResultReader r(what);
    QJsonObject o;
    if (!r.document(json, &o))
        return Parsed<T>::refused(r.error());
    return parseObject(o);
}

} // namespace AotStudio::Client
