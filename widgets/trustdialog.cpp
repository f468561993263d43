// SPDX-License-Identifier: GPL-3.0-or-later
#include "trustdialog.h"

#include <QAbstractButton>
#include <QDir>
#include <QPushButton>

namespace AotStudio::Widgets {

TrustDialog::TrustDialog(const QString &bundle, const QString &engineHost, const Client::EngineError &refusal,
                         QWidget *parent)
    : QMessageBox(QMessageBox::Warning, tr("Load a bundle nobody you trust signed?"), QString(), QMessageBox::NoButton,
                  parent)
{
    setObjectName(QStringLiteral("trustDialog"));
    setTextFormat(Qt::PlainText);
    setText(tr("The engine on %1 did not load the bundle %2:\n\n%3")
                .arg(engineHost, QDir::toNativeSeparators(bundle), refusal.message));
    setInformativeText(tr("Loading a bundle runs the native code of its packages inside the engine, with your "
                          "rights on %1. Load it only if you know who made it. To trust its signer for good, add "
                          "their public key to the engine's trust store ($AOTSTUDIO_TRUST).")
                           .arg(engineHost));
    if (!refusal.hint.isEmpty())
        setDetailedText(refusal.hint);
    m_load = addButton(tr("Load Anyway"), QMessageBox::AcceptRole);
    m_load->setObjectName(QStringLiteral("loadAnywayButton"));
    QPushButton *cancel = addButton(QMessageBox::Cancel);
    setDefaultButton(cancel);
    setEscapeButton(cancel);
}

bool TrustDialog::answers(const Client::EngineError &error)
{
    return error.code == QLatin1String("untrusted");
}

bool TrustDialog::loadAnyway() const
{
    return clickedButton() == m_load;
}

} // namespace AotStudio::Widgets
