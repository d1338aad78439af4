// Constraints a person puts on one task's search (issue 41, "steer the search by hand"): pin or bound a split
// factor, the unroll limit, the vector length or the parallel extent, forbid or require a kind of sketch step.
// A policy samples and mutates as usual and drops every state that breaks a constraint, so no state it proposes
// breaks one; sketches a constraint rules out are not sampled at all. (Building the constraint into the samplers
// would waste fewer draws, but a filter is the one place that can guarantee "never proposed", whatever rule made
// the state; the draws it costs are counted in RoundStats::constraintRejections.)
//
// Names are the DAG's: a stage by its op's name ("conv2d" also matches the cache stage "conv2d.local"), an
// iterator by its axis name ("ff" also matches "ff.c", the cache stage's copy). A split's `part` counts the
// split's lengths from the outermost chosen one (0) or, negative, from the innermost (-1: the innermost tile,
// the one a vector loop is made of).
//
// The file form (`tune --constraints FILE`, the window's "Save constraints…"), one entry per task selector:
//   { "tunescope_constraints": 1,
//     "tasks": [ { "task": "conv2d_nhwc_bias_add_relu",          (a name: every task of that name; or
//                                                                  "index": 3, or "workload_key": "...")
//                  "splits": [ { "stage": "conv2d", "iter": "ff", "part": -1, "equals": 16 },
//                              { "stage": "conv2d", "iter": "yy", "part": -1, "max": 4 } ],
//                  "unroll": { "in": [0, 64] },                   (equals / min / max / in, as for a split)
//                  "vectorize": { "max": 16 },                    (the extent of each vectorised loop)
//                  "parallel": { "min": 8 },                      (the extent of each stage's parallel loops)
//                  "sketch": { "forbid": ["rfactor"], "require": ["cache_write"] } } ] }
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/state.h"
#include "core/support/error.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ts::search {

// Which integers a constraint allows. Empty: any.
struct Bound {
    std::optional<int64_t> equals;
    std::optional<int64_t> min;
    std::optional<int64_t> max;
    std::vector<int64_t> in; // empty: any

    bool empty() const { return !equals && !min && !max && in.empty(); }
    bool allows(int64_t value) const;
    std::string describe() const; // "= 16", "<= 64", "in {0, 64}", ">= 2 and <= 8"
    bool operator==(const Bound&) const = default;
};

struct SplitConstraint {
    std::string stage;
    std::string iter;
    int part = -1;
    Bound bound;
    bool operator==(const SplitConstraint&) const = default;
};

// The sketch steps "sketch" may forbid or require, as the file spells them.
inline constexpr const char* kSketchRules[] = { "rfactor", "cache_write", "cache_read", "inline" };

struct Constraints {
    std::vector<SplitConstraint> splits;
    Bound unroll;
    Bound vectorize;
    Bound parallel;
    std::vector<std::string> forbid; // of kSketchRules
    std::vector<std::string> require;

    bool empty() const;
    // One line per constraint, for people: "split conv2d.ff innermost = 16", "no rfactor".
    std::vector<std::string> describe() const;
    bool operator==(const Constraints&) const = default;
};

// The JSON form of one task's constraints (the members of a "tasks" entry after its selector).
nlohmann::json toJson(const Constraints& constraints);
Expected<Constraints> constraintsFromJson(const nlohmann::json& json);

// Whether the constraints make sense for this DAG: every named stage and iterator exists, a bound is not empty by
// construction (min > max), a pinned split factor divides its axis. The error names the constraint and why.
Expected<void> checkConstraints(const Constraints& constraints, const ir::ComputeDAG& dag);

// Judges states against one task's constraints. Copies share one cache (which loop each split step splits, by the
// loops' structure: a state's split steps are resolved by replaying its steps once per structure, not once per state),
// so a policy's pool threads may use it at once.
class ConstraintChecker {
public:
    ConstraintChecker(const ir::ComputeDAG& dag, Constraints constraints);

    const Constraints& constraints() const { return m_constraints; }
    // The first constraint `state` breaks, for people ("split conv2d.ff innermost is 8, not = 16"); std::nullopt when
    // it breaks none. Unfilled split lengths (a sketch) break nothing.
    std::optional<std::string> violation(const sched::State& state) const;
    bool satisfies(const sched::State& state) const { return m_constraints.empty() || !violation(state); }

private:
    struct Cache;
    const ir::ComputeDAG* m_dag;
    Constraints m_constraints;
    std::shared_ptr<Cache> m_cache;
};

// One state, without a checker's cache.
std::optional<std::string> violation(
    const Constraints& constraints, const ir::ComputeDAG& dag, const sched::State& state);
// Whether a sketch can lead to states that satisfy the sketch rules (forbid / require); the other constraints are
// judged on its annotated states.
bool sketchAllowed(const Constraints& constraints, const sched::State& sketch);
// The sketch rule that rules a sketch out, for people ("has rfactor, which is forbidden"); std::nullopt when
// sketchAllowed.
std::optional<std::string> sketchRuleViolation(const Constraints& constraints, const sched::State& sketch);

// --- the file

struct TaskIdentity {
    std::string name;
    std::string workloadKey;
};

// Each task's constraints from a constraints file (the entries that select it, merged in order; a later entry's
// bound replaces an earlier one's). An entry that selects no task, an unknown member or a constraint that does not
// fit a task it selects is an error naming the entry.
Expected<std::vector<Constraints>> constraintsForTasks(
    const std::string& fileText, std::span<const TaskIdentity> tasks, std::span<const ir::ComputeDAG* const> dags);
// The file form of some tasks' constraints, one entry per task with constraints, selected by workload key.
std::string constraintsFile(std::span<const TaskIdentity> tasks, std::span<const Constraints> constraints);

} // namespace ts::search
