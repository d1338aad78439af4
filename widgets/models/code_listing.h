// What the code view shows of one schedule state, as text: its steps as schedule calls, Ansor's loop-nest
// printout, the loop IR (lowered and simplified, with the cost model's per-stage score above each stage's
// first store), the host's LLVM IR and assembly, and the loop nest after each prefix of the steps (stepping
// through a schedule). The same functions as `tunescope-cli lower --llvm --asm`, so the GUI and the CLI
// print the same program. Plain data, no Qt; buildCodeListing runs in a job (lowering and compiling take
// milliseconds to seconds).
//
// Per-stage scores (Ansor's predict_stages): one value per row of the state's per-store features (a row per
// buffer stored, named after its stage). The shown session's own model when it is an XGBoost one ("xgb",
// "xgb-rank"): the newest model of that kind the workspace saved since the session began (its end-of-session
// weights once it finished), loaded from the store; its scores are higher-is-better. Otherwise, or when that
// model is not trained yet, the analytical roofline model, which needs no training and gives each stage's
// estimated time in microseconds. The result names which model scored and why.
#pragma once

#include "core/graph/task_extraction.h"
#include "core/schedule/state.h"
#include "core/target/target.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace ts::models {

// Where a saved model may come from: the shown session (empty workspace: none).
struct ScoreSource {
    std::string workspace;
    int64_t sessionId = 0;
    std::string sessionModel; // the session's cost model kind: "xgb", "random", ...
};

struct StageScore {
    std::string buffer; // the stage the row stores to: "C", "C.local"
    double value = 0.0;
};

struct StageScores {
    std::string model; // the kind that scored: "xgb", "xgb-rank", "analytical"; "" when nothing scored
    std::string origin; // "saved model 7 (xgb (session end))", "roofline estimate, no training"
    bool higherIsBetter = true; // false: values are estimated microseconds
    std::vector<StageScore> stages;
    std::string note; // why the session's own model did not score, or why nothing did
};

// A text, or why it could not be made.
struct Listing {
    std::string text;
    std::string error;
};

// The state after the first `step` steps.
struct StepFrame {
    int step = 0; // 0 .. steps
    std::string call; // the step's schedule call ("" for step 0)
    std::string loopNest; // loopNestText of the prefix; "" when it does not replay
    std::string error; // why the prefix does not replay
    std::vector<int> changed; // lines of loopNest not in the previous frame's
    int removed = 0; // lines of the previous frame's loopNest not in this one
};

struct CodeListing {
    Listing loopNest;
    Listing loopIr; // as lower::toString prints it
    std::string loopIrScored; // loopIr with a score comment above each scored stage's first store
    Listing llvmIr; // optimized, for the target; on a GPU target the CUDA C
    Listing assembly; // on a GPU target the PTX
    bool gpu = false; // a CUDA target: llvmIr and assembly hold CUDA C and PTX
    StageScores scores;
    std::vector<StepFrame> frames; // steps + 1 frames
};

struct CodeRequest {
    std::shared_ptr<const graph::Task> task;
    std::shared_ptr<const sched::State> state; // of task's DAG
    target::Target target = target::Target::host();
    ScoreSource scoreSource;
    // A measured record of `workspace`: the target of the device it was measured on replaces `target`, and it is
    // lowered with its layout rewrite option (a
    // record of a GPU lists CUDA C and PTX).
    std::optional<int64_t> recordId;
    std::string workspace;
};

// One schedule call per step, as printStepsAsCalls prints them (a step that does not apply is the last line).
std::vector<std::string> stepCallLines(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps);

// Ansor's printout of the state with the extents bound inference finds, or as it is when bound inference
// fails (a sketch, a prefix whose compute_at is not settled yet).
std::string loopNestText(const sched::State& state);

// Frames 0 .. steps.size(): each prefix replayed on `dag`, its loop nest, the lines changed since the frame
// before. Frames after a step that does not apply carry the error.
std::vector<StepFrame> stepThrough(
    const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps, const std::stop_token& stop = {});

// The state lowered for `target`, as lower::toString prints it, or lowering's error.
Listing loopIrText(const sched::State& state, const target::Target& target);

// The per-stage scores of `state` (see the header comment).
StageScores scoreStages(
    const graph::Task& task, const sched::State& state, const target::Target& target, const ScoreSource& source);

// `loopIr` with a comment line "// <model> <value>[ us]: <buffer>" above the first store to each scored buffer
// (a second buffer whose first store is the same line gets none), indented as the store.
std::string annotateScores(const std::string& loopIr, const StageScores& scores);

// How a workspace's record was lowered when it was measured: the target of its device, and its layout rewrite
// option (extra.layout_rewrite_option; a TVM CPU record's is 1).
struct RecordLowering {
    target::Target target = target::Target::host();
    int layoutRewrite = 0;
};
Expected<RecordLowering> recordLowering(const std::string& workspace, int64_t recordId);
// How to lower a state shown for `recordId` of `workspace` (none: `target`, no layout rewrite): the record's
// lowering when it can be read, else `target`'s.
RecordLowering loweringFor(
    const target::Target& target, const std::optional<int64_t>& recordId, const std::string& workspace);
// Everything above for the request. Returns early (partly filled) when `stop` is requested.
CodeListing buildCodeListing(const CodeRequest& request, const std::stop_token& stop = {});

} // namespace ts::models
