// The oracle for whole networks: every node of a Graph evaluated with the reference evaluator
// (ir::evaluate), in node order, on the graph's own parameter values (seeded random ones where the graph
// gives only shapes, as the built-in networks do). Slow by design (an interpreter in double precision);
// what compiled networks and ONNX importers are checked against.
#pragma once

#include "core/graph/graph.h"
#include "core/ir/reference_evaluator.h"

#include <optional>
#include <vector>

namespace ts::graph {

// The ordinal for ir::fillRandomInput of parameter `param` of node `node`, where the graph gives no value: every
// runner of a graph (this evaluator, the graph executor, an exported library) fills the same values.
inline int parameterOrdinal(int node, int param) { return node * 16 + param; }

// The value of parameter `param` of node `id` where the graph gives none (the built-in networks), of `shape`:
// ir::fillRandomInput(seed, parameterOrdinal(id, param)), uniform in [-1, 1), with a convolution's or dense layer's
// weight scaled to He's uniform bound sqrt(6 / fan-in). Scaled so, activations keep their magnitude through a
// deep network without batch norm, and two float32 implementations of it (the executor, LibTorch) agree on its
// output; unscaled, MobileNet-V2's activations reach hundreds before each ReLU6 and float32 rounding decides the
// output. Every runner of a graph fills its parameters here.
ir::Buffer seededParameter(const Node& node, int id, int param, const std::vector<int64_t>& shape, uint64_t seed);

// One node on known values, one buffer per node input. Parameters come from Node::params; those it has no value
// for are filled with seededParameter(node, id, p, shape, *seed) when a seed is given, and are an
// Unsupported error without one.
Expected<ir::Buffer> evaluateNode(const Node& node, const std::vector<const ir::Buffer*>& inputs,
    std::optional<uint64_t> seed = std::nullopt, int id = 0);

// Whether `inputs` has a value of the right shape for every Input node, in node order (extra values are ignored);
// the error names the input. What every runner of a graph checks before it runs.
Expected<void> checkInputs(const Graph& graph, const std::vector<ir::Buffer>& inputs);

// `inputs`: one buffer per Input node, in node order. Returns one buffer per node (inputs and constants
// included). Parameters without values are seeded random values (evaluateNode).
Expected<std::vector<ir::Buffer>> evaluateGraph(
    const Graph& graph, const std::vector<ir::Buffer>& inputs, uint64_t seed = 1);

} // namespace ts::graph
