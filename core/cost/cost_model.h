// The cost-model interface the search ranks candidates with (DESIGN: core/cost), and its registry.
//
// A model learns from measured states (update) and scores unmeasured ones (predict): higher is better, as
// Ansor's models score normalized throughput. It names itself (kind, settings as JSON), and saves and loads
// its weights as bytes the store keeps in cost_models.weights. Search never knows which model it holds.
//
// Threads: a model is used from one thread at a time (the search calls predict from its own thread, and
// may split a batch over its workers itself). Every random choice a model makes comes from the seed it was
// made with, so the same seed and the same calls give the same scores.
//
// How to add a model: a class deriving from CostModel in its own file here (core/cost/<kind>_model.cpp),
// a line in the registry table in cost_model.cpp (kind, one-line description, factory; a LibTorch model: a
// line in neural_models.cpp's table instead, and its network in neural_network.cpp), a paragraph in
// docs/search.md ("Cost models: how to add one"), and tests that it learns (a test that can fail: ranks a held-out set
// better than chance) and round-trips through save/load.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/record/measure_result.h"
#include "core/schedule/state.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ts::cost {

// The task a batch of states belongs to: its DAG and an identity that is the same across sessions (the
// workload key the store files it under).
struct CostTask {
    const ir::ComputeDAG* dag = nullptr;
    std::string key;
    double flops = 0.0;
    target::Target target = target::Target::host(); // what the states are lowered for (features read it)
    // The measured kernels read their weights packed (layout rewrite): the analytical estimate reads that
    // layout too; the learned models' features stay Ansor's (the DAG's layout).
    bool packsWeights = false;
};

class CostModel {
public:
    virtual ~CostModel() = default;

    // "random", "xgboost", ...
    virtual std::string kind() const = 0;
    // The model's settings as a JSON object (what the store keeps in cost_models.settings).
    virtual std::string settings() const { return "{}"; }

    // Learns from states measured on `task`; results[i] belongs to states[i] (failures included: a model
    // decides what a failure teaches it).
    virtual Expected<void> update(
        const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
        = 0;
    // Offline training on a whole dataset (tunescope-cli train): every task's measured states at once. The
    // default feeds update() batch by batch; a model that retrains from scratch overrides it to train once.
    struct Batch {
        CostTask task;
        std::vector<sched::State> states;
        std::vector<record::MeasureResult> results;
        // Records of a task TuneScope cannot rebuild (task.dag is null, states empty): their steps, one per
        // result. Only a model that readsStepsOnly() learns from them; the others skip such a batch.
        std::vector<std::vector<sched::Step>> steps;
    };
    virtual Expected<void> fit(std::span<const Batch> batches)
    {
        for (const Batch& b : batches)
            TS_CHECK(update(b.task, b.states, b.results));
        return {};
    }
    // Whether the model reads nothing but the steps (TLP): it can then learn from and score records whose task
    // cannot be rebuilt (fit's steps batches, predictSteps).
    virtual bool readsStepsOnly() const { return false; }
    // One score per step list, for such records; -infinity each where the model needs states (the default).
    virtual std::vector<double> predictSteps(const CostTask& task, std::span<const std::vector<sched::Step>> steps)
    {
        (void)task;
        return std::vector<double>(steps.size(), -std::numeric_limits<double>::infinity());
    }
    // One score per state, higher is better. A state the model cannot score gets -infinity.
    virtual std::vector<double> predict(const CostTask& task, std::span<const sched::State> states) = 0;
    // Per-stage scores where the model has them (Ansor's predict_stages); empty otherwise.
    virtual std::vector<std::vector<double>> predictStages(const CostTask& task, std::span<const sched::State> states)
    {
        (void)task;
        (void)states;
        return {};
    }

    // Progress of the training fit() and update() do, for models that report it (the neural ones, per epoch):
    // called with the fraction done and the latest loss; returning false stops the training, and the model
    // keeps what it learned so far. Called on the thread that trains.
    using TrainingProgress = std::function<bool(double fraction, double loss)>;
    virtual void setTrainingProgress(TrainingProgress progress) { (void)progress; }

    // What the last training did, as a JSON object (rounds, loss, seconds, samples; "{}" when nothing).
    virtual std::string trainingSummary() const { return "{}"; }

    // Weights as bytes, and back. A model without weights saves its RNG position, so that a resumed session
    // continues its stream.
    virtual Expected<std::vector<uint8_t>> save() const = 0;
    virtual Expected<void> load(std::span<const uint8_t> bytes) = 0;
    // Measured records seen so far (Ansor's warm-up counts them).
    virtual int64_t trainedOn() const = 0;
    // Records to see before predictions stop being random (Ansor's num_warmup_sample; its task scheduler sets
    // tasks x measures per round). Models without a warm-up ignore it.
    virtual void setWarmupSamples(int samples) { (void)samples; }
    // Whether the model is in that warm-up now: a learned model that has not trained yet, whose predict()
    // gives random scores (the search then ranks by the analytical estimate: SearchParams::analyticalWarmup).
    // Models that learn nothing (random, analytical) are never warming up.
    virtual bool warmingUp() const { return false; }
};

struct CostModelKind {
    std::string kind;
    std::string description;
};

// The registered kinds, in the order the CLI lists them.
std::vector<CostModelKind> costModelKinds();
// Adds kinds to the registry (a kind already there is replaced). The neural models live in a library of their
// own (ts::cost_neural, the only one that links LibTorch) and register themselves with registerNeuralModels()
// (neural_models.h), which the programs that offer them call once at start.
using CostModelFactory = std::function<std::unique_ptr<CostModel>(uint64_t seed)>;
void registerCostModel(CostModelKind kind, CostModelFactory make);
// A new model of `kind` seeded with `seed`, or InvalidArgument naming the kinds there are.
Expected<std::unique_ptr<CostModel>> makeCostModel(const std::string& kind, uint64_t seed);
// Whether `kind` is registered (makeCostModel's error when not), without making a model.
Expected<void> checkCostModelKind(const std::string& kind);

} // namespace ts::cost
