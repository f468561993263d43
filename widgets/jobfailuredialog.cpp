// SPDX-License-Identifier: GPL-3.0-or-later
// JobController's failure dialog: the engine's message and hint, the stage and code, where in the
// user's code (ResultPanel::whereHtml as text), and Make Repro for a failed compile or verify.
#include "jobcontroller.h"

#include "resultpanel.h"

#include "client/stagenames.h"

#include <QMessageBox>
#include <QPushButton>
#include <QTextDocumentFragment>

namespace AotStudio::Widgets {

void JobController::showFailureDialog(const Client::EngineError &error, const QString &title, bool exporting,
                                      bool reproducible)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title,
                                error.message.isEmpty() ? tr("The job failed.") : error.message, QMessageBox::Ok,
                                m_dialogParent);
    box->setObjectName(exporting ? QStringLiteral("exportErrorBox") : QStringLiteral("compileErrorBox"));
    if (!error.hint.isEmpty())
        box->setInformativeText(error.hint);
    QString details = tr("Stage: %1\nCode: %2").arg(Client::StageNames::displayName(error.stage), error.code);
    // A failure in the user's code: its frames and the lines around the failing one.
    if (const QString where = ResultPanel::whereHtml(error.where); !where.isEmpty())
        details += QLatin1Char('\n') + QTextDocumentFragment::fromHtml(where).toPlainText().trimmed();
    box->setDetailedText(details);
    if (reproducible) {
        QPushButton *repro = box->addButton(tr("Make Repro"), QMessageBox::ActionRole);
        repro->setObjectName(QStringLiteral("makeReproButton"));
        repro->setToolTip(tr("Write a folder that reproduces this failure with plain torch and run it once"));
        connect(repro, &QPushButton::clicked, this, [this] { makeRepro(); });
    }
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not exec(): the window (and tests) keep running
}

} // namespace AotStudio::Widgets
