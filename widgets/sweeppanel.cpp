// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweeppanel.h"

#include "selectionhub.h"

#include "sweeppointmodel.h"
#include "sweepview.h"
#include "tableutil.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

SweepPanel::SweepPanel(QWidget *parent)
    : QWidget(parent)
    , m_verdict(new QLabel(this))
    , m_targets(new QComboBox(this))
    , m_guards(new QLabel(this))
    , m_policy(new QLabel(this))
    , m_view(new SweepView(this))
    , m_model(new SweepPointModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
{
    m_verdict->setObjectName(QStringLiteral("sweepVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_guards->setWordWrap(true);
    m_guards->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_policy->setWordWrap(true);
    m_policy->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_policy->hide();
    m_targets->setObjectName(QStringLiteral("sweepTargets"));
    auto *legend
        = new QLabel(tr("<span style='color:#2e7d32'>■</span> matched eager &nbsp; "
                        "<span style='color:#78909c'>■</span> refused outside the range (hatched: outside) &nbsp; "
                        "<span style='color:#f9a825'>■</span> eager itself fails &nbsp; "
                        "<span style='color:#c62828'>■</span> not what the guards promise"),
            this);
    legend->setWordWrap(true);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SweepPointModel::SortRole);
    setUpTableView(m_table, m_proxy);
    m_table->setObjectName(QStringLiteral("sweepTable"));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Package:"), this));
    top->addWidget(m_targets, 1);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto *upper = new QWidget(this);
    auto *upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addWidget(m_verdict);
    upperLayout->addLayout(top);
    upperLayout->addWidget(m_guards);
    upperLayout->addWidget(legend);
    upperLayout->addWidget(scroll, 1);
    upperLayout->addWidget(m_policy);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(upper);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_targets, &QComboBox::currentIndexChanged, this, &SweepPanel::showTarget);
    connect(m_view, &SweepView::pointClicked, this, &SweepPanel::selectPoint);
    clear();
}

void SweepPanel::follow(SelectionHub *hub)
{
    m_hub = hub;
    hub->addViewer(this, this);
    onResultsChanged();
}

void SweepPanel::onResultsChanged()
{
    const auto result = m_hub ? m_hub->sweep() : nullptr;
    if (result == m_shown)
        return;
    m_shown = result;
    if (result)
        setResult(*result);
    else
        clear();
}

void SweepPanel::clear()
{
    setResult({});
}

QString SweepPanel::verdictText() const
{
    return m_verdict->text();
}

void SweepPanel::setResult(const Client::SweepResult &result)
{
    m_result = result;
    if (result.isEmpty()) {
        m_verdict->setText(tr("No sweep yet."));
        m_verdict->setStyleSheet(QString());
    } else {
        // The verdict says FAILED itself; the colour marks it.
        m_verdict->setText(tr("Sweep of %1 on %2: %3").arg(result.model, result.device, result.verdict));
        m_verdict->setStyleSheet(
            result.passed ? QStringLiteral("color: #1b5e20;") : QStringLiteral("color: #b71c1c; font-weight: bold;"));
    }
    {
        const QSignalBlocker block(m_targets);
        m_targets->clear();
        for (const auto &t : result.targets)
            m_targets->addItem(t.name == QLatin1String("package") ? t.package : tr("bucket %1").arg(t.name));
    }
    m_targets->setEnabled(result.targets.size() > 1);
    if (result.policy.isEmpty()) {
        m_policy->hide();
    } else {
        QStringList lines;
        for (const auto &row : result.policy) {
            const QString where = row.bucket.isEmpty() ? tr("no bucket")
                : row.padded                           ? tr("%1 padded to %2").arg(row.bucket).arg(row.padTo)
                                                       : row.bucket;
            lines << (row.ok ? QStringLiteral("%1 → %2: %3")
                             : QStringLiteral("<b style='color:#b71c1c'>%1 → %2: %3</b>"))
                         .arg(tr("batch %1").arg(row.batch), where.toHtmlEscaped(),
                             (row.message.isEmpty() ? row.outcome : row.message).toHtmlEscaped());
        }
        m_policy->setText(tr("Bucket policy:") + QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")));
        m_policy->show();
    }
    showTarget(result.targets.isEmpty() ? -1 : 0);
}

void SweepPanel::showTarget(int index)
{
    if (index < 0 || index >= m_result.targets.size()) {
        m_view->clear();
        m_model->clear();
        m_guards->clear();
        return;
    }
    const Client::SweepTarget &t = m_result.targets.at(index);
    QString guards = tr("Guards: %1 (from %2); %3 shapes: %4 varying one dimension, %5 pairwise, %6 left out")
                         .arg(t.guards, t.guardsOrigin)
                         .arg(t.points.size())
                         .arg(t.single)
                         .arg(t.pairs)
                         .arg(t.leftOut);
    for (const auto &n : t.notes)
        guards += QStringLiteral("\n") + n;
    m_guards->setText(guards);
    m_view->setTarget(t);
    m_model->setPoints(t.points);
    m_table->resizeColumnsToContents();
}

void SweepPanel::selectPoint(int index)
{
    const QModelIndex source = m_model->index(index, 0);
    const QModelIndex shown = m_proxy->mapFromSource(source);
    if (!shown.isValid())
        return;
    m_table->selectRow(shown.row());
    m_table->scrollTo(shown);
}

} // namespace AotStudio::Widgets
