// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>

class QObject;

namespace AotStudio::Client {
class Session;
}

namespace AotStudio::Widgets {

class SelectionHub;

/**
 * What a panel implements to follow the selection hub (STYLE.md "one selection hub", after
 * RenderDoc's capture viewers): the hub calls every viewer when the session, job, snapshot, node,
 * kernel or the session's results change, and a viewer reads what it shows from the hub
 * (SelectionHub::profile(), quantize(), sweep(), kernels(), snapshot(), …). Nothing pushes
 * data into a viewer; a panel picks things through the hub's select*() slots.
 */
class HubViewer
{
public:
    virtual ~HubViewer() = default;

    virtual void onSessionChanged(Client::Session *) { }
    virtual void onJobChanged(qint64) { }
    /// The shown job gained events while it runs (a snapshot, a finished stage, progress).
    virtual void onJobUpdated(qint64) { }
    virtual void onSnapshotChanged(int) { }
    virtual void onNodeChanged(const QString &) { }
    virtual void onKernelChanged(const QString &) { }
    /// Kernel catalog, profile, quantize or sweep results changed.
    virtual void onResultsChanged() { }
};

} // namespace AotStudio::Widgets
