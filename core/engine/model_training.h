// Cost models against a dataset (core/store/dataset.h): train a model on some of its records, score others,
// and the metrics of those scores. What `tunescope-cli train` / `eval`, the benchmarks and the workbench's
// model comparison share.
//
// A record becomes a sample by replaying its steps on its task's DAG, lowered for its device's target.
// Records of tasks TuneScope cannot rebuild, and steps that no longer replay, are counted, never dropped
// silently. Samples are grouped per (task, device): a model normalises labels within such a group (Ansor
// divides by the task's best cost), so one device's fast programs do not rank another's.
#pragma once

#include "core/cost/cost_model.h"
#include "core/store/dataset.h"
#include "core/store/store.h"

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ts::engine {

// The target each device's records were measured for, from the store's device rows.
Expected<std::map<int64_t, target::Target>> deviceTargets(store::Store& store);

// Gives the tasks of `dataset` that have no DAG the DAG of a tuning session's task with the same key, rebuilt from
// the origin each session of the workspace keeps in its settings (an operator, or a network's tasks). So a
// workspace of ordinary tuning sessions is a dataset too, not only one `collect` filled. Returns the tasks that
// got a DAG. Sessions whose origin does not build are skipped.
Expected<int> attachSessionDags(store::Store& store, store::Dataset& dataset);

struct DatasetSamples {
    std::vector<cost::CostModel::Batch> batches; // one per (task, device)
    std::vector<std::vector<size_t>> records; // per batch: the dataset record of each state (or step list)
    int64_t withoutDag = 0; // records of tasks that cannot be rebuilt
    int64_t notReplayed = 0; // records whose steps do not replay on the task's DAG
    int64_t samples() const;
};

// The records `subset` (indices into dataset.records) as model batches. With `withSteps`, the records of tasks
// that cannot be rebuilt come as steps-only batches (Batch::steps) instead of being counted in withoutDag: for
// models that read steps alone (CostModel::readsStepsOnly).
DatasetSamples samplesOf(const store::Dataset& dataset, std::span<const size_t> subset,
    const std::map<int64_t, target::Target>& targets, bool withSteps = false);

struct TrainReport {
    int64_t samples = 0;
    int64_t tasks = 0; // (task, device) groups
    int64_t withoutDag = 0;
    int64_t notReplayed = 0;
    double seconds = 0.0;
};

// Trains `model` on `subset` (CostModel::fit).
Expected<TrainReport> trainOnDataset(cost::CostModel& model, const store::Dataset& dataset,
    std::span<const size_t> subset, const std::map<int64_t, target::Target>& targets);

struct EvalReport {
    store::MetricsSummary metrics; // over the scored records
    int64_t scored = 0;
    int64_t withoutDag = 0;
    int64_t notReplayed = 0;
    double seconds = 0.0; // featurize + predict
};

// Scores `subset` with `model` and computes the metrics (TenSet's, store/metrics.h) on the records scored.
// A state the model gives -infinity (it does not lower) counts as score 0.
EvalReport evaluateOnDataset(cost::CostModel& model, const store::Dataset& dataset, std::span<const size_t> subset,
    const std::map<int64_t, target::Target>& targets, const store::MetricOptions& options = {});

// --- several models on one split (tunescope-cli compare-models, the workbench's Model comparison view) ---------

// A short tuning session guided by a compared model, already trained (compare-models --search).
struct ModelSearch {
    std::vector<std::string> tasks; // the held-out tasks tuned
    std::vector<double> bestCost; // per task, seconds (0: nothing succeeded)
    // (trials measured so far, the sum over the tasks of their best cost) each time the sum improved, once
    // every task had a success.
    std::vector<std::pair<int, double>> curve;
    double seconds = 0.0;
    std::string error;
    double totalBest() const; // the sum of bestCost (infinity when a task has none)
    // Trials this search needed to reach a total of `cost` or less; -1 when it never did.
    int trialsToReach(double cost) const;
};

struct ModelComparison {
    std::string kind;
    std::string error; // the model could not be made or trained: the rest is empty
    double trainSeconds = 0.0;
    double programsPerSecond = 0.0; // scoring the test programs: features + prediction, on every core
    int64_t bytes = 0; // the saved model
    std::string trainingSummary = "{}";
    store::MetricsSummary metrics;
    std::vector<double> predictions; // one per ComparisonResult::records
    std::optional<ModelSearch> search;
};

struct ComparisonResult {
    int64_t trainSamples = 0;
    int64_t trainGroups = 0;
    std::vector<size_t> records; // the scored test records (indices into the dataset), ascending
    std::vector<ModelComparison> models; // in the order asked; fewer when stopped
    bool stopped = false;
};

struct CompareOptions {
    std::vector<std::string> kinds;
    uint64_t seed = 1;
    store::MetricOptions metrics;
    // Called before each model (fraction 0) and after each of its training epochs; false stops the comparison
    // (the models compared so far are kept).
    std::function<bool(const std::string& kind, double fraction, double loss)> progress;

    // With searchTasks > 0: after training, each model guides an Ansor session (same seed, same budget, a fresh
    // workspace under searchDirectory each) on the first searchTasks test tasks that have a DAG, searchTrials
    // trials per task.
    int searchTasks = 0;
    int searchTrials = 64;
    int searchMeasuresPerRound = 16;
    std::string searchDirectory;
    std::function<bool(const std::string& kind, int trials, int budget)> searchProgress; // false: stop

    // Called on each model before it trains (the CLI's data-parallel ranks hand it their process group here).
    std::function<void(cost::CostModel& model)> prepare;
    // false: train only (a data-parallel rank other than 0: it helps train; rank 0 scores, searches and reports).
    bool evaluate = true;
};

// Trains each kind on `train` and scores `test` with it, all on the same samples and seed. Errors: an unknown
// kind (before any training), nothing to train on or to test.
Expected<ComparisonResult> compareModels(const store::Dataset& dataset, std::span<const size_t> train,
    std::span<const size_t> test, const std::map<int64_t, target::Target>& targets, const CompareOptions& options);

// The mean over the networks with test tasks of TenSet's score@k (k: the index into MetricOptions::ks); NaN when
// no test task belongs to a network of the dataset (a workspace of tuning sessions).
double meanNetworkScore(const store::MetricsSummary& metrics, size_t k);

} // namespace ts::engine
