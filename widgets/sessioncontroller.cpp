// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessioncontroller.h"

#include "selectionhub.h"

#include "graphview/jobtracker.h"

#include "client/engineinfo.h"
#include "client/exportresult.h"
#include "client/session.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonObject>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>

#include <utility>

namespace AotStudio::Widgets {

namespace {
constexpr auto KeyRecentSessions = "sessions/recent";
constexpr int MaxRecentSessions = 8;
} // namespace

SessionController::SessionController(SelectionHub *hub, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_hub(hub)
    , m_dialogParent(dialogParent)
    , m_liveSession(new Client::Session(this))
    , m_bundleReader(new JobTracker(this))
    , m_windowTitle(tr("AOT Studio"))
{
}

SessionController::~SessionController() = default;

QString SessionController::sessionsDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/aotstudio/sessions");
}

Client::Session *SessionController::session() const
{
    return m_openedSession ? m_openedSession : m_liveSession;
}

void SessionController::setWindowTitle(const QString &title)
{
    if (title == m_windowTitle)
        return;
    m_windowTitle = title;
    Q_EMIT windowTitleChanged(title);
}

void SessionController::showLiveSession()
{
    if (m_hub->session() != m_liveSession)
        m_hub->setSession(m_liveSession);
    if (!m_openedSession)
        return;
    m_openedSession->deleteLater();
    m_openedSession = nullptr;
    setWindowTitle(tr("AOT Studio"));
}

void SessionController::ensureRecording(const Client::EngineInfo &engine)
{
    if (!m_liveSession->filePath().isEmpty())
        return;
    const QString dir = sessionsDirectory();
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/')
                         + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))
                         + Client::Session::fileSuffix();
    QString error;
    if (!m_liveSession->startRecording(path, QString(), &error)) {
        Q_EMIT logMessage(0, QStringLiteral("warning"),
                          tr("This session is not being recorded: cannot write %1 (%2).").arg(path, error));
        return;
    }
    // What arrived before the recording started (the handshake) is written first.
    if (m_liveSession->hasEngineInfo())
        m_liveSession->apply(QJsonObject{{QLatin1String("type"), QLatin1String("hello")},
                                         {QLatin1String("id"), 0},
                                         {QLatin1String("protocol"), engine.protocol},
                                         {QLatin1String("engine_version"), engine.engineVersion},
                                         {QLatin1String("torch_version"), engine.torchVersion},
                                         {QLatin1String("cuda_version"), engine.cudaVersion},
                                         {QLatin1String("python_version"), engine.pythonVersion},
                                         {QLatin1String("cuda_available"), engine.cudaAvailable}});
    addRecentSession(path);
}

QStringList SessionController::recentSessions()
{
    return QSettings().value(QLatin1String(KeyRecentSessions)).toStringList();
}

void SessionController::addRecentSession(const QString &path)
{
    QStringList recent = recentSessions();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > MaxRecentSessions)
        recent.removeLast();
    QSettings().setValue(QLatin1String(KeyRecentSessions), recent);
    Q_EMIT recentSessionsChanged();
}

const Client::JobRecord *SessionController::latestFailedCompile(const Client::Session &session)
{
    for (auto it = session.jobs().crbegin(); it != session.jobs().crend(); ++it) {
        if (it->kind != QLatin1String("compile"))
            continue;
        return it->error.has_value() && !it->error->isCancellation() ? &*it : nullptr;
    }
    return nullptr;
}

bool SessionController::openSession(const QString &path)
{
    Client::Session *loaded = nullptr;
    try {
        loaded = Client::Session::load(path, this);
    } catch (const Client::SessionError &e) {
        refuseOpen(tr("Open Session"), e.message());
        return false;
    }
    showOpened(loaded, QFileInfo(path).fileName());
    Q_EMIT statusMessage(loaded->warnings().isEmpty()
                             ? tr("Opened the session %1 (%n job(s)).", nullptr, int(loaded->jobs().size())).arg(path)
                             : tr("Opened the session %1 with problems: see the log.").arg(path),
                         10000);
    addRecentSession(QFileInfo(path).absoluteFilePath());
    return true;
}

bool SessionController::openJobFolder(const QString &folder)
{
    if (QDir(folder).exists(QStringLiteral("manifest.json"))) { // a bundle: hashed off the UI thread
        Q_EMIT statusMessage(tr("Reading the bundle %1…").arg(QDir::toNativeSeparators(folder)), 0);
        m_bundleReader->start(
            [folder] {
                QString error;
                QJsonObject result = Client::ExportResult::readBundleFolder(folder, QString(), &error);
                return std::make_pair(result, error);
            },
            [this, folder](std::pair<QJsonObject, QString> read) {
                if (read.first.isEmpty()) {
                    refuseOpen(tr("Open Job Folder"), read.second);
                    Q_EMIT bundleOpened(false);
                    return;
                }
                try {
                    showOpened(Client::Session::fromResult(folder, QStringLiteral("export"), read.first, this),
                               QFileInfo(folder).fileName());
                } catch (const Client::SessionError &e) {
                    refuseOpen(tr("Open Job Folder"), e.message());
                    Q_EMIT bundleOpened(false);
                    return;
                }
                Q_EMIT statusMessage(tr("Opened the bundle %1.").arg(QDir::toNativeSeparators(folder)), 10000);
                Q_EMIT bundleOpened(true);
            });
        return true;
    }
    Client::Session *loaded = nullptr;
    try {
        loaded = Client::Session::fromJobFolder(folder, this);
    } catch (const Client::SessionError &e) {
        refuseOpen(tr("Open Job Folder"), e.message());
        return false;
    }
    showOpened(loaded, QFileInfo(folder).fileName());
    Q_EMIT statusMessage(tr("Opened the job folder %1.").arg(QDir::toNativeSeparators(folder)), 10000);
    return true;
}

void SessionController::refuseOpen(const QString &title, const QString &message)
{
    Q_EMIT logMessage(0, QStringLiteral("error"), message);
    Q_EMIT failed(tr("Could not open the session: %1").arg(message));
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, m_dialogParent);
    box->setObjectName(QStringLiteral("sessionErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void SessionController::showOpened(Client::Session *loaded, const QString &name)
{
    if (m_openedSession)
        m_openedSession->deleteLater();
    m_openedSession = loaded;
    Q_EMIT logCleared();
    for (const auto &record : loaded->logs())
        Q_EMIT logMessage(record.job, record.level, record.message);
    for (const QString &warning : loaded->warnings())
        Q_EMIT logMessage(0, QStringLiteral("warning"), warning);
    m_hub->setSession(loaded);
    Q_EMIT sessionOpened(loaded);
    setWindowTitle(tr("AOT Studio — %1").arg(name));
}

void SessionController::openJobFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(
        m_dialogParent, tr("Open Job Folder (numerics.json, tune.json, or a bundle's manifest.json)"));
    if (!folder.isEmpty())
        openJobFolder(folder);
}

void SessionController::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Open Session"), sessionsDirectory(),
                                                      tr("AOT Studio sessions (*.aotsession)"));
    if (!path.isEmpty())
        openSession(path);
}

bool SessionController::saveSessionAs(const QString &folder)
{
    QString error;
    const QString file = session()->saveAs(folder, &error);
    if (file.isEmpty()) {
        Q_EMIT logMessage(0, QStringLiteral("error"), tr("Saving the session failed: %1").arg(error));
        Q_EMIT failed(tr("Saving the session failed: %1").arg(error));
        return false;
    }
    addRecentSession(file);
    Q_EMIT statusMessage(tr("Saved the session to %1.").arg(file), 10000);
    Q_EMIT logMessage(0, QStringLiteral("info"), tr("Saved the session to %1").arg(file));
    return true;
}

void SessionController::saveSessionDialog()
{
    const QString folder = QFileDialog::getSaveFileName(m_dialogParent, tr("Save Session As (a new folder)"),
                                                        QDir::homePath() + QStringLiteral("/aotstudio-session"));
    if (!folder.isEmpty())
        saveSessionAs(folder);
}

} // namespace AotStudio::Widgets
