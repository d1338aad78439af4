#include "core/store/dataset.h"

#include "core/ops/conv.h"
#include "core/store/network_match.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

namespace ts::store {

const char* toString(SkipReason reason)
{
    switch (reason) {
    case SkipReason::Failed:
        return "failed";
    case SkipReason::BadCost:
        return "no usable cost";
    case SkipReason::OtherKind:
        return "other record kind";
    }
    return "?";
}

const char* toString(DagMissing reason)
{
    switch (reason) {
    case DagMissing::NotRequested:
        return "not requested";
    case DagMissing::NoSource:
        return "in no network, not a registered workload";
    case DagMissing::NetworkNotBuilt:
        return "network not built";
    case DagMissing::NotInNetwork:
        return "not among its rebuilt network's tasks";
    case DagMissing::WorkloadNotBuilt:
        return "workload failed to build";
    }
    return "?";
}

std::string DatasetNetwork::title() const { return name + " (batch " + std::to_string(batch) + ", " + layout + ")"; }

std::vector<std::string> DatasetReport::lines() const
{
    std::vector<std::string> out;
    std::string line = std::to_string(recordsRead) + " records read, " + std::to_string(recordsKept) + " kept";
    if (!skipped.empty()) {
        line += "; skipped: " + join(skipped, ", ", [&](const auto& entry) {
            std::string text = std::to_string(entry.second) + " " + toString(entry.first);
            if (entry.first == SkipReason::Failed && !failedByStatus.empty())
                text += " (" + join(failedByStatus, ", ", [](const auto& s) {
                    return std::to_string(s.second) + " " + record::toString(s.first);
                }) + ")";
            return text;
        });
    }
    out.push_back(line);
    line = std::to_string(tasksWithDag) + " tasks with a DAG";
    if (!tasksWithoutDag.empty())
        line += ", without: " + join(tasksWithoutDag, ", ", [](const auto& entry) {
            return std::to_string(entry.second) + " " + toString(entry.first);
        });
    out.push_back(line);
    if (tasksWithoutUsableRecords > 0)
        out.push_back(std::to_string(tasksWithoutUsableRecords) + " tasks left out: none of their records is usable");
    out.insert(out.end(), warnings.begin(), warnings.end());
    return out;
}

namespace {

    // Why a record carries no label, or nothing when it does.
    std::optional<SkipReason> skipReason(const Record& r, RecordKind kind)
    {
        if (r.kind != kind)
            return SkipReason::OtherKind;
        if (r.result.status != record::MeasureStatus::Ok)
            return SkipReason::Failed;
        if (!r.result.ok())
            return SkipReason::BadCost;
        const double cost = r.result.meanCost();
        if (!std::isfinite(cost) || cost <= 0.0 || cost >= record::kFailedCost)
            return SkipReason::BadCost;
        return std::nullopt;
    }

    Expected<std::vector<const NetworkInfo*>> selectNetworks(
        const std::vector<NetworkInfo>& networks, const std::vector<std::string>& names)
    {
        std::vector<const NetworkInfo*> out;
        if (names.empty()) {
            for (const NetworkInfo& n : networks)
                out.push_back(&n);
            return out;
        }
        for (const std::string& name : names) {
            const size_t before = out.size();
            for (const NetworkInfo& n : networks)
                if (n.name == name)
                    out.push_back(&n);
            if (out.size() == before) {
                std::set<std::string> known;
                for (const NetworkInfo& n : networks)
                    known.insert(n.name);
                return makeError(ErrorKind::InvalidArgument,
                    "no network named '" + name + "' in the workspace"
                        + (known.empty() ? std::string(" (it has none)") : " (it has: " + join(known, ", ") + ")"));
            }
        }
        return out;
    }

    std::optional<ops::Layout> parseLayout(const std::string& text)
    {
        const std::string lower = toLower(text);
        if (lower == "nchw")
            return ops::Layout::NCHW;
        if (lower == "nhwc")
            return ops::Layout::NHWC;
        return std::nullopt;
    }

    // Rebuilds the networks, then gives each task its DAG or the reason it has none.
    void rebuildDags(Dataset& dataset, const std::vector<TaskInfo>& storeTasks)
    {
        std::unordered_map<std::string, ir::ComputeDAG> byKey;
        std::vector<bool> built(dataset.networks.size(), false);
        for (size_t i = 0; i < dataset.networks.size(); ++i) {
            const DatasetNetwork& n = dataset.networks[i];
            const std::optional<ops::Layout> layout = parseLayout(n.layout);
            if (!layout) {
                dataset.report.warnings.push_back(
                    "network " + n.title() + " not rebuilt: unknown layout '" + n.layout + "'");
                continue;
            }
            auto tasks = loadNetworkTasks(NetworkRef { n.name, n.batch, *layout });
            if (!tasks) {
                dataset.report.warnings.push_back("network " + n.title() + " not rebuilt: " + tasks.error().message);
                continue;
            }
            built[i] = true;
            for (const graph::Task& t : tasks->tasks)
                byKey.emplace(t.dag.workloadKey(), t.dag);
        }
        std::unordered_map<int64_t, const TaskInfo*> infoById;
        for (const TaskInfo& t : storeTasks)
            infoById.emplace(t.id, &t);
        // Which networks hold each task: a task is NetworkNotBuilt when one of them failed.
        std::vector<bool> inFailedNetwork(dataset.tasks.size(), false);
        for (size_t i = 0; i < dataset.networks.size(); ++i)
            for (const NetworkTasks::Member& m : dataset.networks[i].tasks)
                inFailedNetwork[m.task] = inFailedNetwork[m.task] || !built[i];

        for (size_t i = 0; i < dataset.tasks.size(); ++i) {
            DatasetTask& task = dataset.tasks[i];
            std::optional<DagMissing> missing;
            if (auto found = byKey.find(task.key); found != byKey.end()) {
                task.dag = found->second;
            } else if (const TaskInfo* info = infoById.at(task.taskId);
                       info->kind == RecordKind::Ansor && info->rebuildable && !isOwnTaskKey(info->key)) {
                auto dag = rebuildTask(*info); // a registered workload, or a TVM network task matched to the zoo
                if (dag)
                    task.dag = std::move(dag).value();
                else
                    missing = DagMissing::WorkloadNotBuilt;
            } else if (task.networks.empty()) {
                missing = DagMissing::NoSource; // foreign, or TuneScope's own task of a tuning session
            } else {
                missing = inFailedNetwork[i] ? DagMissing::NetworkNotBuilt : DagMissing::NotInNetwork;
            }
            if (missing)
                ++dataset.report.tasksWithoutDag[*missing];
            else
                ++dataset.report.tasksWithDag;
        }
    }

} // namespace

Expected<Dataset> loadDataset(Store& store, const DatasetOptions& options)
{
    if (options.deviceId) {
        TS_TRY(std::vector<Device> devices, store.devices());
        bool known = false;
        for (const Device& d : devices)
            known = known || d.id == *options.deviceId;
        if (!known)
            return makeError(ErrorKind::NotFound,
                "device " + std::to_string(*options.deviceId) + " is not in the workspace"
                    + (devices.empty() ? std::string(" (it has none)")
                                       : " (devices: "
                                + join(devices, ", ", [](const Device& d) { return std::to_string(d.id); }) + ")"));
    }
    TS_TRY(std::vector<TaskInfo> storeTasks, store.tasks());
    TS_TRY(std::vector<NetworkInfo> storeNetworks, store.networks());
    TS_TRY(std::vector<const NetworkInfo*> selected, selectNetworks(storeNetworks, options.networks));

    Dataset dataset;
    RecordFilter filter;
    filter.deviceId = options.deviceId;
    if (!options.networks.empty()) {
        std::set<int64_t> ids;
        for (const NetworkInfo* n : selected)
            for (const NetworkInfo::Member& m : n->tasks)
                ids.insert(m.taskId);
        if (ids.empty())
            return dataset;
        filter.taskIds.assign(ids.begin(), ids.end());
    }

    // Read, keeping the usable records with their store task id for now.
    std::vector<std::pair<int64_t, DatasetRecord>> kept;
    std::set<int64_t> tasksRead;
    TS_CHECK(store.forEachRecord(filter, [&](const Record& r) {
        ++dataset.report.recordsRead;
        tasksRead.insert(r.taskId);
        if (const std::optional<SkipReason> reason = skipReason(r, options.kind)) {
            ++dataset.report.skipped[*reason];
            if (*reason == SkipReason::Failed)
                ++dataset.report.failedByStatus[r.result.status];
            return true;
        }
        DatasetRecord d;
        d.recordId = r.id;
        d.deviceId = r.deviceId;
        d.steps = r.steps;
        d.cost = r.result.meanCost();
        d.sessionId = r.sessionId;
        kept.emplace_back(r.taskId, std::move(d));
        return true;
    }));
    dataset.report.recordsKept = static_cast<int64_t>(kept.size());

    // Tasks with a usable record, in store id order.
    std::set<int64_t> keptTasks;
    for (const auto& [taskId, record] : kept)
        keptTasks.insert(taskId);
    dataset.report.tasksWithoutUsableRecords = static_cast<int64_t>(tasksRead.size() - keptTasks.size());
    std::unordered_map<int64_t, size_t> taskIndex;
    for (const TaskInfo& t : storeTasks) {
        if (!keptTasks.contains(t.id))
            continue;
        taskIndex.emplace(t.id, dataset.tasks.size());
        dataset.tasks.push_back(DatasetTask { t.id, t.key, t.name, t.flops, std::nullopt, {} });
    }
    TS_ASSERT(taskIndex.size() == keptTasks.size()) << "records of a task the tasks table does not have";

    // Labels: the least cost of each (task, device) over the cost.
    std::map<std::pair<size_t, int64_t>, double> bestCost;
    for (auto& [taskId, record] : kept) {
        record.task = taskIndex.at(taskId);
        auto [it, added] = bestCost.emplace(std::make_pair(record.task, record.deviceId), record.cost);
        if (!added)
            it->second = std::min(it->second, record.cost);
    }
    dataset.records.reserve(kept.size());
    for (auto& [taskId, record] : kept) {
        record.label = bestCost.at({ record.task, record.deviceId }) / record.cost;
        dataset.records.push_back(std::move(record));
    }

    // The selected networks that hold a task of the dataset.
    for (const NetworkInfo* n : selected) {
        DatasetNetwork network { n->name, n->batch, n->layout, {}, 0 };
        for (const NetworkInfo::Member& m : n->tasks) {
            auto it = taskIndex.find(m.taskId);
            if (it == taskIndex.end()) {
                ++network.missingTasks;
                continue;
            }
            network.tasks.push_back({ it->second, static_cast<double>(m.weight) });
            dataset.tasks[it->second].networks.push_back(TaskNetwork { n->name, n->batch, n->layout, m.weight });
        }
        if (!network.tasks.empty())
            dataset.networks.push_back(std::move(network));
    }

    if (options.rebuildDags)
        rebuildDags(dataset, storeTasks);
    else if (!dataset.tasks.empty())
        dataset.report.tasksWithoutDag[DagMissing::NotRequested] = static_cast<int64_t>(dataset.tasks.size());
    return dataset;
}

std::vector<RecordGroup> groupByTaskDevice(const Dataset& dataset, std::span<const size_t> records)
{
    std::map<std::pair<size_t, int64_t>, std::vector<size_t>> groups;
    for (size_t i : records) {
        TS_ASSERT(i < dataset.records.size()) << "record index " << i << " of " << dataset.records.size();
        const DatasetRecord& r = dataset.records[i];
        groups[{ r.task, r.deviceId }].push_back(i);
    }
    std::vector<RecordGroup> out;
    for (auto& [key, indices] : groups) {
        std::sort(indices.begin(), indices.end());
        out.push_back(RecordGroup { key.first, key.second, std::move(indices) });
    }
    return out;
}

MetricsSummary evaluate(const Dataset& dataset, std::span<const size_t> subset, std::span<const double> predictions,
    const MetricOptions& options)
{
    TS_ASSERT(predictions.size() == dataset.records.size())
        << predictions.size() << " predictions for " << dataset.records.size() << " records";
    const std::vector<RecordGroup> groups = groupByTaskDevice(dataset, subset);
    std::vector<TaskMetrics> metrics;
    std::map<std::pair<size_t, int64_t>, size_t> groupOf;
    std::set<int64_t> devices;
    for (const RecordGroup& g : groups) {
        std::vector<double> p, labels, costs;
        for (size_t i : g.records) {
            p.push_back(predictions[i]);
            labels.push_back(dataset.records[i].label);
            costs.push_back(dataset.records[i].cost);
        }
        groupOf.emplace(std::make_pair(g.task, g.deviceId), metrics.size());
        metrics.push_back(evaluateTask(p, labels, costs, options));
        devices.insert(g.deviceId);
    }
    MetricsSummary out = summarize(metrics, {}, options);

    // Networks, per device: a member absent from the subset points at one empty entry and counts as without
    // programs. A network with no member in the subset is not reported.
    const size_t absent = metrics.size();
    metrics.push_back(evaluateTask({}, {}, {}, options));
    std::vector<NetworkTasks> networks;
    std::vector<int> missing;
    for (const DatasetNetwork& n : dataset.networks) {
        for (int64_t device : devices) {
            NetworkTasks tasks { devices.size() > 1 ? n.title() + " on device " + std::to_string(device) : n.title(),
                {} };
            bool any = false;
            for (const NetworkTasks::Member& m : n.tasks) {
                auto it = groupOf.find({ m.task, device });
                any = any || it != groupOf.end();
                tasks.tasks.push_back({ it == groupOf.end() ? absent : it->second, m.weight });
            }
            if (!any)
                continue;
            networks.push_back(std::move(tasks));
            missing.push_back(n.missingTasks);
        }
    }
    out.networks = summarize(metrics, networks, options).networks;
    for (size_t i = 0; i < out.networks.size(); ++i)
        out.networks[i].tasksWithoutPrograms += missing[i];
    return out;
}

} // namespace ts::store
