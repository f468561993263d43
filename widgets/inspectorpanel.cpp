// SPDX-License-Identifier: GPL-3.0-or-later
#include "inspectorpanel.h"

#include "client/memoryplan.h"

#include "nodetablemodel.h"
#include "numberformat.h"
#include "selectionhub.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

namespace {
QString msText(double ms)
{
    return qIsNaN(ms) ? QStringLiteral("—") : formatNumber(ms, 'g', 4) + QStringLiteral(" ms");
}

} // namespace

InspectorPanel::InspectorPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_title(new QLabel(this))
    , m_tree(new QTreeWidget(this))
{
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_tree->setWordWrap(true);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setText(tr("Select a pass, node or kernel."));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_tree, 1);

    hub->addViewer(this, this);
}

QString InspectorPanel::value(const QString &name) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        if (m_tree->topLevelItem(i)->text(0) == name)
            return m_tree->topLevelItem(i)->text(1);
    }
    return {};
}

void InspectorPanel::begin(const QString &title)
{
    m_tree->clear();
    m_title->setText(title);
}

QTreeWidgetItem *InspectorPanel::add(const QString &name, const QString &value, QTreeWidgetItem *parent)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    item->setText(0, name);
    item->setText(1, value);
    item->setToolTip(1, value);
    return item;
}

void InspectorPanel::showNode(const QString &name)
{
    if (name.isEmpty())
        return;
    const auto snapshot = m_hub->snapshot();
    const Graph::Node *node = snapshot ? snapshot->find(name.toStdString()) : nullptr;
    const auto text = [](const std::string &s) { return QString::fromStdString(s); };
    begin(tr("Node %1").arg(name));
    if (const auto numerics = m_hub->numerics())
        addNumerics(*numerics, name);
    if (!node) {
        add(tr("Snapshot"), snapshot ? tr("the node is not in this snapshot") : tr("no snapshot loaded"));
    } else {
        add(tr("Op"), text(node->op));
        add(tr("Target"), text(node->target));
        add(tr("Category"), text(node->category));
        add(tr("Outputs"), NodeTableModel::outputText(*node, QStringLiteral(", ")));
        QStringList ins;
        for (const auto &i : node->inputs)
            ins.append(text(i));
        add(tr("Inputs"), ins.join(QStringLiteral(", ")));
        QStringList stack;
        for (const auto &frame : node->moduleStack) {
            const QString path = text(frame.path);
            stack.append(QStringLiteral("%1 (%2)").arg(path.isEmpty() ? tr("root") : path, text(frame.type)));
        }
        add(tr("Module"), text(node->module));
        if (!stack.isEmpty())
            add(tr("Module stack"), stack.join(QStringLiteral(" › ")));
        if (node->source.line != 0 || !node->source.file.empty()) {
            auto *src = add(tr("Source"), QStringLiteral("%1:%2").arg(text(node->source.file)).arg(node->source.line));
            add(tr("Code"), text(node->source.code), src);
            add(tr("Function"), text(node->source.function), src);
            src->setExpanded(true);
        }
        QStringList passes;
        for (const auto &pass : node->provenancePasses())
            passes.append(text(pass));
        if (!passes.isEmpty())
            add(tr("Passes that touched it"), passes.join(QStringLiteral(", ")));
        for (const auto &e : node->provenance) {
            QStringList actions;
            for (const auto &a : e.actions)
                actions.append(text(a));
            add(tr("Provenance"),
                tr("%1 by %2 (from %3)").arg(actions.join(QLatin1Char('/')), text(e.pass), text(e.node)));
        }
    }
    addFusion(name);
    if (const auto kernels = m_hub->kernels()) {
        const auto covering = kernels->kernelsForNode(name);
        auto *k = add(tr("Kernels"), covering.isEmpty() ? tr("none (not computed by a generated kernel)")
                                                        : QString::number(covering.size()));
        for (const auto *info : covering)
            add(info->name, tr("%1, %2 per call").arg(info->kind, msText(info->meanMs)), k);
        k->setExpanded(true);
    }
}

QString InspectorPanel::fusionStatusText(const QString &status)
{
    return status == QLatin1String("fused")      ? tr("fused with other nodes into one kernel")
        : status == QLatin1String("refused")     ? tr("considered and refused")
        : status == QLatin1String("not_chosen")  ? tr("considered; another pair was fused")
                                                 : tr("never a fusion candidate");
}

QList<QPair<QString, QString>> InspectorPanel::fusionRefusals(const Client::FusionDecisions &fusion, const QString &name)
{
    QList<QPair<QString, QString>> lines;
    const auto it = fusion.nodes.constFind(name);
    if (it == fusion.nodes.constEnd())
        return lines;
    for (int index : it->refusals) {
        if (index < 0 || index >= fusion.refused.size())
            continue;
        const auto &r = fusion.refused[index];
        // The other side of the pair (a node computed in both kernels is on both sides).
        QStringList other = r.nodes1.contains(name) ? r.nodes2 : r.nodes1;
        other.removeAll(name);
        QString with = other.mid(0, 4).join(QStringLiteral(", "));
        if (other.size() > 4)
            with += tr(" and %n more", nullptr, int(other.size() - 4));
        lines.append({tr("not fused with %1").arg(with), QStringLiteral("%1: %2").arg(r.category, r.reason)});
    }
    return lines;
}

void InspectorPanel::addFusion(const QString &name)
{
    const auto fusion = m_hub->fusionDecisions();
    if (!fusion || !fusion->available)
        return;
    const auto it = fusion->nodes.constFind(name);
    if (it == fusion->nodes.constEnd())
        return;
    auto *item = add(tr("Fusion"), fusionStatusText(it->status));
    for (const auto &[line, reason] : fusionRefusals(*fusion, name))
        add(line, reason, item);
    item->setExpanded(true);
}

void InspectorPanel::addNumerics(const Client::NumericsResult &numerics, const QString &name)
{
    const Client::NumericsNode *node = numerics.find(name);
    auto *top = add(tr("Numerical error"), node ? tr("tolerance %1").arg(formatNumber(numerics.tolerance, 'g', 3))
                                                : tr("not measured at this node"));
    top->setExpanded(true);
    if (!node)
        return;
    add(tr("Reference"), numerics.referenceDtype, top);
    const auto number = [](double v) { return qIsNaN(v) ? tr("NaN") : formatNumber(v, 'g', 3); };
    const auto side = [&](const QString &title, const std::optional<Client::NumericsError> &e,
                          Client::NumericsResult::Side which) {
        if (!e) {
            add(title, tr("no value (not exposed)"), top);
            return;
        }
        const auto &first = numerics.firstDivergent(which);
        const bool isFirst = first && first->node == node->name;
        auto *item = add(title,
                         isFirst        ? tr("%1, first divergent").arg(number(e->normError))
                             : e->diverges ? tr("%1, diverges").arg(number(e->normError))
                                           : number(e->normError),
                         top);
        item->setToolTip(1, item->text(1) + QLatin1Char('\n') + tr("norm error: max |x − reference| / max |reference|"));
        add(tr("Max abs"), number(e->maxAbs), item);
        add(tr("Max rel"), number(e->maxRel), item);
        add(tr("Cosine"), number(e->cosine), item);
        add(tr("Growth over inputs"), qIsNaN(e->growth) ? QStringLiteral("—") : formatNumber(e->growth, 'g', 3), item);
        item->setExpanded(true);
    };
    side(tr("Eager"), node->eager, Client::NumericsResult::Side::Eager);
    side(tr("Compiled"), node->compiled, Client::NumericsResult::Side::Compiled);
    if (!node->source.isEmpty())
        add(tr("Source"), node->source, top);
}

void InspectorPanel::showKernel(const QString &nameOrId)
{
    const auto kernels = m_hub->kernels();
    const auto *k = kernels ? kernels->find(nameOrId) : nullptr;
    if (!k)
        return;
    begin(tr("Kernel %1").arg(k->name));
    add(tr("Kind"), k->kind);
    if (!k->libraryOp.isEmpty())
        add(tr("Library op"), k->libraryOp);
    add(tr("Calls"), k->calls > 0 ? QString::number(k->calls) : QStringLiteral("—"));
    add(tr("Total time"), msText(k->totalMs));
    add(tr("Mean time"), msText(k->meanMs));
    add(tr("Share of kernel time"), qIsNaN(k->share) ? QStringLiteral("—") : formatNumber(k->share * 100, 'f', 1) + QLatin1Char('%'));
    auto *post = add(tr("Covered nodes"), QString::number(k->postGradNodes.size()));
    for (const auto &n : k->postGradNodes)
        add(n, tr("post-grad"), post);
    post->setExpanded(true);
    if (!k->preGradNodes.isEmpty())
        add(tr("From pre-grad nodes"), k->preGradNodes.join(QStringLiteral(", ")));
    add(tr("Source lines"), QString::number(k->source.isEmpty() ? 0 : k->source.count(QLatin1Char('\n')) + 1));
}

void InspectorPanel::showSnapshot(int index)
{
    const auto *job = m_hub->currentJobRecord();
    if (!job || index < 0 || index >= job->snapshots.size())
        return;
    const auto &s = job->snapshots[index];
    begin(s.pass.isEmpty() ? tr("Stage %1").arg(s.stage) : tr("Pass %1").arg(s.pass));
    add(tr("Stage"), s.stage);
    if (!s.pass.isEmpty())
        add(tr("Pass"), s.pass);
    add(tr("Nodes"), QString::number(s.nodes));
    if (s.previousNodes >= 0)
        add(tr("Nodes before"), QString::number(s.previousNodes));
    if (!s.pass.isEmpty()) // a stage entry is a starting point, not a change
        add(tr("Changed the graph"), s.changed ? tr("yes") : tr("no"));
    add(tr("Time"), msText(s.seconds * 1e3));
    add(tr("File"), s.path.isEmpty() ? tr("none") : m_hub->resolve(s.path));
    if (!m_hub->snapshotError().isEmpty())
        add(tr("Problem"), m_hub->snapshotError());
}

} // namespace AotStudio::Widgets
