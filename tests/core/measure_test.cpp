// Measurement: the runner process, error numbers, isolation from crashing and hanging kernels, the
// correctness check, and the replay of a real TVM record.
#include "schedule_fixtures.h"

#include "core/lower/lower.h"
#include "core/measure/measurer.h"

#include <gtest/gtest.h>

using namespace ts;

namespace {
measure::MeasureOptions quickOptions()
{
    measure::MeasureOptions options;
    options.timing.number = 1;
    options.timing.repeat = 2;
    options.timing.minRepeatMs = 0;
    options.runTimeoutMs = 20000;
    options.runnerPath = TS_RUNNER_PATH;
    return options;
}

// A kernel for `dag` (a 64x64 matmul) whose loop does something else: `body` gets the output buffer.
lower::LoweredFunc handMadeKernel(const ir::ComputeDAG& dag, int64_t extent,
    const std::function<lower::Stmt(const ir::BufferRef& out, const ir::Expr& i)>& body)
{
    auto func = lower::lower(sched::State::initial(dag)).value();
    ir::Expr i = ir::var("i");
    func.body = lower::makeFor(i, extent, lower::ForKind::Serial, body(func.args.back(), i));
    return func;
}
} // namespace

TEST(Measure, TvmMatmulRecordReplaysRunsAndIsCorrect)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    auto steps = sched::parseSteps(fixtures::tvmMatmulSteps());
    ASSERT_TRUE(steps) << steps.error().message;
    auto state = sched::State::replay(dag, *steps);
    ASSERT_TRUE(state) << state.error().message;
    measure::Measurer measurer(quickOptions());
    const auto results = measurer.measure(dag, std::vector<sched::State> { *state });
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, measure::MeasureStatus::Ok) << results[0].message;
    ASSERT_EQ(results[0].costs.size(), 2u);
    EXPECT_GT(results[0].costs[0], 0.0);
    EXPECT_LT(results[0].costs[0], 5.0);
    EXPECT_GT(results[0].allCost, results[0].costs[0]);
}

TEST(Measure, CrashingKernelIsOneFailedResultAndTheNextRunsNormally)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    measure::Measurer measurer(quickOptions());
    // Stores far outside the output buffer: SIGSEGV in the runner.
    const auto crash = handMadeKernel(dag, 4, [](const ir::BufferRef& out, const ir::Expr& i) {
        return lower::makeStore(
            out, { i * ir::intImm(int64_t(1) << 40) + ir::intImm(int64_t(1) << 42) }, ir::floatImm(1.0));
    });
    const auto crashed = measurer.measureFunc(dag, crash);
    EXPECT_EQ(crashed.status, measure::MeasureStatus::RuntimeDeviceError);
    // "runner died: signal 11 (Segmentation fault)"; under AddressSanitizer its handler exits instead.
    EXPECT_EQ(crashed.message.rfind("runner died: ", 0), 0u) << crashed.message;
#ifndef __SANITIZE_ADDRESS__
    EXPECT_EQ(crashed.message, "runner died: signal 11 (Segmentation fault)");
#endif
    EXPECT_EQ(crashed.costs, std::vector<double> { measure::kFailedCost });

    const auto next = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_EQ(next[0].status, measure::MeasureStatus::Ok) << next[0].message;
    EXPECT_EQ(measurer.runnerStarts(), 2);
}

TEST(Measure, HangingKernelTimesOutAndTheNextRunsNormally)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto options = quickOptions();
    options.runTimeoutMs = 1500;
    measure::Measurer measurer(options);
    // 2^60 iterations of a loop-carried update: never finishes.
    const auto hang = handMadeKernel(dag, int64_t(1) << 60, [](const ir::BufferRef& out, const ir::Expr& i) {
        const ir::Expr slot = ir::floorMod(i, ir::intImm(4096));
        const ir::Expr nextSlot = ir::floorMod(i + ir::intImm(1), ir::intImm(4096));
        return lower::makeStore(out, { slot }, ir::bufferLoad(out, { nextSlot }) + ir::floatImm(1.0));
    });
    const auto hung = measurer.measureFunc(dag, hang);
    EXPECT_EQ(hung.status, measure::MeasureStatus::RunTimeout) << hung.message;
    const auto next = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_EQ(next[0].status, measure::MeasureStatus::Ok) << next[0].message;
}

TEST(Measure, WrongAnswerIsStatusFiveAndNeverFast)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    measure::Measurer measurer(quickOptions());
    const auto zeros = handMadeKernel(dag, 64 * 64,
        [](const ir::BufferRef& out, const ir::Expr& i) { return lower::makeStore(out, { i }, ir::floatImm(0.0)); });
    const auto wrong = measurer.measureFunc(dag, zeros);
    EXPECT_EQ(wrong.status, measure::MeasureStatus::WrongAnswer);
    EXPECT_NE(wrong.message.find("wrong answer: matmul["), std::string::npos) << wrong.message;
    EXPECT_EQ(wrong.meanCost(), measure::kFailedCost);
}

TEST(Measure, ScheduleThatCannotLowerIsInstantiationError)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    sched::State state = sched::State::initial(dag);
    fixtures::apply(state, sched::AnnotationStep { 2, 0, sched::Annotation::BlockX });
    measure::Measurer measurer(quickOptions());
    const auto results = measurer.measure(dag, std::vector<sched::State> { state });
    EXPECT_EQ(results[0].status, measure::MeasureStatus::InstantiationError);
    EXPECT_NE(results[0].message.find("blockIdx.x"), std::string::npos) << results[0].message;
}

TEST(Measure, MissingRunnerIsARuntimeErrorNotACrash)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 16);
    auto options = quickOptions();
    options.runnerPath = "/nonexistent/tunescope-runner";
    measure::Measurer measurer(options);
    const auto results = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_EQ(results[0].status, measure::MeasureStatus::RuntimeDeviceError);
    EXPECT_NE(results[0].message.find("does not exist"), std::string::npos) << results[0].message;
}

TEST(Measure, InProcessPathGivesTheSameKindOfResult)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(48, 32, 40);
    auto options = quickOptions();
    options.isolate = false;
    measure::Measurer measurer(options);
    const auto results = measurer.measure(dag, std::vector<sched::State> { sched::State::initial(dag) });
    EXPECT_EQ(results[0].status, measure::MeasureStatus::Ok) << results[0].message;
    EXPECT_EQ(results[0].costs.size(), 2u);
    EXPECT_EQ(measurer.runnerStarts(), 0);
}
