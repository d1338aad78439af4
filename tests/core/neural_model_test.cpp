// The LibTorch cost models (core/cost/neural_*.h) and their inputs: TLP's step tokens, GTuner's program graph,
// the LambdaRank loss and the WL-GCN layer against hand computations; every registered neural kind's forward
// shape, determinism, a training that lowers its loss, save/load, and ranking measured programs above chance.
//
// Data: 200 random programs of ResNet-18's 3x3 conv2d measured on an AMD Zen 4 host
// (tests/data/resnet18-task2-zen4.jsonl, as the XGBoost model's tests). Networks are kept small here (hidden
// 32, a few epochs) so that every kind trains in about a second.
#include "measured_programs.h"

#include "core/cost/neural_model.h"
#include "core/cost/neural_models.h"
#include "core/features/program_graph.h"
#include "core/features/step_tokens.h"
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

// A registered kind, made small for tests.
std::unique_ptr<cost::NeuralCostModel> small(const std::string& kind, uint64_t seed, int epochs = 6)
{
    cost::NeuralSettings s = cost::neuralSettingsOf(kind).value();
    s.hidden = 32;
    s.heads = 4;
    s.epochs = epochs;
    s.numWarmupSample = 0;
    s.threads = 1;
    s.programsPerGroup = 16;
    s.groupsPerBatch = 1; // one task here: a step per 16 programs
    return std::make_unique<cost::NeuralCostModel>(kind, s, seed);
}

cost::CostModel::Batch batchOf(const Measured& m, size_t from, size_t count)
{
    cost::CostModel::Batch b;
    b.task = taskOf(m);
    b.states.assign(m.states.begin() + static_cast<std::ptrdiff_t>(from),
        m.states.begin() + static_cast<std::ptrdiff_t>(from + count));
    b.results.assign(m.results.begin() + static_cast<std::ptrdiff_t>(from),
        m.results.begin() + static_cast<std::ptrdiff_t>(from + count));
    return b;
}

const std::vector<std::string> kKinds
    = { "mlp", "lstm", "tlp", "tlp-mse", "mtl-tlp", "atformer", "atformer-nomask", "atformer-mse", "gtuner" };

} // namespace

// --- inputs ------------------------------------------------------------------------------------------------------

TEST(StepTokens, ATvmRecordTokenizesAsTlpDoesWithOurFixedKindTable)
{
    // Three steps of the shared ResNet-18 CUDA log (resnet-18-NHWC-B1-cuda.json, line 2) and a long reorder.
    const auto steps = nlohmann::json::parse(R"([["SP", 4, 1, 1000, [50], 1],
        ["CHR", 1, "shared", [2]], ["PR", 3, 0, "auto_unroll_max_step$1024"],
        ["RE", 2, [0, 5, 1, 6, 2, 7, 10, 11, 3, 8, 12, 4, 9]], ["CHW", 2, "local"]])");
    const features::StepTokenShape shape { 4, 11 }; // crop to four steps
    const auto tokens = features::stepTokens(steps, shape).value();
    ASSERT_EQ(tokens.values.size(), 4u * 25u);
    EXPECT_EQ(tokens.steps, 4);
    auto token = [&](int t) {
        return std::vector<float>(tokens.values.begin() + t * 25, tokens.values.begin() + t * 25 + 25);
    };
    //                           AN FU PR RE SP FSP FFSP SA CA CI CR CHR CHW RF | arguments (11)
    const std::vector<float> sp { 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 1000, 50, 1, 0, 0, 0, 0, 0, 0 };
    const std::vector<float> chr { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0 };
    const std::vector<float> pr { 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0 };
    // The reorder's stage and 13 iterators crop to 11 values.
    const std::vector<float> re { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 5, 1, 6, 2, 7, 10, 11, 3, 8 };
    EXPECT_EQ(token(0), sp);
    EXPECT_EQ(token(1), chr);
    EXPECT_EQ(token(2), pr);
    EXPECT_EQ(token(3), re);

    // Padding: two steps in a 4-step shape leave two zero tokens.
    const auto shortTokens
        = features::stepTokens(nlohmann::json::parse(R"([["CHW", 2, "local"], ["CI", 1]])"), shape).value();
    EXPECT_EQ(shortTokens.steps, 2);
    EXPECT_EQ(shortTokens.values[12], 1.0f) << "CHW one-hot";
    EXPECT_EQ(shortTokens.values[14 + 1], 1.0f) << "scope local -> 1";
    EXPECT_EQ(shortTokens.values[25 + 9], 1.0f) << "CI one-hot";
    for (size_t i = 50; i < shortTokens.values.size(); ++i)
        EXPECT_EQ(shortTokens.values[i], 0.0f);

    EXPECT_FALSE(features::stepTokens(nlohmann::json::parse(R"([["XX", 1]])"), shape)) << "an unknown kind is an error";
    const auto names = features::stepTokenNames(shape);
    ASSERT_EQ(names.size(), 25u);
    EXPECT_EQ(names[4], "kind.SP");
    EXPECT_EQ(names[24], "arg10");
    EXPECT_FALSE(features::stepTokens(nlohmann::json::parse(R"({"SP": 1})"), shape));
}

TEST(StepTokens, OurStepsAndTheirJsonGiveTheSameTokens)
{
    const Measured& m = measured();
    const sched::State& state = m.states.front();
    const auto fromSteps = features::stepTokens(state.steps());
    const auto fromJson = features::stepTokens(sched::stepsToJson(state.steps())).value();
    EXPECT_EQ(fromSteps.values, fromJson.values);
    EXPECT_EQ(fromSteps.steps, std::min<int>(25, static_cast<int>(state.steps().size())));
}

TEST(ProgramGraph, NodesAreTheDagsOperationsWithTheirScheduleStatistics)
{
    const Measured& m = measured();
    const auto rows = features::perStoreFeatures(m.states.front(), target::Target::host()).value();
    const features::ProgramGraph g = features::programGraph(m.dag, &rows);
    ASSERT_EQ(g.nodes, m.dag.numOps());
    ASSERT_EQ(features::nodeFeatureNames().size(), static_cast<size_t>(features::kNodeFeatures));
    EXPECT_EQ(features::nodeFeatureNames()[features::kNodeStatic - 1], "producers");
    EXPECT_EQ(features::nodeFeatureNames()[features::kNodeStatic], "stats.float_mad");
    ASSERT_EQ(g.x.size(), static_cast<size_t>(g.nodes) * features::kNodeFeatures);
    size_t edges = 0;
    for (int i = 0; i < m.dag.numOps(); ++i)
        edges += m.dag.producers(i).size();
    EXPECT_EQ(g.edges.size(), edges);
    // Placeholders carry no schedule statistics; some compute node does.
    float placeholderStats = 0.0f;
    float computeStats = 0.0f;
    for (int i = 0; i < g.nodes; ++i) {
        const float* x = g.x.data() + static_cast<size_t>(i) * features::kNodeFeatures;
        float sum = 0.0f;
        for (int c = features::kNodeStatic; c < features::kNodeFeatures; ++c)
            sum += std::abs(x[c]);
        (m.dag.op(i).isPlaceholder() ? placeholderStats : computeStats) += sum;
        EXPECT_EQ(x[0], m.dag.op(i).isPlaceholder() ? 1.0f : 0.0f);
    }
    EXPECT_EQ(placeholderStats, 0.0f);
    EXPECT_GT(computeStats, 0.0f);
}

// --- the pieces by hand ----------------------------------------------------------------------------------------

TEST(NeuralPieces, LambdaRankLossMatchesAHandComputation)
{
    // scores (0.5, 2, 1) rank the programs 3rd, 1st, 2nd; labels (1, 0.25, 0.5).
    // IDCG = (2^1-1)/log2 2 + (2^0.5-1)/log2 3 + (2^0.25-1)/log2 4 = 1.355943;
    // G = (2^l - 1) / IDCG = (0.737494, 0.139539, 0.305480); 1/log2(1+r) = (0.5, 1, 0.630930).
    // Pairs with l_i > l_j: (0,1) w = 0.597955 * 0.5, (0,2) w = 0.432014 * 0.130930, (2,1) w = 0.165941 * 0.369070;
    // loss = -sum w log2 sigmoid(s_i - s_j) = 0.929399.
    const std::vector<float> scores { 0.5f, 2.0f, 1.0f };
    const std::vector<float> labels { 1.0f, 0.25f, 0.5f };
    EXPECT_NEAR(cost::lambdaRankLoss(scores, labels), 0.9293994, 1e-5);
    // The right order costs less; equal labels cost nothing.
    EXPECT_LT(cost::lambdaRankLoss(std::vector<float> { 2.0f, 0.5f, 1.0f }, labels), 0.9293994 / 2);
    EXPECT_EQ(cost::lambdaRankLoss(scores, std::vector<float> { 0.5f, 0.5f, 0.5f }), 0.0);
}

TEST(NeuralPieces, GcnLayerMatchesAHandComputationOnAThreeNodeGraph)
{
    // A path 0 - 1 - 2; x0 = (1, 0), x1 = (0, 1), x2 = (1, 1); W1 = [[1, 2], [0, 1]], W2 = [[0, 1], [1, 0]].
    // Neighbour sums: (0, 1), (2, 1), (0, 1). W1 x + W2 n: (1,0)+(1,0), (2,1)+(1,2), (3,1)+(1,0).
    const std::vector<float> x { 1, 0, 0, 1, 1, 1 };
    const std::vector<std::pair<int, int>> edges { { 0, 1 }, { 1, 2 } };
    const std::vector<float> w1 { 1, 2, 0, 1 };
    const std::vector<float> w2 { 0, 1, 1, 0 };
    EXPECT_EQ(cost::gcnLayer(x, 3, edges, w1, w2, 2, 2), (std::vector<float> { 2, 0, 3, 3, 4, 1 }));
}

// --- every kind --------------------------------------------------------------------------------------------------

class EveryNeuralKind : public ::testing::TestWithParam<std::string> { };

TEST_P(EveryNeuralKind, TrainsDeterministicallyLowersItsLossAndRoundTripsThroughSaveLoad)
{
    const Measured& m = measured();
    const std::vector<cost::CostModel::Batch> train { batchOf(m, 0, 120) };
    const auto held = std::span(m.states).subspan(150);

    auto a = small(GetParam(), 7);
    EXPECT_FALSE(a->trained());
    std::vector<double> progress;
    a->setTrainingProgress([&](double fraction, double) {
        progress.push_back(fraction);
        return true;
    });
    ASSERT_TRUE(a->fit(train).hasValue());
    EXPECT_TRUE(a->trained());
    EXPECT_EQ(progress.size(), 6u);
    EXPECT_DOUBLE_EQ(progress.back(), 1.0);

    const std::vector<double> scores = a->predict(taskOf(m), held);
    ASSERT_EQ(scores.size(), held.size()) << "one score per program";
    for (double s : scores)
        EXPECT_TRUE(std::isfinite(s));

    auto b = small(GetParam(), 7);
    ASSERT_TRUE(b->fit(train).hasValue());
    EXPECT_EQ(b->predict(taskOf(m), held), scores) << "the same seed and data give the same model";

    const auto bytes = a->save().value();
    auto c = small(GetParam(), 99);
    ASSERT_TRUE(c->load(bytes).hasValue());
    EXPECT_TRUE(c->trained());
    EXPECT_EQ(c->predict(taskOf(m), held), scores) << "save/load keeps every prediction";

    auto damaged = bytes;
    damaged.resize(damaged.size() / 2);
    auto d = small(GetParam(), 5);
    EXPECT_FALSE(d->load(damaged)) << "a truncated file is refused";
    EXPECT_FALSE(d->trained()) << "and the model in place is kept";
}

TEST_P(EveryNeuralKind, ATinyTrainingLowersTheLossOnItsData)
{
    // The network's loss on its 120 training programs, before and after 40 steps on all of them.
    const Measured& m = measured();
    auto model = small(GetParam(), 11);
    auto inputs = model->inputsOf(taskOf(m), std::span(m.states).first(120));
    cost::NeuralTrainingSet set;
    double best = 1e30;
    for (size_t i = 0; i < 120; ++i)
        best = std::min(best, m.results[i].meanCost());
    std::vector<int> group;
    for (size_t i = 0; i < 120; ++i) {
        ASSERT_TRUE(inputs[i]);
        set.inputs.push_back(&*inputs[i]);
        set.labels.push_back(static_cast<float>(best / m.results[i].meanCost()));
        group.push_back(static_cast<int>(i));
    }
    set.groups.push_back(group);
    cost::NeuralSettings settings = model->neuralSettings();
    settings.learningRate = 3e-3; // 40 steps at TLP's 7e-4 move some networks too little to show
    settings.programsPerGroup = 128; // the whole group in each step: training minimises exactly this loss
    auto network = cost::NeuralNetwork::make(settings, 1, 11);
    auto loss = [&] {
        const std::vector<double> p = network->predict(set.inputs);
        if (settings.loss == cost::NeuralLoss::Mse) {
            double sum = 0.0;
            for (size_t i = 0; i < p.size(); ++i)
                sum += (p[i] - set.labels[i]) * (p[i] - set.labels[i]);
            return sum / static_cast<double>(p.size());
        }
        return cost::lambdaRankLoss(std::vector<float>(p.begin(), p.end()), set.labels);
    };
    const double before = loss();
    const cost::NeuralTrainStats stats = network->train(set, 40, 1, {});
    EXPECT_EQ(stats.epochs, 40);
    const double after = loss();
    EXPECT_LT(after, 0.9 * before) << "loss before " << before << ", after " << after << " epoch losses "
                                   << stats.firstLoss << " -> " << stats.lastLoss;
}

INSTANTIATE_TEST_SUITE_P(NeuralCostModel, EveryNeuralKind, ::testing::ValuesIn(kKinds), [](const auto& info) {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
});

TEST(NeuralCostModel, TlpAndTheMlpRankHeldOutMeasuredProgramsAboveChance)
{
    const Measured& m = measured();
    const std::vector<cost::CostModel::Batch> train { batchOf(m, 0, 150) };
    const auto held = std::span(m.states).subspan(150);
    std::vector<double> throughput;
    for (size_t i = 150; i < m.results.size(); ++i)
        throughput.push_back(1.0 / m.results[i].meanCost());
    for (const std::string kind : { "tlp", "mlp" }) {
        auto model = small(kind, 3, 25);
        ASSERT_TRUE(model->fit(train).hasValue());
        const std::vector<double> scores = model->predict(taskOf(m), held);
        const double accuracy = store::pairwiseAccuracy(scores, throughput);
        EXPECT_GT(accuracy, kind == std::string("mlp") ? 0.65 : 0.55)
            << kind << ": pairwise accuracy on 50 held-out programs";
        std::vector<double> negated(scores.size());
        std::transform(scores.begin(), scores.end(), negated.begin(), [](double s) { return -s; });
        EXPECT_LT(store::pairwiseAccuracy(negated, throughput), 0.5) << kind << ": the measure can fail";
    }
}

TEST(NeuralCostModel, UpdateWaitsForTheWarmUpThenTrainsAndFineTunes)
{
    const Measured& m = measured();
    cost::NeuralSettings s = cost::neuralSettingsOf("tlp").value();
    s.hidden = 32;
    s.heads = 4;
    s.epochs = 2;
    s.fineTuneEpochs = 1;
    s.numWarmupSample = 64;
    s.threads = 1;
    cost::NeuralCostModel model("tlp", s, 1);
    const auto first = batchOf(m, 0, 64);
    ASSERT_TRUE(model.update(first.task, first.states, first.results).hasValue());
    EXPECT_FALSE(model.trained()) << "64 records are not more than the warm-up";
    const auto second = batchOf(m, 64, 64);
    ASSERT_TRUE(model.update(second.task, second.states, second.results).hasValue());
    EXPECT_TRUE(model.trained());
    EXPECT_EQ(model.lastTraining().epochs, 2);
    EXPECT_EQ(model.lastTraining().samples, 128);
    const auto third = batchOf(m, 128, 64);
    ASSERT_TRUE(model.update(third.task, third.states, third.results).hasValue());
    EXPECT_EQ(model.lastTraining().epochs, 1) << "a fine-tune once the data grew by a fifth";
    EXPECT_EQ(model.lastTraining().samples, 192);
}

TEST(NeuralCostModel, MtlTlpGivesEachDeviceItsHead)
{
    const Measured& m = measured();
    auto model = small("mtl-tlp", 1, 2);
    cost::CostModel::Batch a = batchOf(m, 0, 60);
    cost::CostModel::Batch b = batchOf(m, 60, 60);
    b.task.target.cores = 7; // another device: the same CPU with seven threads
    const std::vector<cost::CostModel::Batch> batches { a, b };
    ASSERT_TRUE(model->fit(batches).hasValue());
    const auto summary = nlohmann::json::parse(model->trainingSummary());
    EXPECT_EQ(summary["device_heads"], 2);
    const auto held = std::span(m.states).subspan(150, 10);
    EXPECT_NE(model->predict(a.task, held), model->predict(b.task, held)) << "two heads, two predictions";
    // Save/load keeps the heads.
    auto copy = small("mtl-tlp", 2, 2);
    ASSERT_TRUE(copy->load(model->save().value()).hasValue());
    EXPECT_EQ(copy->predict(b.task, held), model->predict(b.task, held));
}

TEST(NeuralCostModel, RegisteredKindsComeFromTheRegistryAndBadSettingsAreRefused)
{
    cost::registerNeuralModels();
    for (const std::string& kind : kKinds) {
        auto model = cost::makeCostModel(kind, 1);
        ASSERT_TRUE(model) << kind;
        EXPECT_EQ((*model)->kind(), kind);
    }
    EXPECT_FALSE(cost::NeuralSettings::fromJson(R"({"arch": "tlp", "hidden": 3})"));
    EXPECT_FALSE(cost::NeuralSettings::fromJson(R"({"arch": "resnet"})"));
    EXPECT_FALSE(cost::NeuralSettings::fromJson("not json"));
    // A file of another architecture is refused.
    auto tlp = small("tlp", 1, 1);
    auto mlp = small("mlp", 1, 1);
    EXPECT_FALSE(mlp->load(tlp->save().value()));
}

TEST(NeuralCostModel, TlpLearnsFromAndScoresRecordsWhoseTaskCannotBeRebuilt)
{
    // The same programs as steps only (no DAG): what an imported TVM record of a foreign workload gives.
    const Measured& m = measured();
    cost::CostModel::Batch batch;
    batch.task = cost::CostTask { nullptr, "foreign-workload", 0.0 };
    for (size_t i = 0; i < 120; ++i) {
        batch.steps.push_back(m.states[i].steps());
        batch.results.push_back(m.results[i]);
    }
    auto tlp = small("tlp", 3, 2);
    EXPECT_TRUE(tlp->readsStepsOnly());
    ASSERT_TRUE(tlp->fit(std::vector<cost::CostModel::Batch> { batch }).hasValue());
    EXPECT_EQ(tlp->lastTraining().samples, 120);
    std::vector<std::vector<sched::Step>> held;
    for (size_t i = 150; i < 160; ++i)
        held.push_back(m.states[i].steps());
    const std::vector<double> fromSteps = tlp->predictSteps(batch.task, held);
    ASSERT_EQ(fromSteps.size(), 10u);
    // Tokens are the same whether they come from the steps or from the replayed states.
    EXPECT_EQ(fromSteps, tlp->predict(batch.task, std::span(m.states).subspan(150, 10)));

    auto mlp = small("mlp", 3, 2); // reads per-store rows: needs states
    EXPECT_FALSE(mlp->readsStepsOnly());
    EXPECT_FALSE(mlp->fit(std::vector<cost::CostModel::Batch> { batch })) << "nothing it can learn from";
    for (double s : mlp->predictSteps(batch.task, held))
        EXPECT_EQ(s, -std::numeric_limits<double>::infinity());
}

TEST(NeuralPieces, PairwiseAccuracyCountsPairsWithinGroupsOnly)
{
    // Group {0,1,2}: labels 3,2,1, scores ordered 0>2>1: pairs (0,1) right, (0,2) right, (1,2) wrong. Group {3,4}:
    // equal labels, no pair. Across groups nothing is compared.
    int dummy = 0;
    const auto* input = reinterpret_cast<const cost::NeuralInput*>(&dummy); // never read
    cost::NeuralTrainingSet set;
    set.inputs.assign(5, input);
    set.labels = { 3.0f, 2.0f, 1.0f, 0.5f, 0.5f };
    set.groups = { { 0, 1, 2 }, { 3, 4 } };
    EXPECT_DOUBLE_EQ(cost::pairwiseAccuracy(set, std::vector<double> { 9.0, 1.0, 2.0, -100.0, 100.0 }), 2.0 / 3.0);
    set.groups = { { 3, 4 } };
    EXPECT_DOUBLE_EQ(cost::pairwiseAccuracy(set, std::vector<double> { 0, 0, 0, 1, 2 }), 0.5) << "no pair";
}

TEST(NeuralCostModel, AFineTuneKeepsTheEpochThatRanksHeldOutProgramsBestStartingWeightsIncluded)
{
    // Training on labels that contradict the validation labels only makes the validation ranking worse: the
    // fine-tune keeps the starting weights. With agreeing labels it keeps a trained epoch that is no worse.
    const Measured& m = measured();
    auto model = small("mlp", 13);
    auto inputs = model->inputsOf(taskOf(m), std::span(m.states).first(160));
    cost::NeuralTrainingSet train;
    cost::NeuralTrainingSet validation;
    double best = 1e30;
    for (size_t i = 0; i < 160; ++i)
        best = std::min(best, m.results[i].meanCost());
    std::vector<int> trainGroup;
    std::vector<int> validationGroup;
    for (size_t i = 0; i < 160; ++i) {
        ASSERT_TRUE(inputs[i]);
        cost::NeuralTrainingSet& into = i % 4 == 0 ? validation : train;
        (i % 4 == 0 ? validationGroup : trainGroup).push_back(static_cast<int>(into.inputs.size()));
        into.inputs.push_back(&*inputs[i]);
        into.labels.push_back(static_cast<float>(best / m.results[i].meanCost()));
    }
    train.groups = { trainGroup };
    validation.groups = { validationGroup };
    cost::NeuralSettings settings = model->neuralSettings();
    settings.learningRate = 3e-3;

    auto agreeing = cost::NeuralNetwork::make(settings, 1, 13);
    const auto helped = agreeing->train(train, 12, 1, {}, cost::NeuralFineTune { 1.0, &validation });
    EXPECT_GT(helped.keptEpoch, 0) << "start " << helped.startPairwise << ", kept " << helped.validationPairwise;
    EXPECT_GE(helped.validationPairwise, helped.startPairwise);
    EXPECT_DOUBLE_EQ(
        cost::pairwiseAccuracy(validation, agreeing->predict(validation.inputs)), helped.validationPairwise)
        << "the kept epoch's weights are the ones in place";

    cost::NeuralTrainingSet contradicting = train;
    for (float& label : contradicting.labels)
        label = 1.0f - label;
    auto misled = cost::NeuralNetwork::make(settings, 1, 13);
    misled->train(contradicting, 0, 1, {}); // fixes the input scales, as a pre-trained model has them
    const std::vector<double> before = misled->predict(validation.inputs);
    const auto hurt = misled->train(contradicting, 12, 1, {}, cost::NeuralFineTune { 1.0, &validation });
    EXPECT_EQ(hurt.keptEpoch, 0) << "start " << hurt.startPairwise << ", best " << hurt.validationPairwise;
    EXPECT_EQ(misled->predict(validation.inputs), before) << "the starting weights are back";
}
