// The oracle for whole networks: every node of a Graph evaluated with the reference evaluator
// (ir::evaluate), in node order, on the graph's own parameter values (seeded random ones where the graph
// gives only shapes, as the built-in networks do). Slow by design (an interpreter in double precision);
// what compiled networks and ONNX importers are checked against.
#pragma once

#include "core/graph/graph.h"
#include "core/ir/reference_evaluator.h"

#include <vector>

namespace ts::graph {

// `inputs`: one buffer per Input node, in node order. Returns one buffer per node (inputs and constants
// included). Parameters without values are filled with ir::fillRandomInput(seed, node id * 16 + parameter).
Expected<std::vector<ir::Buffer>> evaluateGraph(
    const Graph& graph, const std::vector<ir::Buffer>& inputs, uint64_t seed = 1);

} // namespace ts::graph
