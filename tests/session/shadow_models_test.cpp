// Shadow models (core/engine/shadow_models.h) on real candidates: random annotations of a small matmul's sketches
// (SketchPolicy's initial population), compiled and measured in the runner process, split into rounds of 16.
// Each test checks the shadows' per-round metrics against models made and trained separately, on the same
// records, and the metrics computed here with store/metrics.h as compare-models computes them.
#include "core/cost/analytical_model.h"
#include "core/cost/cost_model.h"
#include "core/engine/shadow_models.h"
#include "core/measure/measurer.h"
#include "core/ops/linear.h"
#include "core/schedule/step_json.h"
#include "core/search/sketch_policy.h"
#include "core/store/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ts;

namespace {

constexpr int kRounds = 3;
constexpr int kPerRound = 16;
constexpr uint64_t kSeed = 7;
// One round short of the first round's records: a learned model is warm from round 2 (warm once it has seen
// more than this), as a session's model with one task is after its first round.
constexpr int kWarmup = kPerRound - 1;

struct Round {
    std::vector<sched::State> states;
    std::vector<record::MeasureResult> results;
};

struct Measured {
    search::SearchTask task;
    cost::CostTask costTask;
    std::vector<Round> rounds;
};

// kRounds x kPerRound distinct random programs of a 64x64x64 matmul, measured once for every test.
const Measured& measured()
{
    static const Measured m = [] {
        Measured out;
        ir::Tensor a = ir::placeholder("A", { 64, 64 });
        ir::Tensor b = ir::placeholder("B", { 64, 64 });
        out.task.name = "matmul";
        out.task.dag = ir::ComputeDAG::create({ a, b, ops::matmul(a, b).value() });
        out.task.flops = out.task.dag.flopCount();
        out.costTask = { &out.task.dag, out.task.dag.workloadKey(), out.task.flops };
        search::SearchParams params;
        params.population = 64;
        params.sampleInitMinPopulation = kPerRound;
        auto sampler = cost::makeCostModel("random", 1).value();
        search::SketchPolicy policy(out.task, search::PolicyKind::Ansor, params, *sampler, kSeed);
        std::vector<sched::State> states;
        std::set<std::string> seen;
        for (uint64_t roundSeed = 1; states.size() < kRounds * kPerRound && roundSeed < 20; ++roundSeed)
            for (sched::State& s : policy.sampleInitPopulation(roundSeed))
                if (states.size() < kRounds * kPerRound && seen.insert(sched::stepsToText(s.steps())).second)
                    states.push_back(std::move(s));
        if (states.size() < kRounds * kPerRound)
            throw std::runtime_error("the sampler found " + std::to_string(states.size()) + " programs");
        measure::MeasureOptions options;
        options.runnerPath = TS_RUNNER_PATH;
        options.timing.minRepeatMs = 5;
        options.timing.repeat = 2;
        measure::Measurer measurer(options);
        const std::vector<record::MeasureResult> results = measurer.measure(out.task.dag, states);
        for (int r = 0; r < kRounds; ++r) {
            Round round;
            for (int i = r * kPerRound; i < (r + 1) * kPerRound; ++i) {
                round.states.push_back(states[static_cast<size_t>(i)]);
                round.results.push_back(results[static_cast<size_t>(i)]);
            }
            out.rounds.push_back(std::move(round));
        }
        return out;
    }();
    return m;
}

// A model made as ShadowModels makes its shadows, but by the test: the reference the shadows must agree with.
std::unique_ptr<cost::CostModel> referenceModel(const std::string& kind, const cost::MachineLimits& machine)
{
    auto model = cost::makeCostModel(kind, kSeed).value();
    if (auto* analytical = dynamic_cast<cost::AnalyticalCostModel*>(model.get()))
        analytical->setLimits(machine);
    model->setWarmupSamples(kWarmup);
    return model;
}

struct Metrics {
    int samples = 0;
    double pairwise = 0.0;
    double spearman = 0.0;
};

// compare-models' metrics (engine::evaluateOnDataset): labels are the normalised throughput of the successful
// measurements (failures carry no label), a prediction that is not finite counts as 0.
Metrics compareModelsMetrics(std::span<const double> scores, std::span<const record::MeasureResult> results)
{
    double best = std::numeric_limits<double>::infinity();
    for (const record::MeasureResult& r : results)
        if (r.ok())
            best = std::min(best, r.meanCost());
    std::vector<double> predictions, labels;
    for (size_t i = 0; i < results.size(); ++i)
        if (results[i].ok()) {
            predictions.push_back(std::isfinite(scores[i]) ? scores[i] : 0.0);
            labels.push_back(best / results[i].meanCost());
        }
    return { static_cast<int>(labels.size()), store::pairwiseAccuracy(predictions, labels),
        store::spearman(predictions, labels) };
}

const engine::ShadowMetrics& lineOf(
    const std::vector<engine::ShadowMetrics>& lines, const std::string& kind, bool session = false)
{
    for (const engine::ShadowMetrics& line : lines)
        if (line.kind == kind && line.session == session)
            return line;
    throw std::runtime_error("no line for " + kind);
}

void expectMetrics(const engine::ShadowMetrics& line, const Metrics& expected, const std::string& what)
{
    EXPECT_TRUE(line.error.empty()) << what << ": " << line.error;
    EXPECT_EQ(line.samples, expected.samples) << what;
    EXPECT_EQ(line.pairwiseAccuracy, expected.pairwise) << what;
    EXPECT_EQ(line.spearman, expected.spearman) << what;
}

// Test doubles registered as cost models: one whose update fails, one whose predict throws, one that remembers.
class RefusingModel final : public cost::CostModel {
public:
    explicit RefusingModel(bool throwInPredict)
        : m_throwInPredict(throwInPredict)
    {
    }
    std::string kind() const override { return m_throwInPredict ? "test-throwing" : "test-refusing"; }
    Expected<void> update(
        const cost::CostTask&, std::span<const sched::State>, std::span<const record::MeasureResult>) override
    {
        if (m_throwInPredict)
            return {};
        return makeError(ErrorKind::InvalidArgument, "the test model refuses to learn");
    }
    std::vector<double> predict(const cost::CostTask&, std::span<const sched::State> states) override
    {
        if (m_throwInPredict)
            throw std::runtime_error("the test model's features blew up");
        return std::vector<double>(states.size(), 1.0);
    }
    Expected<std::vector<uint8_t>> save() const override { return std::vector<uint8_t> {}; }
    Expected<void> load(std::span<const uint8_t>) override { return {}; }
    int64_t trainedOn() const override { return 0; }

private:
    bool m_throwInPredict;
};

// Remembers the throughput of each program it learned (by its steps) and scores every other program 0.
class MemorizingModel final : public cost::CostModel {
public:
    std::string kind() const override { return "test-memorizing"; }
    Expected<void> update(const cost::CostTask&, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results) override
    {
        for (size_t i = 0; i < states.size(); ++i)
            m_throughput[sched::stepsToText(states[i].steps())] = results[i].ok() ? 1.0 / results[i].meanCost() : 0.0;
        return {};
    }
    std::vector<double> predict(const cost::CostTask&, std::span<const sched::State> states) override
    {
        std::vector<double> out;
        for (const sched::State& s : states) {
            auto it = m_throughput.find(sched::stepsToText(s.steps()));
            out.push_back(it == m_throughput.end() ? 0.0 : it->second);
        }
        return out;
    }
    Expected<std::vector<uint8_t>> save() const override { return std::vector<uint8_t> {}; }
    Expected<void> load(std::span<const uint8_t>) override { return {}; }
    int64_t trainedOn() const override { return static_cast<int64_t>(m_throughput.size()); }

private:
    std::map<std::string, double> m_throughput;
};

void registerTestModels()
{
    cost::registerCostModel({ "test-memorizing", "a test model that remembers what it learned" },
        [](uint64_t) { return std::make_unique<MemorizingModel>(); });
    cost::registerCostModel({ "test-refusing", "a test model whose update fails" },
        [](uint64_t) { return std::make_unique<RefusingModel>(false); });
    cost::registerCostModel({ "test-throwing", "a test model whose predict throws" },
        [](uint64_t) { return std::make_unique<RefusingModel>(true); });
}

} // namespace

TEST(ShadowModels, AnUnknownKindIsAnErrorNamingIt)
{
    auto made = engine::ShadowModels::make({ "xgb", "no-such-model" }, kSeed, {}, kWarmup);
    ASSERT_FALSE(made);
    EXPECT_EQ(made.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(made.error().message.find("\"no-such-model\""), std::string::npos) << made.error().message;
    EXPECT_NE(made.error().message.find("xgb"), std::string::npos) << "the kinds there are: " << made.error().message;

    auto twice = engine::ShadowModels::make({ "xgb", "random", "xgb" }, kSeed, {}, kWarmup);
    ASSERT_FALSE(twice);
    EXPECT_EQ(twice.error().message, "shadow model \"xgb\" is listed twice");
}

// "Shadow models' per-round metrics equal compare-models' metrics on the same records": each round, each shadow's
// pairwise accuracy and Spearman are those of a separately made model of the same kind and seed, trained on the
// same records in the same order, computed here with store/metrics.h. One failed measurement is left out.
TEST(ShadowModels, PerRoundMetricsEqualCompareModelsMetricsOnTheSameRecords)
{
    const Measured& m = measured();
    cost::MachineLimits machine;
    machine.ghz = 2.5; // as a measured profile would give: the analytical shadow must estimate with it
    machine.measured = true;
    const std::vector<std::string> kinds { "xgb", "analytical", "random" };
    auto shadows = engine::ShadowModels::make(kinds, kSeed, machine, kWarmup);
    ASSERT_TRUE(shadows) << shadows.error().message;
    EXPECT_EQ(shadows->kinds(), kinds);
    std::map<std::string, std::unique_ptr<cost::CostModel>> references;
    for (const std::string& kind : kinds)
        references[kind] = referenceModel(kind, machine);
    // The session's model: an xgb of the session's seed, as a session would run it.
    std::unique_ptr<cost::CostModel> sessionModel = referenceModel("xgb", machine);

    for (int r = 0; r < kRounds; ++r) {
        Round round = m.rounds[static_cast<size_t>(r)];
        if (r == 1)
            round.results[3] = record::failedResult(record::MeasureStatus::RunTimeout, "timed out", 1.0);
        int ok = 0;
        for (const record::MeasureResult& result : round.results)
            ok += result.ok() ? 1 : 0;
        ASSERT_GE(ok, 8) << "round " << r + 1 << ": too few programs ran to rank";

        const std::vector<double> sessionScores = sessionModel->predict(m.costTask, round.states);
        const auto lines
            = shadows->round(r + 1, 0, m.costTask, round.states, round.results, sessionScores, sessionModel->kind());
        ASSERT_TRUE(sessionModel->update(m.costTask, round.states, round.results));
        ASSERT_EQ(lines.size(), kinds.size() + 1);
        EXPECT_TRUE(lines[0].session) << "the session's line comes first";
        for (const engine::ShadowMetrics& line : lines) {
            EXPECT_EQ(line.round, r + 1);
            EXPECT_EQ(line.task, 0);
        }
        const std::string where = "round " + std::to_string(r + 1);
        expectMetrics(
            lineOf(lines, "xgb", true), compareModelsMetrics(sessionScores, round.results), where + " session");
        for (const std::string& kind : kinds) {
            cost::CostModel& reference = *references[kind];
            const std::vector<double> scores = reference.predict(m.costTask, round.states);
            const Metrics expected = compareModelsMetrics(scores, round.results);
            expectMetrics(lineOf(lines, kind), expected, where + " " + kind);
            EXPECT_EQ(lineOf(lines, kind).samples, ok) << "failures carry no label";
            ASSERT_TRUE(reference.update(m.costTask, round.states, round.results));
        }
        // A shadow of the session's kind and seed scores as the session's model does.
        EXPECT_EQ(lineOf(lines, "xgb").pairwiseAccuracy, lineOf(lines, "xgb", true).pairwiseAccuracy) << where;
    }
    EXPECT_FALSE(references["xgb"]->warmingUp()) << "the last rounds were scored by a trained booster";

    // The summary: per model, the plain mean over the rounds of the history.
    ASSERT_EQ(shadows->history().size(), kRounds * (kinds.size() + 1));
    const auto summary = shadows->summary();
    ASSERT_EQ(summary.size(), kinds.size() + 1);
    EXPECT_TRUE(summary[0].session);
    for (const engine::ShadowSummary& s : summary) {
        double sum = 0.0;
        for (const engine::ShadowMetrics& line : shadows->history())
            if (line.kind == s.kind && line.session == s.session)
                sum += line.pairwiseAccuracy;
        EXPECT_EQ(s.rounds, kRounds) << s.kind;
        EXPECT_DOUBLE_EQ(s.meanPairwiseAccuracy, sum / kRounds) << s.kind;
        EXPECT_TRUE(s.error.empty()) << s.kind;
    }

    // The JSON form round-trips exactly.
    auto parsed = engine::shadowMetricsFromJson(engine::shadowMetricsToJson(shadows->history()));
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(*parsed, shadows->history());
}

// The scores are taken before the round's update, shown two ways.
// - A model that remembers the throughput of every program it learned (and scores others 0) ranks round 1's
//   programs perfectly (Spearman 1) once it has learned them, and not at all before (every score 0: Spearman 0).
//   Given the same programs again in round 2, it has learned them.
// - In round 1 the xgb shadow has seen nothing: it scores at random (its warm-up), so its metrics are those of a
//   fresh xgb of the same seed; round 2 is scored by the model round 1 trained.
TEST(ShadowModels, ScoresAreTakenBeforeTheRoundsUpdate)
{
    registerTestModels();
    const Measured& m = measured();
    const Round& first = m.rounds[0];
    const Round& second = m.rounds[1];
    auto shadows = engine::ShadowModels::make({ "test-memorizing", "xgb" }, kSeed, {}, kWarmup);
    ASSERT_TRUE(shadows) << shadows.error().message;
    auto before = referenceModel("xgb", {});
    ASSERT_TRUE(before->warmingUp());
    const Metrics fresh = compareModelsMetrics(before->predict(m.costTask, first.states), first.results);

    const auto round1 = shadows->round(1, 0, m.costTask, first.states, first.results, {}, "xgb");
    ASSERT_EQ(round1.size(), 2u) << "no session scores: no session line";
    EXPECT_EQ(lineOf(round1, "test-memorizing").spearman, 0.0) << "scored before it learned round 1";
    expectMetrics(lineOf(round1, "xgb"), fresh, "round 1, xgb scored before its update");

    const auto again = shadows->round(2, 0, m.costTask, first.states, first.results, {}, "xgb");
    EXPECT_EQ(lineOf(again, "test-memorizing").spearman, 1.0) << "round 1's update happened";

    auto after = referenceModel("xgb", {});
    ASSERT_TRUE(after->update(m.costTask, first.states, first.results));
    ASSERT_FALSE(after->warmingUp());
    (void)after->predict(m.costTask, first.states); // the shadow's round 2 scored these: the same draws
    ASSERT_TRUE(after->update(m.costTask, first.states, first.results));
    const auto round3 = shadows->round(3, 0, m.costTask, second.states, second.results, {}, "xgb");
    expectMetrics(lineOf(round3, "xgb"),
        compareModelsMetrics(after->predict(m.costTask, second.states), second.results),
        "round 3, xgb scored by the model rounds 1 and 2 trained");
}

// Resume: learn() gives the shadows the stored records the session's model learned from before its first round.
TEST(ShadowModels, LearnsTheStoredRecordsBeforeTheFirstRound)
{
    registerTestModels();
    const Measured& m = measured();
    const Round& stored = m.rounds[0];
    const Round& next = m.rounds[1];
    auto resumed = referenceModel("xgb", {});
    ASSERT_TRUE(resumed->update(m.costTask, stored.states, stored.results));

    auto shadows = engine::ShadowModels::make({ "xgb", "test-memorizing" }, kSeed, {}, kWarmup);
    ASSERT_TRUE(shadows) << shadows.error().message;
    shadows->learn(m.costTask, stored.states, stored.results);
    const auto lines = shadows->round(1, 0, m.costTask, next.states, next.results, {}, "xgb");
    ASSERT_EQ(lines.size(), 2u);
    expectMetrics(lineOf(lines, "xgb"), compareModelsMetrics(resumed->predict(m.costTask, next.states), next.results),
        "xgb after learning the stored records");
    const auto storedAgain = shadows->round(2, 0, m.costTask, stored.states, stored.results, {}, "xgb");
    EXPECT_EQ(lineOf(storedAgain, "test-memorizing").spearman, 1.0) << "it learned the stored records";
}

// A model whose update fails, and one whose predict throws, give error lines from the round they fail in on; the
// other shadows' metrics are unchanged, round after round.
TEST(ShadowModels, AFailingModelGivesAnErrorLineAndTheOthersGoOn)
{
    registerTestModels();
    const Measured& m = measured();
    auto shadows = engine::ShadowModels::make({ "test-refusing", "analytical", "test-throwing" }, kSeed, {}, kWarmup);
    ASSERT_TRUE(shadows) << shadows.error().message;
    auto analytical = referenceModel("analytical", {});
    for (int r = 0; r < kRounds; ++r) {
        const Round& round = m.rounds[static_cast<size_t>(r)];
        const auto lines = shadows->round(r + 1, 0, m.costTask, round.states, round.results, {}, "xgb");
        ASSERT_EQ(lines.size(), 3u);
        const std::string where = "round " + std::to_string(r + 1);
        EXPECT_EQ(lineOf(lines, "test-refusing").error, "round 1: the test model refuses to learn") << where;
        EXPECT_EQ(lineOf(lines, "test-throwing").error, "round 1: exception: the test model's features blew up")
            << where;
        EXPECT_EQ(lineOf(lines, "test-refusing").samples, 0) << where << ": no metrics once failed";
        expectMetrics(lineOf(lines, "analytical"),
            compareModelsMetrics(analytical->predict(m.costTask, round.states), round.results), where + " analytical");
    }
    const auto summary = shadows->summary();
    ASSERT_EQ(summary.size(), 3u);
    EXPECT_EQ(summary[0].kind, "test-refusing");
    EXPECT_EQ(summary[0].rounds, 0);
    EXPECT_EQ(summary[0].error, "round 1: the test model refuses to learn");
    EXPECT_EQ(summary[1].kind, "analytical");
    EXPECT_EQ(summary[1].rounds, kRounds);
    EXPECT_TRUE(summary[1].error.empty());

    // A failure while learning the stored records (resume) stops the model before its first round.
    auto resumed = engine::ShadowModels::make({ "test-refusing", "random" }, kSeed, {}, kWarmup);
    ASSERT_TRUE(resumed) << resumed.error().message;
    resumed->learn(m.costTask, m.rounds[0].states, m.rounds[0].results);
    const auto lines = resumed->round(1, 0, m.costTask, m.rounds[1].states, m.rounds[1].results, {}, "xgb");
    EXPECT_EQ(lineOf(lines, "test-refusing").error, "learning the stored records: the test model refuses to learn");
    EXPECT_TRUE(lineOf(lines, "random").error.empty());
}

TEST(ShadowModels, MalformedJsonIsAnErrorSayingWhere)
{
    auto notArray = engine::shadowMetricsFromJson("{\"kind\": \"xgb\"}");
    ASSERT_FALSE(notArray);
    EXPECT_EQ(notArray.error().kind, ErrorKind::Parse);
    EXPECT_NE(notArray.error().message.find("expected a JSON array"), std::string::npos) << notArray.error().message;
    auto noKind = engine::shadowMetricsFromJson("[{\"kind\": \"xgb\", \"round\": 1}, {\"round\": 2}]");
    ASSERT_FALSE(noKind);
    EXPECT_NE(noKind.error().message.find("entry 1"), std::string::npos) << noKind.error().message;
    auto wrongType = engine::shadowMetricsFromJson("[{\"kind\": \"xgb\", \"round\": \"three\"}]");
    ASSERT_FALSE(wrongType);
    EXPECT_NE(wrongType.error().message.find("entry 0"), std::string::npos) << wrongType.error().message;
}
