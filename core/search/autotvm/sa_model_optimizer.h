// AutoTVM's SimulatedAnnealingOptimizer: finds the configs a score function (a cost model) rates highest.
//
// Re-created from TVM v0.19.0 python/tvm/autotvm/tuner/sa_model_optimizer.py. parallelSize walkers (at most the
// space's size) start at distinct random indices, or where the previous call left them (persistent). Each
// iteration moves every walker by randomWalk, scores all moves in one batch, and accepts a move with
// probability exp(min((new - old) / (t + 1e-5), 1)). The temperature falls linearly from tempStart by
// (tempStart - tempEnd) / (nIter + 1) per iteration. A min-heap keeps the best `num` distinct indices seen that
// are not excluded (ties broken by the smaller index, as Python's tuple heap); the walk stops after nIter
// iterations or earlyStop iterations without a heap change. Returns them best first.
// Deviation: TVM drops heap entries with score < 0 (its models score >= 0); here only the slots never filled
// are dropped, so a score function may be negative. earlyStop is 50 as in v0.19.0 (older versions: 30).
#pragma once

#include "core/support/rng.h"

#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

namespace ts::autotvm {

class ConfigSpace;

// Scores a batch of indices, one score per index, higher is better (a cost model's predict).
using ScoreFunction = std::function<std::vector<double>(const std::vector<int64_t>&)>;

// TVM's ConfigSpace.random_walk: the index with one knob changed to a different random entity. Returns
// point itself only when every knob has a single entity.
int64_t randomWalk(const ConfigSpace& space, int64_t point, Rng& rng);

struct SaOptions {
    int nIter = 500;
    double tempStart = 1.0;
    double tempEnd = 0.0;
    bool persistent = true;
    int parallelSize = 128;
    int earlyStop = 50; // 0: no early stop
};

class SimulatedAnnealingOptimizer {
public:
    // Keeps a pointer to space, which must outlive the optimizer.
    SimulatedAnnealingOptimizer(const ConfigSpace& space, uint64_t seed, SaOptions options = {});

    // The best (up to) num distinct indices not in exclusive, best first.
    std::vector<int64_t> findMaximums(
        const ScoreFunction& score, int num, const std::unordered_set<int64_t>& exclusive);

    // Iterations the last findMaximums ran.
    int lastIterations() const { return m_lastIterations; }

private:
    const ConfigSpace* m_space;
    Rng m_rng;
    SaOptions m_options;
    std::vector<int64_t> m_points; // the walkers, kept between calls when persistent
    int m_lastIterations = 0;
};

} // namespace ts::autotvm
