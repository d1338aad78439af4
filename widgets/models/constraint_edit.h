// One task's search::Constraints edited one constraint at a time, as the Steering dock does (issue 41,
// docs/steering.md): the dock lists Constraints::describe(), one line per constraint; "Remove" takes out the
// constraint of a line, "Add constraint…" merges one in. And what a split constraint can name on a task: the
// stages of its initial state (by op name) and their loops (by axis name), as the engine resolves them. Plain C++.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/search/constraints.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::models {

// Without the constraint on line `index` of constraints.describe(); unchanged when there is no such line.
search::Constraints withoutConstraint(const search::Constraints& constraints, int index);

// With `added` merged in, as a person adding one means it: a split of the same stage, loop and part takes the new
// bound, as does the unroll, vector length or parallel bound `added` gives; a sketch rule forbidden is no longer
// required, and the other way round.
search::Constraints withConstraint(const search::Constraints& constraints, const search::Constraints& added);

// A loop a split constraint may bound, and its extent (-1 when the DAG does not say).
struct SplitLoop {
    std::string name;
    int64_t extent = -1;
};
struct SplitStage {
    std::string name; // the op's
    std::vector<SplitLoop> loops; // spatial, then reduce
};
// The DAG's compute stages (its initial state's, placeholders left out), in stage order.
std::vector<SplitStage> splitStages(const ir::ComputeDAG& dag);

// The divisors of `extent` in ascending order (none for extent < 1): the factors a split of it can pin.
std::vector<int64_t> divisors(int64_t extent);

} // namespace ts::models
