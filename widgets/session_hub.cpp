#include "widgets/session_hub.h"

#include "core/search/task_policy.h"
#include "core/session/job_tracker.h"
#include "core/store/store.h"

#include <QMetaObject>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

namespace ts::widgets {

namespace {
    using Clock = std::chrono::steady_clock;
    constexpr auto kPublishInterval = std::chrono::milliseconds(100);

    // Events after which the newest snapshot goes out at once: what a status line or a curve shows changes.
    bool publishesAtOnce(const engine::TuneEvent& event)
    {
        return std::holds_alternative<engine::PhaseStarted>(event) || std::holds_alternative<engine::RoundDone>(event)
            || std::holds_alternative<engine::Finished>(event) || std::holds_alternative<engine::BestImproved>(event)
            || std::holds_alternative<engine::ModelSwitched>(event); // modelSwitched, queued next, reads it
    }
} // namespace

// The live session, shared by the hub (GUI thread) and its worker thread. `mutex` guards everything but
// `worker` and `posted`.
struct SessionHub::Live {
    std::mutex mutex;
    std::unique_ptr<engine::TuningSession> session; // made on the worker once the tasks are built
    std::optional<models::SnapshotBuilder> builder;
    std::shared_ptr<const models::SessionSnapshot> latest;
    Clock::time_point lastPublish;
    bool pauseRequested = false;
    bool cancelRequested = false;
    bool abortRequested = false;
    std::optional<std::string> requestedModel; // asked for before the session was made
    search::PolicyKind policy = search::PolicyKind::Ansor;
    std::atomic<bool> posted { false };
    std::thread worker;

    // Worker or GUI thread, `mutex` held: makes the builder's state the newest snapshot and, unless a call is
    // already queued, queues one to the hub.
    void publishLocked(SessionHub* hub)
    {
        latest = builder->publish();
        lastPublish = Clock::now();
        if (!posted.exchange(true))
            QMetaObject::invokeMethod(
                hub, [hub] { hub->publishLive(); }, Qt::QueuedConnection);
    }
};

SessionHub::SessionHub(QObject* parent)
    : QObject(parent)
    , m_listJob(std::make_unique<session::JobTracker>(this))
    , m_showJob(std::make_unique<session::JobTracker>(this))
{
}

SessionHub::~SessionHub()
{
    if (!m_live)
        return;
    {
        std::lock_guard lock(m_live->mutex);
        m_live->abortRequested = true;
        if (m_live->session)
            m_live->session->abort();
    }
    if (m_live->worker.joinable())
        m_live->worker.join();
}

// ----- workspace

void SessionHub::openWorkspace(const QString& path)
{
    m_workspace = path;
    m_sessions.clear();
    m_loaded.clear();
    m_loading.clear();
    m_networkRuns.clear();
    if (!m_live)
        setCurrent(nullptr);
    Q_EMIT workspaceChanged();
    Q_EMIT networkRunChanged();
    refreshSessions();
}

void SessionHub::setNetworkRun(const std::string& title, std::shared_ptr<const runtime::NetworkRun> run)
{
    m_networkRuns[title] = std::move(run);
    Q_EMIT networkRunChanged();
}

std::shared_ptr<const runtime::NetworkRun> SessionHub::networkRun(const models::SessionSnapshot& snapshot) const
{
    auto it = m_networkRuns.find(snapshot.title);
    return it != m_networkRuns.end() ? it->second : nullptr;
}

void SessionHub::refreshSessions()
{
    const std::string path = m_workspace.toStdString();
    m_listJob->start(
        [path](session::JobContext&) -> Expected<std::vector<store::SessionInfo>> {
            TS_TRY(store::Store store, store::Store::open(path));
            return store.sessions();
        },
        [this](Expected<std::vector<store::SessionInfo>> sessions) {
            if (!sessions) {
                Q_EMIT errorOccurred(tr("Cannot open the workspace %1: %2")
                                         .arg(m_workspace, QString::fromStdString(sessions.error().message)));
                return;
            }
            m_sessions = std::move(sessions).value();
            Q_EMIT sessionsChanged();
        });
}

// ----- shown sessions

void SessionHub::setCurrent(std::shared_ptr<const models::SessionSnapshot> snapshot)
{
    m_current = std::move(snapshot);
    Q_EMIT currentChanged();
}

void SessionHub::showSession(int64_t sessionId)
{
    if (m_liveSnapshot && m_liveSnapshot->sessionId == sessionId) {
        m_followLive = true;
        m_showJob->cancel();
        setCurrent(m_liveSnapshot);
        return;
    }
    m_followLive = false;
    const std::string path = m_workspace.toStdString();
    m_showJob->start(
        [path, sessionId](session::JobContext&) -> Expected<models::SessionSnapshot> {
            TS_TRY(store::Store store, store::Store::open(path, store::OpenOptions { true }));
            return models::loadSessionSnapshot(store, sessionId);
        },
        [this, sessionId](Expected<models::SessionSnapshot> snapshot) {
            if (!snapshot) {
                Q_EMIT errorOccurred(tr("Cannot load session %1: %2")
                                         .arg(sessionId)
                                         .arg(QString::fromStdString(snapshot.error().message)));
                return;
            }
            auto shared = std::make_shared<const models::SessionSnapshot>(std::move(snapshot).value());
            m_loaded[sessionId] = shared;
            setCurrent(std::move(shared));
        });
}

std::shared_ptr<const models::SessionSnapshot> SessionHub::snapshot(int64_t sessionId)
{
    if (m_liveSnapshot && m_liveSnapshot->sessionId == sessionId)
        return m_liveSnapshot;
    if (auto found = m_loaded.find(sessionId); found != m_loaded.end())
        return found->second;
    if (m_loading[sessionId])
        return nullptr;
    m_loading[sessionId] = true;
    // Trackers whose job has delivered are done with; the new one joins the rest.
    std::erase_if(m_loadJobs, [](const std::unique_ptr<session::JobTracker>& job) { return !job->isRunning(); });
    const std::string path = m_workspace.toStdString();
    auto job = std::make_unique<session::JobTracker>(this);
    job->start(
        [path, sessionId](session::JobContext&) -> Expected<models::SessionSnapshot> {
            TS_TRY(store::Store store, store::Store::open(path, store::OpenOptions { true }));
            return models::loadSessionSnapshot(store, sessionId);
        },
        [this, sessionId](Expected<models::SessionSnapshot> snapshot) {
            m_loading.erase(sessionId);
            if (!snapshot)
                return; // the view that asked shows nothing for it; showSession reports errors
            m_loaded[sessionId] = std::make_shared<const models::SessionSnapshot>(std::move(snapshot).value());
            Q_EMIT snapshotReady(sessionId);
        });
    m_loadJobs.push_back(std::move(job));
    return nullptr;
}

// ----- the live session

QString SessionHub::notResumedNotice(const std::map<int, int>& otherLayoutRewrites)
{
    QStringList parts;
    for (const auto& [rewrite, count] : otherLayoutRewrites)
        if (rewrite >= 0) // a malformed option names none to choose
            parts << (count == 1 ? tr("1 record measured with layout rewrite %1").arg(rewrite)
                                 : tr("%1 records measured with layout rewrite %2").arg(count).arg(rewrite));
    if (parts.isEmpty())
        return {};
    return tr("Not resumed: %1 of these tasks. They time another kernel; a session with that layout rewrite "
              "resumes them.")
        .arg(parts.join(QStringLiteral(", ")));
}

bool SessionHub::start(const engine::TuneOrigin& origin, engine::TuneOptions options)
{
    if (m_live)
        return false;
    options.origin = origin.toJson();
    options.workspace = m_workspace.toStdString();
    options.layout = origin.layout;
    options.network = origin.network;
    options.batch = origin.batch;
    auto live = std::make_shared<Live>();
    live->policy = options.policy;
    m_live = live;
    m_followLive = true;
    m_liveSnapshot.reset();
    SessionHub* hub = this;
    live->worker = std::thread([live, hub, origin, options]() mutable {
        auto end = [&] {
            QMetaObject::invokeMethod(
                hub, [hub] { hub->onLiveEnded(); }, Qt::QueuedConnection);
        };
        auto tasks = engine::buildTasks(origin);
        // AutoTVM tunes the tasks a template fits; a network's others are left out (an operator the dialog
        // already checked).
        if (tasks && search::isAutotvm(options.policy)) {
            std::string why;
            std::erase_if(*tasks, [&](const graph::Task& t) {
                auto supported = search::policySupports(options.policy, t.dag, options.measure.target);
                if (!supported)
                    why = supported.error().message;
                return !supported;
            });
            if (tasks->empty())
                tasks = makeError(ErrorKind::Unsupported, "no task of " + origin.title() + " can be tuned: " + why);
        }
        std::vector<std::shared_ptr<const graph::Task>> graphTasks;
        if (tasks)
            for (graph::Task& t : *tasks) {
                options.tasks.push_back({ t.name, t.dag, t.weight, "" });
                for (size_t i = 0; i < t.fusedOps.size(); ++i)
                    options.tasks.back().tags += (i ? "," : "") + t.fusedOps[i];
                graphTasks.push_back(std::make_shared<const graph::Task>(std::move(t)));
            }
        engine::TuningSession* running = nullptr;
        bool identified = false;
        {
            std::lock_guard lock(live->mutex);
            live->builder.emplace(options, graphTasks, origin.title());
            if (!tasks || live->abortRequested || live->cancelRequested) {
                live->builder->fail(tasks ? std::string("cancelled before it started") : tasks.error().message);
                if (tasks)
                    live->builder->setState("cancelled");
                live->publishLocked(hub);
                end();
                return;
            }
            live->session = std::make_unique<engine::TuningSession>(
                options, [live, hub, &identified, &running](const engine::TuneEvent& event) {
                    std::lock_guard eventLock(live->mutex);
                    if (!identified) {
                        live->builder->setSessionId(running->sessionId(), running->restoredTrials());
                        identified = true;
                        const QString notice = notResumedNotice(running->otherLayoutRewriteRecords());
                        if (!notice.isEmpty())
                            QMetaObject::invokeMethod(
                                hub, [hub, notice] { Q_EMIT hub->noticed(notice); }, Qt::QueuedConnection);
                    }
                    live->builder->apply(event);
                    if (publishesAtOnce(event) || Clock::now() - live->lastPublish >= kPublishInterval)
                        live->publishLocked(hub);
                    if (const auto* m = std::get_if<engine::ModelSwitched>(&event))
                        QMetaObject::invokeMethod(
                            hub,
                            [hub, from = QString::fromStdString(m->from), to = QString::fromStdString(m->to),
                                error = QString::fromStdString(m->error)] {
                                Q_EMIT hub->modelSwitched(from, to, error);
                            },
                            Qt::QueuedConnection);
                });
            running = live->session.get();
            if (live->requestedModel)
                (void)running->switchModel(*live->requestedModel); // checked when it was asked for
            if (live->pauseRequested)
                running->pause();
            live->builder->setState(live->pauseRequested ? "paused" : "running");
            live->publishLocked(hub);
        }
        // Unlocked: the sink takes the lock for each event. run() restores, then loops until the budget is
        // spent, the session is cancelled or aborted, or it fails.
        auto result = running->run();
        {
            std::lock_guard lock(live->mutex);
            if (!result)
                live->builder->fail(result.error().message);
            else if (!identified)
                live->builder->setSessionId(running->sessionId(), running->restoredTrials());
            live->publishLocked(hub);
        }
        end();
    });
    Q_EMIT liveStateChanged();
    return true;
}

bool SessionHub::resume(int64_t sessionId, int trials)
{
    auto found = std::find_if(
        m_sessions.begin(), m_sessions.end(), [&](const store::SessionInfo& s) { return s.id == sessionId; });
    if (m_live || found == m_sessions.end())
        return false;
    const nlohmann::json settings = nlohmann::json::parse(found->settings, nullptr, false);
    if (!settings.is_object() || !settings.contains("origin")) {
        Q_EMIT errorOccurred(tr("Session %1 did not record what it tuned, so it cannot be resumed.").arg(sessionId));
        return false;
    }
    auto origin = engine::TuneOrigin::fromJson(settings["origin"].dump());
    auto policy = search::policyKindFromString(found->policy);
    if (!origin || !policy) {
        Q_EMIT errorOccurred(
            tr("Session %1 cannot be resumed: %2")
                .arg(sessionId)
                .arg(QString::fromStdString(!origin ? origin.error().message : policy.error().message)));
        return false;
    }
    engine::TuneOptions options;
    options.policy = *policy;
    options.model = found->costModel;
    options.seed = static_cast<uint64_t>(found->seed);
    options.trials = trials > 0 ? trials : settings.value("trials", 1000);
    options.measuresPerRound = settings.value("measures_per_round", 64);
    options.search.population = settings.value("population", options.search.population);
    options.search.crossoverProb = settings.value("crossover_prob", options.search.crossoverProb);
    // Sessions stored before the option existed ran without it.
    options.search.similarTaskSeeds = settings.value("similar_task_seeds", 0);
    options.measure.layoutRewrite = settings.value("layout_rewrite_option", 0);
    if (settings.value("scheduler", std::string("gradient")) == "round-robin")
        options.scheduler.strategy = search::SchedulerStrategy::RoundRobin;
    return start(*origin, std::move(options));
}

bool SessionHub::isPaused() const
{
    if (!m_live)
        return false;
    std::lock_guard lock(m_live->mutex);
    return m_live->pauseRequested;
}

void SessionHub::pause()
{
    if (!m_live)
        return;
    {
        std::lock_guard lock(m_live->mutex);
        m_live->pauseRequested = true;
        if (m_live->session)
            m_live->session->pause();
        if (m_live->builder && !m_live->cancelRequested) {
            m_live->builder->setState("paused");
            m_live->publishLocked(this);
        }
    }
    Q_EMIT liveStateChanged();
}

void SessionHub::resumeLive()
{
    if (!m_live)
        return;
    {
        std::lock_guard lock(m_live->mutex);
        m_live->pauseRequested = false;
        if (m_live->session)
            m_live->session->resume();
        if (m_live->builder && !m_live->cancelRequested) {
            m_live->builder->setState("running");
            m_live->publishLocked(this);
        }
    }
    Q_EMIT liveStateChanged();
}

void SessionHub::cancel()
{
    if (!m_live)
        return;
    {
        std::lock_guard lock(m_live->mutex);
        m_live->cancelRequested = true;
        if (m_live->session) {
            m_live->session->cancel();
            m_live->session->resume(); // a paused session must run on to see the cancel
        }
        if (m_live->builder) {
            m_live->builder->setState("cancelling");
            m_live->publishLocked(this);
        }
    }
    Q_EMIT liveStateChanged();
}

bool SessionHub::switchModel(const QString& kind)
{
    if (!m_live) {
        Q_EMIT errorOccurred(tr("No session is running, so there is no model to switch."));
        return false;
    }
    const std::string wanted = kind.toStdString();
    Expected<void> asked;
    {
        std::lock_guard lock(m_live->mutex);
        if (m_live->session) {
            asked = m_live->session->switchModel(wanted);
        } else { // still building its tasks: asked of the session once it is made
            asked = engine::TuningSession::checkModelSwitch(m_live->policy, wanted);
            if (asked)
                m_live->requestedModel = wanted;
        }
    }
    if (!asked) {
        Q_EMIT errorOccurred(
            tr("Cannot switch the model to %1: %2").arg(kind, QString::fromStdString(asked.error().message)));
        return false;
    }
    return true;
}

void SessionHub::publishLive()
{
    if (!m_live)
        return;
    std::shared_ptr<const models::SessionSnapshot> latest;
    {
        std::lock_guard lock(m_live->mutex);
        m_live->posted = false;
        latest = m_live->latest;
    }
    if (!latest || latest == m_liveSnapshot)
        return;
    const bool firstWithId = latest->sessionId != 0 && (!m_liveSnapshot || m_liveSnapshot->sessionId == 0);
    m_liveSnapshot = std::move(latest);
    if (m_followLive)
        setCurrent(m_liveSnapshot);
    if (firstWithId)
        refreshSessions();
}

void SessionHub::onLiveEnded()
{
    if (!m_live)
        return;
    if (m_live->worker.joinable())
        m_live->worker.join();
    publishLive();
    std::shared_ptr<const models::SessionSnapshot> last;
    {
        std::lock_guard lock(m_live->mutex);
        last = m_live->latest;
    }
    m_live.reset();
    if (last) {
        m_liveSnapshot = last;
        if (last->sessionId > 0)
            m_loaded[last->sessionId] = last;
        if (m_followLive)
            setCurrent(last);
    }
    Q_EMIT liveStateChanged();
    refreshSessions();
    if (last)
        Q_EMIT liveFinished(
            last->sessionId, QString::fromStdString(last->state), QString::fromStdString(last->message));
}

} // namespace ts::widgets
