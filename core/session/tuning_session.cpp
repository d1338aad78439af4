#include "core/session/tuning_session.h"

#include "core/cost/cost_model.h"
#include "core/schedule/step_json.h"
#include "core/search/search_utils.h"
#include "core/store/store.h"
#include "core/support/thread_pool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts::session {

namespace {
    using Clock = std::chrono::steady_clock;
    constexpr double kInfinity = std::numeric_limits<double>::infinity();

    double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

    Error sessionError(const std::string& what, const Error& cause)
    {
        return makeError(cause.kind, what + ": " + cause.message);
    }
} // namespace

// Everything the loop works with, made by prepare() and used by one thread at a time.
struct TuningSession::Engine {
    store::Store store;
    int64_t deviceId = 0;
    int64_t modelId = 0;
    std::unique_ptr<cost::CostModel> model;
    std::unique_ptr<ThreadPool> pool;
    std::vector<int64_t> taskIds; // store ids, by task index
    std::vector<std::unique_ptr<search::SketchPolicy>> policies;
    std::unique_ptr<search::TaskScheduler> scheduler;
    std::vector<TaskStatus> status;
    std::vector<int> consecutiveErrors;
    std::vector<int> sessionSuccesses;
    int totalTrials = 0; // this session's
    Clock::time_point started;

    Engine(store::Store s)
        : store(std::move(s))
    {
    }
};

TuningSession::TuningSession(TuneOptions options, EventSink sink)
    : m_options(std::move(options))
    , m_sink(std::move(sink))
{
}

TuningSession::~TuningSession()
{
    if (m_worker.joinable()) {
        abort();
        m_worker.join();
    }
}

void TuningSession::pause() { m_paused = true; }

void TuningSession::resume()
{
    {
        std::lock_guard lock(m_pauseMutex);
        m_paused = false;
    }
    m_pauseWake.notify_all();
}

void TuningSession::cancel()
{
    m_cancelled = true;
    resume();
}

void TuningSession::abort()
{
    m_cancelled = true;
    m_abort.request_stop();
    resume();
}

void TuningSession::waitWhilePaused()
{
    std::unique_lock lock(m_pauseMutex);
    m_pauseWake.wait(lock, [&] { return !m_paused.load() || m_cancelled.load(); });
}

Expected<void> TuningSession::start()
{
    if (m_worker.joinable() || m_engine)
        return makeError(ErrorKind::InvalidArgument, "the session was already started");
    TS_CHECK(prepare());
    m_worker = std::thread([this] { m_result = run(); });
    return {};
}

Expected<Finished> TuningSession::wait()
{
    if (m_worker.joinable())
        m_worker.join();
    if (!m_result)
        return makeError(ErrorKind::InvalidArgument, "the session was not started");
    return *m_result;
}

Expected<void> TuningSession::prepare()
{
    const TuneOptions& o = m_options;
    if (o.tasks.empty())
        return makeError(ErrorKind::InvalidArgument, "nothing to tune: no tasks");
    if (o.trials <= 0)
        return makeError(ErrorKind::InvalidArgument, "trials must be > 0 (got " + std::to_string(o.trials) + ")");
    if (o.measuresPerRound <= 0)
        return makeError(ErrorKind::InvalidArgument,
            "measures per round must be > 0 (got " + std::to_string(o.measuresPerRound) + ")");
    if (o.measure.target.isGpu())
        return makeError(
            ErrorKind::Unsupported, "tuning for GPUs comes with the GPU issue; this session tunes the CPU");
    TS_TRY(std::unique_ptr<cost::CostModel> model, cost::makeCostModel(o.model, o.seed));

    const std::string path = o.workspace.empty() ? store::Store::defaultWorkspacePath() : o.workspace;
    auto opened = store::Store::open(path);
    if (!opened)
        return opened.error();
    m_engine = std::make_unique<Engine>(std::move(opened).value());
    Engine& e = *m_engine;
    e.model = std::move(model);
    const int threads = o.searchThreads > 0 ? o.searchThreads : 0;
    e.pool = std::make_unique<ThreadPool>(threads);

    TS_TRY(e.deviceId, e.store.addDevice(store::deviceOf(o.measure.target)));
    std::vector<search::SchedulerTask> schedulerTasks;
    for (size_t i = 0; i < o.tasks.size(); ++i) {
        const TuneTask& t = o.tasks[i];
        const double flops = t.dag.flopCount();
        TS_TRY(int64_t id, e.store.addTask(store::taskInfoOf(t.name, t.dag.workloadKey(), t.dag.toString(), flops)));
        e.taskIds.push_back(id);
        search::SearchTask task { t.dag, o.measure.target, t.name, flops };
        e.policies.push_back(std::make_unique<search::SketchPolicy>(
            std::move(task), o.policy, o.search, *e.model, o.seed + 0x9E3779B97F4A7C15ULL * (i + 1), e.pool.get()));
        schedulerTasks.push_back({ t.name, t.weight, flops, search::similarityTag(t.tags, flops) });
        e.status.push_back(TaskStatus { static_cast<int>(i), t.name, t.weight, flops, 0, 0.0, false, {} });
    }
    search::SchedulerOptions schedulerOptions = o.scheduler;
    schedulerOptions.seed = o.seed;
    e.scheduler = std::make_unique<search::TaskScheduler>(std::move(schedulerTasks), schedulerOptions);
    e.consecutiveErrors.assign(o.tasks.size(), 0);
    e.sessionSuccesses.assign(o.tasks.size(), 0);

    // Resume: what earlier sessions measured for these tasks on this device.
    const int perRound = std::max(1, std::min(o.measuresPerRound, o.trials / static_cast<int>(o.tasks.size())));
    for (size_t i = 0; i < o.tasks.size(); ++i) {
        store::RecordFilter filter;
        filter.taskIds = { e.taskIds[i] };
        filter.deviceId = e.deviceId;
        TS_TRY(std::vector<store::Record> records, e.store.records(filter));
        if (records.empty())
            continue;
        double best = kInfinity;
        std::vector<sched::State> states;
        std::vector<record::MeasureResult> results;
        for (const store::Record& r : records) {
            auto steps = sched::parseSteps(r.steps);
            if (!steps)
                continue; // an imported record of another kind; not this search's
            const std::string text = sched::stepsToText(*steps);
            std::optional<sched::State> state;
            if (r.result.ok()) {
                if (auto replayed = sched::State::replay(o.tasks[i].dag, *steps))
                    state = std::move(replayed).value();
                best = std::min(best, r.result.meanCost());
            }
            e.policies[i]->restoreMeasured(search::stepsHash(text), state ? &*state : nullptr, r.result.meanCost());
            if (state) {
                states.push_back(*state);
                results.push_back(r.result);
            }
        }
        const int trials = static_cast<int>(records.size());
        m_restoredTrials += trials;
        e.scheduler->restore(static_cast<int>(i), trials, std::max(1, trials / perRound), best);
        e.status[i].trials = trials;
        e.status[i].bestCost = std::isfinite(best) ? best : 0.0;
        // The model learns again from every record (Ansor resumes its XGBoost model the same way).
        if (!states.empty())
            TS_CHECK(e.model->update(e.policies[i]->costTask(), states, results));
    }

    TS_TRY(std::vector<uint8_t> weights, e.model->save());
    TS_TRY(e.modelId,
        e.store.saveCostModel(store::CostModelInfo { 0, e.model->kind(), e.model->kind() + " (session start)",
            e.model->settings(), "{}", std::move(weights), record::unixNow() }));
    nlohmann::json settings { { "trials", o.trials }, { "measures_per_round", o.measuresPerRound },
        { "network", o.network }, { "batch", o.batch }, { "layout", o.layout },
        { "scheduler", search::toString(o.scheduler.strategy) }, { "population", o.search.population },
        { "crossover_prob", o.search.crossoverProb }, { "tasks", o.tasks.size() } };
    TS_TRY(m_sessionId,
        e.store.beginSession(store::SessionInfo { 0, search::toString(o.policy), e.model->kind(),
            static_cast<int64_t>(o.seed), settings.dump(), e.deviceId, record::unixNow(), std::nullopt, "running" }));
    return {};
}

Expected<Finished> TuningSession::run()
{
    if (!m_engine)
        TS_CHECK(prepare());
    Engine& e = *m_engine;
    const TuneOptions& o = m_options;
    e.started = Clock::now();
    const int numTasks = static_cast<int>(o.tasks.size());
    const int perRound = std::max(1, std::min(o.measuresPerRound, o.trials / numTasks));
    measure::Measurer measurer(o.measure);
    std::stop_token abortToken = m_abort.get_token();

    const auto estimated = [&] {
        double sum = 0.0;
        for (const TaskStatus& s : e.status) {
            if (s.bestCost <= 0.0)
                return 0.0;
            sum += s.weight * s.bestCost;
        }
        return sum;
    };
    const auto emit = [&](TuneEvent event) {
        if (m_sink)
            m_sink(event);
    };
    const auto finish = [&](std::string status, std::string message) -> Expected<Finished> {
        Finished f { std::move(status), std::move(message), e.status, estimated(), e.totalTrials,
            secondsSince(e.started), m_restoredTrials };
        if (auto weights = e.model->save())
            (void)e.store.saveCostModel(store::CostModelInfo { 0, e.model->kind(), e.model->kind() + " (session end)",
                e.model->settings(), nlohmann::json { { "records", e.model->trainedOn() } }.dump(),
                std::move(weights).value(), record::unixNow() });
        (void)e.store.endSession(m_sessionId, f.status, record::unixNow());
        emit(f);
        return f;
    };

    int round = 0;
    int lastTask = -1;
    std::string failure;
    const int budget = std::max(0, o.trials - m_restoredTrials);
    while (e.totalTrials < budget && !m_cancelled) {
        waitWhilePaused();
        if (m_cancelled)
            break;
        const bool warmUp = e.scheduler->inWarmUp();
        const int t = e.scheduler->next();
        if (t < 0)
            break; // every task dead or stopped
        if (t != lastTask)
            emit(TaskSwitched {
                t, o.tasks[static_cast<size_t>(t)].name, warmUp ? "warm-up" : search::toString(o.scheduler.strategy) });
        lastTask = t;
        search::SketchPolicy& policy = *e.policies[static_cast<size_t>(t)];
        const int count = std::min(perRound, budget - e.totalTrials);

        // Search: retry a round that finds nothing new, then give the task up.
        PhaseTimes phases;
        std::vector<search::Candidate> candidates;
        search::RoundStats stats;
        for (int attempt = 0; attempt <= o.search.retrySearchOneRoundOnEmpty && candidates.empty(); ++attempt) {
            auto found = policy.searchOneRound(count, abortToken);
            if (!found) {
                failure = o.tasks[static_cast<size_t>(t)].name + ": " + found.error().message;
                break;
            }
            candidates = std::move(found).value();
            stats = policy.lastRound();
            phases.search += stats.sampleSeconds + stats.evolveSeconds;
            phases.model += stats.predictSeconds;
            if (abortToken.stop_requested())
                break;
        }
        if (!failure.empty())
            break;
        if (abortToken.stop_requested())
            break;
        if (candidates.empty()) {
            e.scheduler->markDead(t, "no new candidates (the search space looks exhausted)");
            e.status[static_cast<size_t>(t)].dead = true;
            e.status[static_cast<size_t>(t)].deadReason = "no new candidates";
            continue;
        }

        // Measure.
        std::vector<sched::State> states;
        for (const search::Candidate& c : candidates)
            states.push_back(c.state);
        std::vector<std::optional<record::MeasureResult>> results(states.size());
        measure::MeasureCallbacks callbacks;
        callbacks.onResult
            = [&](int index, record::MeasureResult r) { results[static_cast<size_t>(index)] = std::move(r); };
        callbacks.onProgress = [&](const measure::MeasureProgress& p) {
            emit(BatchProgress { t, p.built, p.done, p.total, e.status[static_cast<size_t>(t)].bestCost });
        };
        const auto measureStart = Clock::now();
        const int delivered = measurer.measure(o.tasks[static_cast<size_t>(t)].dag, states, callbacks, abortToken);
        phases.measure = secondsSince(measureStart);
        if (delivered < static_cast<int>(states.size()) || abortToken.stop_requested())
            break; // aborted: the batch in flight is lost, nothing else

        // Store the batch in one transaction; ranks by predicted score, 0 = best.
        std::vector<size_t> order(candidates.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(
            order.begin(), order.end(), [&](size_t a, size_t b) { return candidates[a].score > candidates[b].score; });
        std::vector<int> rank(candidates.size());
        for (size_t r = 0; r < order.size(); ++r)
            rank[order[r]] = static_cast<int>(r);
        std::vector<store::Record> records;
        std::vector<record::MeasureResult> plain;
        for (size_t i = 0; i < candidates.size(); ++i) {
            store::Record r;
            r.taskId = e.taskIds[static_cast<size_t>(t)];
            r.deviceId = e.deviceId;
            r.sessionId = m_sessionId;
            r.kind = store::RecordKind::Ansor;
            r.steps = sched::stepsToText(states[i].steps());
            r.stepCount = static_cast<int>(states[i].steps().size());
            r.result = *results[i];
            r.predictedScore
                = std::isfinite(candidates[i].score) ? std::optional<double>(candidates[i].score) : std::nullopt;
            r.predictedBy = e.modelId;
            r.batchRank = rank[i];
            r.extra = candidates[i].random ? R"({"pick":"random"})" : R"({"pick":"best"})";
            records.push_back(std::move(r));
            plain.push_back(*results[i]);
        }
        const auto storeStart = Clock::now();
        if (auto added = e.store.addRecords(records); !added) {
            failure = "storing the batch: " + added.error().message;
            break;
        }
        phases.store = secondsSince(storeStart);
        policy.recordMeasured(states, plain);

        // What the batch did to the task.
        TaskStatus& status = e.status[static_cast<size_t>(t)];
        int errors = 0;
        for (size_t i = 0; i < records.size(); ++i) {
            const record::MeasureResult& r = plain[i];
            ++status.trials;
            ++e.totalTrials;
            emit(RecordMeasured {
                t, static_cast<int>(i), records[i].id, r, candidates[i].score, rank[i], candidates[i].random });
            if (!r.ok()) {
                ++errors;
                ++e.consecutiveErrors[static_cast<size_t>(t)];
                continue;
            }
            e.consecutiveErrors[static_cast<size_t>(t)] = 0;
            ++e.sessionSuccesses[static_cast<size_t>(t)];
            if (status.bestCost <= 0.0 || r.meanCost() < status.bestCost) {
                status.bestCost = r.meanCost();
                emit(BestImproved { t, status.bestCost, status.gflops(), records[i].id, status.trials, false });
            }
        }
        const auto updateStart = Clock::now();
        if (auto updated = e.model->update(policy.costTask(), states, plain); !updated) {
            failure = "updating the cost model: " + updated.error().message;
            break;
        }
        const double updateSeconds = secondsSince(updateStart);
        phases.model += updateSeconds;
        emit(ModelUpdated { e.model->kind(), e.model->trainedOn(), updateSeconds });

        e.scheduler->recordRound(
            t, static_cast<int>(records.size()), status.bestCost > 0.0 ? status.bestCost : kInfinity);
        if (e.consecutiveErrors[static_cast<size_t>(t)] >= o.maxConsecutiveErrors) {
            std::string last;
            for (size_t i = plain.size(); i-- > 0 && last.empty();)
                last = plain[i].message;
            const std::string reason = std::to_string(e.consecutiveErrors[static_cast<size_t>(t)])
                + " consecutive errors; the last: " + (last.empty() ? "(no message)" : last);
            e.scheduler->markDead(t, reason);
        }
        for (size_t i = 0; i < e.status.size(); ++i) {
            const search::TaskProgress& p = e.scheduler->progress()[i];
            e.status[i].dead = p.dead;
            e.status[i].deadReason = p.deadReason;
        }
        emit(RoundDone { ++round, t, static_cast<int>(records.size()), errors, e.status, estimated(),
            secondsSince(e.started), e.totalTrials, stats, phases });
    }

    if (!failure.empty())
        return finish("failed", failure);
    if (abortToken.stop_requested())
        return finish("cancelled", "aborted; the batch in flight was not kept");

    // Re-measure each task's top candidates with more repeats, so that a lucky run does not crown a winner.
    if (o.remeasureTop > 0 && !m_cancelled) {
        measure::MeasureOptions remeasure = o.measure;
        remeasure.timing.repeat = std::max(remeasure.timing.repeat, o.remeasureRepeat);
        measure::Measurer again(remeasure);
        for (int t = 0; t < numTasks && !abortToken.stop_requested(); ++t) {
            if (e.sessionSuccesses[static_cast<size_t>(t)] == 0)
                continue;
            auto best = e.store.bestRecords(e.taskIds[static_cast<size_t>(t)], e.deviceId, o.remeasureTop);
            if (!best || best->empty())
                continue;
            std::vector<sched::State> states;
            std::vector<int64_t> ids;
            for (const store::Record& r : *best) {
                auto steps = sched::parseSteps(r.steps);
                if (!steps)
                    continue;
                if (auto state = sched::State::replay(o.tasks[static_cast<size_t>(t)].dag, *steps)) {
                    states.push_back(std::move(state).value());
                    ids.push_back(r.id);
                }
            }
            std::vector<std::optional<record::MeasureResult>> results(states.size());
            measure::MeasureCallbacks callbacks;
            callbacks.onResult
                = [&](int i, record::MeasureResult r) { results[static_cast<size_t>(i)] = std::move(r); };
            again.measure(o.tasks[static_cast<size_t>(t)].dag, states, callbacks, abortToken);
            double cost = kInfinity;
            int64_t id = 0;
            for (size_t i = 0; i < results.size(); ++i)
                if (results[i] && results[i]->ok() && results[i]->meanCost() < cost) {
                    cost = results[i]->meanCost();
                    id = ids[i];
                }
            if (std::isfinite(cost)) {
                TaskStatus& status = e.status[static_cast<size_t>(t)];
                status.bestCost = cost;
                emit(BestImproved { t, cost, status.gflops(), id, status.trials, true });
            }
        }
    }
    if (m_cancelled)
        return finish("cancelled", "stopped after the batch in flight; run the same command again to resume");
    if (budget == 0)
        return finish("finished",
            "the trial budget is already spent (" + std::to_string(m_restoredTrials) + " of " + std::to_string(o.trials)
                + " trials in the workspace); raise it to tune further");
    bool allDead = true;
    for (const TaskStatus& s : e.status)
        allDead = allDead && s.dead;
    return finish("finished", allDead ? "every task stopped before the trial budget was spent" : "");
}

} // namespace ts::session
