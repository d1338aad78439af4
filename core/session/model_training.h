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

#include <map>
#include <span>
#include <vector>

namespace ts::session {

// The target each device's records were measured for, from the store's device rows.
Expected<std::map<int64_t, target::Target>> deviceTargets(store::Store& store);

struct DatasetSamples {
    std::vector<cost::CostModel::Batch> batches; // one per (task, device)
    std::vector<std::vector<size_t>> records; // per batch: the dataset record of each state
    int64_t withoutDag = 0; // records of tasks that cannot be rebuilt
    int64_t notReplayed = 0; // records whose steps do not replay on the task's DAG
    int64_t samples() const;
};

// The records `subset` (indices into dataset.records) as model batches.
DatasetSamples samplesOf(
    const store::Dataset& dataset, std::span<const size_t> subset, const std::map<int64_t, target::Target>& targets);

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

} // namespace ts::session
