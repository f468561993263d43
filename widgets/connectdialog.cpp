// SPDX-License-Identifier: GPL-3.0-or-later
#include "connectdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent)
    , m_profileCombo(new QComboBox(this))
    , m_nameEdit(new QLineEdit(this))
    , m_hostEdit(new QLineEdit(this))
    , m_userEdit(new QLineEdit(this))
    , m_portSpin(new QSpinBox(this))
    , m_engineEdit(new QLineEdit(this))
    , m_identityEdit(new QLineEdit(this))
    , m_jobsEdit(new QLineEdit(this))
    , m_command(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_deleteButton(new QPushButton(tr("Delete Profile"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("connectDialog"));
    setWindowTitle(tr("Connect to a Remote Engine"));
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    m_nameEdit->setObjectName(QStringLiteral("profileNameEdit"));
    m_hostEdit->setObjectName(QStringLiteral("hostEdit"));
    m_userEdit->setObjectName(QStringLiteral("userEdit"));
    m_portSpin->setObjectName(QStringLiteral("portSpin"));
    m_engineEdit->setObjectName(QStringLiteral("enginePathEdit"));
    m_identityEdit->setObjectName(QStringLiteral("identityEdit"));
    m_jobsEdit->setObjectName(QStringLiteral("jobFolderEdit"));
    m_problem->setObjectName(QStringLiteral("connectProblem"));

    m_hostEdit->setPlaceholderText(QStringLiteral("gpu-server.example.org"));
    m_userEdit->setPlaceholderText(tr("as in ~/.ssh/config"));
    m_portSpin->setRange(0, 65535);
    m_portSpin->setSpecialValueText(tr("default (22)"));
    m_engineEdit->setText(Client::RemoteEngine().enginePath);
    m_engineEdit->setToolTip(tr("The engine on the host: a full path, or a name found on the host's PATH"));
    m_identityEdit->setPlaceholderText(tr("ssh-agent and ssh's default keys"));
    m_jobsEdit->setText(Client::RemoteEngine().jobFolder);
    m_jobsEdit->setToolTip(tr("Jobs write their output here on the host; the studio reads it through the engine"));

    auto *browse = new QToolButton(this);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose the private key"));
    connect(browse, &QToolButton::clicked, this, &ConnectDialog::browseIdentity);
    auto *identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identityEdit, 1);
    identityRow->addWidget(browse);
    auto *profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profileCombo, 1);
    profileRow->addWidget(m_deleteButton);

    auto *form = new QFormLayout;
    form->addRow(tr("Profile:"), profileRow);
    form->addRow(tr("Name:"), m_nameEdit);
    form->addRow(tr("Host:"), m_hostEdit);
    form->addRow(tr("User:"), m_userEdit);
    form->addRow(tr("Port:"), m_portSpin);
    form->addRow(tr("Engine on the host:"), m_engineEdit);
    form->addRow(tr("Identity file:"), identityRow);
    form->addRow(tr("Job folder on the host:"), m_jobsEdit);

    m_command->setObjectName(QStringLiteral("sshCommand"));
    m_command->setWordWrap(true);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
    auto *note = new QLabel(tr("OpenSSH carries the engine's protocol: keys, the agent and ~/.ssh/config work as in a "
                               "terminal, and the studio opens no port. Results and files stay on the host and are "
                               "fetched when shown."),
                            this);
    note->setWordWrap(true);

    auto *connectButton = m_buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    connectButton->setObjectName(QStringLiteral("connectButton"));
    connectButton->setDefault(true);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addLayout(form);
    layout->addWidget(m_command);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    for (QLineEdit *edit : {m_nameEdit, m_hostEdit, m_userEdit, m_engineEdit, m_identityEdit, m_jobsEdit})
        connect(edit, &QLineEdit::textChanged, this, &ConnectDialog::validate);
    connect(m_portSpin, &QSpinBox::valueChanged, this, &ConnectDialog::validate);
    connect(m_profileCombo, &QComboBox::activated, this, &ConnectDialog::profileChosen);
    connect(m_deleteButton, &QPushButton::clicked, this, &ConnectDialog::deleteProfile);
    loadProfiles();
    if (!m_profiles.isEmpty()) {
        m_profileCombo->setCurrentIndex(1);
        profileChosen(1);
    }
    validate();
    resize(560, sizeHint().height());
}

void ConnectDialog::loadProfiles()
{
    QSettings settings;
    m_profiles = Client::RemoteEngine::loadProfiles(settings);
    m_profileCombo->clear();
    m_profileCombo->addItem(tr("New profile"));
    for (const auto &p : std::as_const(m_profiles))
        m_profileCombo->addItem(p.name + QStringLiteral(" — ") + p.displayName());
}

void ConnectDialog::profileChosen(int index)
{
    if (index <= 0 || index > m_profiles.size()) {
        setRemote(Client::RemoteEngine{});
        return;
    }
    setRemote(m_profiles.at(index - 1));
}

void ConnectDialog::setRemote(const Client::RemoteEngine &remote)
{
    m_nameEdit->setText(remote.name);
    m_hostEdit->setText(remote.host);
    m_userEdit->setText(remote.user);
    m_portSpin->setValue(remote.port);
    m_engineEdit->setText(remote.enginePath);
    m_identityEdit->setText(remote.identityFile);
    if (!remote.jobFolder.isEmpty())
        m_jobsEdit->setText(remote.jobFolder);
    validate();
}

Client::RemoteEngine ConnectDialog::remote() const
{
    Client::RemoteEngine r;
    r.host = m_hostEdit->text().trimmed();
    r.name = m_nameEdit->text().trimmed().isEmpty() ? r.host : m_nameEdit->text().trimmed();
    r.user = m_userEdit->text().trimmed();
    r.port = m_portSpin->value();
    r.enginePath = m_engineEdit->text().trimmed();
    r.identityFile = m_identityEdit->text().trimmed();
    r.jobFolder = QDir::cleanPath(m_jobsEdit->text().trimmed());
    return r;
}

QString ConnectDialog::problem() const
{
    const auto r = remote();
    if (r.host.isEmpty())
        return tr("Enter the host to connect to.");
    if (r.host.contains(QLatin1Char(' ')) || r.host.startsWith(QLatin1Char('-')))
        return tr("The host %1 is not a host name.").arg(r.host);
    if (r.enginePath.isEmpty())
        return tr("Enter the path of aotstudio-engine on the host.");
    if (!r.identityFile.isEmpty() && !QFileInfo(r.identityFile).isFile())
        return tr("The identity file %1 does not exist on this machine.").arg(r.identityFile);
    if (!m_jobsEdit->text().trimmed().startsWith(QLatin1Char('/')))
        return tr("The job folder on the host must be an absolute path (it starts with /).");
    return {};
}

void ConnectDialog::validate()
{
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    m_deleteButton->setEnabled(m_profileCombo->currentIndex() > 0);
    if (auto *ok = m_buttons->buttons().isEmpty() ? nullptr : findChild<QPushButton *>(QStringLiteral("connectButton")))
        ok->setEnabled(why.isEmpty());
    m_command->setText(why.isEmpty() ? tr("Runs: %1").arg(QStringLiteral("ssh ") + remote().sshArguments().join(QLatin1Char(' ')))
                                     : QString());
}

void ConnectDialog::deleteProfile()
{
    const int index = m_profileCombo->currentIndex();
    if (index <= 0 || index > m_profiles.size())
        return;
    QSettings settings;
    Client::RemoteEngine::removeProfile(settings, m_profiles.at(index - 1).name);
    loadProfiles();
    m_profileCombo->setCurrentIndex(0);
    validate();
}

void ConnectDialog::browseIdentity()
{
    const QString start = m_identityEdit->text().isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh") : m_identityEdit->text();
    const QString file = QFileDialog::getOpenFileName(this, tr("Identity File"), start);
    if (!file.isEmpty())
        m_identityEdit->setText(file);
}

void ConnectDialog::accept()
{
    if (!problem().isEmpty())
        return;
    QSettings settings;
    remote().save(settings);
    QDialog::accept();
}

} // namespace AotStudio::Widgets
