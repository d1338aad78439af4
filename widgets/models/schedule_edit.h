// What the schedule editor (the Code view's Edit tab) works on, as plain data without Qt: a state's steps as TVM
// JSON text, one step per line, read back with where each step and each of its fields is in the text; the text
// replayed on the task's DAG, with an error that names the step, its line and the offending field; and what the
// editor shows of a state that replays: the loop nest with the stage and loop of every line (for the loop nest's
// context menu), the loop IR with the session model's per-stage scores (code_listing.h), and the steps as schedule
// calls. replayEdit runs in a job after every pause in typing; the rest is cheap.
//
// The text is a JSON list of steps, `[` and `]` on lines of their own, each step on its own line (a step may span
// lines; a trailing comma is forgiven, since a person deletes the last step more often than its comma). Step
// indices count from 0, as the engine's errors and the follow-split steps' source ids do.
#pragma once

#include "core/graph/task_extraction.h"
#include "core/schedule/state.h"
#include "widgets/models/code_listing.h"

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace ts::models {

// Byte offsets into the text (the text is ASCII when it holds only steps; the GUI converts to characters).
struct TextSpan {
    int start = 0;
    int length = 0;
    bool operator==(const TextSpan&) const = default;
};

struct StepText {
    sched::Step step;
    int line = 0; // of the step's `[`, from 0
    TextSpan span; // `[` .. `]`
    std::vector<TextSpan> fields; // each element of the step's array, trimmed
};

struct EditError {
    int step = -1; // the step's index from 0; -1 when the text around the steps is wrong
    int line = -1; // from 0
    int field = -1; // the element of the step's array (0 is the code); -1 when no one field is to blame
    std::string fieldName; // "iterator", "lengths", ...; empty with field -1
    TextSpan span; // what to mark: the field, else the step, else the line
    std::string message; // the reason, as the parser or State::apply gave it, less the "step 3 (SP): " they start with
};

struct ParsedEdit {
    std::vector<StepText> steps; // up to the first error
    std::optional<EditError> error;
};

// "[\n  [\"SP\", 2, 0, 64, [4, 16], 1],\n  ...\n]\n": one step per line.
std::string editText(const std::vector<sched::Step>& steps);
ParsedEdit parseEditText(std::string_view text);
// What field `field` of a step with this code holds ("stage", "iterator", "lengths", ...); "" when out of range.
std::string fieldName(std::string_view code, int field);
// The field of `step` that a State::apply error names (an iterator or stage out of range, an extent that does not
// match, a source step), or -1 when the error is about the step as a whole.
int errorField(const sched::Step& step, const std::string& message);

// One line of a loop nest printout: the stage it belongs to and the loop it opens (iter -1: a stage's body or one
// of its notes); stage -1 for the "Placeholder:" line.
struct LoopNestLine {
    int stage = -1;
    int iter = -1;
};
struct LoopNestListing {
    std::string text; // exactly loopNestText(state)
    std::vector<LoopNestLine> lines; // one per line of text
    std::shared_ptr<const sched::State> shown; // the state printed (bound inference's extents when it succeeds)
};
LoopNestListing loopNestListing(const sched::State& state);

// Where `step` goes to become the last step of `text`, so that the editor inserts it as one edit (one undo): after
// the last step (with a comma), into an empty list, or a new list when the text holds none.
struct TextInsertion {
    int position = 0; // byte offset
    std::string text;
};
TextInsertion appendStepText(std::string_view text, const sched::Step& step);

struct EditRequest {
    std::shared_ptr<const graph::Task> task;
    std::string text;
    target::Target target = target::Target::host();
    ScoreSource scoreSource;
    // The record the edit was copied from: the target of its device and its layout rewrite option, as the Code
    // view lists it (code_listing.h).
    std::optional<int64_t> recordId;
    std::string workspace;
};

struct EditOutcome {
    std::string text; // the request's
    ParsedEdit parsed;
    std::optional<EditError> error; // the parse error or the first step that does not replay
    // When the steps replay:
    std::shared_ptr<const sched::State> state;
    LoopNestListing loopNest;
    Listing loopIr;
    std::string loopIrScored;
    StageScores scores;
    std::string calls; // printStepsAsCalls
    bool replays() const { return state != nullptr; }
};

// Parses and replays the text; when it replays, lowers and scores the state. Returns early when `stop` is asked.
EditOutcome replayEdit(const EditRequest& request, const std::stop_token& stop = {});

} // namespace ts::models
