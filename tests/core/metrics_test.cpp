// The cost-model metrics (core/store/metrics.h) against values computed by hand on small sets, ties and
// degenerate tasks included.
#include "core/store/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ts::store {
namespace {

    using V = std::vector<double>;

    // Predictions and labels of one task of four programs, used by several tests. By prediction the order is
    // 0, 1, 3, 2; by label 1, 2, 3, 0.
    const V kP = { 0.9, 0.8, 0.1, 0.5 };
    const V kL = { 0.2, 1.0, 0.9, 0.5 };

    TEST(Metrics, PairwiseAccuracyCountsPairsAsTenSet)
    {
        // Pairs (0,1) (0,2) (0,3) (2,3) disagree, (1,2) (1,3) agree.
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(kP, kL), 2.0 / 6.0);
        // (0,2) disagrees: 3 > 2 but 0.4 < 0.5.
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 3, 1, 2, 4 }, V { 0.4, 0.1, 0.5, 1.0 }), 5.0 / 6.0);
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(kL, kL), 1.0);
    }

    TEST(Metrics, PairwiseAccuracyTies)
    {
        // A label tie (0,1) is correct iff p_0 <= p_1; a prediction tie (1,2) iff l_1 <= l_2.
        const V labels = { 0.2, 0.2, 0.9 };
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 0.1, 0.4, 0.4 }, labels), 1.0);
        // p_0 > p_1 on a label tie: wrong; (0,2) wrong too; the prediction tie (1,2) with l_1 < l_2: correct.
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 0.5, 0.4, 0.4 }, labels), 1.0 / 3.0);
        // A prediction tie with l_0 > l_1 is wrong; tied in both is correct.
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 0.3, 0.3 }, V { 0.9, 0.1 }), 0.0);
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 0.3, 0.3 }, V { 0.1, 0.9 }), 1.0);
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 0.3, 0.3 }, V { 0.5, 0.5 }), 1.0);
    }

    TEST(Metrics, PairwiseAccuracyOfOneOrNoProgramIsOneHalf)
    {
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V { 0.7 }, V { 1.0 }), 0.5);
        EXPECT_DOUBLE_EQ(pairwiseAccuracy(V {}, V {}), 0.5);
    }

    TEST(Metrics, TopKRecall)
    {
        EXPECT_DOUBLE_EQ(topKRecall(kP, kL, 1), 0.0); // {0} vs {1}
        EXPECT_DOUBLE_EQ(topKRecall(kP, kL, 2), 0.5); // {0, 1} vs {1, 2}
        EXPECT_DOUBLE_EQ(topKRecall(kP, kL, 3), 2.0 / 3.0); // {0, 1, 3} vs {1, 2, 3}
        // k past the set: every program is in both tops, divided by min(k, n) = 4.
        EXPECT_DOUBLE_EQ(topKRecall(kP, kL, 10), 1.0);
        EXPECT_DOUBLE_EQ(topKRecall(V {}, V {}, 5), 0.0);
    }

    TEST(Metrics, TopKRecallBreaksTiesByTheLowerIndex)
    {
        // Programs 0 and 1 tie in prediction: the top 1 is program 0.
        EXPECT_DOUBLE_EQ(topKRecall(V { 0.5, 0.5, 0.1 }, V { 0.3, 1.0, 0.2 }, 1), 0.0);
        EXPECT_DOUBLE_EQ(topKRecall(V { 0.5, 0.5, 0.1 }, V { 1.0, 0.3, 0.2 }, 1), 1.0);
        // Tied labels: the top 1 by label is program 0 as well.
        EXPECT_DOUBLE_EQ(topKRecall(V { 0.1, 0.9 }, V { 1.0, 1.0 }, 1), 0.0);
        EXPECT_EQ(rankByScore(V { 0.5, 0.9, 0.5, 0.9 }), (std::vector<size_t> { 1, 3, 0, 2 }));
    }

    TEST(Metrics, AveragePeakScore)
    {
        // Labels in prediction order: 0.2, 1.0, 0.5, 0.9; running max 0.2, 1, 1, 1; max label 1.
        EXPECT_DOUBLE_EQ(averagePeakScore(kP, kL, 1), 0.2);
        EXPECT_DOUBLE_EQ(averagePeakScore(kP, kL, 2), 0.6);
        EXPECT_DOUBLE_EQ(averagePeakScore(kP, kL, 3), 2.2 / 3.0);
        // N past the set: the mean over the four programs there are.
        EXPECT_DOUBLE_EQ(averagePeakScore(kP, kL, 5), 3.2 / 4.0);
        // Divided by the max label, not 1.
        EXPECT_DOUBLE_EQ(averagePeakScore(V { 1, 0 }, V { 0.25, 0.5 }, 2), 0.75);
        EXPECT_DOUBLE_EQ(averagePeakScore(V { 1, 0 }, V { 0.0, 0.0 }, 2), 0.0);
        EXPECT_DOUBLE_EQ(averagePeakScore(V {}, V {}, 2), 0.0);
    }

    TEST(Metrics, RmseAndRSquared)
    {
        EXPECT_DOUBLE_EQ(rmse(V { 1, 2, 3 }, V { 1, 1, 1 }), std::sqrt(5.0 / 3.0));
        EXPECT_DOUBLE_EQ(rmse(V {}, V {}), 0.0);
        // SS_tot = 0.5, SS_res = 0.02.
        EXPECT_DOUBLE_EQ(rSquared(V { 0.1, 0.9 }, V { 0.0, 1.0 }), 1.0 - 0.02 / 0.5);
        EXPECT_DOUBLE_EQ(rSquared(V { 0.5, 0.5 }, V { 0.0, 1.0 }), 0.0);
        EXPECT_DOUBLE_EQ(rSquared(V { 1.0, 0.0 }, V { 0.0, 1.0 }), 1.0 - 2.0 / 0.5);
        // All labels equal, one program, none: TenSet's 1.
        EXPECT_DOUBLE_EQ(rSquared(V { 0.1, 0.9 }, V { 1.0, 1.0 }), 1.0);
        EXPECT_DOUBLE_EQ(rSquared(V { 0.3 }, V { 1.0 }), 1.0);
        EXPECT_DOUBLE_EQ(rSquared(V {}, V {}), 1.0);
    }

    TEST(Metrics, SpearmanUsesAverageRanksForTies)
    {
        EXPECT_DOUBLE_EQ(spearman(V { 1, 2, 3, 4 }, V { 10, 20, 30, 45 }), 1.0);
        EXPECT_DOUBLE_EQ(spearman(V { 4, 3, 2, 1 }, V { 10, 20, 30, 45 }), -1.0);
        // Ranks 1, 2.5, 2.5, 4 against 1, 2, 3, 4: 4.5 / sqrt(4.5 * 5).
        EXPECT_NEAR(spearman(V { 1, 2, 2, 3 }, V { 1, 2, 3, 4 }), std::sqrt(0.9), 1e-12);
        EXPECT_DOUBLE_EQ(spearman(V { 1, 2, 3 }, V { 5, 5, 5 }), 0.0);
        EXPECT_DOUBLE_EQ(spearman(V { 1 }, V { 1 }), 0.0);
    }

    TEST(Metrics, BestCostOfTopKAndNetworkScore)
    {
        const V costs = { 5.0, 1.0, 1.1, 2.0 };
        EXPECT_DOUBLE_EQ(bestCostOfTopK(kP, costs, 1), 5.0);
        EXPECT_DOUBLE_EQ(bestCostOfTopK(kP, costs, 2), 1.0);
        EXPECT_DOUBLE_EQ(bestCostOfTopK(kP, costs, 10), 1.0);
        // (2 * 1 + 1 * 3) / (2 * 2 + 1 * 3)
        const std::vector<WeightedTaskCosts> tasks = { { 2.0, 1.0, 2.0 }, { 1.0, 3.0, 3.0 } };
        EXPECT_DOUBLE_EQ(networkTopKScore(tasks), 5.0 / 7.0);
        EXPECT_DOUBLE_EQ(networkTopKScore({}), 0.0);
    }

    TEST(Metrics, EvaluateTaskWithOneProgram)
    {
        const TaskMetrics t = evaluateTask(V { 0.3 }, V { 1.0 }, V { 2.0 });
        EXPECT_EQ(t.programs, 1);
        EXPECT_DOUBLE_EQ(t.values.rmse, 0.7);
        EXPECT_DOUBLE_EQ(t.values.rSquared, 1.0);
        EXPECT_DOUBLE_EQ(t.values.pairwiseAccuracy, 0.5);
        EXPECT_DOUBLE_EQ(t.values.spearman, 0.0);
        EXPECT_EQ(t.values.topKRecall, (V { 1.0, 1.0 }));
        EXPECT_EQ(t.values.peakScore, (V { 1.0, 1.0 }));
        EXPECT_DOUBLE_EQ(t.bestCost, 2.0);
        EXPECT_EQ(t.topKCost, (V { 2.0, 2.0 }));
    }

    TEST(Metrics, SummarizeOverTasksAndNetworks)
    {
        const TaskMetrics x = evaluateTask(kP, kL, V { 5.0, 1.0, 1.1, 2.0 });
        const TaskMetrics y = evaluateTask(V { 0.3 }, V { 1.0 }, V { 2.0 });
        const TaskMetrics empty = evaluateTask(V {}, V {}, V {});
        const std::vector<TaskMetrics> tasks = { x, y, empty };
        const std::vector<NetworkTasks> networks = { { "net", { { 0, 2.0 }, { 1, 1.0 }, { 2, 3.0 } } } };
        const MetricsSummary s = summarize(tasks, networks);

        EXPECT_EQ(s.tasks, 2);
        EXPECT_EQ(s.tasksWithoutPrograms, 1);
        EXPECT_EQ(s.programs, 5);
        EXPECT_DOUBLE_EQ(s.mean.pairwiseAccuracy, (1.0 / 3.0 + 0.5) / 2.0);
        EXPECT_DOUBLE_EQ(s.recordWeighted.pairwiseAccuracy, (4.0 / 3.0 + 0.5) / 5.0);
        // x's squared errors: 0.49, 0.04, 0.64, 0; y's 0.49.
        EXPECT_DOUBLE_EQ(s.mean.rmse, (std::sqrt(1.17 / 4.0) + 0.7) / 2.0);
        EXPECT_DOUBLE_EQ(s.recordWeighted.rmse, std::sqrt((1.17 + 0.49) / 5.0));
        EXPECT_DOUBLE_EQ(s.mean.topKRecall[0], 0.5); // x 0, y 1
        EXPECT_DOUBLE_EQ(s.mean.peakScore[1], (0.8 + 1.0) / 2.0);

        ASSERT_EQ(s.networks.size(), 1u);
        const NetworkMetrics& n = s.networks[0];
        EXPECT_EQ(n.tasks, 2);
        EXPECT_EQ(n.tasksWithoutPrograms, 1);
        EXPECT_DOUBLE_EQ(n.weight, 3.0);
        // score@1: x's top 1 costs 5 (best 1), y's 2 (best 2): (2 * 1 + 2) / (2 * 5 + 2). score@5: perfect.
        EXPECT_DOUBLE_EQ(n.topKScore[0], 4.0 / 12.0);
        EXPECT_DOUBLE_EQ(n.topKScore[1], 1.0);
        EXPECT_DOUBLE_EQ(n.weighted.pairwiseAccuracy, (2.0 / 3.0 + 0.5) / 3.0);
    }

    TEST(Metrics, SummaryOfNothingIsZeros)
    {
        const MetricsSummary s = summarize({}, {});
        EXPECT_EQ(s.tasks, 0);
        EXPECT_DOUBLE_EQ(s.mean.rmse, 0.0);
        EXPECT_DOUBLE_EQ(s.mean.pairwiseAccuracy, 0.0);
        EXPECT_EQ(s.mean.topKRecall, (V { 0.0, 0.0 }));
        EXPECT_FALSE(std::isnan(s.recordWeighted.rSquared));
    }

} // namespace
} // namespace ts::store
