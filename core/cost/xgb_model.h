// XgbCostModel: Ansor's XGBoost cost model (python/tvm/auto_scheduler/cost_model/xgb_model.py,
// ../shared/reference/tuning-systems.md 1.3.6), kind "xgb".
//
// - Features: Ansor's 164 per-store features (core/features), one row per stored buffer; a program's score is
//   the sum of its rows' scores (pack-sum, PackSumBooster in xgb_booster.h).
// - update(): keeps every measured state with its features (extracted once) and cost, and retrains from
//   scratch on everything it holds, labels = the task's best cost / cost (failures: 0), sample weight = label.
//   Adaptive training, as Ansor since PR #7197: no retraining until the data grew by a fifth since the last
//   training. Training runs on the booster's own thread; update() waits for it.
// - predict(): uniform random scores until more than num_warmup_sample records were seen (Ansor's warm-up;
//   the session sets it to tasks x measures per round, as Ansor's task scheduler does); then the booster's
//   pack sums. A model loaded with a trained booster predicts with it at once (Ansor's would predict at random
//   until it saw num_warmup_sample records itself). A state that does not lower scores -infinity.
// - predictStages(): the per-row scores of each state (Ansor's predict_stages), in row order; rowBuffers
//   (featuresOf) names the stage each row stores to.
// - save()/load(): the booster (its own checksummed header) behind a small header of this model's counters.
//   Training data is not saved: a resumed session updates the model from the records the store holds.
#pragma once

#include "core/cost/cost_model.h"
#include "core/cost/xgb_booster.h"
#include "core/features/per_store_features.h"
#include "core/support/rng.h"

#include <map>
#include <memory>

namespace ts {
class ThreadPool;
}

namespace ts::cost {

struct XgbModelSettings {
    PackSumSettings booster;
    int numWarmupSample = 100; // Ansor's default for a single task
    bool adaptiveTraining = true;
};

class XgbCostModel final : public CostModel {
public:
    explicit XgbCostModel(uint64_t seed, XgbModelSettings settings = {});
    ~XgbCostModel() override;

    std::string kind() const override { return m_settings.booster.objective == "pack-sum-rank" ? "xgb-rank" : "xgb"; }
    std::string settings() const override;
    std::string trainingSummary() const override;
    void setWarmupSamples(int samples) override { m_settings.numWarmupSample = samples; }
    bool warmingUp() const override;

    Expected<void> update(const CostTask& task, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results) override;
    Expected<void> fit(std::span<const Batch> batches) override;
    std::vector<double> predict(const CostTask& task, std::span<const sched::State> states) override;
    std::vector<std::vector<double>> predictStages(const CostTask& task, std::span<const sched::State> states) override;

    Expected<std::vector<uint8_t>> save() const override;
    Expected<void> load(std::span<const uint8_t> bytes) override;
    int64_t trainedOn() const override { return m_seen; }

    // Trains now on everything held (update() decides when on its own). Statistics of the training.
    Expected<PackSumTrainStats> train();
    const PackSumBooster& booster() const { return m_booster; }
    int64_t lastTrainSize() const { return m_lastTrainSize; }
    const PackSumTrainStats& lastTraining() const { return m_lastStats; }

private:
    struct Sample {
        features::ProgramFeatures features;
        double cost = 0.0; // seconds; infinity for a failed measurement
    };
    // Keeps the states' features and costs; no training.
    void add(
        const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results);
    // Feature extraction runs on this pool (nthread threads), made when first needed.
    ThreadPool& pool();

    XgbModelSettings m_settings;
    Rng m_rng;
    PackSumBooster m_booster;
    std::unique_ptr<ThreadPool> m_pool;
    std::map<std::string, std::vector<Sample>> m_samples; // by task key
    int64_t m_seen = 0; // records given to update()
    int64_t m_held = 0; // of them, those with features
    int64_t m_lastTrainSize = 0;
    PackSumTrainStats m_lastStats;
    bool m_loadedTrained = false; // load() brought a trained booster: no warm-up
};

} // namespace ts::cost
