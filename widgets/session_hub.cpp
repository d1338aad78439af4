#include "widgets/session_hub.h"

#include "core/search/task_policy.h"
#include "core/session/job_tracker.h"
#include "core/store/store.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

namespace ts::widgets {

namespace {
    // Events after which the newest snapshot goes out at once: what a status line or a curve shows changes. Any
    // other event (one added to engine::TuneEvent later included) goes out with the next throttled publication.
    bool publishesAtOnce(const engine::TuneEvent& event)
    {
        return std::holds_alternative<engine::PhaseStarted>(event) || std::holds_alternative<engine::RoundDone>(event)
            || std::holds_alternative<engine::Finished>(event) || std::holds_alternative<engine::BestImproved>(event)
            || std::holds_alternative<engine::ModelSwitched>(event) // modelSwitched, queued next, reads it
            || std::holds_alternative<engine::SteeringChanged>(event) // so does commandDone
            || std::holds_alternative<engine::CommandDone>(event); // a manual record, before commandDone
    }
} // namespace

// The live session's state, touched under its job's lock only: on the worker (events, the session's start and
// end) and on the GUI thread (pause, resume, cancel, a model switch).
struct SessionHub::Live {
    std::optional<models::SnapshotBuilder> builder; // made on the worker once the tasks are built
    std::unique_ptr<engine::TuningSession> session; // likewise; handed back to the worker to destroy at the end
    std::optional<std::string> requestedModel; // asked for before the session was made
    search::PolicyKind policy = search::PolicyKind::Ansor;
};

SessionHub::SessionHub(QObject* parent)
    : QObject(parent)
    , m_listJob(std::make_unique<session::JobTracker>(this))
    , m_showJob(std::make_unique<session::JobTracker>(this))
{
    m_live = std::make_unique<LiveJob>(
        this,
        [](Live& live, const engine::TuneEvent& event) {
            live.builder->apply(event);
            return publishesAtOnce(event) ? session::Publish::Now : session::Publish::WhenDue;
        },
        [this](std::shared_ptr<const models::SessionSnapshot> latest) { publishLive(std::move(latest)); },
        [this](Expected<void> outcome) { onLiveEnded(std::move(outcome)); },
        [](const Live& live) { return live.builder ? live.builder->publish() : nullptr; });
}

SessionHub::~SessionHub()
{
    m_live.reset(); // aborts a running session (the batch in flight is lost) and joins its thread, first
}

// ----- workspace

void SessionHub::openWorkspace(const QString& path)
{
    m_workspace = path;
    m_sessions.clear();
    m_loaded.clear();
    m_loading.clear();
    m_networkRuns.clear();
    if (!isLive())
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
    if (isLive())
        return false;
    options.origin = origin.toJson();
    options.workspace = m_workspace.toStdString();
    options.layout = origin.layout;
    options.network = origin.network;
    options.batch = origin.batch;
    Live initial;
    initial.policy = options.policy;
    m_followLive = true;
    m_liveSnapshot.reset();
    SessionHub* hub = this;
    m_live->start(std::move(initial), [hub, origin, options](LiveJob::Context& live) mutable {
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
        if (!tasks || live.stopRequested()) {
            live.update(
                [&](Live& state) {
                    state.builder.emplace(options, graphTasks, origin.title());
                    state.builder->fail(tasks ? std::string("cancelled before it started") : tasks.error().message);
                    if (tasks)
                        state.builder->setState("cancelled");
                },
                session::Publish::Skip); // the job publishes its end
            return;
        }
        bool identified = false;
        engine::TuningSession* running = live.update([&](Live& state) {
            state.builder.emplace(options, graphTasks, origin.title());
            state.session = std::make_unique<engine::TuningSession>(
                options, [&live, hub, &identified](const engine::TuneEvent& event) {
                    // The session has its row, and has restored its tasks, once its id is known: not yet for the
                    // events of its preparation (the steering it starts with).
                    if (!identified) {
                        const std::optional<QString> notice = live.update(
                            [](Live& s) -> std::optional<QString> {
                                if (s.session->sessionId() == 0)
                                    return std::nullopt;
                                s.builder->setSessionId(s.session->sessionId(), s.session->restoredTrials());
                                return notResumedNotice(s.session->otherLayoutRewriteRecords());
                            },
                            session::Publish::Skip);
                        identified = notice.has_value();
                        if (notice && !notice->isEmpty())
                            live.post([hub, notice = *notice] { Q_EMIT hub->noticed(notice); });
                    }
                    live.fold(event);
                    if (const auto* c = std::get_if<engine::CommandDone>(&event))
                        live.post([hub, id = c->id, what = QString::fromStdString(c->what),
                                      error = QString::fromStdString(c->error), record = c->recordId] {
                            hub->m_postedConstraints.erase(id);
                            Q_EMIT hub->commandDone(id, what, error, record);
                        });
                    if (const auto* m = std::get_if<engine::ModelSwitched>(&event))
                        live.post([hub, from = QString::fromStdString(m->from), to = QString::fromStdString(m->to),
                                      error = QString::fromStdString(m->error)] {
                            Q_EMIT hub->modelSwitched(from, to, error);
                        });
                });
            if (state.requestedModel)
                (void)state.session->switchModel(*state.requestedModel); // checked when it was asked for
            state.builder->setState(live.pauseRequested() ? "paused" : "running");
            return state.session.get();
        });
        Expected<engine::Finished> result = [&] {
            // Pause, resume, cancel and abort reach the session from here on (a pause asked for while the tasks
            // were built holds it at once). A paused session must run on to see a cancel.
            auto attached = live.attach({ .pause = [running] { running->pause(); },
                .resume = [running] { running->resume(); },
                .cancel =
                    [running] {
                        running->cancel();
                        running->resume();
                    },
                .abort = [running] { running->abort(); } });
            // run() restores, then loops until the budget is spent, the session is cancelled or aborted, or it
            // fails.
            return running->run();
        }();
        // The session ends on this thread, not the GUI's (it closes its store and measurer); the job publishes
        // the end.
        std::unique_ptr<engine::TuningSession> ended = live.update(
            [&](Live& state) {
                if (!result)
                    state.builder->fail(result.error().message);
                else if (!identified)
                    state.builder->setSessionId(running->sessionId(), running->restoredTrials());
                return std::move(state.session);
            },
            session::Publish::Skip);
    });
    Q_EMIT liveStateChanged();
    return true;
}

bool SessionHub::resume(int64_t sessionId, int trials)
{
    auto found = std::find_if(
        m_sessions.begin(), m_sessions.end(), [&](const store::SessionInfo& s) { return s.id == sessionId; });
    if (isLive() || found == m_sessions.end())
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
    // The steering in effect when it stopped (constraints, seeds) and the same shadow models.
    options.steeringFrom = found->settings;
    if (settings.contains("shadow_kinds") && settings["shadow_kinds"].is_array())
        for (const nlohmann::json& kind : settings["shadow_kinds"])
            if (kind.is_string())
                options.shadowModels.push_back(kind.get<std::string>());
    return start(*origin, std::move(options));
}

bool SessionHub::isLive() const { return m_live && m_live->isRunning(); }

bool SessionHub::isPaused() const { return m_live && m_live->isPaused(); }

void SessionHub::pause()
{
    if (!isLive())
        return;
    m_live->pause();
    const bool cancelling = m_live->cancelRequested();
    m_live->update(
        [cancelling](Live& live) {
            if (live.builder && !cancelling)
                live.builder->setState("paused");
        },
        session::Publish::Now);
    Q_EMIT liveStateChanged();
}

void SessionHub::resumeLive()
{
    if (!isLive())
        return;
    m_live->resume();
    const bool cancelling = m_live->cancelRequested();
    m_live->update(
        [cancelling](Live& live) {
            if (live.builder && !cancelling)
                live.builder->setState("running");
        },
        session::Publish::Now);
    Q_EMIT liveStateChanged();
}

void SessionHub::cancel()
{
    if (!isLive())
        return;
    m_live->cancel();
    m_live->update(
        [](Live& live) {
            if (live.builder)
                live.builder->setState("cancelling");
        },
        session::Publish::Now);
    Q_EMIT liveStateChanged();
}

bool SessionHub::switchModel(const QString& kind)
{
    if (!isLive()) {
        Q_EMIT errorOccurred(tr("No session is running, so there is no model to switch."));
        return false;
    }
    const std::string wanted = kind.toStdString();
    const Expected<void> asked = m_live->update(
        [&wanted](Live& live) -> Expected<void> {
            if (live.session)
                return live.session->switchModel(wanted);
            // Still building its tasks: asked of the session once it is made.
            Expected<void> allowed = engine::TuningSession::checkModelSwitch(live.policy, wanted);
            if (allowed)
                live.requestedModel = wanted;
            return allowed;
        },
        session::Publish::Skip);
    if (!asked) {
        Q_EMIT errorOccurred(
            tr("Cannot switch the model to %1: %2").arg(kind, QString::fromStdString(asked.error().message)));
        return false;
    }
    return true;
}

Expected<int64_t> SessionHub::post(engine::SessionCommand command)
{
    const std::string what = engine::describe(command);
    std::optional<engine::SetConstraints> constrain; // kept: the command is moved to the session
    if (const auto* c = std::get_if<engine::SetConstraints>(&command))
        constrain = *c;
    Expected<int64_t> posted = makeError(ErrorKind::InvalidArgument, "no session is running");
    if (isLive())
        // Under the job's lock, so that the session cannot end between the look and the post; post() only queues
        // the command and wakes the session (any thread), it never calls back into the job.
        posted = m_live->update(
            [&command](Live& live) -> Expected<int64_t> {
                if (!live.session) // not made yet, or handed back to the worker at the end
                    return makeError(ErrorKind::InvalidArgument,
                        live.builder && live.builder->snapshot().sessionId > 0
                            ? "the session has ended"
                            : "the session is still building its tasks");
                return live.session->post(std::move(command));
            },
            session::Publish::Skip);
    if (!posted) {
        Q_EMIT errorOccurred(
            tr("Cannot %1: %2").arg(QString::fromStdString(what), QString::fromStdString(posted.error().message)));
        return posted;
    }
    if (constrain)
        m_postedConstraints[*posted] = std::move(*constrain);
    Q_EMIT commandPosted(*posted);
    return posted;
}

std::optional<search::Constraints> SessionHub::postedConstraints(int task) const
{
    for (auto it = m_postedConstraints.rbegin(); it != m_postedConstraints.rend(); ++it)
        if (it->second.task == task)
            return it->second.constraints;
    return std::nullopt;
}

void SessionHub::publishLive(std::shared_ptr<const models::SessionSnapshot> latest)
{
    if (!latest || latest == m_liveSnapshot)
        return;
    const bool firstWithId = latest->sessionId != 0 && (!m_liveSnapshot || m_liveSnapshot->sessionId == 0);
    m_liveSnapshot = std::move(latest);
    Q_EMIT liveUpdated();
    if (m_followLive)
        setCurrent(m_liveSnapshot);
    if (firstWithId)
        refreshSessions();
}

void SessionHub::onLiveEnded(Expected<void> outcome)
{
    // The job has handed over its last snapshot (publishLive) and is no longer live.
    m_postedConstraints.clear(); // the session answered every command before it ended
    std::shared_ptr<const models::SessionSnapshot> last = m_liveSnapshot;
    if (!outcome) { // the worker failed outside the session (an internal error): the session ends failed
        auto failed = std::make_shared<models::SessionSnapshot>(last ? *last : models::SessionSnapshot {});
        failed->state = "failed";
        failed->message = outcome.error().message;
        failed->live = false;
        failed->phase.clear();
        last = std::move(failed);
        Q_EMIT errorOccurred(tr("The session failed: %1").arg(QString::fromStdString(outcome.error().message)));
    }
    if (last) {
        m_liveSnapshot = last;
        Q_EMIT liveUpdated();
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
