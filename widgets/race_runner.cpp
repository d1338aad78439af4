#include "widgets/race_runner.h"

#include "core/engine/tune_origin.h"
#include "core/store/store.h"

#include <nlohmann/json.hpp>

namespace ts::widgets {

RaceRunner::RaceRunner(QObject* parent)
    : QObject(parent)
    , m_race(
          this, &RaceRunner::fold,
          [this](std::shared_ptr<const RaceSnapshot> snapshot) {
              m_current = std::move(snapshot);
              Q_EMIT updated();
          },
          [this](Expected<void> outcome) {
              if (!outcome) { // the racing thread failed outside the race: the race ends with its error
                  auto failed = std::make_shared<RaceSnapshot>(m_current ? *m_current : RaceSnapshot {});
                  failed->live = false;
                  failed->error = outcome.error().message;
                  m_current = std::move(failed);
                  Q_EMIT updated();
              }
              const auto snapshot = m_current;
              Q_EMIT finished(
                  snapshot && !snapshot->error.empty() ? QString::fromStdString(snapshot->error) : tr("finished"));
          })
    , m_listJob(this)
    , m_loadJob(this)
{
}

// The race job cancels a live race and joins its thread: the round in flight completes first (a race stops only
// between rounds).
RaceRunner::~RaceRunner() = default;

void RaceRunner::cancel() { m_race.cancel(); }

session::Publish RaceRunner::fold(RaceSnapshot& race, const Step& step)
{
    race.result = step.result;
    const size_t lane = static_cast<size_t>(step.event.lane);
    if (lane >= race.phases.size()) { // lanes are sized at the start; this keeps a bad lane index harmless
        race.phases.resize(lane + 1);
        race.rounds.resize(lane + 1, 0);
    }
    // Any other event (one added to engine::TuneEvent later included) only updates the result.
    if (const auto* phase = std::get_if<engine::PhaseStarted>(&step.event.event))
        race.phases[lane] = phase->phase;
    if (std::holds_alternative<engine::RoundDone>(step.event.event)) {
        ++race.rounds[lane];
        race.phases[lane] = "";
        return session::Publish::Now;
    }
    if (std::holds_alternative<engine::Finished>(step.event.event)) {
        race.phases[lane] = "done";
        return session::Publish::Now;
    }
    return session::Publish::WhenDue;
}

bool RaceRunner::start(engine::RaceOptions options, std::shared_ptr<const graph::Task> task)
{
    if (running()) {
        Q_EMIT errorOccurred(tr("A race is running; cancel it first."));
        return false;
    }
    RaceSnapshot initial;
    initial.phases.resize(options.policies.size());
    initial.rounds.resize(options.policies.size(), 0);
    initial.live = true;
    initial.task = std::move(task);
    return m_race.start(std::move(initial), [options = std::move(options)](RaceJob::Context& context) mutable {
        engine::Race race(
            std::move(options), [&context](const engine::RaceEvent& event, const engine::RaceResult& result) {
                context.fold(Step { event, result });
            });
        Expected<engine::RaceResult> result = [&] {
            // A race stops between rounds: cancel and abort alike let the round in flight complete.
            auto attached
                = context.attach({ .cancel = [&race] { race.cancel(); }, .abort = [&race] { race.cancel(); } });
            return race.run();
        }();
        context.update(
            [&](RaceSnapshot& last) {
                last.live = false;
                if (result)
                    last.result = std::move(result).value();
                else
                    last.error = result.error().message;
            },
            session::Publish::Skip); // the job publishes its end
    });
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
