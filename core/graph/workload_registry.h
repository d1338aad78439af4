// Workloads by name, as TVM's auto_scheduler registers them (register_workload): a function name and its
// arguments rebuild the same compute DAG here, so records keyed by such workloads ("matmul_add", 1024,
// 1024, 1024, "float32") replay on the real task.
//   matmul_add N L M   TVM's tutorial workload: A[N,L] x B[L,M] + C[N,M]
//   matmul N L M       A[N,L] x B[L,M]
// How to add one: a case in buildWorkload and a line above.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/support/error.h"

#include <string>
#include <vector>

namespace ts::graph {

struct WorkloadKey {
    std::string name;
    std::vector<int64_t> args;
    std::string dtype = "float32";
};

// Parses a TVM workload key, the JSON text ["matmul_add", 1024, 1024, 1024, "float32"].
Expected<WorkloadKey> parseWorkloadKey(const std::string& text);
// Parses the CLI's short form "matmul_add:1024,1024,1024".
Expected<WorkloadKey> parseWorkloadSpec(const std::string& text);
Expected<ir::ComputeDAG> buildWorkload(const WorkloadKey& key);

} // namespace ts::graph
