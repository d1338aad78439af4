// Steps as schedule calls, the way a person would write them against TE:
//   s[matmul].split(i, [2, 1, 4]) -> i.0, i.1, i.2, i.3
//   s[matmul].split(j, [?, ?, 8]) -> j.0, j.1, j.2, j.3      (a sketch: "?" where a length is unfilled)
//   s[matmul].compute_at(s[out], j.1)
// Printing replays the steps so that iterators print by name; a step that fails to apply is printed
// with its error and ends the listing.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/step.h"

#include <string>
#include <vector>

namespace ts::sched {

std::string printStepsAsCalls(const ir::ComputeDAG& dag, const std::vector<Step>& steps);

} // namespace ts::sched
