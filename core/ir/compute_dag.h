// ComputeDAG: the ops of one tuning task in topological order, with the analyses every later stage uses.
//
// Built from a list of tensors (its inputs and outputs, as TVM's auto_scheduler.ComputeDAG takes them), the
// DAG orders its ops exactly as TVM's TopoSortOps does, so that stage ids in TVM records mean the same
// stages here (matmul_add: A, B, matmul, C, out). It counts FLOPs as TVM's FlopEstimator does (float
// arithmetic of the op's dtype, a multiply-add is 2, reductions multiply by their trip count, loads,
// index arithmetic and math calls themselves are free), and hashes a name-independent canonical text into a
// workload key, so two tasks with the same computation on the same shapes share one key.
#pragma once

#include "core/ir/access_analyzer.h"
#include "core/ir/operation.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ts::ir {

class ComputeDAG {
public:
    // `tensors`: the placeholders and outputs of the computation; every op reachable from them is included.
    static ComputeDAG create(const std::vector<Tensor>& tensors);

    const std::vector<Tensor>& tensors() const { return m_tensors; }
    // All ops, placeholders included, in TVM's topological order. An op's index here is its stage id.
    const std::vector<Tensor>& ops() const { return m_ops; }
    int numOps() const { return static_cast<int>(m_ops.size()); }
    const Operation& op(int index) const { return *m_ops.at(static_cast<size_t>(index)); }
    // Stage id of an op, or -1.
    int indexOf(const Operation* op) const;
    // Ops that read op `index` / that op `index` reads, by stage id, ascending.
    const std::vector<int>& consumers(int index) const { return m_consumers.at(static_cast<size_t>(index)); }
    const std::vector<int>& producers(int index) const { return m_producers.at(static_cast<size_t>(index)); }
    // Compute ops that nothing reads.
    std::vector<int> outputs() const;
    std::vector<int> placeholders() const;

    const AccessAnalyzer& access() const { return m_access; }

    double flopCount() const { return m_flops; }
    double multiplyAccumulateCount() const;
    // Bytes of the DAG's inputs (placeholders) and of its outputs: the minimum traffic of any schedule.
    int64_t bytesRead() const;
    int64_t bytesWritten() const;

    // Name-independent text: tensors print as T<stage id>, axis vars as i<n> / r<n>, with shapes, dtypes
    // and reducers (not tags or names). Equal computations give equal text.
    std::string canonicalText() const;
    // 16 hex digits of a 64-bit FNV-1a hash of canonicalText().
    const std::string& workloadKey() const { return m_workloadKey; }

    // People's text, one op a line, with real names ("matmul[i, j] += A[i, k]*B[k, j]").
    std::string toString() const;

private:
    std::vector<Tensor> m_tensors;
    std::vector<Tensor> m_ops;
    std::unordered_map<const Operation*, int> m_stageOf; // op -> stage id, for indexOf
    std::vector<std::vector<int>> m_consumers;
    std::vector<std::vector<int>> m_producers;
    AccessAnalyzer m_access;
    double m_flops = 0.0;
    std::string m_workloadKey;
};

// FLOPs of one op per TVM's FlopEstimator rules (see the header comment).
double flopCount(const Operation& op);
// Multiply-accumulates of a sum reduction over a product (conv, dense, matmul); 0 for other ops. This is
// what published "MACs" of a network count.
double multiplyAccumulateCount(const Operation& op);

} // namespace ts::ir
