// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hubviewer.h"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

#include <memory>

namespace AotStudio::Client {
struct NumericsResult;
struct FusionDecisions;
}

namespace AotStudio::Widgets {

class SelectionHub;

/**
 * The Inspector dock: details of what was selected last anywhere: a graph node (op, target,
 * output shapes and dtypes, module path, source line, provenance chain, the kernels that compute
 * it with their measured time, the passes that touched it), a kernel (kind, calls, times, share,
 * covered nodes), with a numerics job the node's errors of eager and compiled, or a pass (stage, nodes before and after, time, snapshot file).
 * For a node of a compile with fusion decisions (fusion.json), whether Inductor fused it and, for
 * each pair it refused, "not fused with X" and Inductor's reason.
 */
class InspectorPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    // HubViewer: what the hub changed
    void onSnapshotChanged(int index) override { showSnapshot(index); }
    void onNodeChanged(const QString &name) override { showNode(name); }
    void onKernelChanged(const QString &nameOrId) override { showKernel(nameOrId); }

    explicit InspectorPanel(SelectionHub *hub, QWidget *parent = nullptr);
    QTreeWidget *tree() const { return m_tree; }
    /// The value shown for property `name` at the top level ("" when absent); for tests.
    QString value(const QString &name) const;

    /// A fusion status of fusion.json (fused, refused, not_chosen, never_candidate) in words.
    static QString fusionStatusText(const QString &status);
    /// The refused pairs naming `node` as ("not fused with X", "category: Inductor's reason").
    static QList<QPair<QString, QString>> fusionRefusals(const Client::FusionDecisions &fusion, const QString &node);

    void showNode(const QString &name);
    void showKernel(const QString &nameOrId);
    void showSnapshot(int index);

private:
    QTreeWidgetItem *add(const QString &name, const QString &value, QTreeWidgetItem *parent = nullptr);
    void begin(const QString &title);
    /// The node's errors of a numerics job (eager and compiled against the reference).
    void addNumerics(const Client::NumericsResult &numerics, const QString &name);
    /// The node's fusion status and the refused pairs naming it (FORMAT.md "Fusion decisions").
    void addFusion(const QString &name);

    SelectionHub *m_hub;
    QLabel *m_title;
    QTreeWidget *m_tree;
};

} // namespace AotStudio::Widgets
