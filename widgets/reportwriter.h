// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>

class QAbstractItemModel;
class QCustomPlot;

namespace AotStudio::Widgets {

/**
 * Writes a report folder: index.html (summary, every chart as a PNG, every table), one PNG per
 * chart under charts/ and one CSV per table (RFC 4180 quoting). The folder is built under a
 * staging name next to the target and renamed into place at the end, so a failure (read-only
 * folder, full disk) leaves nothing half-written; an existing target is never overwritten.
 */
class ReportWriter
{
public:
    explicit ReportWriter(QString title);
    /// How a summary value is drawn: as is, greyed (a figure the verdict says not to trust),
    /// in a verdict's colours, or as a verification that passed or failed.
    enum class Tone { Plain, Greyed, Ok, Noisy, Unreliable, Unknown, Passed, Failed };
    /// A line of the summary list at the top ("Model", "sample:mlp").
    void addSummary(const QString &name, const QString &value, Tone tone = Tone::Plain);
    /// A chart rendered at its current size (at least 640x360) as charts/<id>.png.
    void addChart(const QString &id, const QString &caption, QCustomPlot *chart);
    /// A table written as <id>.csv and as an HTML table (display text of every cell).
    void addTable(const QString &id, const QString &caption, const QAbstractItemModel *model);
    /**
     * Writes the report to the folder `target` (must not exist). Returns false with `error`
     * naming the path and the reason (exists, cannot create, write failed).
     */
    bool write(const QString &target, QString *error) const;

    /// `model` as CSV text: a header row, then one row per model row; fields quoted when they
    /// hold a comma, quote or newline (RFC 4180).
    static QString toCsv(const QAbstractItemModel *model);

private:
    struct Chart
    {
        QString id;
        QString caption;
        QCustomPlot *plot;
    };
    struct Table
    {
        QString id;
        QString caption;
        const QAbstractItemModel *model;
    };
    QString m_title;
    struct SummaryLine
    {
        QString name;
        QString value;
        Tone tone;
    };
    QList<SummaryLine> m_summary;
    QList<Chart> m_charts;
    QList<Table> m_tables;
};

} // namespace AotStudio::Widgets
