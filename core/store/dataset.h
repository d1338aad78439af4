// A TenSet-style dataset read from a workspace: the tasks, their measured programs with labels, the networks
// the tasks belong to, and the train/validation/test splits cost models are trained and compared on.
//
// - A record's label is TenSet's normalised throughput: the least cost of its task on its device among the
//   dataset's records, divided by its own cost (the best program of each (task, device) has 1). Labels are
//   fixed when the dataset is loaded; a split does not renormalise them.
// - Only successful records (error_no 0) with a usable cost carry a label. Every other record read is
//   counted in DatasetReport by reason, never dropped silently.
// - Tasks are rebuilt into compute DAGs where TuneScope can: from the networks the workspace's networks table
//   names (a task whose key is the workload key of one of the rebuilt network's tasks), else from a registered
//   workload key (an imported TVM tutorial workload). A task that cannot be rebuilt is kept without a DAG (its
//   records still have steps and costs, enough for models that read steps only) and counted by reason.
// - Splits return record indices and are deterministic for a seed.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/record/measure_status.h"
#include "core/store/metrics.h"
#include "core/store/records.h"
#include "core/support/error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ts::store {

class Store;

// A network a task belongs to, and how often the task occurs in it.
struct TaskNetwork {
    std::string name; // "resnet-18"
    int64_t batch = 1;
    std::string layout; // "NHWC"
    int weight = 1;
};

struct DatasetTask {
    int64_t taskId = 0; // in the store
    std::string key; // the workload key
    std::string name;
    double flops = 0.0;
    std::optional<ir::ComputeDAG> dag; // when TuneScope can rebuild the task
    std::vector<TaskNetwork> networks; // the dataset's networks that hold it
};

struct DatasetRecord {
    int64_t recordId = 0;
    size_t task = 0; // index into Dataset::tasks
    int64_t deviceId = 0;
    std::string steps; // the JSON step list
    double cost = 0.0; // mean cost, seconds
    std::optional<int64_t> sessionId;
    double label = 0.0; // normalised throughput, (0, 1]
};

// A network of the dataset: its tasks as indices into Dataset::tasks.
struct DatasetNetwork {
    std::string name;
    int64_t batch = 1;
    std::string layout;
    std::vector<NetworkTasks::Member> tasks; // task index and weight
    int missingTasks = 0; // members without any usable record, so not in Dataset::tasks

    // "resnet-18 (batch 1, NHWC)"
    std::string title() const;
};

// Why a record read carries no label.
enum class SkipReason {
    Failed, // error_no != 0; DatasetReport::failedByStatus breaks them down
    BadCost, // error_no 0 but no costs, or a mean cost that is not a positive finite number below 1e10
    OtherKind, // an AutoTVM config record in an Ansor dataset, or the other way round
};
const char* toString(SkipReason reason);

// Why a task has no DAG.
enum class DagMissing {
    NotRequested, // DatasetOptions::rebuildDags is off
    // In no network of the dataset, and its key is not a registered workload: a foreign TVM task, or a task a
    // tuning session tuned (its DAG comes from the session's origin: engine::attachSessionDags).
    NoSource,
    NetworkNotBuilt, // its networks cannot be built here (unknown name or layout; see DatasetReport::warnings)
    NotInNetwork, // its networks were rebuilt but none has a task with its key (the network changed since)
    WorkloadNotBuilt, // its key names a registered workload that failed to build
};
const char* toString(DagMissing reason);

struct DatasetReport {
    int64_t recordsRead = 0; // records of the selected devices and tasks
    int64_t recordsKept = 0;
    std::map<SkipReason, int64_t> skipped;
    std::map<record::MeasureStatus, int64_t> failedByStatus;
    int64_t tasksWithDag = 0;
    std::map<DagMissing, int64_t> tasksWithoutDag;
    int64_t tasksWithoutUsableRecords = 0; // tasks with records read, none of them usable (not in the dataset)
    std::vector<std::string> warnings; // networks that could not be rebuilt, with why

    // For people: "1200 records read, 1100 kept; skipped: 90 failed (80 run timeout, 10 wrong answer), ...".
    std::vector<std::string> lines() const;
};

struct DatasetOptions {
    std::optional<int64_t> deviceId; // none: all devices (labels are per (task, device))
    // Only the tasks of the networks with these names (any batch and layout); empty: every task.
    std::vector<std::string> networks;
    RecordKind kind = RecordKind::Ansor;
    bool rebuildDags = true; // off: no network is built (models that read steps only load faster)
};

struct Dataset {
    std::vector<DatasetTask> tasks; // in store task id order; each has at least one record
    std::vector<DatasetRecord> records; // in record id order
    std::vector<DatasetNetwork> networks; // the selected networks holding a task of the dataset
    DatasetReport report;
};

// Reads the dataset. Errors: the store's, an unknown device id, a network name the workspace does not have.
Expected<Dataset> loadDataset(Store& store, const DatasetOptions& options = {});

// The records of one task on one device.
struct RecordGroup {
    size_t task = 0;
    int64_t deviceId = 0;
    std::vector<size_t> records; // indices into Dataset::records, ascending
};
// `records` (indices into dataset.records) grouped by (task, device), ordered by task then device.
std::vector<RecordGroup> groupByTaskDevice(const Dataset& dataset, std::span<const size_t> records);

// All metrics of `predictions` (one per dataset record, indexed as Dataset::records) on the records `subset`:
// per (task, device), then aggregated over them and over each network (per device where there are several).
MetricsSummary evaluate(const Dataset& dataset, std::span<const size_t> subset, std::span<const double> predictions,
    const MetricOptions& options = {});

// --- splits ---------------------------------------------------------------------------------------------------

// Indices into Dataset::records, each ascending; together they are every record, each in one set.
struct DatasetSplit {
    std::vector<size_t> train;
    std::vector<size_t> validation;
    std::vector<size_t> test;
};

struct SplitOptions {
    // Where the split assigns whole tasks (by networks, by tasks), this fraction of the training tasks goes
    // to validation; in the time split, the fraction of each task's records just before its test records.
    double validationFraction = 0.0;
    uint64_t seed = 0;
};

// Counts are fractions of a whole rounded to the nearest integer, halves up (0.25 of 10 tasks is 3).

// TenSet's held-out networks (it holds out resnet_50, mobilenet_v2, resnext_50, bert_base, bert_tiny): every
// task of a network named in `testNetworks` (by name, any batch and layout) goes to test, with all its
// records. A task that is also in a training network goes to test and is removed from train: no task is in
// both. Tasks in no network are training tasks. Error: a name that is no network of the dataset.
Expected<DatasetSplit> splitByNetworks(
    const Dataset& dataset, std::span<const std::string> testNetworks, const SplitOptions& options = {});
// A seeded random `testFraction` of the tasks goes to test, with all their records.
Expected<DatasetSplit> splitByTasks(const Dataset& dataset, double testFraction, const SplitOptions& options = {});
// For each task, the last `testFraction` of its records by record id goes to test, the validation fraction
// before them to validation, the rest to train: within a task, train < validation < test in record id.
// Deterministic without a seed.
Expected<DatasetSplit> splitByTime(const Dataset& dataset, double testFraction, const SplitOptions& options = {});

// A seeded fraction of `records` (indices into dataset.records): of each (task, device) group, ceil(fraction x
// its size) records, at least one; only the groups of `device` when given (the others stay whole). Ascending.
// Error: a fraction outside (0, 1].
Expected<std::vector<size_t>> shareOfRecords(const Dataset& dataset, std::span<const size_t> records, double fraction,
    std::optional<int64_t> device, uint64_t seed);

} // namespace ts::store
