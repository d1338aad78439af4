// Sweep one parameter (engine/sweep.h) on a 64x64x64 matmul with a hand-written schedule: the parameters it
// lists, the legal values of a split length and of the unroll limit, bad parameters and values refused with
// their reason, and real sweeps (compiled, run in the runner process, checked): every legal value measured once,
// the current value reproducing the state, each model's prediction beside each point, a stop after the first
// point, a failing measurement kept as a failed point, and the points stored as records a model learns from.
#include "core/cost/cost_model.h"
#include "core/engine/sweep.h"
#include "core/ops/linear.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation.h"
#include "core/search/sketch.h"
#include "core/store/store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <unistd.h>

using namespace ts;
using engine::SweepParameter;

namespace {

ir::ComputeDAG matmulDag(int64_t n = 64)
{
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, n });
    ir::setNextAxisNames({ "i", "j" }, { "k" });
    auto c = ops::matmul(a, b);
    EXPECT_TRUE(c);
    return ir::ComputeDAG::create({ a, b, *c });
}

// i split [4, 8] (i.0: 2), j split [16] (j.0: 4), reordered i.0 j.0 i.1 k i.2 j.1, unroll limit 16 on the stage,
// j.1 vectorized. Stage 2 is the matmul (0 and 1 are the placeholders).
sched::State handSchedule(const ir::ComputeDAG& dag)
{
    sched::State s = sched::State::initial(dag);
    sched::applyOrDie(s, sched::SplitStep { 2, 0, 64, { 4, 8 }, true });
    sched::applyOrDie(s, sched::SplitStep { 2, 3, 64, { 16 }, true });
    sched::applyOrDie(s, sched::ReorderStep { 2, { 0, 3, 1, 5, 2, 4 } });
    sched::applyOrDie(s, sched::PragmaStep { 2, 0, "auto_unroll_max_step$16" });
    sched::applyOrDie(s, sched::AnnotationStep { 2, 5, sched::Annotation::Vectorize });
    return s;
}

constexpr SweepParameter kOuterI { SweepParameter::Kind::SplitLength, 0, 0 };
constexpr SweepParameter kInnerI { SweepParameter::Kind::SplitLength, 0, 1 };
constexpr SweepParameter kInnerJ { SweepParameter::Kind::SplitLength, 1, 0 };
constexpr SweepParameter kUnroll { SweepParameter::Kind::Unroll, 3, 0 };

engine::SweepOptions quickOptions()
{
    engine::SweepOptions o;
    o.measure.timing.minRepeatMs = 1;
    o.measure.runnerPath = TS_RUNNER_PATH;
    return o;
}

std::string tempWorkspace(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ts_sweep_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = dir / (name + ".tunescope");
    for (const char* suffix : { "", "-wal", "-shm" })
        std::filesystem::remove(path.string() + suffix);
    return path.string();
}

std::vector<int64_t> valuesOf(const std::vector<engine::SweepCandidate>& candidates)
{
    std::vector<int64_t> out;
    for (const auto& c : candidates)
        out.push_back(c.value);
    return out;
}

std::vector<int64_t> valuesOf(const std::vector<engine::SweepPoint>& points)
{
    std::vector<int64_t> out;
    for (const auto& p : points)
        out.push_back(p.value);
    return out;
}

} // namespace

TEST(Sweep, ListsEverySplitLengthAndTheUnrollLimitNamedAsWhenApplied)
{
    const ir::ComputeDAG dag = matmulDag();
    auto listed = engine::sweepableParameters(dag, handSchedule(dag));
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->size(), 4u);
    const auto& p = *listed;
    EXPECT_EQ(p[0].parameter, kOuterI);
    EXPECT_EQ(p[0].description, "split matmul i: length 1 of 2 in [4, 8] (now 4)");
    EXPECT_EQ(p[0].candidates, (std::vector<int64_t> { 1, 2, 4, 8 })); // 64 / 8
    EXPECT_EQ(p[1].parameter, kInnerI);
    EXPECT_EQ(p[1].description, "split matmul i: length 2 of 2 in [4, 8] (now 8)");
    EXPECT_EQ(p[1].candidates, (std::vector<int64_t> { 1, 2, 4, 8, 16 })); // 64 / 4
    EXPECT_EQ(p[2].parameter, kInnerJ);
    EXPECT_EQ(p[2].current, 16);
    EXPECT_EQ(p[2].candidates, (std::vector<int64_t> { 1, 2, 4, 8, 16, 32, 64 }));
    EXPECT_EQ(p[3].parameter, kUnroll);
    EXPECT_EQ(p[3].description, "unroll matmul (now 16)");
    EXPECT_EQ(p[3].candidates, (std::vector<int64_t> { 0, 16, 64, 512 }));

    // The innermost length of a split by factor stays within Ansor's cap, but for the value it has now.
    search::SearchParams capped;
    capped.maxInnermostSplitFactor = 8;
    capped.unrollMaxSteps = { 0, 512 };
    auto cappedList = engine::sweepableParameters(dag, handSchedule(dag), capped);
    ASSERT_TRUE(cappedList) << cappedList.error().message;
    EXPECT_EQ((*cappedList)[0].candidates, (std::vector<int64_t> { 1, 2, 4, 8 })); // not innermost: not capped
    EXPECT_EQ((*cappedList)[1].candidates, (std::vector<int64_t> { 1, 2, 4, 8 }));
    EXPECT_EQ((*cappedList)[2].candidates, (std::vector<int64_t> { 1, 2, 4, 8, 16 }));
    EXPECT_EQ((*cappedList)[3].candidates, (std::vector<int64_t> { 0, 16, 512 }));
}

TEST(Sweep, LegalValuesReplayTheStateWithOnlyThatLengthChanged)
{
    const ir::ComputeDAG dag = matmulDag();
    const sched::State state = handSchedule(dag);
    auto legal = engine::legalValues(dag, state, kInnerI);
    ASSERT_TRUE(legal) << legal.error().message;
    EXPECT_EQ(valuesOf(*legal), (std::vector<int64_t> { 1, 2, 4, 8, 16 }));
    int currents = 0;
    for (const engine::SweepCandidate& c : *legal) {
        std::vector<sched::Step> expected = state.steps();
        std::get<sched::SplitStep>(expected[0]).lengths = { 4, c.value };
        EXPECT_EQ(sched::stepsToText(c.state.steps()), sched::stepsToText(expected)) << "value " << c.value;
        // i.2, the length swept, has the value as its extent; i.0 takes the rest.
        const sched::Stage& matmul = c.state.stage(2);
        EXPECT_EQ(matmul.iters[4].name, "i.2");
        EXPECT_EQ(matmul.iters[4].extent, c.value);
        EXPECT_EQ(matmul.iters[0].extent, 64 / 4 / c.value);
        if (c.current) {
            ++currents;
            EXPECT_EQ(c.value, 8);
            EXPECT_EQ(sched::stepsToText(c.state.steps()), sched::stepsToText(state.steps()));
        }
    }
    EXPECT_EQ(currents, 1);

    auto unroll = engine::legalValues(dag, state, kUnroll, { 512, 0 });
    ASSERT_TRUE(unroll) << unroll.error().message;
    ASSERT_EQ(valuesOf(*unroll), (std::vector<int64_t> { 0, 512 }));
    EXPECT_EQ(std::get<sched::PragmaStep>(unroll->back().state.steps()[3]).pragma, "auto_unroll_max_step$512");
    EXPECT_EQ(unroll->back().state.stage(2).autoUnrollMaxStep, 512);
}

TEST(Sweep, RefusesAValueOutsideTheLegalSetAndBadParametersWithTheirReason)
{
    const ir::ComputeDAG dag = matmulDag();
    const sched::State state = handSchedule(dag);
    auto illegal = engine::legalValues(dag, state, kInnerI, { 4, 3 });
    ASSERT_FALSE(illegal);
    EXPECT_EQ(illegal.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(illegal.error().message,
        "split matmul i: length 2 of 2 in [4, 8] (now 8): 3 is not a legal value (legal: 1, 2, 4, 8, 16)");
    // sweep refuses it before measuring anything (no runner path needed to fail here).
    engine::SweepOptions options;
    options.values = { 32 };
    auto swept = engine::sweep(dag, state, kInnerI, options);
    ASSERT_FALSE(swept);
    EXPECT_NE(swept.error().message.find("32 is not a legal value"), std::string::npos) << swept.error().message;

    const std::vector<std::pair<SweepParameter, std::string>> bad {
        { { SweepParameter::Kind::SplitLength, 9, 0 }, "cannot sweep step 9: the state has 5 steps" },
        { { SweepParameter::Kind::SplitLength, 2, 0 },
            "cannot sweep a split length of step 2: it is a RE step, not a split (SP)" },
        { { SweepParameter::Kind::SplitLength, 0, 2 },
            "cannot sweep length 2 of step 0 (SP): the split has 2 lengths (0..1)" },
        { { SweepParameter::Kind::Unroll, 0, 0 },
            "cannot sweep the unroll limit of step 0: it is a SP step, not auto_unroll_max_step$N (PR)" },
    };
    for (const auto& [parameter, message] : bad) {
        auto described = engine::describeParameter(dag, state, parameter);
        ASSERT_FALSE(described) << message;
        EXPECT_EQ(described.error().kind, ErrorKind::InvalidArgument);
        EXPECT_EQ(described.error().message, message);
    }

    // A sketch's unfilled split offers nothing to sweep.
    sched::State sketch = sched::State::initial(dag);
    sched::applyOrDie(sketch, sched::SplitStep { 2, 0, 64, { std::nullopt, 8 }, true });
    auto listed = engine::sweepableParameters(dag, sketch);
    ASSERT_TRUE(listed) << listed.error().message;
    EXPECT_TRUE(listed->empty());
    auto unfilled = engine::describeParameter(dag, sketch, kInnerI);
    ASSERT_FALSE(unfilled);
    EXPECT_EQ(unfilled.error().message,
        "cannot sweep a length of step 0 (SP): its lengths are not all chosen ([?, 8]); fill the sketch first");
}

TEST(Sweep, AnAnsorStateOffersItsTileSizesWhoseValuesKeepEverySplitPerfect)
{
    const ir::ComputeDAG dag = matmulDag();
    const search::SearchTask task { dag, target::Target::host(), "matmul", dag.flopCount() };
    auto sketches = search::generateSketches(task);
    ASSERT_TRUE(sketches) << sketches.error().message;
    Rng rng(7);
    auto state = search::randomAnnotation(task, sketches->front(), {}, rng);
    ASSERT_TRUE(state) << state.error().message;
    auto listed = engine::sweepableParameters(dag, *state);
    ASSERT_TRUE(listed) << listed.error().message;
    int splits = 0;
    int unrolls = 0;
    for (const engine::SweepableParameter& p : *listed) {
        if (p.parameter.kind != SweepParameter::Kind::SplitLength) {
            ++unrolls;
            continue;
        }
        ++splits;
        auto legal = engine::legalValues(dag, *state, p.parameter);
        ASSERT_TRUE(legal) << p.description << ": " << legal.error().message;
        EXPECT_EQ(valuesOf(*legal), p.candidates) << p.description;
        const auto& split = std::get<sched::SplitStep>(state->steps()[static_cast<size_t>(p.parameter.step)]);
        for (const engine::SweepCandidate& c : *legal) {
            const auto& changed = std::get<sched::SplitStep>(c.state.steps()[static_cast<size_t>(p.parameter.step)]);
            int64_t product = 1;
            for (const auto& length : changed.lengths)
                product *= *length;
            EXPECT_EQ(*split.extent % product, 0) << p.description << " = " << c.value;
        }
    }
    // SSRSRS: i and j in four levels (three lengths each), k in two (one length); InitUnroll's pragma on the
    // stage that reduces.
    EXPECT_EQ(splits, 7);
    EXPECT_EQ(unrolls, 1);
}

TEST(Sweep, MeasuresEveryLegalValueWithEachModelsPrediction)
{
    const ir::ComputeDAG dag = matmulDag();
    const sched::State state = handSchedule(dag);
    auto analytical = cost::makeCostModel("analytical", 1);
    auto random = cost::makeCostModel("random", 1);
    ASSERT_TRUE(analytical && random);
    engine::SweepOptions options = quickOptions();
    options.models = { { "analytical", analytical->get() }, { "random", random->get() } };
    std::vector<std::pair<int, int>> progress;
    options.progress = [&](int done, int total) {
        progress.emplace_back(done, total);
        return true;
    };
    auto swept = engine::sweep(dag, state, kInnerI, options);
    ASSERT_TRUE(swept) << swept.error().message;
    EXPECT_FALSE(swept->cancelled);
    EXPECT_EQ(swept->total, 5);
    EXPECT_EQ(swept->parameter.description, "split matmul i: length 2 of 2 in [4, 8] (now 8)");
    EXPECT_EQ(swept->models, (std::vector<std::string> { "analytical", "random" }));
    ASSERT_EQ(valuesOf(swept->points), (std::vector<int64_t> { 1, 2, 4, 8, 16 }));
    std::set<double> analyticalScores;
    for (const engine::SweepPoint& p : swept->points) {
        EXPECT_TRUE(p.result.ok()) << p.value << ": " << p.result.message;
        EXPECT_NEAR(p.gflops, dag.flopCount() / p.result.meanCost() / 1e9, 1e-9);
        ASSERT_EQ(p.predictions.size(), 2u);
        EXPECT_TRUE(std::isfinite(p.predictions[0]) && std::isfinite(p.predictions[1]));
        analyticalScores.insert(p.predictions[0]);
        EXPECT_EQ(p.current, p.value == 8);
        if (p.current) {
            EXPECT_EQ(p.steps, sched::stepsToText(state.steps()));
        }
        EXPECT_EQ(p.recordId, 0); // no workspace
    }
    EXPECT_GT(analyticalScores.size(), 1u) << "the analytical model sees the tile sizes";
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), std::make_pair(5, 5));

    auto unroll = engine::sweep(dag, state, kUnroll, quickOptions());
    ASSERT_TRUE(unroll) << unroll.error().message;
    ASSERT_EQ(valuesOf(unroll->points), (std::vector<int64_t> { 0, 16, 64, 512 }));
    for (const engine::SweepPoint& p : unroll->points) {
        EXPECT_TRUE(p.result.ok()) << p.value << ": " << p.result.message;
        EXPECT_NE(p.steps.find("auto_unroll_max_step$" + std::to_string(p.value)), std::string::npos) << p.steps;
        EXPECT_TRUE(p.predictions.empty());
    }
}

TEST(Sweep, StopsAfterTheFirstPointWithThePointsMeasuredSoFar)
{
    const ir::ComputeDAG dag = matmulDag();
    const sched::State state = handSchedule(dag);
    engine::SweepOptions options = quickOptions();
    options.progress = [](int done, int) { return done < 1; };
    auto swept = engine::sweep(dag, state, kInnerJ, options);
    ASSERT_TRUE(swept) << swept.error().message;
    EXPECT_TRUE(swept->cancelled);
    EXPECT_EQ(swept->total, 7);
    ASSERT_GE(swept->points.size(), 1u);
    EXPECT_LT(swept->points.size(), 7u);
    EXPECT_TRUE(swept->points.front().result.ok()) << swept->points.front().result.message;

    // Stopped before it starts: nothing measured, not an error.
    std::stop_source stop;
    stop.request_stop();
    engine::SweepOptions stopped = quickOptions();
    stopped.stop = stop.get_token();
    auto none = engine::sweep(dag, state, kInnerJ, stopped);
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_TRUE(none->cancelled);
    EXPECT_TRUE(none->points.empty());
}

TEST(Sweep, AFailingMeasurementIsAFailedPointNotAnError)
{
    const ir::ComputeDAG dag = matmulDag();
    engine::SweepOptions options = quickOptions();
    // Every run lasts at least 300 ms and is killed after 1 ms: each value times out.
    options.measure.timing.minRepeatMs = 300;
    options.measure.runTimeoutMs = 1;
    options.values = { 1, 16 };
    auto swept = engine::sweep(dag, handSchedule(dag), kInnerI, options);
    ASSERT_TRUE(swept) << swept.error().message;
    EXPECT_FALSE(swept->cancelled);
    ASSERT_EQ(valuesOf(swept->points), (std::vector<int64_t> { 1, 16 }));
    for (const engine::SweepPoint& p : swept->points) {
        EXPECT_EQ(p.result.status, record::MeasureStatus::RunTimeout) << p.result.message;
        EXPECT_FALSE(p.result.message.empty());
        EXPECT_EQ(p.gflops, 0.0);
    }
}

TEST(Sweep, StoresEachPointAsARecordAModelLearnsFrom)
{
    const ir::ComputeDAG dag = matmulDag();
    const sched::State state = handSchedule(dag);
    const std::string ws = tempWorkspace("store");
    engine::SweepOptions options = quickOptions();
    options.workspace = ws;
    options.taskName = "matmul";
    auto swept = engine::sweep(dag, state, kOuterI, options);
    ASSERT_TRUE(swept) << swept.error().message;
    ASSERT_EQ(swept->points.size(), 4u);

    auto store = store::Store::open(ws);
    ASSERT_TRUE(store) << store.error().message;
    auto records = store->records({});
    ASSERT_TRUE(records) << records.error().message;
    ASSERT_EQ(records->size(), 4u);
    auto task = store->findTask(dag.workloadKey());
    ASSERT_TRUE(task && *task);
    EXPECT_EQ((*task)->name, "matmul");
    for (size_t i = 0; i < records->size(); ++i) {
        const store::Record& r = (*records)[i];
        const engine::SweepPoint& p = swept->points[i];
        EXPECT_EQ(r.id, p.recordId);
        EXPECT_EQ(r.taskId, (*task)->id);
        EXPECT_EQ(r.steps, p.steps);
        EXPECT_EQ(r.result.status, p.result.status);
        const nlohmann::json extra = nlohmann::json::parse(r.extra);
        EXPECT_EQ(extra["pick"], "sweep");
        EXPECT_EQ(extra["sweep"]["parameter"], "split");
        EXPECT_EQ(extra["sweep"]["step"], 0);
        EXPECT_EQ(extra["sweep"]["part"], 0);
        EXPECT_EQ(extra["sweep"]["value"], p.value);
    }

    // A learned model for the next sweep learns from them; with no workspace it has nothing to learn from.
    auto xgb = engine::sweepModel("xgb", &*store, dag, options.measure);
    ASSERT_TRUE(xgb) << xgb.error().message;
    EXPECT_EQ((*xgb)->trainedOn(), 4);
    auto analytical = engine::sweepModel("analytical", &*store, dag, options.measure);
    ASSERT_TRUE(analytical) << analytical.error().message;
    EXPECT_EQ((*analytical)->trainedOn(), 0) << "the analytical model learns nothing";
    auto untrained = engine::sweepModel("xgb", nullptr, dag, options.measure);
    ASSERT_TRUE(untrained) << untrained.error().message;
    EXPECT_EQ((*untrained)->trainedOn(), 0);
    EXPECT_TRUE((*untrained)->warmingUp());
    auto unknown = engine::sweepModel("xgboost-9000", nullptr, dag, options.measure);
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("xgboost-9000"), std::string::npos);
}
