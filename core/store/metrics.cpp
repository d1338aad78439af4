#include "core/store/metrics.h"

#include "core/support/assert.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ts::store {

namespace {

    void checkSizes(std::span<const double> a, std::span<const double> b)
    {
        TS_ASSERT(a.size() == b.size()) << "metric inputs differ in length: " << a.size() << " and " << b.size();
    }

    // Ranks 1..n of `values` ascending, tied values sharing the mean of the ranks they span.
    std::vector<double> averageRanks(std::span<const double> values)
    {
        std::vector<size_t> order(values.size());
        std::iota(order.begin(), order.end(), size_t { 0 });
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
        std::vector<double> ranks(values.size());
        for (size_t i = 0; i < order.size();) {
            size_t j = i;
            while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
                ++j;
            const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
            for (size_t t = i; t <= j; ++t)
                ranks[order[t]] = rank;
            i = j + 1;
        }
        return ranks;
    }

    // A running weighted mean of MetricValues. RMSE is averaged as is, or (rootMeanSquare) as the root of the
    // weighted mean of its squares: weighted by program counts, that is the RMSE over all programs.
    class ValuesMean {
    public:
        ValuesMean(size_t ks, bool rootMeanSquare)
            : m_rootMeanSquare(rootMeanSquare)
        {
            m_sum.topKRecall.assign(ks, 0.0);
            m_sum.peakScore.assign(ks, 0.0);
        }

        void add(const MetricValues& v, double weight)
        {
            m_sum.rmse += weight * (m_rootMeanSquare ? v.rmse * v.rmse : v.rmse);
            m_sum.rSquared += weight * v.rSquared;
            m_sum.pairwiseAccuracy += weight * v.pairwiseAccuracy;
            m_sum.spearman += weight * v.spearman;
            for (size_t i = 0; i < m_sum.topKRecall.size(); ++i) {
                m_sum.topKRecall[i] += weight * v.topKRecall[i];
                m_sum.peakScore[i] += weight * v.peakScore[i];
            }
            m_weight += weight;
        }

        // The weighted means. No weight: zeros.
        MetricValues result() const
        {
            MetricValues out = m_sum;
            if (m_weight <= 0.0) {
                out = MetricValues {};
                out.topKRecall.assign(m_sum.topKRecall.size(), 0.0);
                out.peakScore.assign(m_sum.peakScore.size(), 0.0);
                return out;
            }
            out.rmse = m_rootMeanSquare ? std::sqrt(m_sum.rmse / m_weight) : m_sum.rmse / m_weight;
            out.rSquared /= m_weight;
            out.pairwiseAccuracy /= m_weight;
            out.spearman /= m_weight;
            for (size_t i = 0; i < out.topKRecall.size(); ++i) {
                out.topKRecall[i] /= m_weight;
                out.peakScore[i] /= m_weight;
            }
            return out;
        }

    private:
        MetricValues m_sum;
        double m_weight = 0.0;
        bool m_rootMeanSquare = false;
    };

} // namespace

std::vector<size_t> rankByScore(std::span<const double> scores)
{
    std::vector<size_t> order(scores.size());
    std::iota(order.begin(), order.end(), size_t { 0 });
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    return order;
}

double pairwiseAccuracy(std::span<const double> predictions, std::span<const double> labels)
{
    checkSizes(predictions, labels);
    const size_t n = predictions.size();
    if (n <= 1)
        return 0.5;
    int64_t correct = 0;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            correct += (predictions[i] > predictions[j]) == (labels[i] > labels[j]) ? 1 : 0;
    const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2.0;
    return static_cast<double>(correct) / pairs;
}

double topKRecall(std::span<const double> predictions, std::span<const double> labels, int k)
{
    checkSizes(predictions, labels);
    TS_ASSERT(k >= 1) << "top-k recall needs k >= 1, not " << k;
    const size_t m = std::min(static_cast<size_t>(k), predictions.size());
    if (m == 0)
        return 0.0;
    std::vector<size_t> byPrediction = rankByScore(predictions);
    std::vector<size_t> byLabel = rankByScore(labels);
    byPrediction.resize(m);
    byLabel.resize(m);
    std::sort(byPrediction.begin(), byPrediction.end());
    std::sort(byLabel.begin(), byLabel.end());
    std::vector<size_t> common;
    std::set_intersection(
        byPrediction.begin(), byPrediction.end(), byLabel.begin(), byLabel.end(), std::back_inserter(common));
    return static_cast<double>(common.size()) / static_cast<double>(m);
}

double averagePeakScore(std::span<const double> predictions, std::span<const double> labels, int n)
{
    checkSizes(predictions, labels);
    TS_ASSERT(n >= 1) << "average peak score@N needs N >= 1, not " << n;
    if (labels.empty())
        return 0.0;
    const double best = *std::max_element(labels.begin(), labels.end());
    if (!(best > 0.0))
        return 0.0;
    const std::vector<size_t> order = rankByScore(predictions);
    const size_t m = std::min(static_cast<size_t>(n), order.size());
    double peak = labels[order[0]];
    double sum = 0.0;
    for (size_t j = 0; j < m; ++j) {
        peak = std::max(peak, labels[order[j]]);
        sum += peak / best;
    }
    return sum / static_cast<double>(m);
}

double rmse(std::span<const double> predictions, std::span<const double> labels)
{
    checkSizes(predictions, labels);
    if (predictions.empty())
        return 0.0;
    double sum = 0.0;
    for (size_t i = 0; i < predictions.size(); ++i)
        sum += (predictions[i] - labels[i]) * (predictions[i] - labels[i]);
    return std::sqrt(sum / static_cast<double>(predictions.size()));
}

double rSquared(std::span<const double> predictions, std::span<const double> labels)
{
    checkSizes(predictions, labels);
    if (labels.empty())
        return 1.0;
    const double mean = std::accumulate(labels.begin(), labels.end(), 0.0) / static_cast<double>(labels.size());
    double total = 0.0;
    double residual = 0.0;
    for (size_t i = 0; i < labels.size(); ++i) {
        total += (labels[i] - mean) * (labels[i] - mean);
        residual += (labels[i] - predictions[i]) * (labels[i] - predictions[i]);
    }
    if (total < 1e-6)
        return 1.0;
    return 1.0 - residual / total;
}

double spearman(std::span<const double> predictions, std::span<const double> labels)
{
    checkSizes(predictions, labels);
    const size_t n = predictions.size();
    if (n < 2)
        return 0.0;
    const std::vector<double> a = averageRanks(predictions);
    const std::vector<double> b = averageRanks(labels);
    const double mean = (static_cast<double>(n) + 1.0) / 2.0; // of ranks 1..n, ties included
    double ab = 0.0;
    double aa = 0.0;
    double bb = 0.0;
    for (size_t i = 0; i < n; ++i) {
        ab += (a[i] - mean) * (b[i] - mean);
        aa += (a[i] - mean) * (a[i] - mean);
        bb += (b[i] - mean) * (b[i] - mean);
    }
    if (aa <= 0.0 || bb <= 0.0)
        return 0.0;
    return ab / std::sqrt(aa * bb);
}

double bestCostOfTopK(std::span<const double> predictions, std::span<const double> costs, int k)
{
    checkSizes(predictions, costs);
    TS_ASSERT(k >= 1) << "top-k cost needs k >= 1, not " << k;
    if (predictions.empty())
        return 0.0;
    const std::vector<size_t> order = rankByScore(predictions);
    const size_t m = std::min(static_cast<size_t>(k), order.size());
    double best = costs[order[0]];
    for (size_t j = 1; j < m; ++j)
        best = std::min(best, costs[order[j]]);
    return best;
}

double networkTopKScore(std::span<const WeightedTaskCosts> tasks)
{
    double best = 0.0;
    double chosen = 0.0;
    for (const WeightedTaskCosts& t : tasks) {
        best += t.weight * t.bestCost;
        chosen += t.weight * t.topKCost;
    }
    return chosen > 0.0 ? best / chosen : 0.0;
}

TaskMetrics evaluateTask(std::span<const double> predictions, std::span<const double> labels,
    std::span<const double> costs, const MetricOptions& options)
{
    checkSizes(predictions, labels);
    checkSizes(predictions, costs);
    TaskMetrics out;
    out.programs = static_cast<int64_t>(predictions.size());
    out.values.rmse = rmse(predictions, labels);
    out.values.rSquared = rSquared(predictions, labels);
    out.values.pairwiseAccuracy = pairwiseAccuracy(predictions, labels);
    out.values.spearman = spearman(predictions, labels);
    out.bestCost = costs.empty() ? 0.0 : *std::min_element(costs.begin(), costs.end());
    for (int k : options.ks) {
        out.values.topKRecall.push_back(topKRecall(predictions, labels, k));
        out.values.peakScore.push_back(averagePeakScore(predictions, labels, k));
        out.topKCost.push_back(bestCostOfTopK(predictions, costs, k));
    }
    return out;
}

MetricsSummary summarize(
    std::span<const TaskMetrics> tasks, std::span<const NetworkTasks> networks, const MetricOptions& options)
{
    const size_t ks = options.ks.size();
    for (const TaskMetrics& t : tasks)
        TS_ASSERT(t.values.topKRecall.size() == ks && t.values.peakScore.size() == ks && t.topKCost.size() == ks)
            << "task metrics computed with other ks than the summary's";
    MetricsSummary out;
    ValuesMean mean(ks, false);
    ValuesMean byRecords(ks, true);
    for (const TaskMetrics& t : tasks) {
        if (t.programs == 0) {
            ++out.tasksWithoutPrograms;
            continue;
        }
        ++out.tasks;
        out.programs += t.programs;
        mean.add(t.values, 1.0);
        byRecords.add(t.values, static_cast<double>(t.programs));
    }
    out.mean = mean.result();
    out.recordWeighted = byRecords.result();

    for (const NetworkTasks& network : networks) {
        NetworkMetrics n;
        n.name = network.name;
        ValuesMean weighted(ks, false);
        std::vector<std::vector<WeightedTaskCosts>> costs(ks);
        for (const NetworkTasks::Member& member : network.tasks) {
            TS_ASSERT(member.task < tasks.size())
                << "network " << network.name << " names task " << member.task << " of " << tasks.size();
            const TaskMetrics& t = tasks[member.task];
            if (t.programs == 0) {
                ++n.tasksWithoutPrograms;
                continue;
            }
            ++n.tasks;
            n.weight += member.weight;
            weighted.add(t.values, member.weight);
            for (size_t i = 0; i < ks; ++i)
                costs[i].push_back({ member.weight, t.bestCost, t.topKCost[i] });
        }
        n.weighted = weighted.result();
        for (size_t i = 0; i < ks; ++i)
            n.topKScore.push_back(networkTopKScore(costs[i]));
        out.networks.push_back(std::move(n));
    }
    return out;
}

} // namespace ts::store
