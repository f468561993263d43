// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetablemodel.h"

#include <QFont>
#include <QJsonArray>

namespace AotStudio::Widgets {

NodeTableModel::NodeTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void NodeTableModel::setSnapshot(std::shared_ptr<const Client::SnapshotFile> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    endResetModel();
}

void NodeTableModel::setHighlighted(const QStringList &nodes)
{
    m_highlighted = QSet<QString>(nodes.begin(), nodes.end());
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::FontRole, HighlightRole});
}

int NodeTableModel::rowOf(const QString &name) const
{
    if (!m_snapshot)
        return -1;
    const auto &nodes = m_snapshot->nodes();
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes[i].toObject().value(QLatin1String("id")).toString() == name)
            return i;
    }
    return -1;
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_snapshot ? 0 : int(m_snapshot->nodes().size());
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Node");
    case OpColumn: return tr("Op");
    case TargetColumn: return tr("Target");
    case OutputColumn: return tr("Output");
    case ModuleColumn: return tr("Module");
    case SourceColumn: return tr("Source line");
    }
    return {};
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject n = m_snapshot->nodes()[index.row()].toObject();
    const QString name = n.value(QLatin1String("id")).toString();
    const auto output = [&] {
        QStringList outs;
        for (const auto &o : n.value(QLatin1String("outputs")).toArray()) {
            const QJsonObject t = o.toObject();
            QStringList dims;
            for (const auto &d : t.value(QLatin1String("shape")).toArray())
                dims.append(d.isDouble() ? QString::number(d.toInteger()) : d.toString());
            outs.append(QStringLiteral("%1[%2]").arg(t.value(QLatin1String("dtype")).toString(), dims.join(QLatin1Char(','))));
        }
        return outs.join(QStringLiteral("; "));
    };
    const auto source = [&] {
        const QJsonObject s = n.value(QLatin1String("source")).toObject();
        if (s.isEmpty())
            return QString();
        return QStringLiteral("%1:%2").arg(s.value(QLatin1String("file")).toString().section(QLatin1Char('/'), -1))
            .arg(s.value(QLatin1String("line")).toInt());
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return name;
        case OpColumn: return n.value(QLatin1String("op")).toString();
        case TargetColumn: return n.value(QLatin1String("target")).toString();
        case OutputColumn: return output();
        case ModuleColumn: return n.value(QLatin1String("module")).toString();
        case SourceColumn: return source();
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == SourceColumn)
            return n.value(QLatin1String("source")).toObject().value(QLatin1String("code")).toString();
        break;
    case Qt::FontRole:
        if (m_highlighted.contains(name)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        break;
    case FilterRole:
        return QStringList{name, n.value(QLatin1String("op")).toString(), n.value(QLatin1String("target")).toString(),
                           n.value(QLatin1String("module")).toString(), source(),
                           n.value(QLatin1String("source")).toObject().value(QLatin1String("code")).toString()}
            .join(QLatin1Char(' '));
    case NameRole: return name;
    case HighlightRole: return m_highlighted.contains(name);
    }
    return {};
}

} // namespace AotStudio::Widgets
