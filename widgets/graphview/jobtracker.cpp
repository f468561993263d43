// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobtracker.h"

#include <QDeadlineTimer>

namespace AotStudio::Widgets {

QThreadPool *JobTracker::pool()
{
    return QThreadPool::globalInstance();
}

bool JobTracker::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_running > 0 && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    return m_running == 0;
}

} // namespace AotStudio::Widgets
