// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweeppointmodel.h"

#include "numberformat.h"

#include <QBrush>

namespace AotStudio::Widgets {

using Client::SweepPoint;

QString SweepPointModel::sizesText(const SweepPoint &p)
{
    QStringList parts;
    for (auto it = p.values.begin(); it != p.values.end(); ++it)
        parts << it.key() + QLatin1Char('=') + QString::number(it.value());
    return parts.join(QLatin1Char(' '));
}

QColor SweepPointModel::outcomeColor(const SweepPoint &p)
{
    if (!p.ok)
        return QColor(0xc6, 0x28, 0x28);
    switch (p.outcome) {
    case SweepPoint::Outcome::Match:
        return QColor(0x2e, 0x7d, 0x32);
    case SweepPoint::Outcome::Refused:
        return QColor(0x78, 0x90, 0x9c);
    case SweepPoint::Outcome::EagerError:
        return QColor(0xf9, 0xa8, 0x25);
    default:
        return QColor(0x9e, 0x9e, 0x9e);
    }
}

QString SweepPointModel::outcomeText(const SweepPoint &p)
{
    switch (p.outcome) {
    case SweepPoint::Outcome::Match:
        return tr("matched eager");
    case SweepPoint::Outcome::Mismatch:
        return tr("differs from eager");
    case SweepPoint::Outcome::EagerError:
        return tr("eager itself fails (the model's own)");
    case SweepPoint::Outcome::Refused:
        return p.expectedMatch ? tr("refused inside the range") : tr("refused (outside the range)");
    case SweepPoint::Outcome::NotRefused:
        return tr("ran although outside the range");
    case SweepPoint::Outcome::Error:
        return tr("the package raised");
    case SweepPoint::Outcome::Crashed:
        return tr("crashed");
    case SweepPoint::Outcome::Hung:
        return tr("hung (killed)");
    case SweepPoint::Outcome::Unknown:
        break;
    }
    return p.outcomeName;
}

QString SweepPointModel::toolTip(const SweepPoint &p)
{
    QString tip = QStringLiteral("<b>%1</b><br>%2")
                      .arg(sizesText(p).toHtmlEscaped(), tr("inputs %1").arg(p.shapesText()).toHtmlEscaped());
    tip += QStringLiteral("<br>") + tr("chosen as: %1").arg(p.reasons.join(QStringLiteral("; "))).toHtmlEscaped();
    tip += QStringLiteral("<br>")
        + (p.expectedMatch ? tr("the guards accept it: it must match eager")
                           : tr("the guards refuse it: %1").arg(p.refusal).toHtmlEscaped());
    tip += QStringLiteral("<br><b>%1</b>").arg(outcomeText(p).toHtmlEscaped());
    if (!qIsNaN(p.maxAbsError))
        tip += QStringLiteral(" ") + tr("(max abs error %1)").arg(formatNumber(p.maxAbsError));
    if (!p.message.isEmpty())
        tip += QStringLiteral("<br>") + p.message.toHtmlEscaped();
    return tip;
}

SweepPointModel::SweepPointModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SweepPointModel::setPoints(const QList<SweepPoint> &points)
{
    beginResetModel();
    m_points = points;
    endResetModel();
}

int SweepPointModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_points.size());
}

int SweepPointModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SweepPointModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_points.size())
        return {};
    const SweepPoint &p = m_points.at(index.row());
    const int column = index.column();
    if (role == Qt::ToolTipRole)
        return toolTip(p);
    if (role == Qt::ForegroundRole && (column == OutcomeColumn || column == OkColumn))
        return QBrush(outcomeColor(p));
    if (role == SortRole) {
        switch (column) {
        case OkColumn:
            return p.ok ? 1 : 0;
        case MaxAbsErrorColumn:
            return qIsNaN(p.maxAbsError) ? QVariant() : QVariant(p.maxAbsError);
        case SizesColumn:
            return p.index;
        default:
            break;
        }
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case SizesColumn:
        return sizesText(p);
    case ShapesColumn:
        return p.shapesText();
    case ExpectedColumn:
        return p.expectedMatch ? tr("match") : tr("refused");
    case OutcomeColumn:
        return outcomeText(p);
    case OkColumn:
        return p.ok ? tr("ok") : tr("FAILED");
    case MaxAbsErrorColumn:
        return qIsNaN(p.maxAbsError) ? QStringLiteral("—") : formatNumber(p.maxAbsError);
    case ReasonsColumn:
        return p.reasons.join(QStringLiteral("; "));
    case MessageColumn:
        return p.message;
    default:
        return {};
    }
}

QVariant SweepPointModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SizesColumn:
        return tr("Sizes");
    case ShapesColumn:
        return tr("Input shapes");
    case ExpectedColumn:
        return tr("Expected");
    case OutcomeColumn:
        return tr("Outcome");
    case OkColumn:
        return tr("OK");
    case MaxAbsErrorColumn:
        return tr("Max abs error");
    case ReasonsColumn:
        return tr("Chosen as");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace AotStudio::Widgets
