// How well a cost model ranks programs: the metrics of TenSet and TLP (tlc-pack/tenset
// python/tvm/auto_scheduler/cost_model/metric.py, scripts/train_model.py evaluate_model,
// scripts/eval_model_on_dataset.py), as pure functions on plain vectors, with no store behind them.
//
// Per task (one workload on one device), for n programs with predictions p (higher = predicted faster),
// labels l (normalised throughput, min cost of the task / cost, so the best program has 1) and costs c:
//   pairwiseAccuracy  the fraction of the n(n-1)/2 pairs i<j with [p_i > p_j] == [l_i > l_j] (TenSet's
//                     definition, strict comparisons, so ties count as follows: a pair tied in the label is
//                     correct iff p_i <= p_j; a pair tied in the prediction is correct iff l_i <= l_j; a pair
//                     tied in both is correct. The result depends on the programs' order, as TenSet's does;
//                     the dataset gives them in record-id order). n <= 1: 0.5 (TenSet).
//   topKRecall        |top-k by p ∩ top-k by l| / min(k, n). TenSet divides by k, which caps a perfect model
//                     at n/k when k > n; dividing by min(k, n) keeps 1 = perfect. n = 0: 0.
//   averagePeakScore  the first m = min(N, n) programs by p; peak_j = max(l of the first j) / max(l); the mean
//                     of peak_1..peak_m (TenSet averages over the programs there are when n < N). n = 0 or
//                     max(l) <= 0: 0.
//   rmse              sqrt(mean((p_i - l_i)^2)). n = 0: 0.
//   rSquared          1 - SS_res / SS_tot, SS_tot = Σ(l_i - mean l)^2, SS_res = Σ(l_i - p_i)^2. SS_tot < 1e-6
//                     (all labels equal, one program, none): 1 (TenSet).
//   spearman          Pearson correlation of the ranks of p and of l, tied values sharing their average rank.
//                     n < 2, or all p equal, or all l equal: 0 (no rank information).
//   bestCostOfTopK    L^k = min c over the top min(k, n) programs by p. n = 0: 0.
// "Top by p" everywhere orders by p descending, ties broken by the lower index (the earlier record), so
// every metric is deterministic.
//
// Per network (TenSet/TLP's top-k score), for tasks with weights w_i, L_i* = the least cost among the task's
// programs in the data and L_i^k as above:
//   score@k = Σ w_i L_i* / Σ w_i L_i^k  (1 = the model's top k always hold the best program).
//   TenSet reads L_i^k back from labels as L_i* / max(l, 1e-5); taking the costs themselves is the same but
//   for programs over 1e5 times slower than the best. Tasks without programs are left out of both sums (TenSet
//   skips them with a warning; NetworkMetrics counts them). No task left, or Σ w_i L_i^k = 0: 0.
//
// Aggregates (summarize): tasks without programs are left out and counted. `mean` is the plain mean over tasks
// of each metric; `recordWeighted` weights each task by its program count as TenSet's evaluate_model does
// (RMSE as sqrt of the weighted mean of squared RMSEs, i.e. the RMSE over all programs); each network's
// `weighted` weights its tasks by w_i. No task: every value 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ts::store {

// Program indices ordered by score descending, ties by index ascending.
std::vector<size_t> rankByScore(std::span<const double> scores);

// Metrics of one task; `predictions` and `labels` (or `costs`) have one value per program, in the same order.
// k and N are >= 1.
double pairwiseAccuracy(std::span<const double> predictions, std::span<const double> labels);
double topKRecall(std::span<const double> predictions, std::span<const double> labels, int k);
double averagePeakScore(std::span<const double> predictions, std::span<const double> labels, int n);
double rmse(std::span<const double> predictions, std::span<const double> labels);
double rSquared(std::span<const double> predictions, std::span<const double> labels);
double spearman(std::span<const double> predictions, std::span<const double> labels);
double bestCostOfTopK(std::span<const double> predictions, std::span<const double> costs, int k);

// One task's part in a network's score.
struct WeightedTaskCosts {
    double weight = 1.0; // w_i: how often the task occurs in the network
    double bestCost = 0.0; // L_i*
    double topKCost = 0.0; // L_i^k
};
// score@k over a network's tasks, see the header comment.
double networkTopKScore(std::span<const WeightedTaskCosts> tasks);

struct MetricOptions {
    // The k of top-k recall, of average peak score@k and of the network score@k (TenSet reports 1 and 5).
    std::vector<int> ks = { 1, 5 };
};

// The metrics that average over tasks.
struct MetricValues {
    double rmse = 0.0;
    double rSquared = 0.0;
    double pairwiseAccuracy = 0.0;
    double spearman = 0.0;
    std::vector<double> topKRecall; // one per MetricOptions::ks
    std::vector<double> peakScore; // average peak score@k, one per MetricOptions::ks
};

// Everything about one task.
struct TaskMetrics {
    int64_t programs = 0;
    MetricValues values;
    double bestCost = 0.0; // L*: the least cost among the task's programs
    std::vector<double> topKCost; // L^k, one per MetricOptions::ks
};

// All metrics of one task; the three spans have one value per program.
TaskMetrics evaluateTask(std::span<const double> predictions, std::span<const double> labels,
    std::span<const double> costs, const MetricOptions& options = {});

// A network as the metrics see it: its tasks (indices into the list given to summarize) and their weights.
struct NetworkTasks {
    struct Member {
        size_t task = 0;
        double weight = 1.0;
    };
    std::string name; // "resnet-18 (batch 1, NHWC)"
    std::vector<Member> tasks;
};

struct NetworkMetrics {
    std::string name;
    int tasks = 0; // members with programs, in the score
    int tasksWithoutPrograms = 0; // members left out
    double weight = 0.0; // Σ w_i of the members in the score
    std::vector<double> topKScore; // score@k, one per MetricOptions::ks
    MetricValues weighted; // the per-task metrics weighted by w_i
};

struct MetricsSummary {
    int tasks = 0; // tasks with programs
    int tasksWithoutPrograms = 0;
    int64_t programs = 0;
    MetricValues mean; // plain mean over tasks
    MetricValues recordWeighted; // weighted by program count (TenSet's evaluate_model)
    std::vector<NetworkMetrics> networks;
};

// Aggregates per-task metrics (all computed with `options`) over tasks and over each network.
MetricsSummary summarize(
    std::span<const TaskMetrics> tasks, std::span<const NetworkTasks> networks, const MetricOptions& options = {});

} // namespace ts::store
