// AnalyticalCostModel, kind "analytical": a roofline estimate of a program's run time from Ansor's per-store
// features, with nothing learned. The search uses it alone (`--model analytical`) or as a pre-filter in front
// of a learned model (SearchParams::prefilterKeep, `tune --prefilter F`): each population is ranked by this
// estimate first and only its best fraction is scored by the learned model, the rest are dropped (Pruner,
// ASPLOS'25, drafts candidates with a symbolic estimate the same way). During a learned model's warm-up,
// when its scores are random, the pre-filter is what keeps obviously slow programs out of the measured batch.
//
// Per stored buffer (feature row), with the row's loop counts undone from log2(x + 1):
//   compute = float ops / (peak per core x vector efficiency x cores used x load balance)
//     vector efficiency: the innermost vectorized extent over the vector lanes (1 / lanes when none);
//     cores used: the parallel loops' product up to the core count; balance: iterations per core evened out.
//   memory  = sum over the five buffers of cache lines x 64 bytes at the bandwidth of the cache level its reuse
//             distance fits in (L1, L2, L3, DRAM), plus its unique bytes from DRAM; a buffer reused across a loop
//             whose inner loops touch no more than the vector register file (an accumulator tile, a hoisted
//             weight vector) reaches the L1 once per reuse: its lines are divided by the reuse count
//   time    = sum over rows of max(compute, memory); score = 1 / time.
// The machine limits are typical per-core figures of the x86 servers TuneScope runs on (two FMA units per core,
// 48 KiB L1, 1 MiB L2, 16 MiB L3; machine_limits.h); the target gives the vector width and the core count. A
// session on a machine whose profile the workspace holds (`tunescope-cli machine`) estimates with the measured
// figures instead (engine::limitsOf).
#pragma once

#include "core/cost/cost_model.h"
#include "core/cost/machine_limits.h"
#include "core/features/per_store_features.h"

#include <memory>

namespace ts {
class ThreadPool;
}

namespace ts::cost {

class AnalyticalCostModel final : public CostModel {
public:
    // Features are extracted on `pool` when given (the search's own, as a pre-filter), else on a pool of its own.
    explicit AnalyticalCostModel(MachineLimits limits = {}, ThreadPool* pool = nullptr);
    ~AnalyticalCostModel() override;

    std::string kind() const override { return "analytical"; }
    std::string settings() const override;
    Expected<void> update(const CostTask& task, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results) override;
    std::vector<double> predict(const CostTask& task, std::span<const sched::State> states) override;
    Expected<std::vector<uint8_t>> save() const override;
    Expected<void> load(std::span<const uint8_t> bytes) override;
    int64_t trainedOn() const override { return m_seen; }

    void setLimits(const MachineLimits& limits) { m_limits = limits; }

    // The estimated seconds of one program from its feature rows.
    double estimateSeconds(const features::ProgramFeatures& program, const target::Target& target) const;

    // The same estimate, term by term, for people (`tunescope-cli lower --estimate`): per row, its float ops,
    // the compute term and its factors, each buffer's memory term and the level its reuse distance fits in.
    struct RowEstimate {
        std::string store; // the buffer the row stores to
        double ops = 0, vecLen = 0, vecEfficiency = 0, coresUsed = 0, balance = 0, compute = 0;
        struct Buffer {
            double lines = 0, reuseBytes = 0, uniqueBytes = 0, seconds = 0;
            const char* level = ""; // "L1", "L2", "L3", "DRAM"
            bool inRegisters = false; // reused in registers: `lines` are the accesses that reach the L1
        };
        std::vector<Buffer> buffers; // in the features' order (B0..B4), those with lines only
        double memory = 0, seconds = 0; // seconds = max(compute, memory)
    };
    std::vector<RowEstimate> explain(const features::ProgramFeatures& program, const target::Target& target) const;

private:
    MachineLimits m_limits;
    ThreadPool* m_pool = nullptr;
    std::unique_ptr<ThreadPool> m_ownPool;
    int64_t m_seen = 0;
};

} // namespace ts::cost
