// SessionHub: the tuning sessions of the open workspace, the one live session this window drives (and steers:
// post()), and the session the views show. Every view reads sessions from here (as immutable SessionSnapshot values)
// and never touches the engine or the store itself for them.
//
// Threads (DESIGN, "The GUI never blocks"): the live session is a session::StreamingJob. Its worker thread
// also builds its tasks and restores earlier sessions' state; its events are folded into a SnapshotBuilder there,
// and a new snapshot is published to the GUI thread at most every 100 ms (at once for the events that change
// what a status line says: a phase, a round, the end), coalesced into one queued call so that a slow GUI
// sees only the newest. Stored sessions and the workspace's list load in JobTracker jobs. GUI thread only,
// except where a function says otherwise.
#pragma once

#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"
#include "core/runtime/network_run.h"
#include "core/session/streaming_job.h"
#include "core/store/records.h"
#include "widgets/models/session_snapshot.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ts::session {
class JobTracker;
} // namespace ts::session

namespace ts::widgets {

class SessionHub : public QObject {
    Q_OBJECT
public:
    explicit SessionHub(QObject* parent = nullptr);
    // Aborts a live session (the batch in flight is lost; call cancel() and wait for liveFinished first to
    // keep it) and joins its thread.
    ~SessionHub() override;

    // ----- the workspace
    QString workspace() const { return m_workspace; }
    // Lists its sessions in a job (sessionsChanged); creates the file if it does not exist.
    void openWorkspace(const QString& path);
    // The workspace's sessions, oldest first, as last listed.
    const std::vector<store::SessionInfo>& sessions() const { return m_sessions; }
    void refreshSessions();

    // ----- what the views show
    // The session shown (the live one while it runs, unless another was picked); null when none.
    std::shared_ptr<const models::SessionSnapshot> current() const { return m_current; }
    // Shows a session: the live one at once, a stored one once loaded (currentChanged).
    void showSession(int64_t sessionId);
    // A session's snapshot if loaded (the live one's newest); null otherwise, and then it is loaded and
    // snapshotReady(id) follows. For views that overlay several sessions.
    std::shared_ptr<const models::SessionSnapshot> snapshot(int64_t sessionId);

    // ----- the live session
    // Starts a session on a worker thread: its tasks are built from `origin` (options.tasks is filled there),
    // options.origin and options.workspace are set from `origin` and workspace(). False (and nothing starts)
    // while a session is live.
    bool start(const engine::TuneOrigin& origin, engine::TuneOptions options);
    // Continues a stored session with its origin and settings, up to `trials` (its budget when 0).
    bool resume(int64_t sessionId, int trials = 0);
    bool isLive() const;
    bool isPaused() const;
    void pause();
    void resumeLive();
    // Stops after the batch in flight; liveFinished follows.
    void cancel();
    // The live session ranks with another cost model from its next round on (it first learns from the
    // tasks' records; modelSwitched follows). False, with errorOccurred, when none is live or it cannot
    // switch (an unknown kind, an AutoTVM or random policy).
    bool switchModel(const QString& kind);
    // The live session's newest snapshot (null when none is live).
    std::shared_ptr<const models::SessionSnapshot> live() const { return m_liveSnapshot; }
    // Steers the live session (issue 41, docs/steering.md): the command queues on the session and is applied
    // between two batches, or at once while it is paused; commandDone(id, ...) says how it went, and the steering
    // it changed comes with the next snapshot (SessionSnapshot::steering). Returns the command's id; an error, also
    // sent as errorOccurred, when none is live, the session is still building its tasks or has ended, or it refuses
    // the command (a task out of range). Any thread may steer an engine session; this one is the GUI's.
    Expected<int64_t> post(engine::SessionCommand command);
    // The constraints of task `task` in the newest SetConstraints posted here that the session has not answered yet
    // (what a person is changing now: the Sketches view marks by it before the session applies it); std::nullopt
    // when none waits.
    std::optional<search::Constraints> postedConstraints(int task) const;

    // ----- whole-network runs (Session > Run network), the newest per session title ("resnet-18, batch 1, layout
    // NCHW"): a run uses the workspace's best records of the network, whichever session measured them. Kept until
    // another workspace is opened.
    void setNetworkRun(const std::string& title, std::shared_ptr<const runtime::NetworkRun> run);
    // The newest run of the snapshot's network (null: none run in this window yet).
    std::shared_ptr<const runtime::NetworkRun> networkRun(const models::SessionSnapshot& snapshot) const;

    // ----- records stored outside a session (a sweep's points, issue 41): the views that list records read them.
    void announceRecords() { Q_EMIT recordsStored(); }

Q_SIGNALS:
    void workspaceChanged();
    void sessionsChanged();
    // The shown session changed, or its snapshot was replaced by a newer one (about 10 Hz while live).
    void currentChanged();
    void snapshotReady(qint64 sessionId);
    // Started, paused, resumed, cancelling, finished.
    void liveStateChanged();
    void liveFinished(qint64 sessionId, const QString& status, const QString& message);
    // The live session switched its model (error empty) or failed to (it keeps `from`).
    void modelSwitched(const QString& from, const QString& to, const QString& error);
    // A command post() sent was applied (error empty) or refused (nothing changed). `what` says what it asked
    // ("constrain task 0: ..."); `recordId` is a manual measurement's record (also when the measurement failed).
    // Comes after the snapshot that holds what it changed.
    void commandDone(qint64 id, const QString& what, const QString& error, qint64 recordId);
    // post() queued command `id` (commandDone follows).
    void commandPosted(qint64 id);
    // The live session's newest snapshot (live()) was replaced, whichever session is shown.
    void liveUpdated();
    // Something the user should know about the live session that is not a failure (records of its tasks it
    // did not resume because another layout rewrite measured them).
    void noticed(const QString& message);
    // A failure worth telling the user (a workspace that cannot be opened, a session that cannot load).
    void errorOccurred(const QString& message);
    void networkRunChanged();
    // Records were added to the workspace by other work than the live session (announceRecords).
    void recordsStored();

private:
    // The live session's state on its worker: its snapshot builder and the engine session (session_hub.cpp).
    struct Live;
    using LiveJob = session::StreamingJob<engine::TuneEvent, Live, models::SessionSnapshot>;
    // "Not resumed: ..." for records of the session's tasks measured with another layout rewrite; empty if none.
    static QString notResumedNotice(const std::map<int, int>& otherLayoutRewrites);
    void publishLive(std::shared_ptr<const models::SessionSnapshot> latest); // the newest the worker published
    void onLiveEnded(Expected<void> outcome);
    void setCurrent(std::shared_ptr<const models::SessionSnapshot> snapshot);

    QString m_workspace;
    std::vector<store::SessionInfo> m_sessions;
    std::shared_ptr<const models::SessionSnapshot> m_current;
    std::shared_ptr<const models::SessionSnapshot> m_liveSnapshot;
    bool m_followLive = true; // the current session is the live one
    std::map<int64_t, std::shared_ptr<const models::SessionSnapshot>> m_loaded;
    std::map<int64_t, bool> m_loading;
    std::unique_ptr<LiveJob> m_live; // Live is complete in the .cpp only
    std::unique_ptr<session::JobTracker> m_listJob;
    std::unique_ptr<session::JobTracker> m_showJob;
    std::vector<std::unique_ptr<session::JobTracker>> m_loadJobs;
    std::map<std::string, std::shared_ptr<const runtime::NetworkRun>> m_networkRuns;
    std::map<int64_t, engine::SetConstraints> m_postedConstraints; // posted, not answered yet; by command id
};

} // namespace ts::widgets
