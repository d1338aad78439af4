// AutoTVM's XGBoost tuner (core/search/autotvm/xgb_tuner.h) on synthetic objectives: no measurement, the
// "throughput" of a config is a known function of its knobs, so that what the tuner finds can be checked
// exactly. Knob features, the submodular (diversity) pick, no index twice, the 5% random share of a plan, the
// optimum found in far fewer trials than random search, determinism, and transfer from a base model.
#include "core/ops/linear.h"
#include "core/search/autotvm/index_based_tuner.h"
#include "core/search/autotvm/template.h"
#include "core/search/autotvm/xgb_tuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace ts;
using namespace ts::autotvm;

namespace {

ir::ComputeDAG denseDag(int64_t n)
{
    ir::Tensor x = ir::placeholder("X", { n, n });
    ir::Tensor w = ir::placeholder("W", { n, n });
    return ir::ComputeDAG::create({ x, w, ops::dense(x, w).value() });
}

const Template& denseTemplate() { return *findTemplate("dense_nopack.x86"); }

// A peaked objective over knob positions: highest at `peak`, falling with the squared distance.
double objective(const ConfigSpace& space, int64_t index, const std::vector<size_t>& peak)
{
    const std::vector<size_t> k = space.knobIndexes(index);
    double d = 0.0;
    for (size_t i = 0; i < k.size(); ++i)
        d += std::pow(static_cast<double>(k[i]) - static_cast<double>(peak[i]), 2.0);
    return 100.0 / (1.0 + d);
}

// Trials until the tuner proposes the peak (or the budget is spent: budget + 1).
int trialsToPeak(Tuner& tuner, const ConfigSpace& space, const std::vector<size_t>& peak, int budget)
{
    const int64_t target = space.indexOf(peak);
    int trials = 0;
    while (trials < budget && tuner.hasNext()) {
        const std::vector<int64_t> batch = tuner.nextBatch(64);
        std::vector<double> ys;
        for (int64_t i : batch) {
            ++trials;
            if (i == target)
                return trials;
            ys.push_back(objective(space, i, peak));
        }
        tuner.update(batch, ys);
    }
    return budget + 1;
}

XgbTunerOptions knobOptions()
{
    XgbTunerOptions o;
    o.feature = XgbFeature::Knob;
    return o;
}

} // namespace

TEST(XgbTunerFeatures, KnobFeaturesFlattenTheEntity)
{
    const ir::ComputeDAG dag = denseDag(64);
    const ConfigSpace space = denseTemplate().space(dag).value();
    // tile_y, tile_x, tile_k over 64: factors 1, 2, 4, 8, 16, 32, 64.
    const int64_t index = space.indexOf({ 2, 5, 0 }); // [-1, 4], [-1, 32], [-1, 1]
    EXPECT_EQ(knobFeatures(space, index), (std::vector<float> { -1, 4, -1, 32, -1, 1 }));
    const ConfigFeatures program = configFeatures(XgbFeature::Program, denseTemplate(), dag, space, index);
    EXPECT_GT(program.rows(), 0);
    const ConfigFeatures other
        = configFeatures(XgbFeature::Program, denseTemplate(), dag, space, space.indexOf({ 6, 0, 3 }));
    EXPECT_EQ(program.columns, other.columns);
    EXPECT_NE(program.values, other.values); // other tiles, another program
}

TEST(XgbTunerFeatures, SubmodularPickPrefersNewKnobValues)
{
    // Three candidates: 0 and 1 share every knob value, 2 differs in both. Scores favour 1 slightly, but with a
    // knob weight of 1 the second pick is the diverse one.
    const std::vector<double> scores { 0.5, 0.6, 0.1 };
    const std::vector<std::vector<size_t>> knobs { { 0, 0 }, { 0, 0 }, { 1, 1 } };
    EXPECT_EQ(submodularPick(scores, knobs, 2, 1.0), (std::vector<size_t> { 1, 2 }));
    // Without the diversity weight, the scores decide.
    EXPECT_EQ(submodularPick(scores, knobs, 2, 0.0), (std::vector<size_t> { 1, 0 }));
}

TEST(XgbTuner, FillsASmallSpaceWithoutRepeats)
{
    const ir::ComputeDAG dag = denseDag(8); // 4 x 4 x 4 = 64 configs
    const ConfigSpace space = denseTemplate().space(dag).value();
    ASSERT_EQ(space.size(), 64);
    XgbTunerOptions o = knobOptions();
    o.planSize = 16;
    XgbTuner tuner(denseTemplate(), dag, space, 3, o);
    std::set<int64_t> seen;
    while (tuner.hasNext()) {
        const std::vector<int64_t> batch = tuner.nextBatch(16);
        ASSERT_FALSE(batch.empty());
        std::vector<double> ys;
        for (int64_t i : batch) {
            EXPECT_TRUE(seen.insert(i).second) << "index " << i << " proposed twice";
            ys.push_back(objective(space, i, { 1, 2, 3 }));
        }
        tuner.update(batch, ys);
    }
    EXPECT_EQ(seen.size(), 64u);
    EXPECT_GE(tuner.fits(), 1);
}

TEST(XgbTuner, PlansEndInAFivePercentRandomShare)
{
    const ir::ComputeDAG dag = denseDag(256); // 9^3 = 729 configs
    const ConfigSpace space = denseTemplate().space(dag).value();
    XgbTuner tuner(denseTemplate(), dag, space, 11, knobOptions());
    const std::vector<size_t> peak { 6, 2, 4 };
    std::vector<int64_t> first = tuner.nextBatch(64);
    std::vector<double> ys;
    for (int64_t i : first)
        ys.push_back(objective(space, i, peak));
    tuner.update(first, ys);
    ASSERT_EQ(tuner.fits(), 1);
    const std::vector<int64_t> plan = tuner.plan();
    ASSERT_EQ(plan.size(), 64u);
    const std::vector<int64_t> next = tuner.nextBatch(64);
    ASSERT_EQ(next.size(), 64u);
    // int(0.05 * 64) = 3 random picks at the end; the rest is the plan, in order.
    for (size_t i = 0; i < 61; ++i)
        EXPECT_EQ(next[i], plan[i]) << i;
    int fromPlan = 0;
    for (size_t i = 61; i < 64; ++i)
        fromPlan += std::find(plan.begin(), plan.begin() + 61, next[i]) != plan.begin() + 61;
    EXPECT_EQ(fromPlan, 0);
}

TEST(XgbTuner, FindsThePeakFarSoonerThanRandomSearch)
{
    const ir::ComputeDAG dag = denseDag(256);
    const ConfigSpace space = denseTemplate().space(dag).value();
    const std::vector<size_t> peak { 6, 2, 4 };
    double randomMean = 0.0;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        RandomTuner random(space, seed);
        randomMean += trialsToPeak(random, space, peak, 729) / 5.0;
    }
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        XgbTuner xgb(denseTemplate(), dag, space, seed, knobOptions());
        const int trials = trialsToPeak(xgb, space, peak, 729);
        EXPECT_LT(trials, 200) << "seed " << seed << " (random search: " << randomMean << " on average)";
        EXPECT_LT(trials, randomMean / 1.5) << "seed " << seed;
    }
}

TEST(XgbTuner, SameSeedSameProposals)
{
    const ir::ComputeDAG dag = denseDag(256);
    const ConfigSpace space = denseTemplate().space(dag).value();
    const auto run = [&] {
        XgbTuner tuner(denseTemplate(), dag, space, 42, knobOptions());
        std::vector<int64_t> all;
        for (int round = 0; round < 3; ++round) {
            const std::vector<int64_t> batch = tuner.nextBatch(64);
            std::vector<double> ys;
            for (int64_t i : batch)
                ys.push_back(objective(space, i, { 3, 3, 3 }));
            tuner.update(batch, ys);
            all.insert(all.end(), batch.begin(), batch.end());
        }
        return all;
    };
    EXPECT_EQ(run(), run());
}

TEST(XgbTuner, TransferFromABaseModelImprovesTheFirstPlan)
{
    const ir::ComputeDAG dag = denseDag(128); // 8^3 = 512 configs
    const ConfigSpace space = denseTemplate().space(dag).value();
    const std::vector<size_t> peak { 5, 3, 6 };
    // History: every config's program features and its objective (as another task's records would be).
    std::vector<HistorySample> history;
    for (int64_t i = 0; i < space.size(); ++i)
        history.push_back(
            { configFeatures(XgbFeature::Program, denseTemplate(), dag, space, i), objective(space, i, peak) });
    const auto firstBatchMean = [&](XgbTuner& tuner) {
        const std::vector<int64_t> batch = tuner.nextBatch(64);
        double sum = 0.0;
        for (int64_t i : batch)
            sum += objective(space, i, peak);
        return sum / static_cast<double>(batch.size());
    };
    XgbTuner fresh(denseTemplate(), dag, space, 5);
    XgbTuner transferred(denseTemplate(), dag, space, 5);
    auto loaded = transferred.loadHistory(history);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_TRUE(transferred.hasBaseModel());
    EXPECT_GT(firstBatchMean(transferred), 2.0 * firstBatchMean(fresh));

    XgbTuner tooFew(denseTemplate(), dag, space, 5);
    auto refused = tooFew.loadHistory(std::vector<HistorySample>(history.begin(), history.begin() + 10));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("at least 500"), std::string::npos);
}
