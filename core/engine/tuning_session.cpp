#include "core/engine/tuning_session.h"

#include "core/cost/analytical_model.h"
#include "core/cost/cost_model.h"
#include "core/engine/machine.h"
#include "core/engine/queue_measurer.h"
#include "core/schedule/step_json.h"
#include "core/search/search_utils.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/support/strings.h"
#include "core/support/thread_pool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

namespace ts::engine {

namespace {
    using Clock = std::chrono::steady_clock;
    constexpr double kInfinity = std::numeric_limits<double>::infinity();

    double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

    // An analytical session model estimates with the machine's figures (a learned one ignores them; the
    // policies' own analytical estimate gets them through SearchParams::machine).
    void useMachine(cost::CostModel& model, const cost::MachineLimits& limits)
    {
        if (auto* analytical = dynamic_cast<cost::AnalyticalCostModel*>(&model))
            analytical->setLimits(limits);
    }

    // A stored record's state, for a model to learn from: successful records that replay on the DAG their steps
    // were made for (store::replayStored: the task's, or an AutoTVM config's own program).
    std::optional<sched::State> replayMeasured(
        const ir::ComputeDAG& dag, const store::Record& record, const std::vector<sched::Step>& steps)
    {
        if (!record.result.ok())
            return std::nullopt;
        auto replayed = store::replayStored(dag, steps, record.extra);
        return replayed ? std::optional<sched::State>(std::move(replayed).value()) : std::nullopt;
    }

} // namespace

std::vector<ModelSwitched> modelSwitchesOf(const std::string& settings)
{
    std::vector<ModelSwitched> out;
    const nlohmann::json json = nlohmann::json::parse(settings, nullptr, false);
    if (!json.is_object() || !json.contains("model_switches") || !json["model_switches"].is_array())
        return out;
    for (const nlohmann::json& m : json["model_switches"])
        if (m.is_object())
            out.push_back(ModelSwitched { m.value("from", std::string()), m.value("to", std::string()),
                m.value("trial", 0), m.value("trained_on", int64_t { 0 }), m.value("seconds", 0.0), {} });
    return out;
}

std::string switchedModelsText(const std::vector<ModelSwitched>& switches, const std::string& current)
{
    for (const ModelSwitched& m : switches)
        if (m.error.empty())
            return m.from + " \u2192 " + current;
    return current;
}

std::string describe(const SessionCommand& command)
{
    return std::visit(
        [](const auto& c) -> std::string {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, MeasureState>)
                return "measure a state of task " + std::to_string(c.task);
            else if constexpr (std::is_same_v<C, SeedStates>)
                return "seed task " + std::to_string(c.task) + " with " + std::to_string(c.states.size()) + " state"
                    + (c.states.size() == 1 ? "" : "s");
            else if constexpr (std::is_same_v<C, SetConstraints>)
                return c.constraints.empty()
                    ? "clear the constraints of task " + std::to_string(c.task)
                    : "constrain task " + std::to_string(c.task) + ": " + join(c.constraints.describe(), ", ");
            else if constexpr (std::is_same_v<C, UndoSteering>)
                return "undo";
            else
                return "redo";
        },
        command);
}

int recordedLayoutRewrite(const measure::MeasureOptions& measure)
{
    return measure.target.isGpu() ? 0 : measure.layoutRewrite;
}

int layoutRewriteOf(const std::string& extra)
{
    const nlohmann::json json = nlohmann::json::parse(extra, nullptr, false);
    if (!json.is_object() || !json.contains("layout_rewrite_option"))
        return 0;
    const nlohmann::json& option = json["layout_rewrite_option"];
    return option.is_number_integer() ? option.get<int>() : -1;
}

int defaultLayoutRewrite(search::PolicyKind policy, bool network, const target::Target& target)
{
    if (target.isGpu() || search::isAutotvm(policy))
        return 0;
    return network ? 2 : 1;
}

// Everything the loop works with, made by prepare() and used by one thread at a time.
struct TuningSession::Engine {
    store::Store store;
    int64_t deviceId = 0;
    int64_t modelId = 0;
    std::unique_ptr<cost::CostModel> model;
    // The analytical estimate's figures: the device's measured profile when the workspace has one.
    cost::MachineLimits machine;
    std::unique_ptr<ThreadPool> pool;
    std::vector<int64_t> taskIds; // store ids, by task index
    std::vector<std::unique_ptr<search::TaskPolicy>> policies;
    std::unique_ptr<measure::BatchMeasurer> measurer; // made by begin(): this machine's, or the work queue
    std::unique_ptr<search::TaskScheduler> scheduler;
    std::vector<TaskStatus> status;
    std::vector<int> consecutiveErrors;
    std::vector<int> sessionSuccesses;
    int totalTrials = 0; // this session's
    int busyTrials = 0; // of those, timed on a busy machine (MeasureResult::waited >= kBusyWait)
    Clock::time_point started;
    // The loop's place, between step() calls.
    bool begun = false;
    int budget = 0;
    int roundNumber = 0;
    int lastTask = -1;
    std::optional<Finished> finished; // once finish() ran
    // Every program this session measured, by task, for transfer learning (AutoTVM's load_history).
    std::vector<std::vector<sched::State>> measuredStates;
    std::vector<std::vector<double>> measuredGflops;
    std::vector<bool> taskStarted; // a task had its first round
    nlohmann::json settings; // the session's stored settings, rewritten when the model switches
    std::string storedModelKind; // the session row's cost_model, as settings are rewritten with it
    // Steering: the history's entries (0: the session's start), the one in effect, and every manual state measured.
    struct SteeringEntry {
        std::string label;
        std::vector<search::Constraints> constraints; // per task
        std::vector<std::vector<sched::State>> seeds;
        std::vector<std::set<uint64_t>> manualIn; // manual states (stateHash) in the population
    };
    std::vector<SteeringEntry> history;
    int position = 0;
    std::vector<std::set<uint64_t>> allManual;
    std::optional<ShadowModels> shadows;

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

Expected<void> TuningSession::checkModelSwitch(search::PolicyKind policy, const std::string& kind)
{
    if (policy != search::PolicyKind::Ansor)
        return makeError(ErrorKind::Unsupported,
            std::string("the ") + search::toString(policy)
                + " policy does not rank with the session's cost model, so there is none to switch");
    return cost::checkCostModelKind(kind);
}

Expected<void> TuningSession::switchModel(const std::string& kind)
{
    TS_CHECK(checkModelSwitch(m_options.policy, kind));
    std::lock_guard lock(m_switchMutex);
    m_requestedModel = kind;
    return {};
}

Expected<cost::CostModel::Batch> TuningSession::storedBatch(size_t task)
{
    Engine& e = *m_engine;
    const search::TaskPolicy& policy = *e.policies[task];
    store::RecordFilter filter;
    filter.taskIds = { e.taskIds[task] };
    filter.deviceId = e.deviceId;
    TS_TRY(std::vector<store::Record> records, e.store.records(filter));
    cost::CostModel::Batch batch { policy.costTask(), {}, {}, {} };
    for (const store::Record& r : records) {
        if (!policy.owns(r.extra))
            continue;
        auto steps = sched::parseSteps(r.steps);
        if (!steps)
            continue;
        if (std::optional<sched::State> state = replayMeasured(m_options.tasks[task].dag, r, *steps)) {
            batch.states.push_back(std::move(*state));
            batch.results.push_back(r.result);
        }
    }
    return batch;
}

void TuningSession::applyModelSwitch()
{
    std::optional<std::string> kind;
    {
        std::lock_guard lock(m_switchMutex);
        kind.swap(m_requestedModel);
    }
    Engine& e = *m_engine;
    if (!kind || *kind == e.model->kind())
        return;
    ModelSwitched event { e.model->kind(), *kind, e.totalTrials, 0, 0.0, {} };
    emit(PhaseStarted { -1, "switch model" });
    const auto start = Clock::now();
    auto trained = [&]() -> Expected<std::unique_ptr<cost::CostModel>> {
        TS_TRY(std::unique_ptr<cost::CostModel> model, cost::makeCostModel(*kind, m_options.seed));
        useMachine(*model, e.machine);
        model->setWarmupSamples(static_cast<int>(m_options.tasks.size()) * measuresPerRound());
        std::vector<cost::CostModel::Batch> batches;
        for (size_t i = 0; i < e.policies.size(); ++i) {
            TS_TRY(cost::CostModel::Batch batch, storedBatch(i));
            if (!batch.states.empty())
                batches.push_back(std::move(batch));
        }
        // A cancel stops the training; the model keeps what it learned, as a cancelled update does.
        const std::stop_token abortToken = m_abort.get_token();
        model->setTrainingProgress(
            [this, abortToken](double, double) { return !m_cancelled && !abortToken.stop_requested(); });
        if (!batches.empty())
            TS_CHECK(model->fit(batches));
        model->setTrainingProgress({});
        return model;
    }();
    event.seconds = secondsSince(start);
    if (!trained) {
        event.error = trained.error().message;
        emit(std::move(event));
        return;
    }
    std::unique_ptr<cost::CostModel> model = std::move(trained).value();
    event.trainedOn = model->trainedOn();
    // Stored first, so that the records the new model ranks name it; a store failure keeps the old model.
    auto stored = [&]() -> Expected<void> {
        TS_TRY(std::vector<uint8_t> weights, model->save());
        const int trial = e.totalTrials;
        TS_TRY(int64_t id,
            e.store.saveCostModel(store::CostModelInfo { 0, model->kind(),
                model->kind() + " (switched at trial " + std::to_string(trial) + ")", model->settings(),
                model->trainingSummary(), std::move(weights), record::unixNow() }));
        nlohmann::json settings = e.settings;
        settings["model_switches"].push_back({ { "trial", trial }, { "from", event.from }, { "to", event.to },
            { "trained_on", event.trainedOn }, { "seconds", event.seconds } });
        TS_CHECK(e.store.setSessionModel(m_sessionId, model->kind(), settings.dump()));
        e.settings = std::move(settings);
        e.modelId = id;
        return {};
    }();
    if (!stored) {
        event.error = "storing the new model: " + stored.error().message;
        emit(std::move(event));
        return;
    }
    for (auto& policy : e.policies)
        policy->setCostModel(*model);
    e.model = std::move(model); // the policies no longer see the old one
    emit(std::move(event));
}

void TuningSession::waitWhilePaused()
{
    for (;;) {
        {
            std::unique_lock lock(m_pauseMutex);
            m_pauseWake.wait(lock, [&] { return !m_paused.load() || m_cancelled.load() || !m_commands.empty(); });
            if (m_commands.empty() || m_cancelled.load())
                return;
        }
        drainCommands();
        if (!m_paused.load())
            return;
    }
}

Expected<void> TuningSession::checkTask(int task) const
{
    if (task < 0 || task >= static_cast<int>(m_options.tasks.size()))
        return makeError(ErrorKind::InvalidArgument,
            "no task " + std::to_string(task) + " (the session tunes " + std::to_string(m_options.tasks.size()) + ")");
    return {};
}

Expected<int64_t> TuningSession::post(SessionCommand command)
{
    if (!m_running.load())
        return makeError(
            ErrorKind::InvalidArgument, "the session is not running: " + describe(command) + " was not sent");
    const int task = std::visit(
        [](const auto& c) {
            if constexpr (requires { c.task; })
                return c.task;
            else
                return 0;
        },
        command);
    TS_CHECK(checkTask(task));
    int64_t id = 0;
    {
        std::lock_guard lock(m_pauseMutex);
        id = m_nextCommand++;
        m_commands.emplace_back(id, std::move(command));
    }
    m_pauseWake.notify_all();
    return id;
}

void TuningSession::drainCommands()
{
    std::vector<std::pair<int64_t, SessionCommand>> commands;
    {
        std::lock_guard lock(m_pauseMutex);
        commands.swap(m_commands);
    }
    for (const auto& [id, command] : commands) {
        if (m_abort.get_token().stop_requested()) {
            emit(CommandDone { id, describe(command), "the session was aborted first", 0 });
            continue;
        }
        auto applied = apply(command);
        emit(CommandDone {
            id, describe(command), applied ? std::string() : applied.error().message, applied ? *applied : 0 });
    }
}

namespace {
    Expected<sched::State> stateOnTask(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
    {
        auto state = sched::State::replay(dag, steps);
        if (!state)
            return makeError(state.error().kind, "the steps do not replay on the task: " + state.error().message);
        TS_CHECK(state->checkFilled());
        return state;
    }
} // namespace

Expected<int64_t> TuningSession::apply(const SessionCommand& command)
{
    Engine& e = *m_engine;
    Engine::SteeringEntry next = e.history[static_cast<size_t>(e.position)];
    next.label = describe(command);
    int64_t recordId = 0;
    if (std::holds_alternative<UndoSteering>(command) || std::holds_alternative<RedoSteering>(command)) {
        const bool undo = std::holds_alternative<UndoSteering>(command);
        const int to = e.position + (undo ? -1 : 1);
        if (to < 0 || to >= static_cast<int>(e.history.size()))
            return makeError(ErrorKind::InvalidArgument, undo ? "nothing to undo" : "nothing to redo");
        const int from = e.position;
        e.position = to;
        if (auto applied = applySteering(); !applied) {
            e.position = from;
            TS_CHECK(applySteering());
            return applied.error();
        }
        return 0;
    }
    if (const auto* c = std::get_if<SetConstraints>(&command)) {
        TS_CHECK(search::checkConstraints(c->constraints, m_options.tasks[static_cast<size_t>(c->task)].dag));
        next.constraints[static_cast<size_t>(c->task)] = c->constraints;
    } else if (const auto* c = std::get_if<SeedStates>(&command)) {
        std::vector<sched::State>& seeds = next.seeds[static_cast<size_t>(c->task)];
        for (const std::vector<sched::Step>& steps : c->states) {
            TS_TRY(sched::State state, stateOnTask(m_options.tasks[static_cast<size_t>(c->task)].dag, steps));
            const uint64_t hash = search::stateHash(state);
            if (std::none_of(
                    seeds.begin(), seeds.end(), [&](const sched::State& s) { return search::stateHash(s) == hash; }))
                seeds.push_back(std::move(state));
        }
    } else if (const auto* c = std::get_if<MeasureState>(&command)) {
        TS_TRY(sched::State state, stateOnTask(m_options.tasks[static_cast<size_t>(c->task)].dag, c->steps));
        TS_TRY(recordId, measureManual(c->task, state));
        // measureManual put the state in the population; the new entry says so (undo takes it out again).
        next.manualIn[static_cast<size_t>(c->task)].insert(search::stateHash(state));
        next.label += " (record " + std::to_string(recordId) + ")";
    }
    // The new entry replaces what could be redone.
    const std::vector<Engine::SteeringEntry> before = e.history;
    const int beforePosition = e.position;
    e.history.resize(static_cast<size_t>(e.position) + 1);
    e.history.push_back(std::move(next));
    e.position = static_cast<int>(e.history.size()) - 1;
    if (auto applied = applySteering(); !applied) {
        e.history = before;
        e.position = beforePosition;
        TS_CHECK(applySteering());
        return applied.error();
    }
    return recordId;
}

Expected<void> TuningSession::applySteering()
{
    Engine& e = *m_engine;
    const Engine::SteeringEntry& entry = e.history[static_cast<size_t>(e.position)];
    SteeringChanged event;
    for (size_t t = 0; t < e.policies.size(); ++t) {
        search::TaskSteering steering { entry.constraints[t], entry.seeds[t], {} };
        for (uint64_t hash : e.allManual[t])
            if (!entry.manualIn[t].contains(hash))
                steering.excluded.push_back(hash);
        if (auto steered = e.policies[t]->steer(steering); !steered)
            return makeError(steered.error().kind,
                m_options.tasks[t].name + " (task " + std::to_string(t) + "): " + steered.error().message);
        event.constraints.push_back(entry.constraints[t]);
        event.seeds.push_back(static_cast<int>(entry.seeds[t].size()));
        event.manualInPopulation.push_back(static_cast<int>(entry.manualIn[t].size()));
    }
    for (const Engine::SteeringEntry& h : e.history)
        event.history.push_back(h.label);
    event.position = e.position;
    // Stored with the session (its resume and the window's settings list read them).
    nlohmann::json steering { { "history", event.history }, { "position", e.position } };
    nlohmann::json constraints = nlohmann::json::object();
    nlohmann::json seeds = nlohmann::json::object();
    for (size_t t = 0; t < e.policies.size(); ++t) {
        if (!entry.constraints[t].empty())
            constraints[std::to_string(t)] = search::toJson(entry.constraints[t]);
        for (const sched::State& seed : entry.seeds[t])
            seeds[std::to_string(t)].push_back(sched::stepsToText(seed.steps()));
    }
    steering["constraints"] = std::move(constraints);
    steering["seeds"] = std::move(seeds);
    steering["manual_in_population"] = event.manualInPopulation;
    e.settings["steering"] = std::move(steering);
    // Before the session's row exists (prepare) nothing is stored or said: begin() says it, on the session's thread.
    if (m_sessionId == 0)
        return {};
    TS_CHECK(e.store.setSessionModel(m_sessionId, e.storedModelKind, e.settings.dump()));
    emit(std::move(event));
    return {};
}

Expected<int64_t> TuningSession::measureManual(int t, const sched::State& state)
{
    Engine& e = *m_engine;
    search::TaskPolicy& policy = *e.policies[static_cast<size_t>(t)];
    if (!policy.usesSessionModel() && m_options.policy != search::PolicyKind::Random)
        return makeError(ErrorKind::Unsupported,
            std::string("a manual state is an Ansor schedule; the ") + search::toString(m_options.policy)
                + " policy searches a template's configs");
    Round round;
    double score = 0.0;
    if (policy.usesSessionModel()) {
        const std::vector<double> scores = e.model->predict(policy.costTask(), std::span(&state, 1));
        score = scores.empty() ? 0.0 : scores.front();
    }
    std::vector<search::Candidate> candidates { search::Candidate {
        state, score, false, nlohmann::json { { "pick", "manual" } }.dump(), {} } };
    emit(PhaseStarted { t, "measure manual" });
    const auto results = measureBatch(t, candidates, round);
    if (!results)
        return makeError(ErrorKind::InvalidArgument, "aborted while the manual state was measured; it was not kept");
    TS_TRY(std::vector<store::Record> records, storeBatch(t, candidates, *results, round));
    policy.recordMeasured(candidates, *results);
    absorb(t, candidates, records, *results, true);
    TS_CHECK(updateModel(t, candidates, *results, round, 0));
    e.allManual[static_cast<size_t>(t)].insert(search::stateHash(state));
    return records.front().id;
}

Expected<void> TuningSession::start()
{
    if (m_worker.joinable() || m_engine)
        return makeError(ErrorKind::InvalidArgument, "the session was already started");
    TS_CHECK(prepare());
    m_worker = std::thread([this] {
        try {
            m_result = run();
        } catch (const std::exception& e) { // nothing may escape the worker thread
            m_result = Expected<Finished>(makeError(ErrorKind::Internal, std::string("tuning failed: ") + e.what()));
        }
    });
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
    TS_TRY(std::unique_ptr<cost::CostModel> model, o.makeModel ? o.makeModel() : cost::makeCostModel(o.model, o.seed));

    const std::string path = o.workspace.empty() ? store::Store::defaultWorkspacePath() : o.workspace;
    auto opened = store::Store::open(path);
    if (!opened)
        return opened.error();
    m_engine = std::make_unique<Engine>(std::move(opened).value());
    Engine& e = *m_engine;
    e.model = std::move(model);
    e.pool = std::make_unique<ThreadPool>(std::max(0, o.searchThreads));

    TS_TRY(e.deviceId, e.store.addDevice(store::deviceOf(o.measure.target)));
    search::SearchParams searchParams = o.search;
    if (!o.measure.target.isGpu()) {
        TS_TRY(std::optional<measure::MachineProfile> profile, deviceProfile(e.store, e.deviceId));
        if (profile)
            searchParams.machine = limitsOf(*profile, o.measure.target.vectorBytes);
    }
    e.machine = searchParams.machine;
    useMachine(*e.model, e.machine);
    std::vector<search::SchedulerTask> schedulerTasks;
    for (size_t i = 0; i < o.tasks.size(); ++i) {
        const TuneTask& t = o.tasks[i];
        const double flops = t.dag.flopCount();
        TS_TRY(int64_t id, e.store.addTask(store::taskInfoOf(t.name, t.dag.workloadKey(), t.dag.toString(), flops)));
        e.taskIds.push_back(id);
        search::SearchTask searchTask { t.dag, o.measure.target, t.name, flops };
        searchTask.packsWeights = recordedLayoutRewrite(o.measure) > 0;
        search::PolicyContext context { std::move(searchTask), searchParams, e.model.get(),
            o.seed + 0x9E3779B97F4A7C15ULL * (i + 1), e.pool.get() };
        auto policy
            = o.makePolicy ? o.makePolicy(std::move(context)) : search::makeTaskPolicy(o.policy, std::move(context));
        if (!policy)
            return makeError(policy.error().kind, t.name + ": " + policy.error().message);
        e.policies.push_back(std::move(policy).value());
        schedulerTasks.push_back({ t.name, t.weight, flops, search::similarityTag(t.tags, flops) });
        e.status.push_back(TaskStatus { static_cast<int>(i), t.name, t.weight, flops, 0, 0.0, false, {} });
    }
    // Ansor's task scheduler: the model predicts at random until every task had a round.
    e.model->setWarmupSamples(static_cast<int>(o.tasks.size()) * measuresPerRound());
    if (!o.shadowModels.empty()) {
        if (o.policy != search::PolicyKind::Ansor)
            return makeError(ErrorKind::Unsupported,
                std::string("shadow models score the session model's candidates; the ") + search::toString(o.policy)
                    + " policy does not rank with the session's model");
        TS_TRY(ShadowModels shadows,
            ShadowModels::make(
                o.shadowModels, o.seed, e.machine, static_cast<int>(o.tasks.size()) * measuresPerRound()));
        e.shadows = std::move(shadows);
    }
    search::SchedulerOptions schedulerOptions = o.scheduler;
    schedulerOptions.seed = o.seed;
    e.scheduler = std::make_unique<search::TaskScheduler>(std::move(schedulerTasks), schedulerOptions);
    e.consecutiveErrors.assign(o.tasks.size(), 0);
    e.sessionSuccesses.assign(o.tasks.size(), 0);

    // Resume: what earlier sessions measured for these tasks on this device, with this layout rewrite. First,
    // on a server workspace, what workers measured for sessions that died with a batch in the queue.
    if (o.resume)
        TS_CHECK(
            recoverQueuedResults(e.store, o.workspace.empty() ? store::Store::defaultWorkspacePath() : o.workspace));
    const int perRound = measuresPerRound();
    const int sessionRewrite = recordedLayoutRewrite(o.measure);
    for (size_t i = 0; i < o.tasks.size() && o.resume; ++i) {
        store::RecordFilter filter;
        filter.taskIds = { e.taskIds[i] };
        filter.deviceId = e.deviceId;
        TS_TRY(std::vector<store::Record> records, e.store.records(filter));
        if (records.empty())
            continue;
        double best = kInfinity;
        std::vector<sched::State> states;
        std::vector<record::MeasureResult> results;
        int trials = 0;
        for (const store::Record& r : records) {
            if (const int rewrite = layoutRewriteOf(r.extra); rewrite != sessionRewrite) {
                ++m_otherLayoutRewrites[rewrite]; // measured with another layout rewrite: another kernel's time
                continue;
            }
            auto steps = sched::parseSteps(r.steps);
            if (!steps)
                continue; // an imported record of another kind; not this search's
            const std::string text = sched::stepsToText(*steps);
            std::optional<sched::State> state = replayMeasured(o.tasks[i].dag, r, *steps);
            // Only the policy's own records count: an AutoTVM session does not resume from Ansor's, nor
            // the reverse.
            if (!e.policies[i]->restoreMeasured(
                    search::stepsHash(text), state ? &*state : nullptr, r.result.meanCost(), r.extra))
                continue;
            ++trials;
            if (r.result.ok())
                best = std::min(best, r.result.meanCost());
            if (state) {
                states.push_back(*state);
                results.push_back(r.result);
            }
        }
        if (trials == 0)
            continue;
        m_restoredTrials += trials;
        e.scheduler->restore(static_cast<int>(i), trials, std::max(1, trials / perRound), best);
        e.status[i].trials = trials;
        e.status[i].bestCost = std::isfinite(best) ? best : 0.0;
        // The model learns again from every record (Ansor resumes its XGBoost model the same way).
        if (!states.empty() && e.policies[i]->usesSessionModel()) {
            TS_CHECK(e.model->update(e.policies[i]->costTask(), states, results));
            if (e.shadows)
                e.shadows->learn(e.policies[i]->costTask(), states, results);
        }
    }

    // The steering the session starts with: history entry 0.
    Engine::SteeringEntry start { "session start", std::vector<search::Constraints>(o.tasks.size()),
        std::vector<std::vector<sched::State>>(o.tasks.size()), std::vector<std::set<uint64_t>>(o.tasks.size()) };
    if (o.constraints.size() > o.tasks.size() || o.seeds.size() > o.tasks.size())
        return makeError(ErrorKind::InvalidArgument, "constraints or seeds for more tasks than the session tunes");
    TS_CHECK(restoreSteering(o.steeringFrom, start.constraints, start.seeds));
    for (size_t i = 0; i < o.constraints.size(); ++i)
        if (!o.constraints[i].empty())
            start.constraints[i] = o.constraints[i];
    for (size_t i = 0; i < o.seeds.size(); ++i)
        if (!o.seeds[i].empty())
            start.seeds[i] = o.seeds[i];
    e.history = { std::move(start) };
    e.allManual.assign(o.tasks.size(), {});
    TS_CHECK(applySteering());

    TS_TRY(std::vector<uint8_t> weights, e.model->save());
    TS_TRY(e.modelId,
        e.store.saveCostModel(store::CostModelInfo { 0, e.model->kind(), e.model->kind() + " (session start)",
            e.model->settings(), "{}", std::move(weights), record::unixNow() }));
    nlohmann::json settings = e.settings; // the steering, if any
    settings.update(nlohmann::json { { "trials", o.trials }, { "measures_per_round", o.measuresPerRound },
        { "network", o.network }, { "batch", o.batch }, { "layout", o.layout },
        { "scheduler", search::toString(o.scheduler.strategy) }, { "population", o.search.population },
        { "crossover_prob", o.search.crossoverProb }, { "similar_task_seeds", o.search.similarTaskSeeds },
        { "analytical_warmup", o.search.analyticalWarmup }, { "prefilter", o.search.prefilterKeep },
        { "measured_machine_limits", e.machine.measured }, { "tasks", o.tasks.size() } });
    if (const int rewrite = recordedLayoutRewrite(o.measure); rewrite > 0)
        settings["layout_rewrite_option"] = rewrite;
    if (!o.shadowModels.empty())
        settings["shadow_kinds"] = o.shadowModels; // a resume follows the same models
    if (o.measureOnWorkers)
        settings["measure_on"] = "workers";
    if (!o.origin.empty()) {
        nlohmann::json origin = nlohmann::json::parse(o.origin, nullptr, false);
        if (!origin.is_discarded())
            settings["origin"] = std::move(origin);
    }
    if (!o.extraSettings.empty()) {
        const nlohmann::json extra = nlohmann::json::parse(o.extraSettings, nullptr, false);
        if (!extra.is_object())
            return makeError(ErrorKind::InvalidArgument, "extra settings must be a JSON object: " + o.extraSettings);
        settings.update(extra);
    }
    // AutoTVM's tuners keep their own model (or none): the session's is not used.
    const std::string modelKind = search::isAutotvm(o.policy)
        ? (o.policy == search::PolicyKind::AutotvmXgb ? std::string("autotvm-xgb") : std::string("none"))
        : e.model->kind();
    TS_TRY(m_sessionId,
        e.store.beginSession(store::SessionInfo { 0, search::toString(o.policy), modelKind,
            static_cast<int64_t>(o.seed), settings.dump(), e.deviceId, record::unixNow(), std::nullopt, "running" }));
    e.settings = std::move(settings);
    e.storedModelKind = modelKind;
    return {};
}

Expected<void> TuningSession::restoreSteering(const std::string& settingsText,
    std::vector<search::Constraints>& constraints, std::vector<std::vector<sched::State>>& seeds) const
{
    if (settingsText.empty())
        return {};
    const nlohmann::json settings = nlohmann::json::parse(settingsText, nullptr, false);
    if (!settings.is_object() || !settings.contains("steering"))
        return {}; // a session that was never steered
    const nlohmann::json& steering = settings["steering"];
    const auto taskOf = [&](const std::string& key) -> Expected<size_t> {
        char* end = nullptr;
        const long index = std::strtol(key.c_str(), &end, 10);
        if (end == key.c_str() || *end != '\0' || index < 0 || index >= static_cast<long>(m_options.tasks.size()))
            return makeError(ErrorKind::InvalidArgument,
                "the stored steering names task " + key + ", which this session does not tune");
        return static_cast<size_t>(index);
    };
    if (steering.contains("constraints") && steering["constraints"].is_object())
        for (const auto& [key, json] : steering["constraints"].items()) {
            TS_TRY(const size_t t, taskOf(key));
            auto parsed = search::constraintsFromJson(json);
            if (!parsed)
                return makeError(
                    parsed.error().kind, "the stored constraints of task " + key + ": " + parsed.error().message);
            if (auto fits = search::checkConstraints(*parsed, m_options.tasks[t].dag); !fits)
                return makeError(
                    fits.error().kind, "the stored constraints of task " + key + ": " + fits.error().message);
            constraints[t] = std::move(parsed).value();
        }
    if (steering.contains("seeds") && steering["seeds"].is_object())
        for (const auto& [key, list] : steering["seeds"].items()) {
            TS_TRY(const size_t t, taskOf(key));
            for (const nlohmann::json& steps : list) {
                auto state = sched::State::replayJson(
                    m_options.tasks[t].dag, steps.is_string() ? steps.get<std::string>() : steps.dump());
                if (!state)
                    return makeError(state.error().kind,
                        "a stored seed of task " + key + " does not replay: " + state.error().message);
                seeds[t].push_back(std::move(state).value());
            }
        }
    return {};
}

int TuningSession::measuresPerRound() const
{
    // Ansor's num_measures_per_round = min(64, trials / tasks).
    const TuneOptions& o = m_options;
    return std::max(1, std::min(o.measuresPerRound, o.trials / static_cast<int>(o.tasks.size())));
}

bool TuningSession::seedsSimilarTasks() const
{
    const TuneOptions& o = m_options;
    return o.policy == search::PolicyKind::Ansor && o.search.similarTaskSeeds > 0 && o.tasks.size() > 1;
}

void TuningSession::keepBestMeasured(int t, size_t keep)
{
    // Seeds need only a task's best few: a long session would otherwise hold every state it measured.
    std::vector<sched::State>& states = m_engine->measuredStates[static_cast<size_t>(t)];
    std::vector<double>& gflops = m_engine->measuredGflops[static_cast<size_t>(t)];
    if (states.size() <= 4 * keep)
        return;
    std::vector<size_t> order(states.size());
    std::iota(order.begin(), order.end(), size_t { 0 });
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return gflops[a] > gflops[b]; });
    order.resize(keep);
    std::vector<sched::State> keptStates;
    std::vector<double> keptGflops;
    for (size_t i : order) {
        keptStates.push_back(std::move(states[i]));
        keptGflops.push_back(gflops[i]);
    }
    states = std::move(keptStates);
    gflops = std::move(keptGflops);
}

void TuningSession::offerSimilarTasksBest(int t)
{
    const TuneOptions& o = m_options;
    Engine& e = *m_engine;
    std::vector<std::pair<double, const sched::State*>> best;
    for (size_t other = 0; other < e.measuredStates.size(); ++other) {
        if (other == static_cast<size_t>(t) || o.tasks[other].name != o.tasks[static_cast<size_t>(t)].name)
            continue;
        for (size_t i = 0; i < e.measuredStates[other].size(); ++i)
            if (e.measuredGflops[other][i] > 0.0)
                best.emplace_back(e.measuredGflops[other][i], &e.measuredStates[other][i]);
    }
    const auto keep = std::min(best.size(), static_cast<size_t>(o.search.similarTaskSeeds));
    std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(keep), best.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<sched::State> states;
    std::vector<double> gflops;
    for (size_t i = 0; i < keep; ++i) {
        states.push_back(*best[i].second);
        gflops.push_back(best[i].first);
    }
    m_engine->policies[static_cast<size_t>(t)]->seedFromSimilarTasks(states, gflops);
}

void TuningSession::emit(TuneEvent event) const
{
    if (m_sink)
        m_sink(event);
}

double TuningSession::estimatedLatency() const
{
    double sum = 0.0;
    for (const TaskStatus& s : m_engine->status) {
        if (s.bestCost <= 0.0)
            return 0.0;
        sum += s.weight * s.bestCost;
    }
    return sum;
}

Finished TuningSession::finish(std::string status, std::string message)
{
    Engine& e = *m_engine;
    if (e.finished)
        return *e.finished;
    m_running = false;
    std::vector<std::pair<int64_t, SessionCommand>> unapplied;
    {
        std::lock_guard lock(m_pauseMutex);
        unapplied.swap(m_commands);
    }
    for (const auto& [id, command] : unapplied)
        emit(CommandDone { id, describe(command), "the session ended before it was applied", 0 });
    // Figures timed while other processes took the cores are said, wherever the session's message is shown.
    if (e.busyTrials > 0)
        message += (message.empty() ? "" : "; ") + std::to_string(e.busyTrials) + " of " + std::to_string(e.totalTrials)
            + " measurements were timed on a busy machine (their threads waited for " + "a CPU "
            + std::to_string(static_cast<int>(measure::kBusyWait * 100))
            + "% or more of the time): their costs count that wait";
    Finished f { std::move(status), std::move(message), e.status, estimatedLatency(), e.totalTrials,
        secondsSince(e.started), m_restoredTrials };
    // The model as the session leaves it, for later sessions and model comparisons; a failure to save it
    // does not undo the records already stored.
    if (auto weights = e.model->save())
        (void)e.store.saveCostModel(
            store::CostModelInfo { 0, e.model->kind(), e.model->kind() + " (session end)", e.model->settings(),
                nlohmann::json { { "records", e.model->trainedOn() },
                    { "training", nlohmann::json::parse(e.model->trainingSummary(), nullptr, false) } }
                    .dump(),
                std::move(weights).value(), record::unixNow() });
    if (e.shadows && !e.shadows->history().empty()) { // the per-round metrics, for the Predicted vs measured view
        e.settings["shadow_models"] = nlohmann::json::parse(shadowMetricsToJson(e.shadows->history()), nullptr, false);
        (void)e.store.setSessionModel(m_sessionId, e.storedModelKind, e.settings.dump());
    }
    (void)e.store.endSession(m_sessionId, f.status, record::unixNow());
    e.finished = f;
    emit(f);
    return f;
}

Expected<std::vector<search::Candidate>> TuningSession::propose(int task, int count, Round& round)
{
    search::TaskPolicy& policy = *m_engine->policies[static_cast<size_t>(task)];
    const std::stop_token abortToken = m_abort.get_token();
    std::vector<search::Candidate> candidates;
    // A round that finds nothing new is retried (Ansor's retry_search_one_round_on_empty).
    for (int attempt = 0; attempt <= m_options.search.retrySearchOneRoundOnEmpty && candidates.empty(); ++attempt) {
        auto found = policy.searchOneRound(count, abortToken);
        if (!found)
            return makeError(
                found.error().kind, m_options.tasks[static_cast<size_t>(task)].name + ": " + found.error().message);
        candidates = std::move(found).value();
        round.search = policy.lastRound();
        round.phases.search += round.search.sampleSeconds + round.search.evolveSeconds;
        round.phases.model += round.search.predictSeconds;
        if (abortToken.stop_requested())
            break;
    }
    return candidates;
}

std::optional<std::vector<record::MeasureResult>> TuningSession::measureBatch(
    int task, const std::vector<search::Candidate>& candidates, Round& round)
{
    // Candidates that could not be instantiated are recorded as status 1 and never run.
    std::vector<std::optional<record::MeasureResult>> results(candidates.size());
    std::vector<sched::State> states;
    std::vector<size_t> position; // states[i] is candidates[position[i]]
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].instantiationError.empty()) {
            states.push_back(candidates[i].state);
            position.push_back(i);
        } else {
            results[i] = record::failedResult(
                record::MeasureStatus::InstantiationError, candidates[i].instantiationError, 0.0);
        }
    }
    const int instantiationErrors = static_cast<int>(candidates.size() - states.size());
    measure::MeasureCallbacks callbacks;
    callbacks.onResult
        = [&](int index, record::MeasureResult r) { results[position[static_cast<size_t>(index)]] = std::move(r); };
    callbacks.onProgress = [&](const measure::MeasureProgress& p) {
        emit(BatchProgress { task, p.built + instantiationErrors, p.done + instantiationErrors,
            p.total + instantiationErrors, m_engine->status[static_cast<size_t>(task)].bestCost });
    };
    const auto start = Clock::now();
    const std::stop_token abortToken = m_abort.get_token();
    const int delivered = states.empty()
        ? 0
        : m_engine->measurer->measure(m_options.tasks[static_cast<size_t>(task)].dag, states, callbacks, abortToken);
    round.phases.measure = secondsSince(start);
    if (delivered < static_cast<int>(states.size()) || abortToken.stop_requested())
        return std::nullopt; // aborted: the batch in flight is lost
    std::vector<record::MeasureResult> out;
    for (auto& r : results)
        out.push_back(std::move(*r));
    return out;
}

Expected<std::vector<store::Record>> TuningSession::storeBatch(int task,
    const std::vector<search::Candidate>& candidates, const std::vector<record::MeasureResult>& results, Round& round)
{
    Engine& e = *m_engine;
    // Ranks by predicted score within the batch, 0 = best.
    std::vector<size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(
        order.begin(), order.end(), [&](size_t a, size_t b) { return candidates[a].score > candidates[b].score; });
    std::vector<int> rank(candidates.size());
    for (size_t r = 0; r < order.size(); ++r)
        rank[order[r]] = static_cast<int>(r);
    std::vector<store::Record> records;
    for (size_t i = 0; i < candidates.size(); ++i) {
        store::Record r;
        r.taskId = e.taskIds[static_cast<size_t>(task)];
        r.deviceId = e.deviceId;
        r.sessionId = m_sessionId;
        r.kind = store::RecordKind::Ansor;
        r.steps = sched::stepsToText(candidates[i].state.steps());
        r.stepCount = static_cast<int>(candidates[i].state.steps().size());
        r.result = results[i];
        r.predictedScore
            = std::isfinite(candidates[i].score) ? std::optional<double>(candidates[i].score) : std::nullopt;
        // The session's model predicted it only for policies that use it (AutoTVM's XGBoost tuner has its own).
        if (e.policies[static_cast<size_t>(task)]->usesSessionModel())
            r.predictedBy = e.modelId;
        r.batchRank = rank[i];
        nlohmann::json extra { { "pick", candidates[i].random ? "random" : "best" } };
        if (const int rewrite = recordedLayoutRewrite(m_options.measure); rewrite > 0)
            extra["layout_rewrite_option"] = rewrite; // export writes it in the log line
        if (!candidates[i].extra.empty())
            extra.update(nlohmann::json::parse(candidates[i].extra, nullptr, false));
        if (results[i].waited >= measure::kBusyWait) { // timed on a busy machine: the figure is the load's too
            extra["waited"] = std::round(results[i].waited * 100) / 100;
            ++e.busyTrials;
        }
        r.extra = extra.dump();
        records.push_back(std::move(r));
    }
    const auto start = Clock::now();
    if (auto added = e.store.addRecords(records); !added) // one transaction
        return makeError(added.error().kind, "storing the batch: " + added.error().message);
    round.phases.store = secondsSince(start);
    return records;
}

int TuningSession::absorb(int task, const std::vector<search::Candidate>& candidates,
    const std::vector<store::Record>& records, const std::vector<record::MeasureResult>& results, bool manual)
{
    Engine& e = *m_engine;
    TaskStatus& status = e.status[static_cast<size_t>(task)];
    int errors = 0;
    for (size_t i = 0; i < records.size(); ++i) {
        const record::MeasureResult& r = results[i];
        ++status.trials;
        ++e.totalTrials;
        emit(RecordMeasured { task, static_cast<int>(i), records[i].id, r, candidates[i].score, *records[i].batchRank,
            candidates[i].random, manual });
        if (!r.ok()) {
            ++errors;
            ++e.consecutiveErrors[static_cast<size_t>(task)];
            continue;
        }
        e.consecutiveErrors[static_cast<size_t>(task)] = 0;
        ++e.sessionSuccesses[static_cast<size_t>(task)];
        if (status.bestCost <= 0.0 || r.meanCost() < status.bestCost) {
            status.bestCost = r.meanCost();
            emit(BestImproved { task, status.bestCost, status.gflops(), records[i].id, status.trials, false });
        }
    }
    if (manual) // not a round of the scheduler's: its gradient sees the new best at the task's next round
        return errors;
    e.scheduler->recordRound(
        task, static_cast<int>(records.size()), status.bestCost > 0.0 ? status.bestCost : kInfinity);
    if (e.consecutiveErrors[static_cast<size_t>(task)] >= m_options.maxConsecutiveErrors) {
        std::string last;
        for (size_t i = results.size(); i-- > 0 && last.empty();)
            last = results[i].message;
        e.scheduler->markDead(task,
            std::to_string(e.consecutiveErrors[static_cast<size_t>(task)])
                + " consecutive errors; the last: " + (last.empty() ? "(no message)" : last));
    }
    return errors;
}

Expected<void> TuningSession::updateModel(int task, const std::vector<search::Candidate>& candidates,
    const std::vector<record::MeasureResult>& results, Round& round, int roundNumber)
{
    Engine& e = *m_engine;
    const search::TaskPolicy& policy = *e.policies[static_cast<size_t>(task)];
    if (!policy.usesSessionModel())
        return {};
    std::vector<sched::State> states;
    std::vector<record::MeasureResult> measured;
    std::vector<double> scores;
    for (size_t i = 0; i < candidates.size(); ++i)
        if (candidates[i].instantiationError.empty()) {
            states.push_back(candidates[i].state);
            measured.push_back(results[i]);
            scores.push_back(candidates[i].score);
        }
    emit(PhaseStarted { task, "model" });
    if (e.shadows) { // scored on what they knew before this batch, as the session's model ranked it
        const auto shadowStart = Clock::now();
        if (roundNumber > 0)
            round.shadows
                = e.shadows->round(roundNumber, task, policy.costTask(), states, measured, scores, e.model->kind());
        else
            e.shadows->learn(policy.costTask(), states, measured);
        round.phases.model += secondsSince(shadowStart);
    }
    const auto updateStart = Clock::now();
    if (auto updated = e.model->update(policy.costTask(), states, measured); !updated)
        return makeError(updated.error().kind, "updating the cost model: " + updated.error().message);
    const double updateSeconds = secondsSince(updateStart);
    round.phases.model += updateSeconds;
    emit(ModelUpdated { e.model->kind(), e.model->trainedOn(), updateSeconds });
    return {};
}

void TuningSession::syncDeadTasks()
{
    Engine& e = *m_engine;
    for (size_t i = 0; i < e.status.size(); ++i) {
        const search::TaskProgress& p = e.scheduler->progress()[i];
        e.status[i].dead = p.dead;
        e.status[i].deadReason = p.deadReason;
    }
}

void TuningSession::remeasureBest()
{
    Engine& e = *m_engine;
    const TuneOptions& o = m_options;
    const std::stop_token abortToken = m_abort.get_token();
    measure::MeasureOptions options = o.measure;
    options.timing.repeat = std::max(options.timing.repeat, o.remeasureRepeat);
    measure::Measurer measurer(options);
    for (size_t t = 0; t < o.tasks.size() && !abortToken.stop_requested(); ++t) {
        if (e.sessionSuccesses[t] == 0)
            continue;
        store::RecordFilter filter;
        filter.taskIds = { e.taskIds[t] };
        filter.deviceId = e.deviceId;
        filter.okOnly = true;
        if (!o.resume)
            filter.sessionId = m_sessionId;
        auto stored = e.store.records(filter);
        if (!stored)
            continue;
        std::vector<const store::Record*> best;
        for (const store::Record& r : *stored)
            if (e.policies[t]->owns(r.extra) && layoutRewriteOf(r.extra) == recordedLayoutRewrite(o.measure))
                best.push_back(&r);
        const size_t top = std::min(best.size(), static_cast<size_t>(o.remeasureTop));
        std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(top), best.end(),
            [](const store::Record* a, const store::Record* b) { return a->result.meanCost() < b->result.meanCost(); });
        best.resize(top);
        std::vector<sched::State> states;
        std::vector<int64_t> ids;
        for (const store::Record* r : best) {
            if (auto state = store::replayStored(o.tasks[t].dag, r->steps, r->extra)) {
                states.push_back(std::move(state).value());
                ids.push_back(r->id);
            }
        }
        std::vector<std::optional<record::MeasureResult>> results(states.size());
        measure::MeasureCallbacks callbacks;
        callbacks.onResult = [&](int i, record::MeasureResult r) { results[static_cast<size_t>(i)] = std::move(r); };
        measurer.measure(o.tasks[t].dag, states, callbacks, abortToken);
        double cost = kInfinity;
        int64_t id = 0;
        for (size_t i = 0; i < results.size(); ++i)
            if (results[i] && results[i]->ok() && results[i]->meanCost() < cost) {
                cost = results[i]->meanCost();
                id = ids[i];
            }
        if (std::isfinite(cost)) {
            TaskStatus& status = e.status[t];
            status.bestCost = cost;
            emit(BestImproved { static_cast<int>(t), cost, status.gflops(), id, status.trials, true });
        }
    }
}

Error TuningSession::fail(const std::string& message)
{
    finish("failed", message);
    return makeError(ErrorKind::Internal, message);
}

Expected<void> TuningSession::begin()
{
    if (!m_engine)
        TS_CHECK(prepare());
    Engine& e = *m_engine;
    if (e.begun)
        return {};
    e.begun = true;
    e.started = Clock::now();
    e.budget = std::max(0, m_options.trials - m_restoredTrials);
    e.measuredStates.assign(m_options.tasks.size(), {});
    e.measuredGflops.assign(m_options.tasks.size(), {});
    e.taskStarted.assign(m_options.tasks.size(), false);
    if (m_options.measureOnWorkers) {
        std::map<std::string, int64_t> taskIds;
        for (size_t t = 0; t < m_options.tasks.size(); ++t)
            taskIds[m_options.tasks[t].dag.workloadKey()] = e.taskIds[t];
        const std::string workspace
            = m_options.workspace.empty() ? store::Store::defaultWorkspacePath() : m_options.workspace;
        TS_TRY(
            e.measurer, QueueMeasurer::open(workspace, m_sessionId, e.deviceId, std::move(taskIds), m_options.measure));
    } else {
        e.measurer = std::make_unique<measure::Measurer>(m_options.measure);
    }
    TS_CHECK(applySteering()); // the history's first entry, stored and said
    m_running = true;
    return {};
}

Expected<bool> TuningSession::step()
{
    TS_CHECK(begin());
    Engine& e = *m_engine;
    const TuneOptions& o = m_options;
    const std::stop_token abortToken = m_abort.get_token();
    if (e.totalTrials >= e.budget || m_cancelled)
        return false;
    waitWhilePaused();
    drainCommands();
    if (m_cancelled)
        return false;
    applyModelSwitch();
    if (m_cancelled)
        return false;
    const bool warmUp = e.scheduler->inWarmUp();
    std::vector<double> gradients = e.scheduler->gradients();
    const int t = e.scheduler->next();
    if (t < 0)
        return false; // every task dead or stopped
    const std::string choice = warmUp ? "warm-up" : search::toString(o.scheduler.strategy);
    if (t != e.lastTask)
        emit(TaskSwitched { t, o.tasks[static_cast<size_t>(t)].name, choice });
    e.lastTask = t;
    search::TaskPolicy& policy = *e.policies[static_cast<size_t>(t)];
    if (!e.taskStarted[static_cast<size_t>(t)]) {
        // Transfer: what the other tasks measured so far (TVM's tune_tasks loads the earlier tasks' log).
        e.taskStarted[static_cast<size_t>(t)] = true;
        std::vector<sched::State> states;
        std::vector<double> gflops;
        for (size_t other = 0; other < e.measuredStates.size(); ++other)
            if (other != static_cast<size_t>(t)) {
                states.insert(states.end(), e.measuredStates[other].begin(), e.measuredStates[other].end());
                gflops.insert(gflops.end(), e.measuredGflops[other].begin(), e.measuredGflops[other].end());
            }
        if (!states.empty())
            policy.learnFromOtherTasks(states, gflops);
    }
    if (seedsSimilarTasks())
        offerSimilarTasksBest(t);

    Round round;
    emit(PhaseStarted { t, "search" });
    auto candidates = propose(t, std::min(measuresPerRound(), e.budget - e.totalTrials), round);
    if (!candidates)
        return fail(candidates.error().message);
    if (abortToken.stop_requested())
        return false;
    if (candidates->empty()) {
        e.scheduler->markDead(t, "no new candidates (the search space looks exhausted)");
        syncDeadTasks();
        return true;
    }
    emit(PhaseStarted { t, "measure" });
    const auto results = measureBatch(t, *candidates, round);
    if (!results)
        return false;
    auto records = storeBatch(t, *candidates, *results, round);
    if (!records)
        return fail(records.error().message);
    policy.recordMeasured(*candidates, *results);
    const int errors = absorb(t, *candidates, *records, *results);
    // Kept only where another task can learn from them (AutoTVM's XGBoost tuner, more than one task) or
    // start from them (Ansor's policy with similarTaskSeeds, another task of the same kind).
    const bool transfer = (o.policy == search::PolicyKind::AutotvmXgb && o.tasks.size() > 1) || seedsSimilarTasks();
    for (size_t i = 0; transfer && i < candidates->size(); ++i)
        if ((*candidates)[i].instantiationError.empty()) {
            const record::MeasureResult& r = (*results)[i];
            e.measuredStates[static_cast<size_t>(t)].push_back((*candidates)[i].state);
            e.measuredGflops[static_cast<size_t>(t)].push_back(
                r.ok() && r.meanCost() > 0.0 ? e.status[static_cast<size_t>(t)].flops / r.meanCost() / 1e9 : 0.0);
        }
    if (seedsSimilarTasks())
        keepBestMeasured(t, static_cast<size_t>(o.search.similarTaskSeeds));

    if (auto updated = updateModel(t, *candidates, *results, round, e.roundNumber + 1); !updated)
        return fail(updated.error().message);

    syncDeadTasks();
    emit(RoundDone { ++e.roundNumber, t, static_cast<int>(records->size()), errors, e.status, estimatedLatency(),
        secondsSince(e.started), e.totalTrials, round.search, round.phases, choice, std::move(gradients),
        std::move(round.shadows) });
    return true;
}

Expected<Finished> TuningSession::end()
{
    TS_CHECK(begin());
    Engine& e = *m_engine;
    const TuneOptions& o = m_options;
    if (m_abort.get_token().stop_requested())
        return finish("cancelled", "aborted; the batch in flight was not kept");
    // Re-measure each task's top candidates with more repeats, so that a lucky run does not crown a winner.
    if (o.remeasureTop > 0 && !m_cancelled) {
        emit(PhaseStarted { -1, "re-measure" });
        remeasureBest();
    }
    if (m_cancelled)
        return finish("cancelled", "stopped after the batch in flight; run the same command again to resume");
    if (e.budget == 0)
        return finish("finished",
            "the trial budget is already spent (" + std::to_string(m_restoredTrials) + " of " + std::to_string(o.trials)
                + " trials in the workspace); raise it to tune further");
    bool allDead = true;
    for (const TaskStatus& s : e.status)
        allDead = allDead && s.dead;
    return finish("finished", allDead ? "every task stopped before the trial budget was spent" : "");
}

Expected<Finished> TuningSession::run()
{
    TS_CHECK(begin());
    for (;;) {
        auto more = step();
        if (!more) {
            if (m_engine->finished)
                return *m_engine->finished; // a failure, finished and reported as such
            return more.error();
        }
        if (!*more)
            break;
    }
    return end();
}

} // namespace ts::engine
