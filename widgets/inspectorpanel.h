// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hubviewer.h"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace AotStudio::Client {
struct NumericsResult;
}

namespace AotStudio::Widgets {

class SelectionHub;

/**
 * The Inspector dock: details of what was selected last anywhere: a graph node (op, target,
 * output shapes and dtypes, module path, source line, provenance chain, the kernels that compute
 * it with their measured time, the passes that touched it), a kernel (kind, calls, times, share,
 * covered nodes), with a numerics job the node's errors of eager and compiled, or a pass (stage, nodes before and after, time, snapshot file).
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

    void showNode(const QString &name);
    void showKernel(const QString &nameOrId);
    void showSnapshot(int index);

private:
    QTreeWidgetItem *add(const QString &name, const QString &value, QTreeWidgetItem *parent = nullptr);
    void begin(const QString &title);
    /// The node's errors of a numerics job (eager and compiled against the reference).
    void addNumerics(const Client::NumericsResult &numerics, const QString &name);

    SelectionHub *m_hub;
    QLabel *m_title;
    QTreeWidget *m_tree;
};

} // namespace AotStudio::Widgets
