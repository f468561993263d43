// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportwriter.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <qcustomplot.h>
#include <unistd.h>

namespace AotStudio::Widgets {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("AotStudio::Widgets::ReportWriter", text);
}

QString csvField(QString s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))) {
        s.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    return s;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size() && f.flush();
}
} // namespace

ReportWriter::ReportWriter(QString title)
    : m_title(std::move(title))
{
}

void ReportWriter::addSummary(const QString &name, const QString &value, Tone tone)
{
    m_summary.append({name, value, tone});
}

void ReportWriter::addChart(const QString &id, const QString &caption, QCustomPlot *chart)
{
    if (chart)
        m_charts.append({id, caption, chart});
}

void ReportWriter::addTable(const QString &id, const QString &caption, const QAbstractItemModel *model)
{
    if (model)
        m_tables.append({id, caption, model});
}

QString ReportWriter::toCsv(const QAbstractItemModel *model)
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model->columnCount(); ++c)
        header.append(csvField(model->headerData(c, Qt::Horizontal).toString()));
    lines.append(header.join(QLatin1Char(',')));
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            cells.append(csvField(model->index(r, c).data().toString()));
        lines.append(cells.join(QLatin1Char(',')));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool ReportWriter::write(const QString &target, QString *error) const
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const QString clean = QDir::cleanPath(QFileInfo(target).absoluteFilePath());
    if (QFileInfo::exists(clean))
        return fail(tr("%1 already exists; choose a new folder name for the report.").arg(QDir::toNativeSeparators(clean)));
    const QString staging = clean + QStringLiteral(".partial-%1").arg(::getpid());
    QDir(staging).removeRecursively();
    if (!QDir().mkpath(staging + QStringLiteral("/charts")))
        return fail(tr("Cannot create %1: check that the folder is writable.").arg(QDir::toNativeSeparators(staging)));
    const auto abandon = [&](const QString &why) {
        QDir(staging).removeRecursively();
        return fail(why);
    };

    QString html;
    html += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
                           "<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                           "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
                           "font-size:13px}th{background:#f0f0f0}img{max-width:100%;border:1px solid #ddd}"
                           ".greyed{color:#9e9e9e}.verdict-ok{color:#1b5e20}"
                           ".verdict-noisy{color:#5c4700;background:#fff8d6}"
                           ".verdict-unreliable{color:#8e241c;background:#fdecea}"
                           ".verdict-unknown{color:#616161;background:#eeeeee}"
                           ".verify-passed{color:#1b5e20;font-weight:bold}"
                           ".verify-failed{color:#b71c1c;background:#fdecea;font-weight:bold}"
                           "</style></head><body>\n<h1>%1</h1>\n<p>%2</p>\n")
                .arg(m_title.toHtmlEscaped(),
                     tr("Written by AOT Studio %1 on %2.")
                         .arg(QCoreApplication::applicationVersion(),
                              QDateTime::currentDateTime().toString(Qt::ISODate))
                         .toHtmlEscaped());
    if (!m_summary.isEmpty()) {
        html += QStringLiteral("<table>\n");
        for (const auto &line : m_summary) {
            static const char *const classes[] = {"", "greyed", "verdict-ok", "verdict-noisy", "verdict-unreliable",
                                                  "verdict-unknown", "verify-passed", "verify-failed"};
            const QLatin1String css(classes[int(line.tone)]);
            html += QStringLiteral("<tr><th>%1</th><td%2>%3</td></tr>\n")
                        .arg(line.name.toHtmlEscaped(),
                             css.isEmpty() ? QString() : QStringLiteral(" class=\"%1\"").arg(css),
                             line.value.toHtmlEscaped());
        }
        html += QStringLiteral("</table>\n");
    }
    for (const auto &chart : m_charts) {
        const QString file = QStringLiteral("charts/%1.png").arg(chart.id);
        const int w = std::max(640, chart.plot->width());
        const int h = std::max(360, chart.plot->height());
        if (!chart.plot->savePng(staging + QLatin1Char('/') + file, w, h))
            return abandon(tr("Cannot write the chart %1 into %2.").arg(chart.id, QDir::toNativeSeparators(staging)));
        html += QStringLiteral("<h2>%1</h2>\n<img src=\"%2\" alt=\"%1\">\n").arg(chart.caption.toHtmlEscaped(), file);
    }
    for (const auto &table : m_tables) {
        const QString csv = table.id + QStringLiteral(".csv");
        if (!writeFile(staging + QLatin1Char('/') + csv, toCsv(table.model).toUtf8()))
            return abandon(tr("Cannot write %1 into %2.").arg(csv, QDir::toNativeSeparators(staging)));
        html += QStringLiteral("<h2>%1</h2>\n<p><a href=\"%2\">%2</a></p>\n<table>\n<tr>")
                    .arg(table.caption.toHtmlEscaped(), csv);
        for (int c = 0; c < table.model->columnCount(); ++c)
            html += QStringLiteral("<th>%1</th>").arg(table.model->headerData(c, Qt::Horizontal).toString().toHtmlEscaped());
        html += QStringLiteral("</tr>\n");
        for (int r = 0; r < table.model->rowCount(); ++r) {
            html += QStringLiteral("<tr>");
            for (int c = 0; c < table.model->columnCount(); ++c)
                html += QStringLiteral("<td>%1</td>").arg(table.model->index(r, c).data().toString().toHtmlEscaped());
            html += QStringLiteral("</tr>\n");
        }
        html += QStringLiteral("</table>\n");
    }
    html += QStringLiteral("</body></html>\n");
    if (!writeFile(staging + QStringLiteral("/index.html"), html.toUtf8()))
        return abandon(tr("Cannot write index.html into %1.").arg(QDir::toNativeSeparators(staging)));
    if (!QDir().rename(staging, clean))
        return abandon(tr("Cannot move the report into place at %1.").arg(QDir::toNativeSeparators(clean)));
    return true;
}

} // namespace AotStudio::Widgets
