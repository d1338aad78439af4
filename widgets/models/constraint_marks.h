// ConstraintMarks: what a task's constraints remove from the Sketches tree (issue 41, "the sketch view shows which
// sketches and annotations a constraint removes").
//
// For each task with constraints: each sketch the sketch rules (forbid / require) rule out, with the rule's reason
// (search::sketchRuleViolation), as SketchPolicy::allowedSketches() rules it out; and each measured state that
// breaks a constraint, with search::ConstraintChecker's violation ("split matmul.j innermost is 4, not = 8"). A
// state under a removed sketch breaks its sketch rule, and says so. Tasks without constraints are not looked at.
//
// Checking a state replays its split steps once per loop structure and may infer its loop extents: a few hundred
// states take tens of milliseconds, so markConstraints runs in a session::JobTracker job, on a tree already built
// (it only reads it). Plain data, no Qt.
#pragma once

#include "core/search/constraints.h"
#include "core/session/job_context.h"
#include "core/support/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ts::models {

struct SketchTree;

struct TaskMarks {
    bool constrained = false; // the task has constraints (the marks below are empty otherwise)
    // One per sketch of the task, in generation order: why the sketch rules remove it; std::nullopt: allowed.
    std::vector<std::optional<std::string>> sketches;
    int brokenStates = 0; // measured states of the task that break a constraint

    int allowed() const;
    int total() const { return static_cast<int>(sketches.size()); }
};

struct ConstraintMarks {
    std::vector<TaskMarks> tasks; // as SketchTree::tasks
    std::unordered_map<int64_t, std::string> states; // record id -> the constraint its state breaks
    int checkedStates = 0; // measured states of constrained tasks that were judged (replayed ones)

    bool empty() const;
    // Why the sketch `sketch` of task `task` is removed; null when it is not (or nothing is known of it).
    const std::string* sketchRemoved(int task, int sketch) const;
    // The constraint the state of `recordId` breaks; null when it breaks none (or was not judged).
    const std::string* stateViolation(int64_t recordId) const;
};

// The marks of `tree` under `constraints` (by the snapshot's task index, as SketchTree::tasks; shorter: the others
// have none). Returns early with an error when `context` asks to stop.
Expected<ConstraintMarks> markConstraints(const SketchTree& tree, const std::vector<search::Constraints>& constraints,
    const session::JobContext* context = nullptr);

} // namespace ts::models
