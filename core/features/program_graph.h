// GTuner's input (DAC'22; paper only, ../shared/reference/tuning-systems.md 1.6): the program as a graph whose
// nodes are the compute DAG's operations and whose edges join each operation to its inputs, with the
// statistics of the code the schedule made for each node.
//
// A node's features are kNodeFeatures values:
//   - kNodeStatic describing the operation, the same for every program of a task: kind one-hot (placeholder,
//     compute, compute with a reduction), log2(1 + d) of up to six output dimensions, log2(1 + elements),
//     spatial and reduction axis counts, log2(1 + the reduction's extent), reducer one-hot (sum, max/min), the
//     access analysis predicates (simple access, strictly inlinable, needs multi-level tiling, output), and
//     log2(1 + consumers), log2(1 + producers);
//   - then the sum of the per-store feature rows (per_store_features.h) of the buffers the schedule made for
//     it (the operation's own buffer and its cache stages "C.local", ...); zero for an inlined operation or a
//     placeholder. This is what makes two programs of one task two different graphs.
#pragma once

#include "core/features/per_store_features.h"
#include "core/ir/compute_dag.h"

#include <string>
#include <utility>
#include <vector>

namespace ts::features {

inline constexpr int kNodeStatic = 21;
inline constexpr int kNodeFeatures = kNodeStatic + kPerStoreFeatures;

struct ProgramGraph {
    int nodes = 0;
    std::vector<float> x; // nodes x kNodeFeatures, row-major
    std::vector<std::pair<int, int>> edges; // (producer, consumer), each once
};

// The kNodeFeatures column names: "op.placeholder", ..., "producers", then "stats." + Ansor's per-store names.
const std::vector<std::string>& nodeFeatureNames();

// The graph of `dag` with the rows of one of its programs (null: no schedule statistics, zeros).
ProgramGraph programGraph(const ir::ComputeDAG& dag, const ProgramFeatures* rows);

} // namespace ts::features
