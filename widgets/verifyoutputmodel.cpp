// SPDX-License-Identifier: GPL-3.0-or-later
#include "verifyoutputmodel.h"

#include "numberformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

#include <cmath>

namespace AotStudio::Widgets {

namespace {
const QColor PassedColor(0x1b, 0x5e, 0x20);
const QColor FailedColor(0xb7, 0x1c, 0x1c);
} // namespace

VerifyOutputModel::VerifyOutputModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    setOutputs({});
}

void VerifyOutputModel::setOutputs(const QList<Client::VerifyOutput> &outputs, double tolerance,
                                   const QString &referenceDtype)
{
    beginResetModel();
    m_outputs = outputs;
    m_tolerance = tolerance;
    m_referenceDtype = referenceDtype;
    m_reference = std::any_of(outputs.begin(), outputs.end(),
                              [](const Client::VerifyOutput &o) { return o.hasReferenceErrors(); });
    m_columns.clear();
    for (int c = 0; c < ColumnCount; ++c) {
        if (m_reference || (c != CompiledReferenceColumn && c != EagerReferenceColumn))
            m_columns << Column(c);
    }
    endResetModel();
}

void VerifyOutputModel::clear()
{
    setOutputs({});
}

int VerifyOutputModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_outputs.size());
}

int VerifyOutputModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return int(m_columns.size());
}

QVariant VerifyOutputModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Client::VerifyOutput &o = m_outputs.at(index.row());
    const Column column = m_columns.at(index.column());
    const auto number = [](double value, char format, int precision) -> QVariant {
        return std::isnan(value) ? QStringLiteral("—") : formatNumber(value, format, precision);
    };
    const auto raw = [](double value) { return std::isnan(value) ? QVariant() : QVariant(value); };
    const bool failed = o.passed.has_value() && !*o.passed;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return o.name;
        case ShapeColumn:
            return o.shapeText();
        case DtypeColumn:
            return o.dtype.isEmpty() ? QStringLiteral("—") : o.dtype;
        case MaxAbsErrorColumn:
            return number(o.maxAbsError, 'g', 3);
        case MaxRelErrorColumn:
            return number(o.maxRelError, 'g', 3);
        case CosineColumn:
            return number(o.cosine, 'f', 6);
        case PassedColumn:
            return !o.passed.has_value() ? QStringLiteral("—") : *o.passed ? tr("passed") : tr("FAILED");
        case CompiledReferenceColumn:
            return number(o.compiledReferenceError, 'g', 3);
        case EagerReferenceColumn:
            return number(o.eagerReferenceError, 'g', 3);
        }
        return {};
    case SortRole:
        switch (column) {
        case MaxAbsErrorColumn:
            return raw(o.maxAbsError);
        case MaxRelErrorColumn:
            return raw(o.maxRelError);
        case CosineColumn:
            return raw(o.cosine);
        case PassedColumn:
            return o.passed.has_value() ? QVariant(*o.passed) : QVariant();
        case CompiledReferenceColumn:
            return raw(o.compiledReferenceError);
        case EagerReferenceColumn:
            return raw(o.eagerReferenceError);
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        if (column == PassedColumn && o.passed.has_value()) {
            const QString tol = std::isnan(m_tolerance) ? tr("the tolerance") : formatNumber(m_tolerance, 'g', 3);
            if (o.hasReferenceErrors())
                return (*o.passed ? tr("The compiled output is at most %1 further from the %2 reference than eager is.")
                                  : tr("The compiled output is more than %1 further from the %2 reference than eager is."))
                    .arg(tol, m_referenceDtype.isEmpty() ? tr("higher-precision") : m_referenceDtype);
            return (*o.passed ? tr("Max abs error against eager within %1.") : tr("Max abs error against eager above %1."))
                .arg(tol);
        }
        if (column == CompiledReferenceColumn || column == EagerReferenceColumn)
            return tr("Max abs error against the %1 reference (the same model and inputs in higher precision)")
                .arg(m_referenceDtype.isEmpty() ? tr("higher-precision") : m_referenceDtype);
        return data(index, Qt::DisplayRole);
    case Qt::ForegroundRole:
        if (o.passed.has_value() && (failed || column == PassedColumn))
            return QBrush(failed ? FailedColor : PassedColor);
        return {};
    case Qt::FontRole:
        if (failed && (column == NameColumn || column == PassedColumn)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        return column == NameColumn || column == PassedColumn || column == ShapeColumn || column == DtypeColumn
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant VerifyOutputModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0
        || section >= m_columns.size())
        return {};
    section = m_columns.at(section);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case MaxRelErrorColumn:
            return tr("max |compiled − eager| / max(|eager|, 1e-12)");
        case CosineColumn:
            return tr("Cosine similarity of compiled and eager (the smallest over the calls)");
        case CompiledReferenceColumn:
            return tr("Max abs error of the package against the higher-precision reference");
        case EagerReferenceColumn:
            return tr("Max abs error of eager against the higher-precision reference");
        default:
            return {};
        }
    }
    switch (section) {
    case NameColumn:
        return tr("Output");
    case ShapeColumn:
        return tr("Shape");
    case DtypeColumn:
        return tr("Dtype");
    case MaxAbsErrorColumn:
        return tr("Max abs error");
    case MaxRelErrorColumn:
        return tr("Max rel error");
    case CosineColumn:
        return tr("Cosine");
    case PassedColumn:
        return tr("Result");
    case CompiledReferenceColumn:
        return tr("Compiled vs ref.");
    case EagerReferenceColumn:
        return tr("Eager vs ref.");
    }
    return {};
}

} // namespace AotStudio::Widgets
