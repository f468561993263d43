// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/remoteengine.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace AotStudio::Widgets {

/**
 * Engine → Connect…: where a remote engine runs (host, user, port, the path of aotstudio-engine
 * there, an identity file, the folder for the studio's jobs on the host). The studio then starts
 * `ssh -T [-p PORT] [-i KEY] [USER@]HOST PATH --serve` (Client::RemoteEngine); OpenSSH does the
 * transport, keys and agent. Profiles are kept in QSettings; accepting saves the one shown.
 */
class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    /// The engine described by the fields.
    Client::RemoteEngine remote() const;
    /// Shows `remote` in the fields (e.g. the current connection).
    void setRemote(const Client::RemoteEngine &remote);
    /// Why the fields cannot be used; empty when they can.
    QString problem() const;

public Q_SLOTS:
    void accept() override;

private:
    void loadProfiles();
    void profileChosen(int index);
    void deleteProfile();
    void validate();
    void browseIdentity();

    QList<Client::RemoteEngine> m_profiles;
    QComboBox *m_profileCombo;
    QLineEdit *m_nameEdit;
    QLineEdit *m_hostEdit;
    QLineEdit *m_userEdit;
    QSpinBox *m_portSpin;
    QLineEdit *m_engineEdit;
    QLineEdit *m_identityEdit;
    QLineEdit *m_jobsEdit;
    QLabel *m_command;
    QLabel *m_problem;
    QPushButton *m_deleteButton;
    QDialogButtonBox *m_buttons;
};

} // namespace AotStudio::Widgets
