// The task scheduler driven with synthetic histories: the warm-up order, round robin, the gradient choice
// against a hand computation, similarity groups, dead tasks, early stopping and restore.
#include "core/record/measure_result.h"
#include "core/search/task_scheduler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

using namespace ts;
using namespace ts::search;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

SchedulerOptions options(SchedulerStrategy strategy, int earlyStoppingTrials = 0)
{
    SchedulerOptions o;
    o.strategy = strategy;
    o.earlyStoppingTrials = earlyStoppingTrials;
    return o;
}

std::vector<SchedulerTask> threeTasks()
{
    return { { "a", 1, 1e9, "ta" }, { "b", 1, 1e9, "tb" }, { "c", 1, 1e9, "tc" } };
}

void recordHistory(TaskScheduler& scheduler, int task, const std::vector<double>& bests)
{
    for (double best : bests)
        scheduler.recordRound(task, 64, best);
}

// Four tasks: a and b share the tag "conv", c is alone, d is dead. Weights a=2, b=1, c=cWeight, d=1.
TaskScheduler gradientFixture(int cWeight)
{
    TaskScheduler scheduler(
        { { "a", 2, 1e9, "conv" }, { "b", 1, 2e9, "conv" }, { "c", cWeight, 5e8, "dense" }, { "d", 1, 1e9, "pool" } },
        options(SchedulerStrategy::Gradient));
    recordHistory(scheduler, 1, { 0.003, 0.002 });
    recordHistory(scheduler, 0, { 0.010, 0.008, 0.006, 0.005, 0.004 });
    recordHistory(scheduler, 2, { 0.004, 0.003, 0.003, 0.002 });
    recordHistory(scheduler, 3, { 0.001 });
    scheduler.markDead(3, "no new candidates");
    return scheduler;
}
} // namespace

TEST(TaskScheduler, StrategyNamesAndSimilarityTag)
{
    EXPECT_STREQ(toString(SchedulerStrategy::RoundRobin), "round-robin");
    EXPECT_STREQ(toString(SchedulerStrategy::Gradient), "gradient");
    // log_1.618(1e9 + 1) = 20.723 / 0.48121 = 43.06; log_1.618(2e9 + 1) = 44.50.
    EXPECT_EQ(similarityTag("conv2d_nchw", 1e9), "conv2d_nchw_43");
    EXPECT_EQ(similarityTag("conv2d_nchw", 1.2e9), "conv2d_nchw_43");
    EXPECT_EQ(similarityTag("conv2d_nchw", 2e9), "conv2d_nchw_44");
    EXPECT_EQ(similarityTag("", 1e9), "");
    // An empty tag is made from the name.
    TaskScheduler scheduler({ { "dense", 1, 1e9, "" }, { "dense", 1, 2e9, "" }, { "x", 1, 1.0, "mine" } });
    EXPECT_EQ(scheduler.tasks()[0].tag, "dense_43");
    EXPECT_EQ(scheduler.tasks()[1].tag, "dense_44");
    EXPECT_EQ(scheduler.tasks()[2].tag, "mine");
}

TEST(TaskScheduler, WarmUpTakesEachLiveTaskOnceInOrder)
{
    TaskScheduler scheduler(threeTasks(), options(SchedulerStrategy::Gradient));
    EXPECT_TRUE(scheduler.inWarmUp());
    EXPECT_EQ(scheduler.next(), 0);
    EXPECT_EQ(scheduler.next(), 0); // nothing recorded yet: still task 0
    scheduler.recordRound(0, 64, 0.001);
    EXPECT_EQ(scheduler.next(), 1);
    scheduler.markDead(1, "no new candidates");
    EXPECT_EQ(scheduler.next(), 2);
    EXPECT_TRUE(scheduler.inWarmUp());
    scheduler.recordRound(2, 64, 0.002);
    EXPECT_FALSE(scheduler.inWarmUp());
    EXPECT_EQ(scheduler.progress()[1].deadReason, "no new candidates");
}

TEST(TaskScheduler, RoundRobinCyclesLiveTasksAndEndsWithMinusOne)
{
    TaskScheduler scheduler(threeTasks(), options(SchedulerStrategy::RoundRobin));
    std::vector<int> order;
    for (int round = 0; round < 7; ++round) {
        const int task = scheduler.next();
        order.push_back(task);
        scheduler.recordRound(task, 64, 0.001);
    }
    EXPECT_EQ(order, (std::vector<int> { 0, 1, 2, 0, 1, 2, 0 }));

    scheduler.markDead(2, "no new candidates");
    order.clear();
    for (int round = 0; round < 4; ++round) {
        const int task = scheduler.next();
        order.push_back(task);
        scheduler.recordRound(task, 64, 0.001);
    }
    EXPECT_EQ(order, (std::vector<int> { 1, 0, 1, 0 }));

    scheduler.markDead(0, "no new candidates");
    scheduler.markDead(1, "150 consecutive errors");
    EXPECT_EQ(scheduler.next(), -1);
}

TEST(TaskScheduler, GradientMatchesHandComputation)
{
    TaskScheduler scheduler = gradientFixture(3);
    EXPECT_FALSE(scheduler.inWarmUp());
    // alpha 0.2, beta 2, window 3. Group "conv" best FLOPS = max(1e9 / 0.004, 2e9 / 0.002) = 1e12.
    // a: backward = (0.004 - 0.008) / 3; next1 = 0.004 - 0.004 / 5 = 0.0032; next2 = 2 * 1e9 / 1e12 = 0.002;
    //    forward = 0.002 - 0.004 = -0.002; grad = 2 * (0.2 * -0.004 / 3 + 0.8 * -0.002) = -0.0037333...
    // b: 2 rounds, backward 0; next1 = 0.002 - 0.001 = 0.001; next2 = 2 * 2e9 / 1e12 = 0.004;
    //    forward = -0.001; grad = 1 * 0.8 * -0.001 = -0.0008
    // c: no group, next2 = 2e30; backward = (0.002 - 0.004) / 3; next1 = 0.002 - 0.002 / 4 = 0.0015;
    //    forward = -0.0005; grad = 3 * (0.2 * -0.002 / 3 + 0.8 * -0.0005) = -0.0016
    const std::vector<double> grads = scheduler.gradients();
    ASSERT_EQ(grads.size(), 4u);
    EXPECT_NEAR(grads[0], -0.0037333333333333333, 1e-15);
    EXPECT_NEAR(grads[1], -0.0008, 1e-15);
    EXPECT_NEAR(grads[2], -0.0016, 1e-15);
    EXPECT_TRUE(std::isnan(grads[3]));
    EXPECT_EQ(scheduler.next(), 0);
    EXPECT_DOUBLE_EQ(scheduler.objective(), 2 * 0.004 + 0.002 + 3 * 0.002 + 0.001);

    // The weight is the chain-rule factor: c at weight 10 has -0.0053333 and wins.
    TaskScheduler heavier = gradientFixture(10);
    EXPECT_NEAR(heavier.gradients()[2], -0.0053333333333333333, 1e-15);
    EXPECT_EQ(heavier.next(), 2);
}

TEST(TaskScheduler, SlowTaskLeavesItsSimilarityGroup)
{
    TaskScheduler scheduler({ { "x", 1, 1e9, "g" }, { "y", 1, 1e9, "g" } }, options(SchedulerStrategy::Gradient));
    recordHistory(scheduler, 1, { 0.001 }); // 1e12 FLOPS
    recordHistory(scheduler, 0, { 0.01, 0.01, 0.01, 0.01, 0.01, 0.01 }); // 1e11 < 1e12 / beta
    // 6 rounds is not more than 5 + 1: still grouped. next1 = 0.01 - 0.01 / 6, next2 = 2 * 1e9 / 1e12 = 0.002,
    // forward = -0.008, backward 0: grad = 0.8 * -0.008.
    EXPECT_NEAR(scheduler.gradients()[0], -0.0064, 1e-15);
    scheduler.recordRound(0, 64, 0.01);
    // 7 > 6: x leaves the group; next2 = 2e30, forward = -0.01 / 7.
    EXPECT_NEAR(scheduler.gradients()[0], 0.8 * -0.01 / 7, 1e-15);
    // y is now alone too: next1 = 0, forward = -0.001.
    EXPECT_NEAR(scheduler.gradients()[1], 0.8 * -0.001, 1e-15);
}

TEST(TaskScheduler, TaskWithoutBestIsPickedFirstAndObjectiveIsInfinite)
{
    TaskScheduler scheduler(threeTasks(), options(SchedulerStrategy::Gradient));
    scheduler.recordRound(0, 64, 0.001);
    scheduler.recordRound(1, 64, kInf);
    scheduler.recordRound(2, 64, record::kFailedCost); // TVM's "no cost" counts as none
    EXPECT_EQ(scheduler.progress()[2].bestCost, kInf);
    EXPECT_EQ(scheduler.objective(), kInf);
    const std::vector<double> grads = scheduler.gradients();
    EXPECT_EQ(grads[1], -kInf);
    EXPECT_EQ(grads[2], -kInf);
    EXPECT_EQ(scheduler.next(), 1);

    scheduler.recordRound(1, 64, 0.002);
    // The history of 1 is {inf, 0.002}; the window is not full, and an infinite end would give no rate.
    EXPECT_NEAR(scheduler.gradients()[1], 0.8 * -0.001, 1e-15);
    EXPECT_EQ(scheduler.next(), 2);
}

TEST(TaskScheduler, TiesAreBrokenBySeedAmongLiveTasksOnly)
{
    auto picks = [](uint64_t seed, bool killMiddle) {
        SchedulerOptions o = options(SchedulerStrategy::Gradient);
        o.seed = seed;
        TaskScheduler scheduler(threeTasks(), o);
        for (int task = 0; task < 3; ++task)
            scheduler.recordRound(task, 64, 0.001);
        if (killMiddle)
            scheduler.markDead(1, "no new candidates");
        std::vector<int> chosen;
        for (int round = 0; round < 30; ++round)
            chosen.push_back(scheduler.next()); // all equal gradients: nothing recorded keeps them equal
        return chosen;
    };
    const std::vector<int> first = picks(5, false);
    EXPECT_EQ(first, picks(5, false));
    EXPECT_NE(first, picks(6, false));
    EXPECT_EQ(std::set<int>(first.begin(), first.end()), (std::set<int> { 0, 1, 2 }));
    const std::vector<int> withDead = picks(5, true);
    EXPECT_EQ(std::set<int>(withDead.begin(), withDead.end()), (std::set<int> { 0, 2 }));
}

TEST(TaskScheduler, DeadTasksAreNeverPickedAndAllDeadGivesMinusOne)
{
    TaskScheduler scheduler = gradientFixture(3);
    scheduler.markDead(0, "no new candidates");
    scheduler.markDead(0, "a second reason is ignored");
    EXPECT_EQ(scheduler.progress()[0].deadReason, "no new candidates");
    EXPECT_TRUE(std::isnan(scheduler.gradients()[0]));
    EXPECT_EQ(scheduler.next(), 2); // c (-0.0016) beats b (-0.0008) once a is gone
    scheduler.markDead(2, "150 consecutive errors");
    EXPECT_EQ(scheduler.next(), 1);
    scheduler.markDead(1, "no new candidates");
    EXPECT_EQ(scheduler.next(), -1);
    EXPECT_FALSE(scheduler.inWarmUp());
}

TEST(TaskScheduler, EarlyStoppingAfterMoreThanTheLimitWithoutImprovement)
{
    TaskScheduler scheduler(threeTasks(), options(SchedulerStrategy::Gradient, 100));
    scheduler.recordRound(0, 64, 0.010); // improved at 64 trials
    scheduler.recordRound(0, 64, 0.010); // 64 without improvement
    EXPECT_FALSE(scheduler.progress()[0].dead);
    scheduler.recordRound(0, 64, 0.009); // improved at 192
    scheduler.recordRound(0, 64, 0.009); // 64
    EXPECT_FALSE(scheduler.progress()[0].dead);
    scheduler.recordRound(0, 64, 0.0095); // 128 > 100, and a worse value does not lower the best
    EXPECT_TRUE(scheduler.progress()[0].dead);
    EXPECT_EQ(scheduler.progress()[0].bestCost, 0.009);
    EXPECT_EQ(scheduler.progress()[0].trialsAtLastImprovement, 192);
    EXPECT_EQ(scheduler.progress()[0].deadReason, "early stopping: no improvement in the last 128 trials (limit 100)");

    // Exactly the limit is not more than it.
    TaskScheduler exact(threeTasks(), options(SchedulerStrategy::Gradient, 128));
    recordHistory(exact, 0, { 0.01, 0.01, 0.01 });
    EXPECT_FALSE(exact.progress()[0].dead);
    exact.recordRound(0, 1, 0.01);
    EXPECT_TRUE(exact.progress()[0].dead);
}

TEST(TaskScheduler, RestoreSkipsWarmUpAndFeedsTheGradient)
{
    TaskScheduler scheduler(threeTasks(), options(SchedulerStrategy::Gradient, 100));
    scheduler.restore(1, 128, 2, 0.005);
    scheduler.restore(2, 64, 1, 0.001);
    EXPECT_EQ(scheduler.progress()[1].trials, 128);
    EXPECT_EQ(scheduler.progress()[1].rounds, 2);
    EXPECT_EQ(scheduler.progress()[1].bestHistory, (std::vector<double> { 0.005 }));
    EXPECT_TRUE(scheduler.inWarmUp());
    EXPECT_EQ(scheduler.next(), 0); // only task 0 has no round
    scheduler.recordRound(0, 64, 0.002);
    EXPECT_FALSE(scheduler.inWarmUp());
    EXPECT_DOUBLE_EQ(scheduler.objective(), 0.002 + 0.005 + 0.001);

    // The early-stopping count starts at the restore: 64 trials without improvement are within 100.
    scheduler.recordRound(1, 64, 0.005);
    EXPECT_FALSE(scheduler.progress()[1].dead);
    scheduler.recordRound(1, 64, 0.004);
    scheduler.recordRound(1, 64, 0.0035);
    // History {0.005, 0.005, 0.004, 0.0035}: backward = (0.0035 - 0.005) / 3 = -0.0005; 5 rounds:
    // next1 = 0.0035 - 0.0007, forward = -0.0007; grad = 0.2 * -0.0005 + 0.8 * -0.0007 = -0.00066.
    EXPECT_NEAR(scheduler.gradients()[1], -0.00066, 1e-15);
}
