// AutoTVM tuners (core/search/autotvm): random, grid and GA tuners and the simulated annealing optimizer,
// over synthetic spaces of "other" knobs whose objective is known.
#include "core/search/autotvm/config_space.h"
#include "core/search/autotvm/ga_tuner.h"
#include "core/search/autotvm/index_based_tuner.h"
#include "core/search/autotvm/sa_model_optimizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

using namespace ts;
using namespace ts::autotvm;

namespace {

// Knobs k0, k1, ... with the given numbers of entities (values 0..n-1).
ConfigSpace gridSpace(const std::vector<int>& sizes)
{
    ConfigSpace space;
    for (size_t i = 0; i < sizes.size(); ++i) {
        std::vector<std::string> values;
        for (int v = 0; v < sizes[i]; ++v)
            values.push_back(std::to_string(v));
        EXPECT_TRUE(space.add(makeOtherKnob("k" + std::to_string(i), values).value()));
    }
    return space;
}

// A smooth objective of the knob indexes with its one maximum (1.0) at `optimum`.
double objective(const ConfigSpace& space, int64_t index, const std::vector<size_t>& optimum)
{
    const std::vector<size_t> knobs = space.knobIndexes(index);
    double d2 = 0.0;
    for (size_t j = 0; j < knobs.size(); ++j) {
        const double d = static_cast<double>(knobs[j]) - static_cast<double>(optimum[j]);
        d2 += d * d;
    }
    return 1.0 / (1.0 + d2);
}

// Runs a tuner for at most `budget` trials on objective(); the trial at which the optimum was first proposed
// (or -1) and every proposed index in order.
struct RunResult {
    int64_t foundAt = -1;
    double best = 0.0;
    std::vector<int64_t> proposed;
};

RunResult run(Tuner& tuner, const ConfigSpace& space, const std::vector<size_t>& optimum, int64_t budget)
{
    RunResult r;
    const int64_t optimumIndex = space.indexOf(optimum);
    while (tuner.hasNext() && static_cast<int64_t>(r.proposed.size()) < budget) {
        const std::vector<int64_t> batch = tuner.nextBatch(16);
        if (batch.empty())
            break;
        std::vector<double> flops;
        for (int64_t index : batch) {
            if (index == optimumIndex && r.foundAt < 0)
                r.foundAt = static_cast<int64_t>(r.proposed.size());
            r.proposed.push_back(index);
            flops.push_back(objective(space, index, optimum));
            r.best = std::max(r.best, flops.back());
        }
        tuner.update(batch, flops);
    }
    return r;
}

std::vector<int64_t> drain(Tuner& tuner, int batchSize)
{
    std::vector<int64_t> out;
    while (tuner.hasNext()) {
        const std::vector<int64_t> batch = tuner.nextBatch(batchSize);
        EXPECT_FALSE(batch.empty());
        if (batch.empty())
            break;
        out.insert(out.end(), batch.begin(), batch.end());
        tuner.update(batch, std::vector<double>(batch.size(), 1.0));
    }
    return out;
}

std::vector<int64_t> iota(int64_t begin, int64_t end)
{
    std::vector<int64_t> out;
    for (int64_t i = begin; i < end; ++i)
        out.push_back(i);
    return out;
}

} // namespace

TEST(GridSearchTuner, VisitsEveryIndexInOrder)
{
    const ConfigSpace space = gridSpace({ 3, 4, 5 });
    GridSearchTuner tuner(space);
    EXPECT_EQ(drain(tuner, 7), iota(0, 60));
    EXPECT_FALSE(tuner.hasNext());
    EXPECT_TRUE(tuner.nextBatch(4).empty());

    GridSearchTuner ranged(space, IndexRange { 10, 19 });
    EXPECT_EQ(drain(ranged, 3), iota(10, 20));
}

TEST(RandomTuner, VisitsEveryIndexOnceDeterministically)
{
    const ConfigSpace space = gridSpace({ 3, 4, 5 });
    RandomTuner a(space, 7);
    const std::vector<int64_t> order = drain(a, 7);
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, iota(0, 60));
    EXPECT_NE(order, iota(0, 60)); // not grid order
    EXPECT_EQ(a.visited(), order);

    RandomTuner b(space, 7);
    EXPECT_EQ(drain(b, 5), order); // batch size does not change the stream
    RandomTuner c(space, 8);
    EXPECT_NE(drain(c, 7), order);

    RandomTuner ranged(space, 3, IndexRange { 20, 29 });
    std::vector<int64_t> r = drain(ranged, 4);
    std::sort(r.begin(), r.end());
    EXPECT_EQ(r, iota(20, 30));
}

TEST(GATuner, ExhaustsASmallSpaceWithoutRepeats)
{
    // 150 configs, population 100: the second generation is made by crossover, the third is the remainder.
    const ConfigSpace space = gridSpace({ 5, 5, 6 });
    GATuner tuner(space, 1);
    std::vector<int64_t> order;
    while (tuner.hasNext()) {
        const std::vector<int64_t> batch = tuner.nextBatch(32);
        ASSERT_FALSE(batch.empty());
        order.insert(order.end(), batch.begin(), batch.end());
        std::vector<double> flops;
        for (int64_t index : batch)
            flops.push_back(objective(space, index, { 2, 2, 3 }));
        tuner.update(batch, flops);
    }
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, iota(0, 150));
}

TEST(GATuner, WaitsForItsGeneration)
{
    const ConfigSpace space = gridSpace({ 10, 10, 10 });
    GATuner tuner(space, 3, { .popSize = 20 });
    EXPECT_EQ(tuner.nextBatch(50).size(), 20u); // one generation, not wrapped around
    EXPECT_TRUE(tuner.nextBatch(5).empty());
    EXPECT_TRUE(tuner.hasNext());
}

TEST(GATuner, DeterministicNoRepeatsAndBeatsRandom)
{
    // 12^5 = 248832 configs; a budget of 1200 trials is under 0.5 % of the space.
    const ConfigSpace space = gridSpace({ 12, 12, 12, 12, 12 });
    const std::vector<size_t> optimum = { 3, 9, 5, 0, 11 };
    const int64_t budget = 1200;

    GATuner first(space, 11);
    GATuner again(space, 11);
    const RunResult a = run(first, space, optimum, budget);
    const RunResult b = run(again, space, optimum, budget);
    EXPECT_EQ(a.proposed, b.proposed);
    EXPECT_EQ(std::set<int64_t>(a.proposed.begin(), a.proposed.end()).size(), a.proposed.size());

    double gaBest = 0.0;
    double randomBest = 0.0;
    int gaFound = 0;
    const int seeds = 5;
    for (int seed = 0; seed < seeds; ++seed) {
        GATuner ga(space, 100 + seed);
        const RunResult g = run(ga, space, optimum, budget);
        EXPECT_EQ(std::set<int64_t>(g.proposed.begin(), g.proposed.end()).size(), g.proposed.size());
        gaFound += g.foundAt >= 0 ? 1 : 0;
        gaBest += g.best / seeds;
        RandomTuner random(space, 100 + seed);
        randomBest += run(random, space, optimum, budget).best / seeds;
    }
    EXPECT_GE(gaFound, 4) << "GA found the optimum in " << gaFound << " of " << seeds << " runs";
    EXPECT_GT(gaBest, randomBest);
    RecordProperty("gaFound", gaFound);
    RecordProperty("gaMeanBest", std::to_string(gaBest));
    RecordProperty("randomMeanBest", std::to_string(randomBest));
}

TEST(SimulatedAnnealingOptimizer, FindsTheOptimumAndRespectsExclusions)
{
    // 10^5 configs; the score is minus the squared distance to `optimum` (a score function may be negative), so
    // the best is `optimum` (0) and the next ones are its 10 neighbours at distance 1 (-1).
    const ConfigSpace space = gridSpace({ 10, 10, 10, 10, 10 });
    const std::vector<size_t> optimum = { 7, 2, 9, 4, 0 };
    const int64_t best = space.indexOf(optimum);
    int calls = 0;
    const ScoreFunction score = [&](const std::vector<int64_t>& points) {
        ++calls;
        std::vector<double> out;
        for (int64_t p : points)
            out.push_back(1.0 - 1.0 / objective(space, p, optimum));
        return out;
    };

    SimulatedAnnealingOptimizer sa(space, 5);
    const std::vector<int64_t> top = sa.findMaximums(score, 8, {});
    ASSERT_EQ(top.size(), 8u);
    EXPECT_EQ(top[0], best);
    for (size_t i = 1; i < top.size(); ++i)
        EXPECT_DOUBLE_EQ(objective(space, top[i], optimum), 0.5) << "rank " << i;
    EXPECT_EQ(std::set<int64_t>(top.begin(), top.end()).size(), top.size());
    EXPECT_LE(sa.lastIterations(), 500);
    EXPECT_LT(sa.lastIterations(), 500) << "early stop should end the walk";
    EXPECT_EQ(calls, sa.lastIterations() + 1); // one batch per iteration, plus the start points

    SimulatedAnnealingOptimizer same(space, 5);
    EXPECT_EQ(same.findMaximums(score, 8, {}), top);

    // Excluding the optimum and three neighbours: the rest are distance-1 neighbours, none excluded.
    const std::unordered_set<int64_t> excluded = { best, top[1], top[2], top[3] };
    SimulatedAnnealingOptimizer fresh(space, 6);
    const std::vector<int64_t> next = fresh.findMaximums(score, 5, excluded);
    ASSERT_EQ(next.size(), 5u);
    for (int64_t p : next) {
        EXPECT_FALSE(excluded.contains(p));
        EXPECT_DOUBLE_EQ(objective(space, p, optimum), 0.5);
    }

    // Persistent walkers: a second call on the same optimizer starts where the first ended and still finds it.
    const std::vector<int64_t> second = sa.findMaximums(score, 1, {});
    EXPECT_EQ(second, std::vector<int64_t> { best });
}

TEST(SimulatedAnnealingOptimizer, RandomWalkChangesExactlyOneKnob)
{
    const ConfigSpace space = gridSpace({ 4, 1, 6 });
    Rng rng(2);
    for (int64_t p = 0; p < space.size(); ++p) {
        const int64_t q = randomWalk(space, p, rng);
        const std::vector<size_t> a = space.knobIndexes(p);
        const std::vector<size_t> b = space.knobIndexes(q);
        int changed = 0;
        for (size_t j = 0; j < a.size(); ++j)
            changed += a[j] != b[j] ? 1 : 0;
        EXPECT_EQ(changed, 1) << p << " -> " << q;
    }
}
