// Cost models, measured: do they make the search find fast kernels sooner, and how well do they rank
// programs they never saw.
//   ./build/release/tests/benchmarks/ts_bench_cost_models curves [TRIALS [SEED [MODELS]]]
//       tuning curves with the same seed and budget (default 400 trials) on matmul 1024^3 and three ResNet-18
//       conv2d tasks, one session per cost model (default "random,xgb"; "xgb+prefilter" adds the analytical
//       pre-filter keeping half of each population): best GFLOP/s at checkpoints, and the
//       trial at which each model first reaches the random model's final best. Measurement: TVM's number 3,
//       repeat 1, with min_repeat_ms 40 instead of 100 (the curves compare models, not kernels).
//   ./build/release/tests/benchmarks/ts_bench_cost_models dataset WORKSPACE [HOLDOUT [MODEL]]
//       a model (default xgb) trained on a collected dataset without the held-out networks (default
//       resnet-50,mobilenet-v2,bert-base), evaluated on them: training time, TenSet's metrics; then the
//       training time on 10k records and on all of them.
//   ./build/release/tests/benchmarks/ts_bench_cost_models estimate WORKSPACE [NETWORK LAYOUT]
//       the analytical estimate (nothing learned), with the workspace's measured machine limits where it holds
//       a profile, ranking every task's measured records (packed weights, as TuneScope measures them on the
//       CPU): per task, Spearman, pairwise accuracy and the best cost among its top-1 and top-5 against the
//       task's best; the warm-up ranks by this estimate, so this is how good its first batches can be.
//       NETWORK LAYOUT rebuilds the tasks of a workspace that holds no network (ts_bench_tuning layers').
#include "tuning_util.h"

#include "core/cost/analytical_model.h"
#include "core/cost/cost_model.h"
#include "core/engine/machine.h"
#include "core/engine/model_training.h"
#include "core/store/schedule_source.h"
#include "core/support/rng.h"
#include "core/support/strings.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>

using namespace ts;
using namespace ts::bench;

namespace {

void curves(int trials, uint64_t seed, const std::vector<std::string>& models)
{
    struct Workload {
        const char* name;
        std::vector<engine::TuneTask> tasks;
    };
    const std::vector<Workload> workloads { { "matmul 1024^3", { matmulTask(1024) } },
        { "resnet-18 NHWC task 2 (conv 56x56, 64->64, 3x3)", resnetTasks({ 2 }) },
        { "resnet-18 NHWC task 6 (conv 28x28, 64->128, 1x1, stride 2)", resnetTasks({ 6 }) },
        { "resnet-18 NHWC task 9 (conv 14x14, 256->256, 3x3, residual)", resnetTasks({ 9 }) } };
    std::printf("== tuning curves: %d trials each, seed %llu, models %s\n", trials,
        static_cast<unsigned long long>(seed), join(models, ", ").c_str());
    std::map<std::string, std::vector<double>> fractionToReach; // model -> trials to reach random's best / budget
    for (const Workload& w : workloads) {
        std::printf("\n%s\n  %-14s %10s %8s %14s   curve (trial: GFLOP/s)\n", w.name, "model", "best GF/s", "wall s",
            "reach random");
        double randomBest = 0.0;
        for (const std::string& model : models) {
            engine::TuneOptions o = baseOptions(w.tasks, trials, freshWorkspace("curve-" + model));
            o.seed = seed;
            o.model = model;
            if (const size_t plus = model.find("+prefilter"); plus != std::string::npos) {
                o.model = model.substr(0, plus);
                o.search.prefilterKeep = 0.5;
            }
            o.remeasureTop = 0;
            o.measure.timing.minRepeatMs = 40;
            const Run r = tune(o);
            const double best = r.curve.empty() ? 0.0 : r.curve.back().gflops;
            if (model == "random")
                randomBest = best;
            int reach = -1;
            for (const CurvePoint& p : r.curve)
                if (randomBest > 0 && p.gflops >= randomBest) {
                    reach = p.trial;
                    break;
                }
            fractionToReach[model].push_back(reach > 0 ? static_cast<double>(reach) / trials : -1.0);
            std::string points;
            for (int checkpoint : { 64, 128, 192, 256, 400, 512, 1000 }) {
                if (checkpoint > trials)
                    break;
                double at = 0;
                for (const CurvePoint& p : r.curve)
                    if (p.trial <= checkpoint)
                        at = p.gflops;
                points += std::to_string(checkpoint) + ": " + formatFixed(at, 1) + "  ";
            }
            std::printf("  %-14s %10.1f %8.0f %14s   %s\n", model.c_str(), best, r.wall,
                reach > 0 ? ("trial " + std::to_string(reach)).c_str() : "never", points.c_str());
            std::fflush(stdout);
        }
    }
    std::printf(
        "\ntrials to reach the random model's final best, as a share of the budget, per workload (-: never):\n");
    for (const std::string& model : models) {
        std::string list;
        int reached = 0;
        for (double f : fractionToReach[model]) {
            list += f > 0 ? formatFixed(f, 2) + " " : std::string("-    ");
            reached += f > 0;
        }
        std::printf(
            "  %-14s %s(%d of %zu workloads reached it)\n", model.c_str(), list.c_str(), reached, workloads.size());
    }
}

// The workspace at `path` as a dataset (every task, every device) and its devices' targets.
struct OpenDataset {
    store::Store store;
    store::Dataset data;
    std::map<int64_t, target::Target> targets;
};

std::optional<OpenDataset> openDataset(const std::string& path)
{
    auto store = store::Store::open(path, { true });
    if (!store) {
        std::fprintf(stderr, "%s\n", store.error().message.c_str());
        return std::nullopt;
    }
    store::Dataset data = store::loadDataset(*store).value();
    auto targets = engine::deviceTargets(*store).value();
    return OpenDataset { std::move(store).value(), std::move(data), std::move(targets) };
}

std::vector<size_t> allRecords(const store::Dataset& data)
{
    std::vector<size_t> all(data.records.size());
    std::iota(all.begin(), all.end(), size_t { 0 });
    return all;
}

int dataset(const std::string& path, const std::string& holdout, const std::string& kind)
{
    auto opened = openDataset(path);
    if (!opened)
        return 1;
    const store::Dataset& data = opened->data;
    const auto& targets = opened->targets;
    for (const std::string& line : data.report.lines())
        std::printf("# %s\n", line.c_str());
    const std::vector<std::string> held = split(holdout, ',');
    const store::DatasetSplit parts = store::splitByNetworks(data, held).value();
    std::printf(
        "held out %s: %zu train records, %zu test records\n", holdout.c_str(), parts.train.size(), parts.test.size());
    auto model = cost::makeCostModel(kind, 1).value();
    const engine::TrainReport trained = engine::trainOnDataset(*model, data, parts.train, targets).value();
    std::printf("%s trained on %lld programs of %lld tasks in %.1f s (features + training)\n", kind.c_str(),
        static_cast<long long>(trained.samples), static_cast<long long>(trained.tasks), trained.seconds);
    const store::MetricOptions options;
    const engine::EvalReport eval = engine::evaluateOnDataset(*model, data, parts.test, targets, options);
    const store::MetricsSummary& m = eval.metrics;
    std::printf("test: %lld programs of %d tasks scored in %.2f s (%.0f programs/s)\n",
        static_cast<long long>(eval.scored), m.tasks, eval.seconds, eval.scored / std::max(1e-9, eval.seconds));
    std::printf("  pairwise accuracy %.3f, spearman %.3f, rmse %.3f, top-1 recall %.3f, top-5 recall %.3f, "
                "peak@1 %.3f, peak@5 %.3f (mean over tasks)\n",
        m.mean.pairwiseAccuracy, m.mean.spearman, m.mean.rmse, m.mean.topKRecall[0], m.mean.topKRecall[1],
        m.mean.peakScore[0], m.mean.peakScore[1]);
    for (const store::NetworkMetrics& n : m.networks)
        std::printf("  %-36s top-1 score %.3f  top-5 score %.3f  (%d tasks)\n", n.name.c_str(), n.topKScore[0],
            n.topKScore[1], n.tasks);

    const std::vector<size_t> all = allRecords(data);
    for (size_t n : { size_t { 10000 }, all.size() }) {
        if (n > all.size())
            continue;
        std::vector<size_t> subset = all;
        Rng rng(5);
        for (size_t i = 0; i < n; ++i)
            std::swap(subset[i],
                subset[i + static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(all.size() - i - 1)))]);
        subset.resize(n);
        std::sort(subset.begin(), subset.end());
        auto fresh = cost::makeCostModel(kind, 1).value();
        const engine::TrainReport r = engine::trainOnDataset(*fresh, data, subset, targets).value();
        std::printf("training on %zu records: %.1f s (features and training)\n", n, r.seconds);
    }
    return 0;
}

int estimate(const std::string& path, const std::string& network, const std::string& layout)
{
    auto opened = openDataset(path);
    if (!opened)
        return 1;
    store::Dataset& data = opened->data;
    engine::attachSessionDags(opened->store, data).value();
    if (!network.empty()) { // a workspace whose tasks no network or session names: rebuild them from NETWORK
        const auto tasks = store::loadNetworkTasks({ network, 1, ops::layoutFromString(layout).value() }).value();
        for (store::DatasetTask& task : data.tasks)
            for (const graph::Task& t : tasks.tasks)
                if (!task.dag && t.dag.workloadKey() == task.key)
                    task.dag = t.dag;
    }
    const store::MetricOptions options; // ks 1 and 5
    std::vector<store::TaskMetrics> metrics;
    std::printf("%-44s %8s %8s %8s %10s %10s %10s\n", "task", "programs", "spearman", "pairwise", "best ms", "top-1 ms",
        "top-5 ms");
    engine::DatasetSamples samples = engine::samplesOf(data, allRecords(data), opened->targets);
    for (size_t b = 0; b < samples.batches.size(); ++b) {
        cost::CostModel::Batch& batch = samples.batches[b];
        const std::vector<size_t>& records = samples.records[b];
        if (batch.task.target.isGpu() || batch.states.size() < 2)
            continue;
        const store::DatasetRecord& first = data.records[records.front()];
        const auto profile = engine::deviceProfile(opened->store, first.deviceId).value();
        cost::AnalyticalCostModel model(
            profile ? engine::limitsOf(*profile, batch.task.target.vectorBytes) : cost::MachineLimits {});
        batch.task.packsWeights = true; // as TuneScope measures on the CPU
        std::vector<double> scores = model.predict(batch.task, batch.states);
        std::vector<double> labels, costs;
        for (size_t i = 0; i < records.size(); ++i) {
            scores[i] = std::isfinite(scores[i]) ? scores[i] : 0.0;
            labels.push_back(data.records[records[i]].label);
            costs.push_back(data.records[records[i]].cost);
        }
        metrics.push_back(store::evaluateTask(scores, labels, costs, options));
        const store::TaskMetrics& m = metrics.back();
        std::printf("%-44s %8lld %8.3f %8.3f %10.4f %10.4f %10.4f\n", data.tasks[first.task].name.substr(0, 44).c_str(),
            static_cast<long long>(m.programs), m.values.spearman, m.values.pairwiseAccuracy, m.bestCost * 1e3,
            m.topKCost[0] * 1e3, m.topKCost[1] * 1e3);
    }
    double best = 0, top1 = 0, top5 = 0;
    for (const store::TaskMetrics& m : metrics) {
        best += m.bestCost;
        top1 += m.topKCost[0];
        top5 += m.topKCost[1];
    }
    const store::MetricsSummary summary = store::summarize(metrics, {}, options);
    std::printf("%d tasks: mean spearman %.3f, pairwise %.3f; sum of best %.4f ms, of top-1 %.4f ms (%.0f%%), "
                "of top-5 %.4f ms (%.0f%%)\n",
        summary.tasks, summary.mean.spearman, summary.mean.pairwiseAccuracy, best * 1e3, top1 * 1e3,
        100.0 * best / std::max(1e-12, top1), top5 * 1e3, 100.0 * best / std::max(1e-12, top5));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string what = argc > 1 ? argv[1] : "";
    std::printf("CPU: %s\n", target::Target::host().cpuName.c_str());
    if (what == "curves") {
        const int trials = argc > 2 ? std::atoi(argv[2]) : 400;
        const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
        curves(trials > 0 ? trials : 400, seed, split(argc > 4 ? argv[4] : "random,xgb", ','));
        return 0;
    }
    if (what == "dataset" && argc > 2)
        return dataset(argv[2], argc > 3 ? argv[3] : "resnet-50,mobilenet-v2,bert-base", argc > 4 ? argv[4] : "xgb");
    if (what == "estimate" && argc > 2)
        return estimate(argv[2], argc > 4 ? argv[3] : "", argc > 4 ? argv[4] : "");
    std::fprintf(stderr,
        "usage: ts_bench_cost_models curves [TRIALS [SEED [MODELS]]] | dataset WORKSPACE [HOLDOUT [MODEL]] | "
        "estimate WORKSPACE [NETWORK LAYOUT]\n");
    return 2;
}
