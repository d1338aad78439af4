// SessionSnapshot: everything the workbench shows about one tuning session, as one immutable value.
//
// A live session's snapshot is built from its events (SnapshotBuilder::apply, on the session's thread) and
// published to the GUI at about 10 Hz (widgets/session_hub.h); a stored session's is rebuilt from the
// workspace (loadSessionSnapshot, in a job). Both give the same value, so every view draws a running session
// and a finished one with the same code. Views receive it as shared_ptr<const SessionSnapshot> and never
// change it. Plain data, no Qt.
#pragma once

#include "core/engine/tuning_session.h"
#include "core/graph/task_extraction.h"
#include "core/record/measure_result.h"
#include "core/search/constraints.h"
#include "core/store/store.h"
#include "core/support/error.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ts::models {

// One measured candidate (one record), in the session's order.
struct TrialPoint {
    int64_t recordId = 0;
    int task = 0; // index into SessionSnapshot::tasks
    int trial = 0; // 1-based, this session's order
    int round = 0; // 1-based
    double elapsed = 0.0; // seconds since the session started
    double cost = 0.0; // mean seconds; 0 when the measurement failed
    double gflops = 0.0;
    record::MeasureStatus status = record::MeasureStatus::Ok;
    std::string message; // why it failed
    std::optional<double> predicted; // the cost model's score (higher is better)
    int batchRank = -1; // rank of the prediction in its batch, 0 = best; -1 unknown
    bool random = false; // an eps-greedy pick
    bool manual = false; // a person's state measured between two batches (engine::MeasureState), not a search pick

    bool ok() const { return status == record::MeasureStatus::Ok && cost > 0.0; }
};

// A point of a task's tuning curve: where its best improved.
struct CurvePoint {
    int trial = 0; // the session's trial count at that point
    int taskTrial = 0; // the task's trial count in this session
    double elapsed = 0.0;
    double cost = 0.0;
    double gflops = 0.0;
    int64_t recordId = 0;
};

// One measurement round.
struct RoundInfo {
    int round = 0; // 1-based
    int task = 0;
    int measured = 0;
    int errors = 0;
    int totalTrials = 0; // the session's, after the round
    double elapsed = 0.0;
    double estimatedLatency = 0.0; // seconds; 0 while some task has no best
    std::string choice; // the scheduler's reason: "warm-up", "gradient", "round-robin" ("" when not known)
    std::vector<double> gradients; // per task, before the choice (empty when not known)
    engine::PhaseTimes phases;
    search::RoundStats search;
};

struct SessionTask {
    engine::TaskStatus status; // name, weight, FLOPs, trials (all sessions), best cost, dead
    // The task with its DAG; null when the session's tasks cannot be rebuilt (an unknown origin).
    std::shared_ptr<const graph::Task> task;
    int64_t storeTaskId = 0; // the workspace's task row (0 when not known)
    int sessionTrials = 0; // this session's
    std::vector<CurvePoint> curve; // this session's improvements
    double lastGradient = std::numeric_limits<double>::quiet_NaN();
};

// How a person steered the session (issue 41, docs/steering.md): the steering history and what is in effect per
// task. A live session's is its newest engine::SteeringChanged; a stored session's comes from its settings'
// "steering", which do not say how many manual states each population holds (manualInPopulation is empty then).
struct SteeringInfo {
    std::vector<std::string> history; // entry 0: "session start"; empty: nothing known (an older session)
    int position = 0; // the entry in effect; those after it were undone and can be redone
    std::vector<search::Constraints> constraints; // per task, as many as SessionSnapshot::tasks
    std::vector<int> seeds; // per task: the person's states in its initial population
    std::vector<int> manualInPopulation; // per task; empty when not known

    bool canUndo() const { return position > 0; }
    bool canRedo() const { return position + 1 < static_cast<int>(history.size()); }
};

struct SessionSnapshot {
    int64_t sessionId = 0; // 0 until the session has started
    std::string title; // "resnet-18, batch 1, layout NHWC"
    std::string origin; // engine::TuneOrigin as JSON ("" when the session did not record it)
    std::string network; // "" for a single operator
    std::string policy; // "ansor", "random"
    std::string model; // "random", "xgb", ...
    uint64_t seed = 0;
    int budget = 0; // trials, all sessions of these tasks together (TuneOptions::trials)
    int measuresPerRound = 0;
    std::string workspace;

    // "starting", "running", "paused", "cancelling", "finished", "cancelled", "failed"
    std::string state = "starting";
    std::string message; // the Finished event's, or the error that ended it
    bool live = false; // driven by this process now (it can be paused and cancelled)
    std::string phase; // "search", "measure", "model", "re-measure" while live
    int phaseTask = -1;
    engine::BatchProgress batch; // the batch in flight

    int trialsDone = 0; // this session's
    int restoredTrials = 0; // earlier sessions', counted toward the budget
    double elapsed = 0.0; // seconds
    double startedAt = 0.0; // Unix seconds
    double estimatedLatency = 0.0; // seconds: sum of weight * best (0 while some task has none)

    std::vector<SessionTask> tasks;
    // The model switches of this session, in order (model above is the latest); failed ones carry their error.
    std::vector<engine::ModelSwitched> modelSwitches;
    std::vector<TrialPoint> trials;
    std::vector<RoundInfo> rounds;
    SteeringInfo steering;
    // Shadow models' per-round metrics (engine::RoundDone::shadows; a stored session's settings["shadow_models"]):
    // each round's session-model line, then one per shadow, all rounds in order. Empty: the session had none.
    std::vector<engine::ShadowMetrics> shadows;

    // The trials left in this session's budget.
    int remainingTrials() const;
    // Seconds to spend the budget at this session's rate so far; negative when unknown.
    double etaSeconds() const;
    bool finished() const { return state == "finished" || state == "cancelled" || state == "failed"; }
    // The trial of `recordId`, or null.
    const TrialPoint* findRecord(int64_t recordId) const;
    // The manual trials of `task` (those undone since included: their records stay in the store).
    int manualTrials(int task) const;
    // "ansor + xgb, seed 1" for legends.
    std::string label() const;
};

// Builds a live session's snapshot from its events, in order. Not thread-safe: one thread applies.
class SnapshotBuilder {
public:
    // `options` as the session was started with; `tasks` the graph tasks in the same order (may be empty).
    SnapshotBuilder(
        const engine::TuneOptions& options, std::vector<std::shared_ptr<const graph::Task>> tasks, std::string title);

    void setSessionId(int64_t id, int restoredTrials);
    // "running", "paused", "cancelling"; ignored once the session has ended.
    void setState(std::string state);
    // The error that ended the session before or outside its loop.
    void fail(std::string message);
    void apply(const engine::TuneEvent& event);

    const SessionSnapshot& snapshot() const { return m_snapshot; }
    // A copy to publish.
    std::shared_ptr<const SessionSnapshot> publish() const { return std::make_shared<SessionSnapshot>(m_snapshot); }

private:
    SessionSnapshot m_snapshot;
    int m_round = 1; // the round the next records belong to
};

// A stored session as a snapshot: its records in order, its tasks (rebuilt from its origin when it has one),
// curves and rounds (a round is a run of records of one task whose batch ranks do not repeat; a manual record,
// "pick": "manual" in its extra, belongs to no round: it takes the next round's number, as a live one does) and
// its steering (settings' "steering"). Errors: no such session, a store error.
Expected<SessionSnapshot> loadSessionSnapshot(store::Store& store, int64_t sessionId);

} // namespace ts::models
