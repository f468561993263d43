// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipelinemodel.h"

#include "numberformat.h"

#include "client/stagenames.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace AotStudio::Widgets {

PipelineModel::PipelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PipelineModel::setSnapshots(const QList<Client::SnapshotRecord> &snapshots)
{
    if (snapshots == m_snapshots)
        return;
    m_snapshots = snapshots;
    rebuild();
}

void PipelineModel::setStages(const QList<Client::StageRecord> &stages, double wallSeconds)
{
    const bool same = m_wall == wallSeconds && m_stages.size() == stages.size()
                      && std::equal(m_stages.cbegin(), m_stages.cend(), stages.cbegin(),
                                    [](const Client::StageRecord &a, const Client::StageRecord &b) {
                                        return a.name == b.name && a.seconds == b.seconds && a.parts == b.parts;
                                    });
    if (same)
        return;
    m_stages = stages;
    m_wall = wallSeconds;
    rebuild();
}

void PipelineModel::setRunningStage(const QString &stage)
{
    if (stage == m_running)
        return;
    m_running = stage;
    rebuild();
}

double PipelineModel::accountedSeconds() const
{
    double sum = 0;
    for (const auto &s : m_stages)
        sum += s.seconds;
    return sum;
}

namespace {

/// The engine stage a snapshot's graph stage is taken in (FORMAT.md `snapshot`): the exported
/// graph in `export`, the core ATen graph in `decompose`, Inductor's graphs in `compile`.
QString engineStageOf(const QString &graphStage)
{
    if (graphStage == QLatin1String("capture"))
        return QStringLiteral("export");
    if (graphStage == QLatin1String("decompose"))
        return QStringLiteral("decompose");
    return QStringLiteral("compile");
}

/// A short name of an engine stage for the table's Stage column (the status bar and the log use
/// the long StageNames::displayName): one or two words, so the column stays narrow on a laptop.
QString shortStageName(const QString &stage)
{
    if (stage == QLatin1String("load"))
        return PipelineModel::tr("load");
    if (stage == QLatin1String("export"))
        return PipelineModel::tr("export");
    if (stage == QLatin1String("decompose"))
        return PipelineModel::tr("decompose");
    if (stage == QLatin1String("compile"))
        return PipelineModel::tr("compile");
    if (stage == QLatin1String("load_package"))
        return PipelineModel::tr("load package");
    if (stage == QLatin1String("verify"))
        return PipelineModel::tr("verify");
    if (stage == QLatin1String("measure"))
        return PipelineModel::tr("measure");
    return Client::StageNames::displayName(stage);
}

/// Time below this is not worth a row of its own (1 ms).
constexpr double kMinRowSeconds = 0.001;

} // namespace

QList<PipelineModel::Row> PipelineModel::accountRows() const
{
    QList<Row> rows;
    QList<bool> shown(m_snapshots.size(), false);
    for (const auto &stage : m_stages) {
        double inRows = 0;
        bool any = false;
        for (qsizetype i = 0; i < m_snapshots.size(); ++i) {
            if (shown[i] || engineStageOf(m_snapshots[i].stage) != stage.name)
                continue;
            shown[i] = true;
            any = true;
            inRows += m_snapshots[i].seconds;
            rows.append(Row{Row::Snapshot, int(i), stage.name, {}, m_snapshots[i].seconds});
        }
        for (const auto &part : stage.parts) {
            any = true;
            inRows += part.seconds;
            rows.append(Row{Row::Part, -1, stage.name, part.name, part.seconds});
        }
        if (!any)
            rows.append(Row{Row::Stage, -1, stage.name, {}, stage.seconds});
        else if (stage.seconds - inRows >= kMinRowSeconds)
            rows.append(Row{Row::Rest, -1, stage.name, {}, stage.seconds - inRows});
    }
    for (qsizetype i = 0; i < m_snapshots.size(); ++i) // the running stage's, or a recording's
        if (!shown[i])
            rows.append(Row{Row::Snapshot, int(i), engineStageOf(m_snapshots[i].stage), {}, m_snapshots[i].seconds});
    if (m_wall >= 0)
        rows.append(Row{Row::Unattributed, -1, {}, {}, std::max(0.0, m_wall - accountedSeconds())});
    if (!m_running.isEmpty())
        rows.append(Row{Row::Running, -1, {}, {}, 0});
    return rows;
}

void PipelineModel::rebuild()
{
    QList<Row> rows = accountRows();
    if (rows == m_rows) {
        if (!m_rows.isEmpty() && m_rows.last().kind == Row::Running) // its text may have changed
            Q_EMIT dataChanged(index(int(m_rows.size()) - 1, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
        return;
    }
    // Extend in place where the new rows continue the shown ones: the running row goes, the new
    // rows come, so the selection and the scroll position stay while a job runs.
    QList<Row> shown = m_rows;
    if (!shown.isEmpty() && shown.last().kind == Row::Running)
        shown.removeLast();
    if (shown.size() <= rows.size() && std::equal(shown.cbegin(), shown.cend(), rows.cbegin())) {
        if (shown.size() < m_rows.size()) {
            beginRemoveRows({}, int(shown.size()), int(shown.size()));
            m_rows = shown;
            endRemoveRows();
        }
        if (rows.size() > m_rows.size()) {
            beginInsertRows({}, int(m_rows.size()), int(rows.size()) - 1);
            m_rows = rows;
            endInsertRows();
        }
        return;
    }
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int PipelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PipelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PipelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StageColumn: return tr("Stage");
    case PassColumn: return tr("Pass");
    case NodesColumn: return tr("Nodes");
    case DeltaColumn: return tr("Δ nodes");
    case TimeColumn: return tr("Time (ms)");
    default: return {};
    }
}

QVariant PipelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[index.row()];
    if (role == SortRole && index.column() != TimeColumn && index.column() != NodesColumn
        && index.column() != DeltaColumn)
        return index.row(); // pipeline order
    if (row.kind == Row::Snapshot)
        return snapshotData(row, index.column(), role);
    if (role == SortRole)
        return index.column() == TimeColumn ? QVariant(row.seconds) : QVariant(index.row());
    return timeRowData(row, index.column(), role);
}

QVariant PipelineModel::timeRowData(const Row &row, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (row.kind) {
        case Row::Running:
            return column == StageColumn ? shortStageName(m_running) : column == PassColumn ? tr("running…") : QVariant();
        case Row::Unattributed:
            if (column == StageColumn)
                return tr("unattributed");
            break;
        case Row::Part:
            if (column == StageColumn)
                return shortStageName(row.stage);
            if (column == PassColumn)
                return row.part == QLatin1String("native_build") ? tr("C++ build (compiler, linker)") : row.part;
            break;
        case Row::Rest:
            if (column == StageColumn)
                return shortStageName(row.stage);
            if (column == PassColumn)
                return row.stage == QLatin1String("compile") ? tr("lowering, codegen, packaging")
                                                             : tr("rest of the stage");
            break;
        default:
            if (column == StageColumn)
                return shortStageName(row.stage);
            break;
        }
        if (column == TimeColumn && row.kind != Row::Running)
            return formatNumber(row.seconds * 1e3, 'f', row.seconds < 0.01 ? 3 : 1);
        return {};
    case Qt::FontRole:
        if (row.kind == Row::Running || row.kind == Row::Unattributed) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column >= NodesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        switch (row.kind) {
        case Row::Running: return tr("The stage the job is running now; its passes appear as they finish.");
        case Row::Unattributed:
            return tr("Engine time no stage claims: from receiving the request to sending its result, less the "
                      "stages' times (waiting in the queue, writing the result files).");
        case Row::Part:
            return row.part == QLatin1String("native_build")
                       ? tr("Wall time of the native compiler and linker Inductor ran to build the package.")
                       : QString();
        case Row::Rest:
            return row.stage == QLatin1String("compile")
                       ? tr("The compile stage's time outside its passes and the C++ build: Inductor's lowering, "
                            "scheduling and fusion, code generation and writing the package.")
                       : tr("The stage's time outside the rows above.");
        default: return tr("The whole stage: no pass of it is listed.");
        }
    case ChangedRole: return true;
    case SnapshotIndexRole: return -1;
    case SecondsRole: return row.kind == Row::Running ? QVariant() : QVariant(row.seconds);
    default: return {};
    }
}

QVariant PipelineModel::snapshotData(const Row &row, int column, int role) const
{
    const auto &s = m_snapshots[row.snapshot];
    const int delta = s.previousNodes >= 0 ? s.nodes - s.previousNodes : 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case StageColumn: return s.stage;
        case PassColumn: return s.pass;
        case NodesColumn: return s.nodes;
        case DeltaColumn:
            if (s.previousNodes < 0)
                return QString();
            return delta > 0 ? QStringLiteral("+%1").arg(delta) : QString::number(delta);
        case TimeColumn:
            if (s.reused)
                return tr("reused");
            return formatNumber(s.seconds * 1e3, 'f', s.seconds < 0.01 ? 3 : 1);
        }
        break;
    case SortRole:
        switch (column) {
        case NodesColumn: return s.nodes;
        case DeltaColumn: return delta;
        default: return s.seconds;
        }
    case Qt::ForegroundRole:
        if (!s.changed || (!s.graph && column != StageColumn))
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        if (column == DeltaColumn && delta != 0)
            return QBrush(delta < 0 ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
        break;
    case Qt::TextAlignmentRole:
        if (column >= NodesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ToolTipRole:
        if (s.reused)
            return tr("Reused from the compile cache: this pass ran in an earlier compile of the same program, "
                      "so it took no time in this job.\n%1")
                .arg(s.path);
        if (!s.changed)
            return tr("This pass ran and left the graph unchanged.");
        if (s.stage == QLatin1String("fusion"))
            return tr("Scheduler fusion: %1 nodes before, %2 after.").arg(s.previousNodes).arg(s.nodes);
        if (s.stage == QLatin1String("codegen"))
            return tr("%n generated kernel(s) and library calls.", nullptr, s.nodes);
        return s.path.isEmpty() ? tr("No snapshot was written (snapshots were off).") : s.path;
    case ChangedRole: return s.changed;
    case SnapshotIndexRole: return row.snapshot;
    case PathRole: return s.path;
    case SecondsRole: return s.seconds;
    }
    return {};
}

PipelineFilterModel::PipelineFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(PipelineModel::SortRole);
}

void PipelineFilterModel::setShowUnchanged(bool show)
{
    if (show == m_showUnchanged)
        return;
    m_showUnchanged = show;
    invalidateFilter();
}

bool PipelineFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_showUnchanged)
        return true;
    return sourceModel()->index(sourceRow, 0, sourceParent).data(PipelineModel::ChangedRole).toBool();
}

} // namespace AotStudio::Widgets
