// AutoTVM's tuner interface: a tuner proposes config indices of a ConfigSpace and is told how they measured.
//
// Re-created from TVM v0.19.0 python/tvm/autotvm/tuner/tuner.py (next_batch / update / has_next). A tuner never
// measures: the caller measures the proposed indices and calls update() with one GFLOP/s-like throughput per
// index (0 for a failed or invalid config, as TVM scores an error_no != 0). The tune() loop, early stopping and
// callbacks of TVM's Tuner.tune belong to the caller. Every tuner here is deterministic for its seed and never
// proposes the same index twice.
//
// How to add a tuner: derive from Tuner, keep its own Rng (seeded in the constructor), implement the three
// methods below, and add a "visits each index at most once" and a fixed-seed case to autotvm_tuner_test.
#pragma once

#include <cstdint>
#include <vector>

namespace ts::autotvm {

class Tuner {
public:
    virtual ~Tuner() = default;

    // Up to batchSize not yet proposed indices; fewer (possibly none) when the tuner has no more to give
    // before it is told results (GATuner waits for its generation's scores).
    virtual std::vector<int64_t> nextBatch(int batchSize) = 0;
    // Results of proposed indices, in any grouping; flopsPerSecond[i] belongs to indices[i], 0 = failed.
    virtual void update(const std::vector<int64_t>& indices, const std::vector<double>& flopsPerSecond) = 0;
    // Whether some index is still to be proposed.
    virtual bool hasNext() const = 0;
};

} // namespace ts::autotvm
