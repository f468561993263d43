// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QWidget;

namespace AotStudio::Client {
class Session;
struct EngineInfo;
struct JobRecord;
} // namespace AotStudio::Client

namespace AotStudio::Widgets {

class JobTracker;
class SelectionHub;

/**
 * Owns the sessions a main window shows (STYLE.md "one controller per concern"): the live
 * Client::Session that records the engine stream (a `.aotsession` under sessionsDirectory(),
 * started on the first job), and a saved one opened with openSession() that is shown instead
 * until a job goes back to the live one. It puts the shown session into the SelectionHub (the
 * panels follow the hub), keeps the recent-sessions list, and says what the window's title is.
 *
 * It has no widgets of its own: what the window shows (log lines, status bar messages, a failure
 * that stays) comes out as signals; dialogs open on `dialogParent`.
 */
class SessionController : public QObject
{
    Q_OBJECT
public:
    /// `hub` is kept by the caller; showLiveSession() puts the live session into it.
    explicit SessionController(SelectionHub *hub, QWidget *dialogParent, QObject *parent = nullptr);
    ~SessionController() override;

    /// Where live sessions are recorded: <generic data dir>/aotstudio/sessions.
    static QString sessionsDirectory();
    /// The recently opened or saved session files, newest first (at most 8).
    static QStringList recentSessions();
    /// The session's last compile job when it failed (not cancelled); nullptr otherwise.
    static const Client::JobRecord *latestFailedCompile(const Client::Session &session);

    SelectionHub *selectionHub() const { return m_hub; }
    /// The session shown: the live one, or one opened with openSession().
    Client::Session *session() const;
    /// The session recording the engine stream of this window.
    Client::Session *liveSession() const { return m_liveSession; }
    /// True while a saved session (openSession()) is shown instead of the live one.
    bool isShowingSavedSession() const { return m_openedSession != nullptr; }
    /// The main window's title: "AOT Studio", or with the opened session's file name.
    QString windowTitle() const { return m_windowTitle; }

    /**
     * Shows a saved session without an engine (it may be running; new jobs go back to the live
     * session). Returns false and shows why when the file is missing, truncated beyond repair
     * or from a newer format; what was shown before stays.
     */
    bool openSession(const QString &path);
    /**
     * Shows the result folder of a command-line job (`aotstudio-cli numerics --out DIR`) as a
     * saved session of one job (Client::Session::fromJobFolder). Returns false and shows why
     * when the folder holds no such result; what was shown before stays. A bundle folder
     * (manifest.json: `aotstudio-cli export --out DIR`) is read off the UI thread (every file's
     * SHA-256 is checked; Client::ExportResult::readBundleFolder) and shown as an export job, the
     * Bundle view with its preflight; true means the read started, and bundleOpened() follows.
     */
    bool openJobFolder(const QString &folder);
    /**
     * Copies the shown session (stream and job folders) into the new folder `folder`
     * (Session::saveAs). Returns false and says why on failure; nothing half-written is left.
     */
    bool saveSessionAs(const QString &folder);
    /// Shows the live session (again: a job is about to start); an opened one is dropped.
    void showLiveSession();
    /**
     * Starts recording the live session into a new file under sessionsDirectory() unless it
     * already is; the handshake `engine` sent before is written first.
     */
    void ensureRecording(const Client::EngineInfo &engine);

public Q_SLOTS:
    /// File → Open Session…
    void openSessionDialog();
    /// File → Open Job Folder…
    void openJobFolderDialog();
    /// File → Save Session As…
    void saveSessionDialog();

Q_SIGNALS:
    /// A bundle folder openJobFolder() read is shown (ok), or could not be read (failed() says why).
    void bundleOpened(bool ok);
    /// The shown saved session changed to `session` (the hub shows it already).
    void sessionOpened(AotStudio::Client::Session *session);
    void windowTitleChanged(const QString &title);
    void recentSessionsChanged();
    /// A line for the log (job 0: not about one job).
    void logMessage(qint64 job, const QString &level, const QString &message);
    /// The log is about to be replaced by the opened session's.
    void logCleared();
    void statusMessage(const QString &text, int timeoutMs);
    /// Something asked for did not happen: shown until the next action.
    void failed(const QString &message);

private:
    void addRecentSession(const QString &path);
    /// Shows `loaded` (now owned here) instead of what was shown.
    void showOpened(Client::Session *loaded, const QString &name);
    /// Says why `what` could not be opened: the log, the status bar and a message box.
    void refuseOpen(const QString &title, const QString &message);
    void setWindowTitle(const QString &title);

    SelectionHub *m_hub;
    QWidget *m_dialogParent;
    Client::Session *m_liveSession;
    Client::Session *m_openedSession = nullptr; ///< a saved session being shown, or nullptr
    JobTracker *m_bundleReader; ///< reads an opened bundle folder off the UI thread
    QString m_windowTitle;
};

} // namespace AotStudio::Widgets
