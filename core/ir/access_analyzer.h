// Static access analysis of a DAG's ops, as Ansor's AccessAnalyzer (compute_dag.cc) defines it.
// The sketch rules of the search are decided by these predicates:
//   isSimpleAccess       every read index of every input is a constant or an axis var +- a constant
//   isStrictInlinable    simple access, in axis order without duplicates, no exp, no select (a branch)
//   needsMultiLevelTiling  at least two inputs miss an output axis of extent > 1, or one does and the op
//                        reduces (data reuse: matmul, conv2d)
//   isOutput             nothing reads it
//   elementWiseMatch     a chain of single consumers with the same output shape, each reading element-wise
//   numCommonOuterIterators  leading output axes shared injectively along every path between two ops
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts::ir {

class ComputeDAG;

class AccessAnalyzer {
public:
    AccessAnalyzer() = default;
    explicit AccessAnalyzer(const ComputeDAG& dag);

    bool isSimpleAccess(int op) const { return m_isSimpleAccess.at(static_cast<size_t>(op)); }
    bool isStrictInlinable(int op) const { return m_isStrictInlinable.at(static_cast<size_t>(op)); }
    bool needsMultiLevelTiling(int op) const { return m_needsMultiLevelTiling.at(static_cast<size_t>(op)); }
    bool isOutput(int op) const { return m_isOutput.at(static_cast<size_t>(op)); }
    // Leading axes that `op` and `target` share along every producer/consumer path from op to target
    // (0 when target is not reachable from op).
    int numCommonOuterIterators(int op, int target) const;
    bool elementWiseMatch(int op, int target) const;
    // The single consumer that op element-wise matches, or -1 (Ansor's HasSingleElementwiseMatchedConsumer,
    // before any inlining).
    int singleElementwiseMatchedConsumer(int op) const;

private:
    std::vector<std::vector<int>> m_consumers;
    std::vector<std::vector<int64_t>> m_shapes;
    std::vector<bool> m_isCompute;
    // m_elementwiseRead[consumer][producer]: every read of producer in consumer is a simple access with
    // each axis once and in order.
    std::vector<std::vector<bool>> m_elementwiseRead;
    std::vector<bool> m_isSimpleAccess;
    std::vector<bool> m_isStrictInlinable;
    std::vector<bool> m_needsMultiLevelTiling;
    std::vector<bool> m_isOutput;
    // m_commonOuter[a][b] for a producer/consumer pair (symmetric), -1 where not adjacent.
    std::vector<std::vector<int>> m_commonOuter;
};

} // namespace ts::ir
