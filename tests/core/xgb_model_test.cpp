// XgbCostModel (Ansor's XGBoost model) on records measured by TuneScope: 200 random programs of ResNet-18's
// 3x3 conv2d (task 2: 64 -> 64 channels, 56x56, + bias + ReLU), measured on an AMD Zen 4 host with the cache
// flushed (tests/data/resnet18-task2-zen4.jsonl: each line the steps and the mean cost in seconds).
#include "measured_programs.h"

#include "core/cost/xgb_model.h"
#include "core/schedule/step_json.h"
#include "core/store/metrics.h"
#include "core/store/schedule_source.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace ts;

namespace {

using ts::testing::Measured;
using ts::testing::measured;
using ts::testing::taskOf;

// The model trained on the first 150 records, with a warm-up of 0 so it predicts at once.
std::unique_ptr<cost::XgbCostModel> trained()
{
    const Measured& m = measured();
    cost::XgbModelSettings settings;
    settings.numWarmupSample = 0;
    auto model = std::make_unique<cost::XgbCostModel>(1, settings);
    EXPECT_TRUE(model->update(taskOf(m), std::span(m.states).first(150), std::span(m.results).first(150)).hasValue());
    return model;
}

} // namespace

TEST(XgbCostModel, RanksHeldOutMeasuredProgramsWellAboveChance)
{
    const Measured& m = measured();
    ASSERT_EQ(m.states.size(), 200u) << "every record replays";
    auto model = trained();
    EXPECT_TRUE(model->booster().trained());
    EXPECT_EQ(model->trainedOn(), 150);
    const auto held = std::span(m.states).subspan(150);
    const std::vector<double> scores = model->predict(taskOf(m), held);
    std::vector<double> throughput;
    for (size_t i = 150; i < m.results.size(); ++i)
        throughput.push_back(1.0 / m.results[i].meanCost());
    ASSERT_EQ(scores.size(), throughput.size());
    const double accuracy = store::pairwiseAccuracy(scores, throughput);
    EXPECT_GT(accuracy, 0.65) << "pairwise accuracy on 50 held-out programs (0.70 when written)";
    // Negated scores rank backwards: the measure can fail.
    std::vector<double> negated;
    for (double s : scores)
        negated.push_back(-s);
    EXPECT_LT(store::pairwiseAccuracy(negated, throughput), 0.35);
}

TEST(XgbCostModel, WarmUpPredictsAtRandomThenLearns)
{
    const Measured& m = measured();
    cost::XgbCostModel model(3); // Ansor's default warm-up: 100 records
    ASSERT_TRUE(model.update(taskOf(m), std::span(m.states).first(64), std::span(m.results).first(64)).hasValue());
    const auto first = model.predict(taskOf(m), std::span(m.states).subspan(150));
    const auto second = model.predict(taskOf(m), std::span(m.states).subspan(150));
    EXPECT_NE(first, second) << "random scores until 100 records were seen";
    EXPECT_TRUE(model.warmingUp());
    ASSERT_TRUE(
        model.update(taskOf(m), std::span(m.states).subspan(64, 64), std::span(m.results).subspan(64, 64)).hasValue());
    EXPECT_EQ(model.predict(taskOf(m), std::span(m.states).subspan(150)),
        model.predict(taskOf(m), std::span(m.states).subspan(150)))
        << "the booster's scores once warm";
    EXPECT_FALSE(model.warmingUp());
}

TEST(XgbCostModel, SaveLoadPredictsIdenticallyAndPerStageScoresSumUp)
{
    const Measured& m = measured();
    auto model = trained();
    const auto held = std::span(m.states).subspan(150);
    const std::vector<double> before = model->predict(taskOf(m), held);
    auto bytes = model->save();
    ASSERT_TRUE(bytes.hasValue());
    cost::XgbCostModel loaded(99);
    ASSERT_TRUE(loaded.load(*bytes).hasValue());
    EXPECT_EQ(loaded.predict(taskOf(m), held), before);
    const auto stages = loaded.predictStages(taskOf(m), held);
    ASSERT_EQ(stages.size(), held.size());
    for (size_t i = 0; i < held.size(); ++i) {
        ASSERT_FALSE(stages[i].empty());
        double sum = 0.0;
        for (double s : stages[i])
            sum += s;
        EXPECT_NEAR(sum, before[i], 1e-4);
    }
}

TEST(XgbCostModel, CorruptBlobIsRefusedAndKeepsTheModel)
{
    const Measured& m = measured();
    auto model = trained();
    auto bytes = model->save().value();
    const auto held = std::span(m.states).subspan(150);
    const std::vector<double> before = model->predict(taskOf(m), held);

    std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(bytes.size() / 2));
    auto refused = model->load(truncated);
    ASSERT_FALSE(refused.hasValue());
    EXPECT_EQ(refused.error().kind, ErrorKind::Parse);

    std::vector<uint8_t> flipped = bytes;
    flipped[flipped.size() - 10] ^= 0x5A;
    EXPECT_FALSE(model->load(flipped).hasValue());

    std::vector<uint8_t> foreign = bytes;
    foreign[0] = 'X';
    auto notOurs = model->load(foreign);
    ASSERT_FALSE(notOurs.hasValue());
    EXPECT_NE(notOurs.error().message.find("not a TuneScope xgb cost model"), std::string::npos)
        << notOurs.error().message;
    EXPECT_EQ(model->predict(taskOf(m), held), before) << "a refused blob leaves the model as it was";
}
