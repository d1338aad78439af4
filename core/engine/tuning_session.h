// TuningSession: the one façade the CLI and the GUI drive to tune a network or an operator (DESIGN:
// core/session). It owns the engine's loop, Ansor's measure loop under the task scheduler:
//
//   round: scheduler picks a task -> its SketchPolicy proposes a batch (64) -> the measurer builds in
//          parallel, runs and checks -> the batch's records go into the store in one transaction, with
//          their session, predicted score, model and rank in the batch -> the cost model updates
//
// with a warm-up round per task, dead tasks (no new candidates after retries, or 150 consecutive errors),
// early stopping, and at the end a re-measurement of each task's top candidates (more repeats) whose
// figure is kept as the task's best, so that noise does not crown a winner.
//
// Resume: the session opens its workspace and restores, for every task it tunes on this device, the trial
// count (which counts toward the budget, TuneOptions::trials), the best cost, the hashes of every state measured (never
// measured again) and the measured states the initial populations draw from; the cost model is loaded from the last one
// the workspace saved for this kind. Records are written one batch per transaction, so a process killed mid-round loses
// at most the batch in flight.
//
// Threads and control: start() runs the loop on a worker thread; events reach the sink on that thread,
// as immutable values (the GUI forwards them through a queued signal; the CLI prints them). cancel() stops
// after the batch in flight (its records are kept); abort() also stops the batch in flight (its records are
// lost, nothing else is); pause() holds the loop between batches until resume(). wait() joins. Destroying a
// running session aborts it.
#pragma once

#include "core/engine/shadow_models.h"
#include "core/ir/compute_dag.h"
#include "core/measure/measurer.h"
#include "core/record/measure_result.h"
#include "core/search/search_task.h"
#include "core/search/sketch_policy.h"
#include "core/search/task_policy.h"
#include "core/search/task_scheduler.h"
#include "core/store/records.h"
#include "core/support/error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace ts::engine {

struct TuneTask {
    std::string name; // "conv2d_nhwc_bias_add_relu", "matmul"
    ir::ComputeDAG dag;
    int weight = 1; // occurrences in the network
    std::string tags; // op tags for the scheduler's similarity groups ("conv2d,bias_add,relu")
};

// The layout_rewrite_option TVM gives a task nobody chose one for, as `tune` and the workbench default to it. On
// a CPU Ansor packs the weights of a network's tasks once, before the timed runs (2: Relay's constant folding
// leaves them packed), and those of an operator tuned on its own inside the timed kernel (1,
// INSERT_TRANSFORM_STAGE). AutoTVM's templates and GPU targets rewrite nothing (0).
int defaultLayoutRewrite(search::PolicyKind policy, bool network, const target::Target& target);
// The layout_rewrite_option records measured with these options carry: the measurement's on a CPU, 0 on a GPU.
int recordedLayoutRewrite(const measure::MeasureOptions& measure);
// The layout_rewrite_option a stored record was measured with (its extra JSON; absent: 0; malformed: -1). A record
// measured with another option timed another kernel (option 1 packs the weight inside the timed run), so a session
// neither resumes from it nor re-measures it as its best.
int layoutRewriteOf(const std::string& extra);

struct TuneOptions {
    std::vector<TuneTask> tasks;
    // The network the tasks come from, recorded in the store ("" for a single operator).
    std::string network;
    int64_t batch = 1;
    std::string layout;

    search::PolicyKind policy = search::PolicyKind::Ansor;
    // Makes each task's policy instead of the registry's entry for `policy` (tests, experiments with a policy
    // not registered); the session still records `policy`'s name.
    std::function<Expected<std::unique_ptr<search::TaskPolicy>>(search::PolicyContext)> makePolicy;
    std::string model = "random";
    // Makes the session's cost model instead of the registry's `model` (a pre-trained model: compare-models
    // --search); the session still records `model`'s name.
    std::function<Expected<std::unique_ptr<cost::CostModel>>()> makeModel;
    // The tasks' measurement budget on this device, all tasks together (Ansor's num_measure_trials), counting
    // the trials earlier sessions stored for them: a rerun of an interrupted command finishes its budget, and
    // a larger value tunes further. (Ansor's own resume adds a fresh budget each run; "run the same command
    // again" then never ends.)
    int trials = 1000;
    int measuresPerRound = 64; // Ansor's num_measures_per_round (less when trials / tasks is smaller)
    uint64_t seed = 1;
    int searchThreads = 0; // population work; 0: all cores
    search::SearchParams search;
    search::SchedulerOptions scheduler;
    measure::MeasureOptions measure;
    int maxConsecutiveErrors = 150; // Ansor's DEFAULT_MAX_CONTINUOUS_ERROR, per task
    // Re-measure the top `remeasureTop` candidates of each task tuned, `remeasureRepeat` repeats each, before
    // the session reports its best (0: do not).
    int remeasureTop = 3;
    int remeasureRepeat = 5;
    std::string workspace; // the store's path; empty: Store::defaultWorkspacePath()
    // Queue each batch in the workspace's work queue for tunescope-worker processes to measure, instead of
    // measuring here (engine/queue_measurer.h); needs a PostgreSQL workspace. Re-measuring the best at the end
    // stays local.
    bool measureOnWorkers = false;
    // What the tasks were made from, as JSON the caller defines ({"network": ..., "tasks": [...]} or
    // {"op": ..., "shape": ...}), kept in the session's settings so that a viewer can rebuild the DAGs and
    // resume the session later. Empty: not recorded.
    std::string origin;
    // Restore what earlier sessions stored for these tasks (budget, best, states not to measure again). Off:
    // a fresh start that ignores them (a race, a benchmark).
    bool resume = true;
    // JSON object members added to the session's stored settings ({"race": {...}}); "" for none.
    std::string extraSettings;
    // Steering from the start (by task index; shorter or empty: none): constraints every proposed state obeys
    // (`tune --constraints FILE`), and states that join each round's initial population (chosen records). Stored
    // in the session's settings; an error (a constraint that does not fit its task) stops start() before any work.
    std::vector<search::Constraints> constraints;
    std::vector<std::vector<sched::State>> seeds;
    // A stored session's settings (store::SessionInfo::settings), to resume its steering: the constraints and seeds
    // in effect when it stopped start this session, for the tasks `constraints` and `seeds` leave empty. A steering
    // that no longer fits its task (a stage renamed since) is an error of start().
    std::string steeringFrom;
    // Shadow models (cost-model kinds): each learns from the same records as the session's model and scores every
    // round's candidates before they are measured, without steering; RoundDone::shadows carries each one's (and the
    // session model's) pairwise accuracy and Spearman on the round (shadow_models.h). Ansor only.
    std::vector<std::string> shadowModels;
};

// ----- steering (issue 41): what a person asks a live session to do. Commands queue (post) and are applied
// between two batches, never inside one, on the session's thread, in the order posted; while the session is
// paused they are applied at once. Each applied command is one step of the steering history, which undo and
// redo walk: a constraint, a seed and a manual state's place in the population come and go with it; a manual
// record stays in the store (the history says it was undone).

// Measure this state now (a "manual" record of the session: its own marker, the model learns from it; a crash,
// a wrong result or a timeout is one failed manual record with its message). Steps for the task's DAG.
struct MeasureState {
    int task = 0;
    std::vector<sched::Step> steps;
};
// These states join the task's initial population from the next round (and stay there).
struct SeedStates {
    int task = 0;
    std::vector<std::vector<sched::Step>> states;
};
// The task's constraints from the next round on (replacing its earlier ones; empty: none).
struct SetConstraints {
    int task = 0;
    search::Constraints constraints;
};
struct UndoSteering { };
struct RedoSteering { };
using SessionCommand = std::variant<MeasureState, SeedStates, SetConstraints, UndoSteering, RedoSteering>;
// "measure a state of task 2", for people and the history.
std::string describe(const SessionCommand& command);

// ----- events: immutable snapshots, delivered in order on the session's thread

struct TaskStatus {
    int task = 0;
    std::string name;
    int weight = 1;
    double flops = 0.0;
    int trials = 0; // all sessions' (restored + this one's)
    double bestCost = 0.0; // seconds; 0 until one succeeds
    bool dead = false;
    std::string deadReason;

    double gflops() const { return bestCost > 0.0 ? flops / bestCost / 1e9 : 0.0; }
};

// Time spent per phase of a round, seconds.
struct PhaseTimes {
    double search = 0.0; // sampling, mutation, crossover (population work)
    double model = 0.0; // cost-model predictions and update
    double measure = 0.0; // build + run (the measurer's wall time)
    double store = 0.0; // the batch's transaction
};

struct BatchProgress { // while a batch is being measured
    int task = 0;
    int built = 0;
    int done = 0;
    int total = 0;
    double bestCost = 0.0;
};
struct RecordMeasured {
    int task = 0;
    int index = 0; // in the batch
    int64_t recordId = 0;
    record::MeasureResult result;
    double predictedScore = 0.0;
    int batchRank = 0;
    bool random = false;
    bool manual = false; // a person's state (MeasureState), measured between two batches
};
struct BestImproved {
    int task = 0;
    double cost = 0.0;
    double gflops = 0.0;
    int64_t recordId = 0;
    int trial = 0; // the task's trial count when found
    bool remeasured = false; // a re-measured figure (end of session)
};
struct TaskSwitched {
    int task = 0;
    std::string name;
    std::string reason; // "warm-up", "gradient", "round-robin"
};
// What the session is doing now, for a status line: "search", "measure", "store", "model", "re-measure".
struct PhaseStarted {
    int task = -1; // -1: not one task's
    std::string phase;
};
struct ModelUpdated {
    std::string kind;
    int64_t trainedOn = 0;
    double seconds = 0.0;
};
// The session switched its cost model between rounds (switchModel): the new model learned from every record
// the session's tasks have on this device before it ranked anything. `error` set: the switch failed and the
// session goes on with the old model.
struct ModelSwitched {
    std::string from;
    std::string to;
    int trial = 0; // the session's trial count when it switched
    int64_t trainedOn = 0; // records the new model learned from
    double seconds = 0.0; // its training
    std::string error;
};
// The switches a session's stored settings (store::SessionInfo::settings, JSON) list, in order: the successful
// ones (failed switches are not stored). None when there are none or the text is not JSON.
std::vector<ModelSwitched> modelSwitchesOf(const std::string& settings);
// "xgb \u2192 gtuner" for a session that switched (the model it started with, then `current`); else `current`.
std::string switchedModelsText(const std::vector<ModelSwitched>& switches, const std::string& current);

struct RoundDone {
    int round = 0;
    int task = 0;
    int measured = 0;
    int errors = 0;
    std::vector<TaskStatus> tasks; // every task, after the round
    double estimatedLatency = 0.0; // seconds: sum of weight * best (0 while some task has none)
    double elapsed = 0.0; // seconds since start
    int totalTrials = 0; // this session's
    search::RoundStats search;
    PhaseTimes phases;
    // The task scheduler's choice of this round: why ("warm-up", "gradient", "round-robin") and the gradient
    // of every task it computed before choosing (NaN for dead tasks; -inf for a task without a best).
    std::string choice;
    std::vector<double> gradients;
    // With shadow models: the session model's line, then each shadow's, on this round's candidates.
    std::vector<ShadowMetrics> shadows;
};
struct Finished {
    std::string status; // "finished", "cancelled", "failed"
    std::string message;
    std::vector<TaskStatus> tasks;
    double estimatedLatency = 0.0;
    int totalTrials = 0; // this session's
    double elapsed = 0.0;
    int restoredTrials = 0; // earlier sessions'
};

// A posted command was applied (error empty) or refused (nothing changed).
struct CommandDone {
    int64_t id = 0; // post()'s
    std::string what; // describe(command)
    std::string error;
    int64_t recordId = 0; // MeasureState: the manual record (also when its measurement failed)
};
// The steering history changed (a command applied, undone, redone), and what it now says per task.
struct SteeringChanged {
    std::vector<std::string> history; // entry 0: "session start"
    int position = 0; // the entry in effect; those after it can be redone
    std::vector<search::Constraints> constraints; // per task
    std::vector<int> seeds; // per task: the person's states in its population
    std::vector<int> manualInPopulation; // per task: manual records whose state is in its population
};

using TuneEvent = std::variant<BatchProgress, RecordMeasured, BestImproved, TaskSwitched, PhaseStarted, ModelUpdated,
    ModelSwitched, RoundDone, Finished, CommandDone, SteeringChanged>;
using EventSink = std::function<void(const TuneEvent&)>;

class TuningSession {
public:
    TuningSession(TuneOptions options, EventSink sink);
    ~TuningSession();
    TuningSession(const TuningSession&) = delete;
    TuningSession& operator=(const TuningSession&) = delete;

    // Checks the options, opens the workspace, restores earlier sessions' state and starts the worker.
    // Errors (bad options, a workspace that is not one) come back here, before any thread starts.
    Expected<void> start();
    // Runs the whole session on this thread (what start() runs on the worker): the Finished event.
    // It is begin(), step() until it says the session is done, then end().
    Expected<Finished> run();
    // Round by round, for a caller that interleaves sessions (a race): begin() prepares (unless start() or
    // begin() did); step() runs one round and returns false when there is nothing left to do (budget spent,
    // every task dead, cancelled); end() re-measures the best and finishes. Not with start().
    Expected<void> begin();
    Expected<bool> step();
    Expected<Finished> end();

    void pause();
    void resume();
    void cancel(); // after the batch in flight
    // Asks for another cost model (a registered kind) from the next round on; any thread. The new model learns
    // from every record of the session's tasks on this device (earlier sessions' included), is stored, and
    // ranks the following rounds; the session's row names it. A ModelSwitched event says how it went. Errors
    // here: an unknown kind, a policy that does not use the session's model (AutoTVM, random).
    Expected<void> switchModel(const std::string& kind);
    // What switchModel refuses, for callers that check before a session exists (the CLI's options, the
    // workbench while a session builds its tasks).
    static Expected<void> checkModelSwitch(search::PolicyKind policy, const std::string& kind);
    // Queues a steering command (any thread): applied between two batches, or at once while paused; a CommandDone
    // event with the returned id says how it went. Errors here: the session is not running, or the task index is
    // out of range.
    Expected<int64_t> post(SessionCommand command);
    void abort(); // now; the batch in flight is lost
    // Joins the worker; the Finished event (also sent to the sink), or the error that ended it.
    Expected<Finished> wait();

    bool paused() const { return m_paused.load(); }
    int64_t sessionId() const { return m_sessionId; }
    // Trials earlier sessions stored for these tasks on this device (known after start()).
    int restoredTrials() const { return m_restoredTrials; }
    // Records of these tasks on this device that were measured with another layout_rewrite_option, by option: they
    // time another kernel, so they are not resumed (known after start()).
    const std::map<int, int>& otherLayoutRewriteRecords() const { return m_otherLayoutRewrites; }

private:
    struct Engine;
    // What one round spent and did, for its RoundDone event.
    struct Round {
        PhaseTimes phases;
        search::RoundStats search;
        std::vector<ShadowMetrics> shadows;
    };

    Expected<void> prepare();
    // An error finishes the session as failed; the Finished event goes out, the error comes back.
    Error fail(const std::string& message);
    // Holds while paused, applying the commands posted meanwhile.
    void waitWhilePaused();
    // Applies the commands posted so far, in order.
    void drainCommands();
    Expected<int64_t> apply(const SessionCommand& command);
    // A state of task t (replayed on its DAG), measured now as a manual record; the record's id.
    Expected<int64_t> measureManual(int t, const sched::State& state);
    // Gives every task's policy the steering of the history's entry in effect, stores it, tells the sink.
    Expected<void> applySteering();
    Expected<void> checkTask(int task) const;
    // TuneOptions::steeringFrom: the stored constraints and seeds, by task.
    Expected<void> restoreSteering(const std::string& settings, std::vector<search::Constraints>& constraints,
        std::vector<std::vector<sched::State>>& seeds) const;
    void emit(TuneEvent event) const;
    int measuresPerRound() const;
    // Ansor's policy, with SearchParams::similarTaskSeeds, on more than one task.
    bool seedsSimilarTasks() const;
    // Offers task t's policy the best states the other tasks of its kind (its name) measured so far.
    void offerSimilarTasksBest(int t);
    // Drops all but task t's `keep` best measured states once it holds more than four times as many.
    void keepBestMeasured(int t, size_t keep);
    double estimatedLatency() const;
    // The steps of a round, in order.
    Expected<std::vector<search::Candidate>> propose(int task, int count, Round& round);
    // std::nullopt when aborted (the batch is lost).
    // Instantiation errors are not run: they get status 1 here.
    std::optional<std::vector<record::MeasureResult>> measureBatch(
        int task, const std::vector<search::Candidate>& candidates, Round& round);
    Expected<std::vector<store::Record>> storeBatch(int task, const std::vector<search::Candidate>& candidates,
        const std::vector<record::MeasureResult>& results, Round& round);
    // The batch's effect on the task's status, the events and the scheduler; returns the failures.
    // A manual batch: marked so, and not a round of the task scheduler.
    int absorb(int task, const std::vector<search::Candidate>& candidates, const std::vector<store::Record>& records,
        const std::vector<record::MeasureResult>& results, bool manual = false);
    // The session's model learns from a measured batch. With shadow models, they score the batch first
    // (roundNumber > 0: a round, whose metrics go in Round::shadows) or only learn from it (0: a manual state).
    Expected<void> updateModel(int task, const std::vector<search::Candidate>& candidates,
        const std::vector<record::MeasureResult>& results, Round& round, int roundNumber);
    // Before a round: the switch switchModel() asked for, if any.
    void applyModelSwitch();
    // A task's stored records on this device that its policy owns and that replay, as a model learns from them.
    Expected<cost::CostModel::Batch> storedBatch(size_t task);
    void syncDeadTasks();
    void remeasureBest();
    Finished finish(std::string status, std::string message);

    TuneOptions m_options;
    EventSink m_sink;
    std::unique_ptr<Engine> m_engine;
    std::atomic<bool> m_paused { false };
    std::atomic<bool> m_cancelled { false };
    std::stop_source m_abort;
    std::mutex m_switchMutex; // guards m_requestedModel
    std::optional<std::string> m_requestedModel;
    std::mutex m_pauseMutex;
    std::condition_variable m_pauseWake;
    // Commands posted and not yet applied, with their ids; guarded by m_pauseMutex (a post wakes a paused loop).
    std::vector<std::pair<int64_t, SessionCommand>> m_commands;
    int64_t m_nextCommand = 1;
    std::atomic<bool> m_running { false }; // between begin() and end(): commands are taken
    std::optional<Expected<Finished>> m_result;
    std::thread m_worker;
    int64_t m_sessionId = 0;
    int m_restoredTrials = 0;
    std::map<int, int> m_otherLayoutRewrites;
};

} // namespace ts::engine
