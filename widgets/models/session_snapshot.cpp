#include "widgets/models/session_snapshot.h"

#include "core/engine/tune_origin.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace ts::models {

namespace {
    double gflopsOf(double flops, double cost) { return cost > 0.0 ? flops / cost / 1e9 : 0.0; }

    void fillTrial(TrialPoint& point, const record::MeasureResult& result, double flops)
    {
        point.status = result.status;
        point.message = result.message;
        if (result.ok()) {
            point.cost = result.meanCost();
            point.gflops = gflopsOf(flops, point.cost);
        }
    }

    // A record's extra JSON says "pick": "manual" (engine::TuningSession::measureManual). The text is looked at
    // first: parsing every record's extra would cost more than the rest of loading it.
    bool isManualPick(const std::string& extra)
    {
        if (extra.find("manual") == std::string::npos)
            return false;
        const nlohmann::json json = nlohmann::json::parse(extra, nullptr, false);
        return json.is_object() && json.value("pick", std::string()) == "manual";
    }

    // The steering a stored session's settings hold (engine: TuningSession::applySteering), for `tasks` tasks.
    // Parts that do not read are left out: the rest of the session still shows.
    SteeringInfo storedSteering(const nlohmann::json& settings, size_t tasks)
    {
        SteeringInfo steering;
        steering.constraints.resize(tasks);
        steering.seeds.assign(tasks, 0);
        if (!settings.is_object() || !settings.contains("steering") || !settings["steering"].is_object())
            return steering;
        const nlohmann::json& stored = settings["steering"];
        if (stored.contains("history") && stored["history"].is_array())
            for (const nlohmann::json& label : stored["history"])
                steering.history.push_back(label.is_string() ? label.get<std::string>() : label.dump());
        steering.position = std::clamp(stored.value("position", 0), 0, std::max(0, int(steering.history.size()) - 1));
        auto taskOf = [tasks](const std::string& key) -> std::optional<size_t> {
            char* end = nullptr;
            const long index = std::strtol(key.c_str(), &end, 10);
            if (end == key.c_str() || *end != '\0' || index < 0 || static_cast<size_t>(index) >= tasks)
                return std::nullopt;
            return static_cast<size_t>(index);
        };
        if (stored.contains("constraints") && stored["constraints"].is_object())
            for (const auto& [key, value] : stored["constraints"].items())
                if (const auto task = taskOf(key))
                    if (auto constraints = search::constraintsFromJson(value))
                        steering.constraints[*task] = std::move(constraints).value();
        if (stored.contains("seeds") && stored["seeds"].is_object())
            for (const auto& [key, value] : stored["seeds"].items())
                if (const auto task = taskOf(key); task && value.is_array())
                    steering.seeds[*task] = static_cast<int>(value.size());
        return steering;
    }

    // The latency estimate over the tasks' bests: sum of weight * best, 0 while one has none.
    double estimatedLatency(const std::vector<SessionTask>& tasks)
    {
        double sum = 0.0;
        for (const SessionTask& t : tasks) {
            if (t.status.bestCost <= 0.0)
                return 0.0;
            sum += t.status.weight * t.status.bestCost;
        }
        return tasks.empty() ? 0.0 : sum;
    }
} // namespace

int SessionSnapshot::remainingTrials() const { return std::max(0, budget - restoredTrials - trialsDone); }

double SessionSnapshot::etaSeconds() const
{
    if (trialsDone == 0 || elapsed <= 0.0)
        return -1.0;
    return elapsed / trialsDone * remainingTrials();
}

const TrialPoint* SessionSnapshot::findRecord(int64_t recordId) const
{
    // Record ids grow with the trial order: binary search, then a scan for imported oddities.
    auto it = std::lower_bound(
        trials.begin(), trials.end(), recordId, [](const TrialPoint& p, int64_t id) { return p.recordId < id; });
    if (it != trials.end() && it->recordId == recordId)
        return &*it;
    for (const TrialPoint& p : trials)
        if (p.recordId == recordId)
            return &p;
    return nullptr;
}

int SessionSnapshot::manualTrials(int task) const
{
    return static_cast<int>(std::count_if(
        trials.begin(), trials.end(), [task](const TrialPoint& p) { return p.manual && p.task == task; }));
}

std::string SessionSnapshot::label() const
{
    // A session that switched its model names the one it started with too: "ansor + xgb → tlp".
    std::string text
        = policy + " + " + engine::switchedModelsText(modelSwitches, model) + ", seed " + std::to_string(seed);
    return sessionId > 0 ? "#" + std::to_string(sessionId) + " " + text : text;
}

// ----- live

SnapshotBuilder::SnapshotBuilder(
    const engine::TuneOptions& options, std::vector<std::shared_ptr<const graph::Task>> tasks, std::string title)
{
    SessionSnapshot& s = m_snapshot;
    s.title = std::move(title);
    s.origin = options.origin;
    s.network = options.network;
    s.policy = search::toString(options.policy);
    s.model = options.model;
    s.seed = options.seed;
    s.budget = options.trials;
    s.measuresPerRound = options.measuresPerRound;
    s.workspace = options.workspace;
    s.live = true;
    s.startedAt = record::unixNow();
    for (size_t i = 0; i < options.tasks.size(); ++i) {
        const engine::TuneTask& t = options.tasks[i];
        SessionTask task;
        task.status.task = static_cast<int>(i);
        task.status.name = t.name;
        task.status.weight = t.weight;
        task.status.flops = t.dag.flopCount();
        task.task = i < tasks.size() ? tasks[i] : nullptr;
        s.tasks.push_back(std::move(task));
    }
    s.steering.constraints.resize(s.tasks.size());
    s.steering.seeds.assign(s.tasks.size(), 0);
}

void SnapshotBuilder::setSessionId(int64_t id, int restoredTrials)
{
    m_snapshot.sessionId = id;
    m_snapshot.restoredTrials = restoredTrials;
}

void SnapshotBuilder::setState(std::string state)
{
    if (!m_snapshot.finished()) // the end is final: a late pause or cancel does not undo it
        m_snapshot.state = std::move(state);
}

void SnapshotBuilder::fail(std::string message)
{
    m_snapshot.state = "failed";
    m_snapshot.message = std::move(message);
    m_snapshot.live = false;
    m_snapshot.phase.clear();
}

void SnapshotBuilder::apply(const engine::TuneEvent& event)
{
    SessionSnapshot& s = m_snapshot;
    s.elapsed = std::max(s.elapsed, record::unixNow() - s.startedAt);
    if (const auto* p = std::get_if<engine::BatchProgress>(&event)) {
        s.batch = *p;
    } else if (const auto* m = std::get_if<engine::RecordMeasured>(&event)) {
        SessionTask& task = s.tasks.at(static_cast<size_t>(m->task));
        TrialPoint point;
        point.recordId = m->recordId;
        point.task = m->task;
        point.trial = ++s.trialsDone;
        point.round = m_round;
        point.elapsed = s.elapsed;
        fillTrial(point, m->result, task.status.flops);
        if (std::isfinite(m->predictedScore))
            point.predicted = m->predictedScore;
        point.batchRank = m->batchRank;
        point.random = m->random;
        point.manual = m->manual;
        ++task.sessionTrials;
        ++task.status.trials;
        s.trials.push_back(std::move(point));
    } else if (const auto* b = std::get_if<engine::BestImproved>(&event)) {
        SessionTask& task = s.tasks.at(static_cast<size_t>(b->task));
        task.status.bestCost = b->cost;
        task.curve.push_back(
            CurvePoint { s.trialsDone, task.sessionTrials, s.elapsed, b->cost, b->gflops, b->recordId });
        s.estimatedLatency = estimatedLatency(s.tasks);
    } else if (const auto* ph = std::get_if<engine::PhaseStarted>(&event)) {
        s.phase = ph->phase;
        s.phaseTask = ph->task;
        if (ph->phase != "measure")
            s.batch = {};
    } else if (const auto* sw = std::get_if<engine::ModelSwitched>(&event)) {
        if (sw->error.empty())
            s.model = sw->to;
        s.modelSwitches.push_back(*sw);
    } else if (const auto* r = std::get_if<engine::RoundDone>(&event)) {
        for (size_t i = 0; i < r->tasks.size() && i < s.tasks.size(); ++i) {
            s.tasks[i].status = r->tasks[i];
            if (i < r->gradients.size())
                s.tasks[i].lastGradient = r->gradients[i];
        }
        s.estimatedLatency = r->estimatedLatency;
        s.elapsed = r->elapsed;
        s.rounds.push_back(RoundInfo { r->round, r->task, r->measured, r->errors, r->totalTrials, r->elapsed,
            r->estimatedLatency, r->choice, r->gradients, r->phases, r->search });
        s.shadows.insert(s.shadows.end(), r->shadows.begin(), r->shadows.end());
        m_round = r->round + 1;
    } else if (const auto* st = std::get_if<engine::SteeringChanged>(&event)) {
        // The newest says it all: the whole history and what is in effect now.
        s.steering.history = st->history;
        s.steering.position = st->position;
        s.steering.constraints = st->constraints;
        s.steering.seeds = st->seeds;
        s.steering.manualInPopulation = st->manualInPopulation;
        s.steering.constraints.resize(s.tasks.size());
        s.steering.seeds.resize(s.tasks.size());
        s.steering.manualInPopulation.resize(s.tasks.size());
    } else if (const auto* f = std::get_if<engine::Finished>(&event)) {
        s.state = f->status;
        s.message = f->message;
        for (size_t i = 0; i < f->tasks.size() && i < s.tasks.size(); ++i)
            s.tasks[i].status = f->tasks[i];
        s.estimatedLatency = f->estimatedLatency;
        s.elapsed = f->elapsed;
        s.restoredTrials = f->restoredTrials;
        s.live = false;
        s.phase.clear();
        s.phaseTask = -1;
        s.batch = {};
    }
    // TaskSwitched and ModelUpdated: the rounds and the phase say it. CommandDone: the hub passes it on as a signal
    // (the steering it changed comes as SteeringChanged). An event this builder does not know (one
    // added to engine::TuneEvent later) falls through every branch and changes nothing but the elapsed time.
}

// ----- stored

Expected<SessionSnapshot> loadSessionSnapshot(store::Store& store, int64_t sessionId)
{
    TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
    auto info = std::find_if(
        sessions.begin(), sessions.end(), [&](const store::SessionInfo& s) { return s.id == sessionId; });
    if (info == sessions.end())
        return makeError(ErrorKind::NotFound, "the workspace has no session " + std::to_string(sessionId));
    SessionSnapshot s;
    s.sessionId = info->id;
    s.policy = info->policy;
    s.model = info->costModel;
    s.seed = static_cast<uint64_t>(info->seed);
    s.state = info->status;
    s.startedAt = info->startedAt;
    s.workspace = store.path();
    s.modelSwitches = engine::modelSwitchesOf(info->settings);
    const nlohmann::json settings = nlohmann::json::parse(info->settings, nullptr, false);
    if (settings.is_object()) {
        s.budget = settings.value("trials", 0);
        s.measuresPerRound = settings.value("measures_per_round", 0);
        s.network = settings.value("network", std::string());
        if (settings.contains("origin"))
            s.origin = settings["origin"].dump();
        // Shadow models' lines, stored when the session ended; unreadable ones are left out (the records still show).
        if (settings.contains("shadow_models"))
            if (auto lines = engine::shadowMetricsFromJson(settings["shadow_models"].dump()))
                s.shadows = std::move(lines).value();
    }

    // The session's tasks as its origin names them, matched to the store's task rows by workload key.
    std::vector<graph::Task> built;
    if (!s.origin.empty()) {
        if (auto origin = engine::TuneOrigin::fromJson(s.origin)) {
            s.title = origin->title();
            if (auto tasks = engine::buildTasks(*origin))
                built = std::move(tasks).value();
        }
    }
    TS_TRY(std::vector<store::TaskInfo> storeTasks, store.tasks());
    std::map<int64_t, const store::TaskInfo*> taskRow;
    for (const store::TaskInfo& t : storeTasks)
        taskRow[t.id] = &t;
    std::map<int64_t, int> indexOf; // store task id -> index in s.tasks
    for (const graph::Task& t : built) {
        SessionTask task;
        task.status.task = static_cast<int>(s.tasks.size());
        task.status.name = t.name;
        task.status.weight = t.weight;
        task.status.flops = t.flops;
        task.task = std::make_shared<const graph::Task>(t);
        const std::string key = t.dag.workloadKey();
        for (const store::TaskInfo& row : storeTasks)
            if (row.key == key) {
                task.storeTaskId = row.id;
                indexOf[row.id] = task.status.task;
            }
        s.tasks.push_back(std::move(task));
    }

    store::RecordFilter filter;
    filter.sessionId = sessionId;
    int round = 0;
    int roundTask = -1;
    std::set<int> ranksInRound;
    TS_CHECK(store.forEachRecord(filter, [&](const store::Record& r) {
        auto found = indexOf.find(r.taskId);
        if (found == indexOf.end()) { // a task the origin does not name (or no origin): one of its own
            SessionTask task;
            task.status.task = static_cast<int>(s.tasks.size());
            auto row = taskRow.find(r.taskId);
            task.status.name = row != taskRow.end() ? row->second->name : "task " + std::to_string(r.taskId);
            task.status.flops = row != taskRow.end() ? row->second->flops : 0.0;
            task.storeTaskId = r.taskId;
            found = indexOf.emplace(r.taskId, task.status.task).first;
            s.tasks.push_back(std::move(task));
        }
        const int index = found->second;
        SessionTask& task = s.tasks[static_cast<size_t>(index)];
        const int rank = r.batchRank.value_or(-1);
        // A manual record was measured between two batches: it belongs to no round and does not end the one before
        // it; a live session gives it the next round's number, and so does this.
        const bool manual = isManualPick(r.extra);
        if (!manual && (index != roundTask || (rank >= 0 && ranksInRound.count(rank)))) {
            if (roundTask >= 0)
                s.rounds.back().estimatedLatency = estimatedLatency(s.tasks);
            ++round;
            roundTask = index;
            ranksInRound.clear();
            s.rounds.push_back(RoundInfo {});
            s.rounds.back().round = round;
            s.rounds.back().task = index;
        }
        TrialPoint point;
        point.recordId = r.id;
        point.task = index;
        point.trial = ++s.trialsDone;
        point.round = manual ? round + 1 : round;
        point.elapsed = std::max(0.0, r.result.timestamp - s.startedAt);
        fillTrial(point, r.result, task.status.flops);
        point.predicted = r.predictedScore;
        point.batchRank = rank;
        point.random = r.extra.find("\"random\"") != std::string::npos;
        point.manual = manual;
        ++task.sessionTrials;
        ++task.status.trials;
        if (!manual) {
            ranksInRound.insert(rank);
            RoundInfo& current = s.rounds.back();
            ++current.measured;
            current.errors += point.ok() ? 0 : 1;
            current.totalTrials = s.trialsDone;
            current.elapsed = point.elapsed;
        }
        if (point.ok() && (task.status.bestCost <= 0.0 || point.cost < task.status.bestCost)) {
            task.status.bestCost = point.cost;
            task.curve.push_back(
                CurvePoint { point.trial, task.sessionTrials, point.elapsed, point.cost, point.gflops, r.id });
        }
        s.elapsed = std::max(s.elapsed, point.elapsed);
        s.trials.push_back(std::move(point));
        return true;
    }));
    if (!s.rounds.empty())
        s.rounds.back().estimatedLatency = estimatedLatency(s.tasks);
    s.estimatedLatency = estimatedLatency(s.tasks);
    s.steering = storedSteering(settings, s.tasks.size());
    if (info->endedAt)
        s.elapsed = std::max(s.elapsed, *info->endedAt - info->startedAt);
    if (s.title.empty())
        s.title = s.network.empty() ? "session " + std::to_string(sessionId) : s.network;
    // A session still marked running that no process drives was interrupted (killed, or crashed).
    if (s.state == "running")
        s.state = "interrupted";
    return s;
}

} // namespace ts::models
