// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

/**
 * The engine's texts in the studio's language (core/protocol/FORMAT.md "Message ids"). The engine
 * sends each text it knows by id as English plus a sibling `*_msg` field {"id", "args"}; the studio
 * looks the id up in the catalog generated from core/protocol/messages.json (messagecatalog.cpp),
 * translates the catalog's text (translation context "EngineMessage", so lupdate and the .ts files
 * carry every one) and fills in the args. Anything without an id, or with an id this studio does
 * not know (a newer engine), is shown as the English the engine sent.
 */
namespace AotStudio::Client::EngineText {

/// One generated catalog entry: id, the text the studio shows (untranslated source), its args as
/// "name:type,..." (types: str, name, path, int, float, ms, s, bytes, percent).
struct CatalogEntry {
    const char *id;
    const char *text;
    const char *args;
};

/// The generated catalog (messagecatalog.cpp), in messages.json's order.
extern const CatalogEntry kCatalog[];
extern const int kCatalogSize;

/// The entry of `id`, nullptr when the catalog has none.
const CatalogEntry *find(const QString &id);

/**
 * `templ` with its placeholders filled from `args`: `{name}` (strings as given; numbers in the
 * UI locale's format: whole numbers with its group separators, others to 6 significant digits),
 * `{name:.Nf}`, `{name:.Ng}`, `{name:d}` (rounded); `{{`/`}}` are braces. The same rules as the
 * engine's Protocol::renderTemplate, with the locale's decimal point. A placeholder whose arg is
 * missing stays as written (so a bad translation shows, rather than hides, what it lost).
 */
QString fill(const QString &templ, const QJsonObject &args);

/// The text of `msg` ({"id", "args"}) in the UI language, or `english` when msg is not such an
/// object or its id is not in the catalog.
QString render(const QJsonValue &msg, const QString &english);

/// `object[key]` in the UI language: render(object[key + "_msg"], object[key].toString()).
QString field(const QJsonObject &object, const QString &key);

/// A list of texts `object[key]` (strings; blank ones skipped, the rest trimmed) in the UI
/// language, index for index with `object[key + "_msg"]` where it is there.
QStringList list(const QJsonObject &object, const QString &key);

/// A `progress` or `log` event's message in the UI language, led by its nested job's fields
/// (FORMAT.md: a quantize scheme "[int8-dynamic] ", an export bucket "b4: ", a tune trial
/// "[freezing] ").
QString eventMessage(const QJsonObject &event);

} // namespace AotStudio::Client::EngineText
