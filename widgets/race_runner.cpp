#include "widgets/race_runner.h"

#include "core/engine/tune_origin.h"
#include "core/store/store.h"

#include <QMetaObject>

#include <nlohmann/json.hpp>

#include <chrono>

namespace ts::widgets {

RaceRunner::RaceRunner(QObject* parent)
    : QObject(parent)
    , m_listJob(this)
    , m_loadJob(this)
{
}

RaceRunner::~RaceRunner()
{
    cancel();
    join();
}

void RaceRunner::join()
{
    if (m_worker.joinable())
        m_worker.join();
}

void RaceRunner::cancel()
{
    if (m_race)
        m_race->cancel();
}

bool RaceRunner::start(engine::RaceOptions options, std::shared_ptr<const graph::Task> task)
{
    if (running()) {
        Q_EMIT errorOccurred(tr("A race is running; cancel it first."));
        return false;
    }
    join();
    m_done = false;
    const size_t lanes = options.policies.size();
    m_race = std::make_unique<engine::Race>(
        std::move(options), [this, task, lanes](const engine::RaceEvent& e, const engine::RaceResult& result) {
            // The racing thread: copy, then publish at most every 100 ms unless the event closes a round.
            auto snapshot = std::make_shared<RaceSnapshot>();
            {
                std::lock_guard lock(m_mutex);
                if (m_latest) {
                    snapshot->phases = m_latest->phases;
                    snapshot->rounds = m_latest->rounds;
                }
            }
            snapshot->phases.resize(lanes);
            snapshot->rounds.resize(lanes, 0);
            snapshot->result = result;
            snapshot->live = true;
            snapshot->task = task;
            const size_t lane = static_cast<size_t>(e.lane);
            bool now = false;
            if (const auto* phase = std::get_if<engine::PhaseStarted>(&e.event))
                snapshot->phases[lane] = phase->phase;
            if (std::holds_alternative<engine::RoundDone>(e.event)) {
                ++snapshot->rounds[lane];
                snapshot->phases[lane] = "";
                now = true;
            }
            if (std::holds_alternative<engine::Finished>(e.event)) {
                snapshot->phases[lane] = "done";
                now = true;
            }
            bool post = false;
            {
                std::lock_guard lock(m_mutex);
                m_latest = snapshot;
                const auto t = std::chrono::steady_clock::now();
                if (!m_pending && (now || t - m_lastPublish >= std::chrono::milliseconds(100))) {
                    m_pending = true;
                    m_lastPublish = t;
                    post = true;
                }
            }
            if (post)
                QMetaObject::invokeMethod(
                    this, [this] { publish(); }, Qt::QueuedConnection);
        });
    m_worker = std::thread([this, task] {
        auto result = m_race->run();
        auto last = std::make_shared<RaceSnapshot>();
        {
            std::lock_guard lock(m_mutex);
            if (m_latest)
                *last = *m_latest;
        }
        last->live = false;
        last->task = task;
        if (result)
            last->result = std::move(result).value();
        else
            last->error = result.error().message;
        {
            std::lock_guard lock(m_mutex);
            m_latest = last;
            m_pending = true;
        }
        m_done = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                publish();
                const auto snapshot = m_current;
                Q_EMIT finished(
                    snapshot && !snapshot->error.empty() ? QString::fromStdString(snapshot->error) : tr("finished"));
            },
            Qt::QueuedConnection);
    });
    return true;
}

void RaceRunner::publish()
{
    {
        std::lock_guard lock(m_mutex);
        m_current = m_latest;
        m_pending = false;
    }
    Q_EMIT updated();
}

void RaceRunner::listRaces(const QString& workspace)
{
    m_listJob.start(
        [path = workspace.toStdString()](session::JobContext&) -> Expected<std::vector<engine::RaceInfo>> {
            store::OpenOptions options;
            options.readOnly = true;
            auto store = store::Store::open(path, options);
            if (!store && store.error().kind == ErrorKind::NotFound)
                return std::vector<engine::RaceInfo> {}; // a workspace not created yet (the demo's, on a first start)
            if (!store)
                return store.error();
            return engine::listRaces(*store);
        },
        [this](Expected<std::vector<engine::RaceInfo>> races) {
            if (!races) {
                Q_EMIT errorOccurred(QString::fromStdString(races.error().message));
                return;
            }
            Q_EMIT racesListed(*races);
        });
}

void RaceRunner::loadRace(const QString& workspace, const QString& id)
{
    m_loadJob.start(
        [path = workspace.toStdString(), id = id.toStdString()](
            session::JobContext&) -> Expected<std::shared_ptr<const RaceSnapshot>> {
            store::OpenOptions options;
            options.readOnly = true;
            TS_TRY(store::Store store, store::Store::open(path, options));
            TS_TRY(engine::RaceResult race, engine::loadRace(store, id));
            auto snapshot = std::make_shared<RaceSnapshot>();
            snapshot->phases.assign(race.lanes.size(), "done");
            snapshot->rounds.assign(race.lanes.size(), 0);
            // The task, from the first lane's origin, so that its best programs can be shown.
            TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
            for (const store::SessionInfo& s : sessions) {
                if (race.lanes.empty() || s.id != race.lanes.front().sessionId)
                    continue;
                const nlohmann::json settings = nlohmann::json::parse(s.settings, nullptr, false);
                if (!settings.is_object() || !settings.contains("origin"))
                    break;
                auto origin = engine::TuneOrigin::fromJson(settings["origin"].dump());
                if (!origin)
                    break;
                auto tasks = engine::buildTasks(*origin);
                if (tasks && !tasks->empty())
                    snapshot->task = std::make_shared<const graph::Task>(tasks->front());
            }
            snapshot->result = std::move(race);
            return std::shared_ptr<const RaceSnapshot>(std::move(snapshot));
        },
        [this](Expected<std::shared_ptr<const RaceSnapshot>> race) {
            if (!race) {
                Q_EMIT errorOccurred(QString::fromStdString(race.error().message));
                return;
            }
            Q_EMIT raceLoaded(*race);
        });
}

} // namespace ts::widgets
