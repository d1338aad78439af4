#include "core/session/model_training.h"

#include "core/schedule/step_json.h"

#include <chrono>
#include <cmath>

namespace ts::session {

namespace {
    using Clock = std::chrono::steady_clock;
    double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }
} // namespace

int64_t DatasetSamples::samples() const
{
    int64_t n = 0;
    for (const auto& b : batches)
        n += static_cast<int64_t>(b.states.size());
    return n;
}

Expected<std::map<int64_t, target::Target>> deviceTargets(store::Store& store)
{
    TS_TRY(std::vector<store::Device> devices, store.devices());
    std::map<int64_t, target::Target> targets;
    for (const store::Device& d : devices)
        if (auto t = store::targetOf(d))
            targets.emplace(d.id, std::move(t).value());
    return targets;
}

DatasetSamples samplesOf(
    const store::Dataset& dataset, std::span<const size_t> subset, const std::map<int64_t, target::Target>& targets)
{
    DatasetSamples out;
    for (const store::RecordGroup& group : store::groupByTaskDevice(dataset, subset)) {
        const store::DatasetTask& task = dataset.tasks[group.task];
        const auto target = targets.find(group.deviceId);
        if (!task.dag || target == targets.end()) {
            out.withoutDag += static_cast<int64_t>(group.records.size());
            continue;
        }
        cost::CostModel::Batch batch;
        batch.task = cost::CostTask { &*task.dag, task.key + "@" + std::to_string(group.deviceId), task.flops,
            target->second };
        std::vector<size_t> indices;
        for (size_t index : group.records) {
            const store::DatasetRecord& r = dataset.records[index];
            auto steps = sched::parseSteps(r.steps);
            auto state = steps ? sched::State::replay(*task.dag, *steps) : Expected<sched::State>(steps.error());
            if (!state) {
                ++out.notReplayed;
                continue;
            }
            record::MeasureResult result;
            result.status = record::MeasureStatus::Ok;
            result.costs = { r.cost };
            batch.states.push_back(std::move(state).value());
            batch.results.push_back(std::move(result));
            indices.push_back(index);
        }
        if (batch.states.empty())
            continue;
        out.batches.push_back(std::move(batch));
        out.records.push_back(std::move(indices));
    }
    return out;
}

Expected<TrainReport> trainOnDataset(cost::CostModel& model, const store::Dataset& dataset,
    std::span<const size_t> subset, const std::map<int64_t, target::Target>& targets)
{
    const auto start = Clock::now();
    const DatasetSamples samples = samplesOf(dataset, subset, targets);
    TrainReport report;
    report.samples = samples.samples();
    report.tasks = static_cast<int64_t>(samples.batches.size());
    report.withoutDag = samples.withoutDag;
    report.notReplayed = samples.notReplayed;
    if (report.samples == 0)
        return makeError(ErrorKind::InvalidArgument,
            "nothing to train on: " + std::to_string(subset.size()) + " records, " + std::to_string(samples.withoutDag)
                + " of tasks TuneScope cannot rebuild, " + std::to_string(samples.notReplayed) + " that do not replay");
    TS_CHECK(model.fit(samples.batches));
    report.seconds = secondsSince(start);
    return report;
}

EvalReport evaluateOnDataset(cost::CostModel& model, const store::Dataset& dataset, std::span<const size_t> subset,
    const std::map<int64_t, target::Target>& targets, const store::MetricOptions& options)
{
    const auto start = Clock::now();
    const DatasetSamples samples = samplesOf(dataset, subset, targets);
    EvalReport report;
    report.withoutDag = samples.withoutDag;
    report.notReplayed = samples.notReplayed;
    std::vector<double> predictions(dataset.records.size(), 0.0);
    std::vector<size_t> scored;
    for (size_t b = 0; b < samples.batches.size(); ++b) {
        const auto& batch = samples.batches[b];
        const std::vector<double> scores = model.predict(batch.task, batch.states);
        for (size_t i = 0; i < scores.size(); ++i) {
            const size_t index = samples.records[b][i];
            predictions[index] = std::isfinite(scores[i]) ? scores[i] : 0.0;
            scored.push_back(index);
        }
    }
    report.seconds = secondsSince(start);
    std::sort(scored.begin(), scored.end());
    report.scored = static_cast<int64_t>(scored.size());
    report.metrics = store::evaluate(dataset, scored, predictions, options);
    return report;
}

} // namespace ts::session
