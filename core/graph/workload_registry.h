// Workloads by name, as TVM registers them: a function name (auto_scheduler's register_workload) or an
// AutoTVM template name, with arguments that name the shapes. The same name and arguments rebuild the same
// compute DAG here, so records keyed by such workloads replay on the real task.
//
// auto_scheduler keys, the JSON text ["name", args...]:
//   matmul_add N L M                 TVM's tutorial workload: A[N,L] x B[L,M] + C[N,M]
//   matmul N L M                     A[N,L] x B[L,M]
//   matmul_auto_scheduler_test N M K TVM's test workload: A[N,K] x B[K,M]
//   conv2d_layer N H W CO CI KH KW stride padding
//                                    TVM's GPU tutorial: relu(conv2d_nchw(data, kernel) + bias[1,CO,1,1])
//   tunescope_OP[_LAYOUT] values...  TuneScope's single operators (op_tasks.h), e.g. tunescope_dense N K M,
//                                    tunescope_conv2d_nhwc N H W CI CO KH KW stride pad: how `export` names
//                                    the operators `tune --op` tuned that are no TVM workload
// AutoTVM tasks, [task name, [args...]] with tensors as ["TENSOR", shape, dtype]:
//   conv2d_nchw*, conv2d_NCHWc*      (data NCHW, kernel OIHW, strides, padding, dilation, ...)
//   conv2d_nhwc*                     (data NHWC, kernel HWIO, strides, padding, dilation, ...)
//   dense*                           (data [N,K], weight [M,K], bias or null, ...)
// Any other name (a DAG hash, say) is a foreign workload: buildWorkload says so with ErrorKind::NotFound.
// How to add one: a case in buildWorkload and a line above.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/support/error.h"

#include <string>
#include <vector>

namespace ts::graph {

struct WorkloadArg {
    enum class Kind { Int, IntList, Tensor, Text, None };
    Kind kind = Kind::None;
    std::vector<int64_t> values; // Int: one value; IntList: the list; Tensor: the shape
    std::string text; // Text: the string; Tensor: the dtype
};

struct WorkloadKey {
    std::string name;
    std::vector<WorkloadArg> args;
    std::string dtype = "float32";
};

// Parses a TVM auto_scheduler workload key, the JSON text ["matmul_add", 1024, 1024, 1024, "float32"]. A
// trailing string argument is the dtype.
Expected<WorkloadKey> parseWorkloadKey(const std::string& text);
// Parses an AutoTVM task: its name and the JSON text of its argument list.
Expected<WorkloadKey> parseAutoTvmTask(const std::string& name, const std::string& argsJson);
// Parses the CLI's short form "matmul_add:1024,1024,1024".
Expected<WorkloadKey> parseWorkloadSpec(const std::string& text);
Expected<ir::ComputeDAG> buildWorkload(const WorkloadKey& key);

} // namespace ts::graph
