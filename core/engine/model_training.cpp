#include "core/engine/model_training.h"

#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"
#include "core/schedule/step_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace ts::engine {

namespace {
    using Clock = std::chrono::steady_clock;
    double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }
} // namespace

Expected<int> attachSessionDags(store::Store& store, store::Dataset& dataset)
{
    std::map<std::string, store::DatasetTask*> missing;
    for (store::DatasetTask& task : dataset.tasks)
        if (!task.dag)
            missing.emplace(task.key, &task);
    if (missing.empty())
        return 0;
    TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
    std::set<std::string> origins;
    int attached = 0;
    for (const store::SessionInfo& info : sessions) {
        const auto settings = nlohmann::json::parse(info.settings, nullptr, false);
        if (settings.is_discarded() || !settings.contains("origin")
            || !origins.insert(settings["origin"].dump()).second)
            continue;
        auto origin = TuneOrigin::fromJson(settings["origin"].dump());
        auto tasks = origin ? buildTasks(*origin) : Expected<std::vector<graph::Task>>(origin.error());
        if (!tasks)
            continue;
        for (graph::Task& task : *tasks)
            if (const auto found = missing.find(task.dag.workloadKey());
                found != missing.end() && !found->second->dag) {
                found->second->dag = std::move(task.dag);
                ++attached;
            }
    }
    return attached;
}

int64_t DatasetSamples::samples() const
{
    int64_t n = 0;
    for (const auto& b : batches)
        n += static_cast<int64_t>(b.states.size() + b.steps.size());
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

DatasetSamples samplesOf(const store::Dataset& dataset, std::span<const size_t> subset,
    const std::map<int64_t, target::Target>& targets, bool withSteps)
{
    DatasetSamples out;
    for (const store::RecordGroup& group : store::groupByTaskDevice(dataset, subset)) {
        const store::DatasetTask& task = dataset.tasks[group.task];
        const auto target = targets.find(group.deviceId);
        if (withSteps && !task.dag) {
            cost::CostModel::Batch batch;
            batch.task = cost::CostTask { nullptr, task.key + "@" + std::to_string(group.deviceId), task.flops,
                target == targets.end() ? target::Target::host() : target->second };
            std::vector<size_t> indices;
            for (size_t index : group.records) {
                auto steps = sched::parseSteps(dataset.records[index].steps);
                if (!steps) {
                    ++out.notReplayed;
                    continue;
                }
                record::MeasureResult result;
                result.status = record::MeasureStatus::Ok;
                result.costs = { dataset.records[index].cost };
                batch.steps.push_back(std::move(steps).value());
                batch.results.push_back(std::move(result));
                indices.push_back(index);
            }
            if (!batch.steps.empty()) {
                out.batches.push_back(std::move(batch));
                out.records.push_back(std::move(indices));
            }
            continue;
        }
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
    const DatasetSamples samples = samplesOf(dataset, subset, targets, model.readsStepsOnly());
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
    const DatasetSamples samples = samplesOf(dataset, subset, targets, model.readsStepsOnly());
    EvalReport report;
    report.withoutDag = samples.withoutDag;
    report.notReplayed = samples.notReplayed;
    std::vector<double> predictions(dataset.records.size(), 0.0);
    std::vector<size_t> scored;
    for (size_t b = 0; b < samples.batches.size(); ++b) {
        const auto& batch = samples.batches[b];
        const std::vector<double> scores = batch.steps.empty() ? model.predict(batch.task, batch.states)
                                                               : model.predictSteps(batch.task, batch.steps);
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

double ModelSearch::totalBest() const
{
    double total = 0.0;
    for (double cost : bestCost)
        total += cost > 0.0 ? cost : std::numeric_limits<double>::infinity();
    return bestCost.empty() ? std::numeric_limits<double>::infinity() : total;
}

int ModelSearch::trialsToReach(double cost) const
{
    for (const auto& [trials, total] : curve)
        if (total <= cost * (1.0 + 1e-9))
            return trials;
    return -1;
}

namespace {
    // One Ansor session on `tasks` with a copy of the trained model `weights` of `kind`.
    ModelSearch searchWith(const std::string& kind, const std::vector<uint8_t>& weights,
        const std::vector<const store::DatasetTask*>& tasks, const CompareOptions& options, bool& stop)
    {
        ModelSearch out;
        const auto start = Clock::now();
        TuneOptions tune;
        for (const store::DatasetTask* t : tasks) {
            tune.tasks.push_back({ t->name, *t->dag, 1, "" });
            out.tasks.push_back(t->name);
        }
        out.bestCost.assign(tasks.size(), 0.0);
        tune.model = kind;
        tune.makeModel = [kind, weights, seed = options.seed]() -> Expected<std::unique_ptr<cost::CostModel>> {
            TS_TRY(std::unique_ptr<cost::CostModel> model, cost::makeCostModel(kind, seed));
            TS_CHECK(model->load(weights));
            return model;
        };
        tune.trials = options.searchTrials * static_cast<int>(tasks.size());
        tune.measuresPerRound = options.searchMeasuresPerRound;
        tune.seed = options.seed;
        tune.resume = false;
        tune.remeasureTop = 0;
        tune.workspace = options.searchDirectory + "/search-" + kind + ".tunescope";
        std::remove(tune.workspace.c_str());
        int trials = 0;
        TuningSession* running = nullptr;
        TuningSession session(std::move(tune), [&](const TuneEvent& event) {
            if (std::holds_alternative<RecordMeasured>(event)) {
                ++trials;
                if (options.searchProgress
                    && !options.searchProgress(kind, trials, options.searchTrials * static_cast<int>(tasks.size()))) {
                    stop = true;
                    if (running)
                        running->cancel();
                }
            } else if (const auto* best = std::get_if<BestImproved>(&event); best && !best->remeasured) {
                out.bestCost[static_cast<size_t>(best->task)] = best->cost;
                if (const double total = out.totalBest(); std::isfinite(total))
                    out.curve.emplace_back(trials, total);
            }
        });
        running = &session;
        if (auto finished = session.run(); !finished)
            out.error = finished.error().message;
        out.seconds = secondsSince(start);
        return out;
    }
} // namespace

Expected<ComparisonResult> compareModels(const store::Dataset& dataset, std::span<const size_t> train,
    std::span<const size_t> test, const std::map<int64_t, target::Target>& targets, const CompareOptions& options)
{
    for (const std::string& kind : options.kinds)
        TS_CHECK(cost::makeCostModel(kind, options.seed));
    const DatasetSamples trainSamples = samplesOf(dataset, train, targets);
    const DatasetSamples testSamples = samplesOf(dataset, test, targets);
    if (trainSamples.samples() == 0 || testSamples.samples() == 0)
        return makeError(ErrorKind::InvalidArgument,
            "nothing to compare on: " + std::to_string(trainSamples.samples()) + " training and "
                + std::to_string(testSamples.samples()) + " test programs replay");
    ComparisonResult result;
    result.trainSamples = trainSamples.samples();
    result.trainGroups = static_cast<int64_t>(trainSamples.batches.size());
    std::vector<std::pair<size_t, size_t>> order; // (record, position in the flattened test samples)
    for (const auto& records : testSamples.records)
        for (size_t record : records)
            order.emplace_back(record, order.size());
    std::sort(order.begin(), order.end());
    for (const auto& [record, position] : order)
        result.records.push_back(record);

    for (const std::string& kind : options.kinds) {
        if (options.progress && !options.progress(kind, 0.0, 0.0)) {
            result.stopped = true;
            break;
        }
        ModelComparison row { kind };
        auto model = cost::makeCostModel(kind, options.seed).value();
        model->setWarmupSamples(0); // trained on a dataset: no random warm-up before it predicts
        if (options.prepare)
            options.prepare(*model);
        bool stop = false;
        model->setTrainingProgress([&](double fraction, double loss) {
            stop = options.progress && !options.progress(kind, fraction, loss);
            return !stop;
        });
        const auto start = Clock::now();
        if (auto fitted = model->fit(trainSamples.batches); !fitted) {
            row.error = fitted.error().message;
            result.models.push_back(std::move(row));
            continue;
        }
        row.trainSeconds = secondsSince(start);
        if (stop) {
            result.stopped = true;
            break;
        }
        if (!options.evaluate) {
            row.trainingSummary = model->trainingSummary();
            result.models.push_back(std::move(row));
            continue;
        }
        std::vector<double> flat;
        const auto predictStart = Clock::now();
        for (const auto& batch : testSamples.batches) {
            const std::vector<double> scores = model->predict(batch.task, batch.states);
            for (double score : scores)
                flat.push_back(std::isfinite(score) ? score : 0.0);
        }
        const double predictSeconds = secondsSince(predictStart);
        row.programsPerSecond = predictSeconds > 0 ? static_cast<double>(flat.size()) / predictSeconds : 0.0;
        std::vector<double> predictions(dataset.records.size(), 0.0);
        for (const auto& [record, position] : order) {
            predictions[record] = flat[position];
            row.predictions.push_back(flat[position]);
        }
        row.metrics = store::evaluate(dataset, result.records, predictions, options.metrics);
        if (auto bytes = model->save())
            row.bytes = static_cast<int64_t>(bytes->size());
        row.trainingSummary = model->trainingSummary();
        if (options.searchTasks > 0) {
            std::vector<const store::DatasetTask*> tasks;
            std::set<size_t> seen;
            for (size_t r : result.records) {
                const size_t task = dataset.records[r].task;
                if (dataset.tasks[task].dag && seen.insert(task).second)
                    tasks.push_back(&dataset.tasks[task]);
            }
            std::sort(tasks.begin(), tasks.end(),
                [](const store::DatasetTask* a, const store::DatasetTask* b) { return a->taskId < b->taskId; });
            tasks.resize(std::min(tasks.size(), static_cast<size_t>(options.searchTasks)));
            auto weights = model->save();
            if (!weights)
                row.search = ModelSearch { {}, {}, {}, 0.0, weights.error().message };
            else if (!tasks.empty())
                row.search = searchWith(kind, *weights, tasks, options, stop);
        }
        result.models.push_back(std::move(row));
        if (stop) {
            result.stopped = true;
            break;
        }
    }
    return result;
}

double meanNetworkScore(const store::MetricsSummary& metrics, size_t k)
{
    double sum = 0.0;
    int n = 0;
    for (const store::NetworkMetrics& net : metrics.networks)
        if (net.tasks > 0 && k < net.topKScore.size()) {
            sum += net.topKScore[k];
            ++n;
        }
    return n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

} // namespace ts::engine
