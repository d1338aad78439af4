// Sweep one parameter (issue 41, feature 5): one split length or the unroll limit of a schedule state is set to
// each of its legal values in turn, the rest of the state fixed; every value's state is measured (one measurer
// batch) and scored by the cost models the caller chose, so that a person sees measured GFLOP/s against the
// value with each model's prediction beside it.
//
// The parameters (SweepParameter):
// - a split length: length `part` of the SplitStep at `step` (lengths[part]; innermost last for a split by
//   factor). Follow-split steps copy it when the state is replayed (State::withSplitLengths).
// - the unroll limit: the value N of the PragmaStep "auto_unroll_max_step$N" at `step`.
//
// Legal values, ascending, always with the current value:
// - a split length: the values v that keep the split perfect, as Ansor's tile-size mutation keeps it: v times the
//   split's other lengths divides the extent it splits (v divides extent / other lengths). For the innermost
//   length of a split by factor, only v <= SearchParams::maxInnermostSplitFactor (Ansor's cap, 64): what the
//   search itself could choose.
// - the unroll limit: search::unrollChoices (0, 16, 64, 512 on a CPU).
// A candidate is legal when its state also replays on the DAG and its bounds infer (lower::inferBound); a value
// that does not is left out, never measured.
//
// A sweep measures the chosen values in one batch: a build failure, a crash, a timeout or a wrong result is a
// failed point with the measurer's message, never an error of the sweep. It reports progress per value measured
// and stops on request (its progress callback returns false, or its stop token), returning the points measured
// so far. With a workspace it stores each point as a record (extra {"pick": "sweep", "sweep": {...}}) of the
// task on the target's device, so that a session's model learns from it (and never measures its state again).
//
// Threads: sweep() runs on the calling thread (the measurer builds on its own threads and joins them); the window
// runs it as a one-shot job, its inputs taken by value, and cancels it through the stop token.
#pragma once

#include "core/cost/cost_model.h"
#include "core/ir/compute_dag.h"
#include "core/measure/measurer.h"
#include "core/record/measure_result.h"
#include "core/schedule/state.h"
#include "core/search/search_task.h"
#include "core/store/store.h"
#include "core/support/error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace ts::engine {

struct SweepParameter {
    enum class Kind { SplitLength, Unroll };
    Kind kind = Kind::SplitLength;
    int step = 0; // index into State::steps(): the SplitStep, or the PragmaStep carrying auto_unroll_max_step
    int part = 0; // SplitLength: index into SplitStep::lengths; Unroll: 0
    bool operator==(const SweepParameter&) const = default;
};

// A parameter of a state as people choose it.
struct SweepableParameter {
    SweepParameter parameter;
    // "split matmul.local i: length 3 of 3 in [2, 4, 8] (now 8)", "unroll matmul.local (now 64)": the stage and
    // iterator named as they were when the step was applied, lengths counted from 1.
    std::string description;
    int64_t current = 0;
    // The values the rules above give (ascending, the current one included), before their states are replayed.
    std::vector<int64_t> candidates;
};

// Every split length (of each split whose lengths are all chosen) and every unroll pragma of `state`, in step
// order. Errors when the state's steps do not replay on `dag`.
Expected<std::vector<SweepableParameter>> sweepableParameters(const ir::ComputeDAG& dag, const sched::State& state,
    const search::SearchParams& params = {}, const target::Target& target = target::Target::host());

// The one parameter, or an InvalidArgument error that says what is wrong with it: a step out of range, a step of
// another kind, a part out of range, a split with an unfilled length.
Expected<SweepableParameter> describeParameter(const ir::ComputeDAG& dag, const sched::State& state,
    SweepParameter parameter, const search::SearchParams& params = {},
    const target::Target& target = target::Target::host());

// One legal value and its state (replayed, bounds inferred).
struct SweepCandidate {
    int64_t value = 0;
    bool current = false;
    sched::State state;
};

// The legal values of the parameter, ascending, each with its state. `values` empty: every legal value;
// otherwise those values, each of which must be legal ("split matmul i: length 2 of 2 in [4, 8] (now 8): 3 is
// not a legal value (legal: 1, 2, 4, 8, 16)").
Expected<std::vector<SweepCandidate>> legalValues(const ir::ComputeDAG& dag, const sched::State& state,
    SweepParameter parameter, const std::vector<int64_t>& values = {}, const search::SearchParams& params = {},
    const target::Target& target = target::Target::host());

// A cost model to score the points with, trained (or not) by the caller; it outlives the sweep.
struct SweepModel {
    std::string name; // for people and the JSON output: "xgb", "analytical"
    cost::CostModel* model = nullptr;
};

struct SweepOptions {
    measure::MeasureOptions measure; // its target is what the points are lowered for and measured on
    search::SearchParams search; // maxInnermostSplitFactor and the unroll choices
    std::vector<int64_t> values; // empty: every legal value
    std::vector<SweepModel> models;
    double flops = 0.0; // of one run; 0: the DAG's flopCount()
    // Store each point as a record in this workspace (created when missing); empty: store nothing. The task
    // row, when the workspace has none for the DAG, is named `taskName` (empty: the DAG's last op).
    std::string workspace;
    std::string taskName;
    // After every build and every result: values measured so far out of those chosen. False stops the sweep.
    std::function<bool(int done, int total)> progress;
    std::stop_token stop;
};

// One value measured.
struct SweepPoint {
    int64_t value = 0;
    bool current = false; // the state's own value
    std::string steps; // the state's steps, TVM's JSON
    record::MeasureResult result;
    double gflops = 0.0; // 0 when the measurement failed
    std::vector<double> predictions; // one per SweepOptions::models, in order (-infinity: the model cannot score it)
    int64_t recordId = 0; // the stored record; 0 without a workspace
};

struct SweepResult {
    SweepableParameter parameter;
    std::vector<std::string> models; // SweepOptions::models' names
    int total = 0; // values chosen
    std::vector<SweepPoint> points; // measured, ascending value: fewer than total when stopped
    bool cancelled = false;
};

// Measures the parameter's legal values (or SweepOptions::values) of `state` on `dag`. Errors (before anything
// is measured): a bad parameter, a value that is not legal, a model without a model, a workspace that cannot be
// opened; a failure to store the points comes back after the measurements, with nothing stored.
Expected<SweepResult> sweep(
    const ir::ComputeDAG& dag, const sched::State& state, SweepParameter parameter, const SweepOptions& options);

// A cost model of `kind` for sweeping `dag` measured with `measure`. A learned one has learned from the records of
// the task on the device `measure.target` names in `workspace` (every Ansor record whose steps replay and that was
// measured with the same layout rewrite, failures included), with no warm-up: a model that learned nothing scores
// at random (CostModel::warmingUp). The analytical model estimates with the device's measured profile when the
// workspace has one; it and the random model learn nothing (trainedOn() stays 0). `workspace` null: nothing to
// learn from.
Expected<std::unique_ptr<cost::CostModel>> sweepModel(const std::string& kind, store::Store* workspace,
    const ir::ComputeDAG& dag, const measure::MeasureOptions& measure, uint64_t seed = 1);

} // namespace ts::engine
