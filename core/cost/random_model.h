// RandomCostModel: Ansor's RandomModel (python/tvm/auto_scheduler/cost_model/cost_model.py), the "random"
// kind. Private to core/cost; the search reaches it through makeCostModel("random", seed).
//
// predict draws one uniform score in [0, 1) per state from an Rng seeded with the model's seed; update only
// counts the records it is given. save() writes the Rng position and the count, so a model loaded from it
// continues the same stream of scores.
#pragma once

#include "core/cost/cost_model.h"
#include "core/support/rng.h"

namespace ts::cost {

class RandomCostModel final : public CostModel {
public:
    explicit RandomCostModel(uint64_t seed);

    std::string kind() const override { return "random"; }
    std::string settings() const override;

    Expected<void> update(const CostTask& task, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results) override;
    std::vector<double> predict(const CostTask& task, std::span<const sched::State> states) override;

    Expected<std::vector<uint8_t>> save() const override;
    Expected<void> load(std::span<const uint8_t> bytes) override;
    int64_t trainedOn() const override { return m_trainedOn; }

private:
    uint64_t m_seed;
    Rng m_rng;
    int64_t m_trainedOn = 0;
};

} // namespace ts::cost
