// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetablemodel.h"

#include <QFont>

namespace AotStudio::Widgets {

NodeTableModel::NodeTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void NodeTableModel::setSnapshot(std::shared_ptr<const Graph::Snapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    endResetModel();
}

QString NodeTableModel::outputText(const Graph::Node &node, const QString &separator)
{
    QStringList outs;
    if (!node.outputs.is_array())
        return {};
    for (const auto &t : node.outputs) {
        if (!t.is_object())
            continue;
        QStringList dims;
        if (const auto shape = t.find("shape"); shape != t.end() && shape->is_array()) {
            for (const auto &d : *shape)
                dims.append(d.is_number() ? QString::number(d.get<qint64>())
                                          : d.is_string() ? QString::fromStdString(d.get<std::string>()) : QString());
        }
        const auto dtype = t.find("dtype");
        outs.append(QStringLiteral("%1[%2]").arg(dtype != t.end() && dtype->is_string()
                                                     ? QString::fromStdString(dtype->get<std::string>())
                                                     : QString(),
                                                 dims.join(separator)));
    }
    return outs.join(QStringLiteral("; "));
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
    const auto it = m_snapshot->byId.find(name.toStdString());
    return it == m_snapshot->byId.end() ? -1 : int(it->second);
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_snapshot ? 0 : int(m_snapshot->nodes.size());
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
    const Graph::Node &n = m_snapshot->nodes[std::size_t(index.row())];
    const auto text = [](const std::string &s) { return QString::fromStdString(s); };
    const QString name = text(n.id);
    const auto source = [&] {
        if (n.source.line == 0 && n.source.file.empty())
            return QString();
        return QStringLiteral("%1:%2").arg(text(n.source.file).section(QLatin1Char('/'), -1)).arg(n.source.line);
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return name;
        case OpColumn: return text(n.op);
        case TargetColumn: return text(n.target);
        case OutputColumn: return outputText(n);
        case ModuleColumn: return text(n.module);
        case SourceColumn: return source();
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == SourceColumn)
            return text(n.source.code);
        break;
    case Qt::FontRole:
        if (m_highlighted.contains(name)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        break;
    case FilterRole:
        return QStringList{name, text(n.op), text(n.target), text(n.module), source(), text(n.source.code)}
            .join(QLatin1Char(' '));
    case NameRole: return name;
    case HighlightRole: return m_highlighted.contains(name);
    }
    return {};
}

} // namespace AotStudio::Widgets
