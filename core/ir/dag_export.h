// The forms a DAG is shown and exchanged in: Graphviz DOT (for `dot -Tsvg`), JSON (for tools), text.
#pragma once

#include "core/ir/compute_dag.h"

#include <string>

namespace ts::ir {

// One node per op (placeholders as ellipses, compute ops as boxes with shape and expression), an edge per
// producer/consumer pair.
std::string toDot(const ComputeDAG& dag, const std::string& graphName = "dag");
// {"workload_key", "flops", "bytes_read", "bytes_written", "ops": [{"id", "name", "kind", "tag", "shape",
// "dtype", "reducer", "axes", "reduce_axes", "body", "inputs", "consumers", "analysis": {...}}]}
std::string toJson(const ComputeDAG& dag, int indent = 2);
// Short per-op analysis line: "MLT inline=no output" etc., as the CLI prints it.
std::string analysisSummary(const ComputeDAG& dag, int op);

} // namespace ts::ir
