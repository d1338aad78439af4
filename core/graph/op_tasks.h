// Single-operator tuning tasks: one operator at a shape, as a graph::Task like those a network yields
// (name, fused ops, shapes text, DAG, weight 1, FLOPs), so that `tunescope-cli tune --op`, `sketches --op`
// and `best --op` treat it as a one-task network. Built with the ops builders (core/ops), whose errors
// (a window that does not fit, say) come back unchanged.
//
//   matmul        N,L,M                          A[N,L] x B[L,M]
//   dense         N,K,M                          data[N,K], weight[M,K]
//   batch_matmul  B,N,K,M                        A[B,N,K] x B[B,M,K]^T
//   conv2d        N,H,W,CI,CO,KH,KW,stride,pad   NCHW (weight OIHW) or NHWC (weight HWIO) by layout
//   depthwise     N,H,W,C,KH,KW,stride,pad       weight [C,1,KH,KW] (NCHW) or [KH,KW,C,1] (NHWC)
//
// Every value must be >= 1, except pad, >= 0; padding is symmetric, stride the same along H and W.
// How to add an operator: a row in kOperators (op_tasks.cpp) with its builder, a line above, a test in
// tests/core/graph_test.cpp, and a line in docs/user-guide.md ("Tuning").
#pragma once

#include "core/graph/task_extraction.h"
#include "core/ops/conv.h"
#include "core/support/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::graph {

struct OperatorInfo {
    std::string name; // "conv2d"
    std::string shapeValues; // "N,H,W,CI,CO,KH,KW,stride,pad"
    std::string description; // for people
};

// The operators operatorTask builds, in the order above.
const std::vector<OperatorInfo>& operators();

// "64,64,64" -> {64, 64, 64}; an error names the value that is not an integer.
Expected<std::vector<int64_t>> parseShapeValues(const std::string& text);

// The task of `op` at `shape` (see the table above); `layout` matters to conv2d and depthwise only. Errors:
// an unknown op (listing the known ones), a wrong number of values (saying which the op takes), a value
// out of range, or the builder's error for an impossible shape.
Expected<Task> operatorTask(const std::string& op, const std::vector<int64_t>& shape, ops::Layout layout);

// The operator as a registered workload (workload_registry.h), so that a log line names it: "tunescope_dense",
// or with the layout of a convolution, "tunescope_conv2d_nhwc". Its arguments are the shape values.
std::string operatorWorkloadName(const std::string& op, ops::Layout layout);
// The task a workload named so builds from its arguments; std::nullopt when `name` is no such name.
std::optional<Expected<Task>> operatorTaskOfWorkload(const std::string& name, const std::vector<int64_t>& shape);

} // namespace ts::graph
