// NeuralCostModel: the LibTorch cost models (kinds mlp, lstm, tlp, mtl-tlp, atformer, gtuner and their
// ablations; the architectures are in neural_network.h, the papers in ../shared/reference/tuning-systems.md
// 1.5, 1.6). One class, because they differ only in what they read and in the network:
//
// - Inputs. Each kind reads some of: TLP's step tokens (step_tokens.h; no lowering, so the cheapest), Ansor's
//   per-store rows (lowering + features), GTuner's program graph (the rows attached to the DAG's operations).
//   A state whose rows do not extract (it does not lower) scores -infinity and is not trained on.
// - Labels. Per (task, device) group, the group's best cost / cost (TenSet's normalised throughput); a failed
//   measurement is 0. The LambdaRank loss (default) compares programs within a group only; MSE is the option.
// - fit() trains on a whole dataset: from fresh weights, or, when the model holds trained weights (loaded
//   from a file: pre-training), further from them: that is transfer (fine-tuning) to new data or a new device.
// - update() is the search's path: records accumulate; the first training runs once num_warmup_sample
//   records were seen (until then predict() is uniform random, as Ansor's XGBoost warm-up), and later ones
//   fine-tune for fineTuneEpochs once the data grew by a fifth. A model loaded with trained weights predicts
//   with them at once. TLP's authors use their model offline (update is a no-op there); settings can do that
//   (numWarmupSample < 0).
// - Devices. MTL-TLP keeps one head per device (the target's TVM string); a device it has not seen gets a new
//   head, a copy of the first, when it is trained on; predicting for an unknown device uses the first head.
// - save()/load(): magic, a JSON header (kind, settings, device heads, counters), then the network's weights.
// - Data-parallel training (setDataParallel; neural_model_parallel.cpp): fit() on N ranks, each given the same
//   batches in the same order. The k-th program of the fit (counting through the batches in order) belongs to
//   rank k mod N: only that rank extracts its inputs (lowering, features) and scores it; every rank keeps every
//   program's cost and group, so all build the same labels and the same seeded batches, and every rank takes
//   every step (a rank holding none of a batch's programs adds a zero gradient). A program whose features do not
//   extract is dropped on every rank. The network (neural_network.h) sums the gradients.
#pragma once

#include "core/cost/cost_model.h"
#include "core/cost/neural_network.h"
#include "core/support/rng.h"

#include <map>
#include <memory>

namespace ts {
class ThreadPool;
}

namespace ts::cost {
class DataParallelGroup;
}

namespace ts::cost {

class NeuralCostModel final : public CostModel {
public:
    NeuralCostModel(std::string kind, NeuralSettings settings, uint64_t seed);
    ~NeuralCostModel() override;

    std::string kind() const override { return m_kind; }
    std::string settings() const override { return m_settings.toJson(); }
    std::string trainingSummary() const override;
    void setWarmupSamples(int samples) override;
    bool warmingUp() const override { return !m_trained; }
    void setTrainingProgress(TrainingProgress progress) override { m_progress = std::move(progress); }

    Expected<void> update(const CostTask& task, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results) override;
    Expected<void> fit(std::span<const Batch> batches) override;
    std::vector<double> predict(const CostTask& task, std::span<const sched::State> states) override;
    bool readsStepsOnly() const override { return !readsRows(m_settings.arch) && !readsGraph(m_settings.arch); }
    std::vector<double> predictSteps(const CostTask& task, std::span<const std::vector<sched::Step>> steps) override;

    Expected<std::vector<uint8_t>> save() const override;
    Expected<void> load(std::span<const uint8_t> bytes) override;
    int64_t trainedOn() const override { return m_seen; }

    const NeuralSettings& neuralSettings() const { return m_settings; }
    bool trained() const { return m_trained; }
    int64_t parameters() const;
    const NeuralTrainStats& lastTraining() const { return m_lastStats; }
    // fit() trains data-parallel with `group` (every rank calls fit with the same batches); null: alone again,
    // which drops the programs other ranks held.
    void setDataParallel(std::shared_ptr<DataParallelGroup> group);
    // The inputs the network would read for these states (a failed extraction is an error), in order.
    std::vector<Expected<NeuralInput>> inputsOf(const CostTask& task, std::span<const sched::State> states);

private:
    struct Sample {
        NeuralInput input;
        double cost = 0.0; // seconds; infinity for a failure
        bool held = true; // false: data-parallel, another rank holds the input (only the cost is here)
    };
    int deviceHead(const CostTask& task, bool create);
    void add(
        const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results);
    void addSteps(const CostTask& task, std::span<const std::vector<sched::Step>> steps,
        std::span<const record::MeasureResult> results);
    std::vector<double> score(std::vector<NeuralInput>& inputs, const std::vector<bool>& present, int head);
    // Trains on every sample held. `transfer`: the network already learned elsewhere (fit on a loaded model):
    // a fifth of each task's samples is held out to pick the epoch to keep, starting weights included, and the
    // learning rate is a tenth of the settings', so few records cannot undo the pre-training.
    NeuralTrainStats trainOnHeld(int epochs, bool transfer = false);
    Expected<void> fitSharded(std::span<const Batch> batches);
    ThreadPool& pool();

    std::string m_kind;
    NeuralSettings m_settings;
    uint64_t m_seed = 0;
    Rng m_rng;
    std::unique_ptr<NeuralNetwork> m_network;
    std::unique_ptr<ThreadPool> m_pool;
    std::map<std::string, int> m_deviceHeads; // target string -> head
    std::map<std::string, std::vector<Sample>> m_samples; // by task key and device
    int64_t m_seen = 0;
    int64_t m_held = 0;
    int64_t m_lastTrainSize = 0;
    int m_trainings = 0;
    bool m_trained = false;
    NeuralTrainStats m_lastStats;
    TrainingProgress m_progress;
    std::shared_ptr<DataParallelGroup> m_group; // null: training alone
};

} // namespace ts::cost
