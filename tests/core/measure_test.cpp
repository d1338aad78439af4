// Measurement: the runner process, error numbers, isolation from crashing and hanging kernels, the
// correctness check, the replay of a real TVM record, and live measurement (results one by one, stop,
// build timeouts, the build pool).
#include "schedule_fixtures.h"

#include "core/lower/lower.h"
#include "core/measure/build_pool.h"
#include "core/measure/measurer.h"
#include "core/measure/timing.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

using namespace ts;
using Clock = std::chrono::steady_clock;

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
    EXPECT_EQ(results[0].status, record::MeasureStatus::Ok) << results[0].message;
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
    EXPECT_EQ(crashed.status, record::MeasureStatus::RuntimeDeviceError);
    // "runner died: signal 11 (Segmentation fault)"; under AddressSanitizer its handler exits instead.
    EXPECT_EQ(crashed.message.rfind("runner died: ", 0), 0u) << crashed.message;
#ifndef __SANITIZE_ADDRESS__
    EXPECT_EQ(crashed.message, "runner died: signal 11 (Segmentation fault)");
#endif
    EXPECT_EQ(crashed.costs, std::vector<double> { record::kFailedCost });

    const auto next = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_EQ(next[0].status, record::MeasureStatus::Ok) << next[0].message;
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
    EXPECT_EQ(hung.status, record::MeasureStatus::RunTimeout) << hung.message;
    const auto next = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_EQ(next[0].status, record::MeasureStatus::Ok) << next[0].message;
}

namespace {
std::atomic<int> g_calls { 0 };

// Fast (about 20 us) for its first five runs, then 2 ms a run: a kernel whose machine got busy after the
// timer sized its measurement.
void slowsDown(void**)
{
    if (g_calls.fetch_add(1) < 5) {
        const auto until = Clock::now() + std::chrono::microseconds(20);
        while (Clock::now() < until) { }
    } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}
} // namespace

// The first measurement (3 fast runs) sizes the next one at ~5,000 runs for min_repeat_ms = 100, each of which
// now takes 2 ms: 10 s a repeat when run to the end, past the runner's timeout. Each measurement stops once it has
// lasted 4 x min_repeat_ms and reports the mean of the runs it did.
TEST(Timing, AMeasurementThatOverrunsStopsWithTheRunsItDid)
{
    measure::KernelBuffers buffers({ 16 }, 0, 1);
    measure::TimingOptions options;
    options.number = 3;
    options.repeat = 2;
    options.minRepeatMs = 100;
    options.warmup = 1;
    g_calls = 0;
    const auto start = Clock::now();
    const std::vector<double> costs = measure::timeKernel(slowsDown, buffers, options);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    ASSERT_EQ(costs.size(), 2u);
    EXPECT_LT(seconds, 3.0); // two measurements of about 0.4 s, not 20 s
    EXPECT_GT(g_calls.load(), 5 + 2 * 150); // each ran until it overran, not one slice
    EXPECT_GE(costs[1], 1.9e-3); // the mean of the slow runs done, not their total over the runs asked
    EXPECT_LT(costs[1], 20e-3);
}

// Two threads of this process spin while a 2-thread kernel is timed on 2 cores: the runner's threads wait for a
// CPU, and the result says how much (MeasureResult::waited), so a figure timed on a busy machine is not taken for
// the kernel's.
TEST(Measure, AKernelTimedOnABusyMachineSaysHowLongItWaited)
{
    if (!measure::schedulerTimes())
        GTEST_SKIP() << "no /proc/self/task/*/schedstat here";
    EXPECT_DOUBLE_EQ(measure::cpuWait({ 100, 50 }, { 400, 150 }), 0.25); // 300 ns ran, 100 waited
    EXPECT_DOUBLE_EQ(measure::cpuWait({ 100, 50 }, { 100, 50 }), 0.0);
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto options = quickOptions();
    options.kernelThreads = 2;
    options.timing.minRepeatMs = 200; // long enough that the scheduler must share the cores
    measure::Measurer measurer(options);
    std::atomic<bool> stop { false };
    std::vector<std::jthread> spinners;
    const unsigned cores = std::max(2u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cores; ++i)
        spinners.emplace_back([&] {
            while (!stop.load(std::memory_order_relaxed)) { }
        });
    const auto busy = measurer.measure(dag, { sched::State::initial(dag) });
    stop = true;
    spinners.clear();
    ASSERT_EQ(busy[0].status, record::MeasureStatus::Ok) << busy[0].message;
    EXPECT_GE(busy[0].waited, measure::kBusyWait);
    EXPECT_LE(busy[0].waited, 1.0);
}

TEST(Measure, WrongAnswerIsStatusFiveAndNeverFast)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    measure::Measurer measurer(quickOptions());
    const auto zeros = handMadeKernel(dag, 64 * 64,
        [](const ir::BufferRef& out, const ir::Expr& i) { return lower::makeStore(out, { i }, ir::floatImm(0.0)); });
    const auto wrong = measurer.measureFunc(dag, zeros);
    EXPECT_EQ(wrong.status, record::MeasureStatus::WrongAnswer);
    EXPECT_NE(wrong.message.find("wrong answer: matmul["), std::string::npos) << wrong.message;
    EXPECT_EQ(wrong.meanCost(), record::kFailedCost);
}

TEST(Measure, ScheduleThatCannotLowerIsInstantiationError)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    sched::State state = sched::State::initial(dag);
    fixtures::apply(state, sched::AnnotationStep { 2, 0, sched::Annotation::BlockX });
    measure::Measurer measurer(quickOptions());
    const auto results = measurer.measure(dag, std::vector<sched::State> { state });
    EXPECT_EQ(results[0].status, record::MeasureStatus::InstantiationError);
    EXPECT_NE(results[0].message.find("blockIdx.x"), std::string::npos) << results[0].message;
}

TEST(Measure, MissingRunnerIsARuntimeErrorNotACrash)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 16);
    auto options = quickOptions();
    options.runnerPath = "/nonexistent/tunescope-runner";
    measure::Measurer measurer(options);
    const auto results = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_EQ(results[0].status, record::MeasureStatus::RuntimeDeviceError);
    EXPECT_NE(results[0].message.find("does not exist"), std::string::npos) << results[0].message;
}

TEST(Measure, InProcessPathGivesTheSameKindOfResult)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(48, 32, 40);
    auto options = quickOptions();
    options.isolate = false;
    measure::Measurer measurer(options);
    const auto results = measurer.measure(dag, std::vector<sched::State> { sched::State::initial(dag) });
    EXPECT_EQ(results[0].status, record::MeasureStatus::Ok) << results[0].message;
    EXPECT_EQ(results[0].costs.size(), 2u);
    EXPECT_EQ(measurer.runnerStarts(), 0);
}

namespace {
// Threads of this process now.
int threadCount()
{
    int n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
        ++n;
    return n;
}

// Valid random schedules of `dag`.
std::vector<sched::State> randomStates(const ir::ComputeDAG& dag, int count, uint64_t seed)
{
    Rng rng(seed);
    std::vector<sched::State> states;
    for (int i = 0; i < count; ++i)
        states.push_back(fixtures::randomSchedule(dag, rng));
    return states;
}

// Four GELUs in a chain over 512 elements, each loop unrolled: 4 x 512 erf expansions in straight code,
// a build of about half a second. (An unrolled matmul no longer serves: the emitter caps unrolled code at
// 512 statements per nest, so its build became as quick as any other.)
ir::ComputeDAG geluChainDag()
{
    ir::Tensor x = ir::placeholder("x", { 512 });
    ir::Tensor t = x;
    for (int s = 0; s < 4; ++s)
        t = ops::gelu(t).value();
    return ir::ComputeDAG::create({ x, t });
}

sched::State slowToBuild(const ir::ComputeDAG& dag)
{
    sched::State state = sched::State::initial(dag);
    for (int stage = 1; stage < static_cast<int>(dag.ops().size()); ++stage)
        fixtures::apply(state, sched::AnnotationStep { stage, 0, sched::Annotation::Unroll });
    return state;
}

// Builds, runs and checks once, so that what the process starts once (LLVM, the reference) is not counted
// as a thread left behind.
void warmUp(const ir::ComputeDAG& dag)
{
    measure::Measurer measurer(quickOptions());
    ASSERT_TRUE(measurer.measure(dag, { sched::State::initial(dag) })[0].ok());
}
} // namespace

TEST(LiveMeasure, ResultsArriveOneByOneWithProgress)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    std::vector<sched::State> states = randomStates(dag, 4, 7);
    sched::State cannotLower = sched::State::initial(dag);
    fixtures::apply(cannotLower, sched::AnnotationStep { 2, 0, sched::Annotation::BlockX });
    states.insert(states.begin() + 2, cannotLower);
    const int total = static_cast<int>(states.size());

    auto options = quickOptions();
    options.timing.minRepeatMs = 40; // each run lasts at least 40 ms per repeat
    measure::Measurer measurer(options);
    std::vector<int> indexes;
    std::vector<Clock::time_point> arrivals;
    std::vector<measure::MeasureProgress> progress;
    measure::MeasureCallbacks callbacks;
    callbacks.onResult = [&](int index, measure::MeasureResult result) {
        EXPECT_EQ(result.ok(), index != 2) << index << ": " << result.message;
        indexes.push_back(index);
        arrivals.push_back(Clock::now());
    };
    callbacks.onProgress = [&](const measure::MeasureProgress& p) { progress.push_back(p); };
    const int delivered = measurer.measure(dag, states, callbacks);
    const auto returned = Clock::now();

    EXPECT_EQ(delivered, total);
    // The build failure first, as soon as its build ended; then the runs in index order.
    EXPECT_EQ(indexes, (std::vector<int> { 2, 0, 1, 3, 4 }));
    // One by one: the runs are 2 x 40 ms apart at least, so the first came long before measure returned.
    ASSERT_EQ(arrivals.size(), 5u);
    for (size_t i = 2; i < arrivals.size(); ++i)
        EXPECT_GE(arrivals[i] - arrivals[i - 1], std::chrono::milliseconds(70)) << i;
    EXPECT_GE(returned - arrivals[1], std::chrono::milliseconds(3 * 70));
    // A progress report after every build (5) and every run (4); done counts one per result.
    ASSERT_EQ(progress.size(), 9u);
    int lastDone = 0;
    int lastBuilt = 0;
    for (const auto& p : progress) {
        EXPECT_EQ(p.total, total);
        EXPECT_GE(p.done, lastDone);
        EXPECT_LE(p.done - lastDone, 1);
        EXPECT_GE(p.built, lastBuilt);
        lastDone = p.done;
        lastBuilt = p.built;
    }
    EXPECT_EQ(progress.back().done, total);
    EXPECT_EQ(progress.back().built, total);
}

TEST(LiveMeasure, StopFromTheCallbackDeliversNothingMore)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto options = quickOptions();
    options.timing.minRepeatMs = 200;
    measure::Measurer measurer(options);
    std::stop_source stop;
    std::vector<int> indexes;
    measure::MeasureCallbacks callbacks;
    Clock::time_point requested;
    callbacks.onResult = [&](int index, const measure::MeasureResult&) {
        indexes.push_back(index);
        requested = Clock::now();
        stop.request_stop();
    };
    const int delivered = measurer.measure(dag, randomStates(dag, 6, 3), callbacks, stop.get_token());
    // Returns at once: the next run alone would last 2 x 200 ms.
    EXPECT_LT(Clock::now() - requested, std::chrono::milliseconds(300));
    EXPECT_EQ(delivered, 1);
    EXPECT_EQ(indexes, std::vector<int> { 0 });

    // A stop requested before the call: nothing is built or delivered.
    callbacks.onResult = [&](int, const measure::MeasureResult&) { ADD_FAILURE() << "a result after the stop"; };
    EXPECT_EQ(measurer.measure(dag, randomStates(dag, 3, 4), callbacks, stop.get_token()), 0);
}

namespace {
struct StoppedBatch {
    int delivered = 0;
    Clock::duration latency {}; // from the stop request to measure's return
};

// Measures `states`, requesting the stop from another thread `delayMs` after the last build ended (so
// while the first kernel runs).
StoppedBatch stopWhileRunning(
    measure::Measurer& measurer, const ir::ComputeDAG& dag, std::vector<sched::State> states, int delayMs)
{
    std::stop_source stop;
    std::promise<void> buildsDone;
    bool signalled = false;
    measure::MeasureCallbacks callbacks;
    callbacks.onResult = [&](int, const measure::MeasureResult& r) { ADD_FAILURE() << "a result: " << r.message; };
    callbacks.onProgress = [&](const measure::MeasureProgress& p) {
        if (p.built == p.total && !signalled) {
            signalled = true;
            buildsDone.set_value();
        }
    };
    Clock::time_point requested;
    std::thread stopper([&] {
        buildsDone.get_future().wait();
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        requested = Clock::now();
        stop.request_stop();
    });
    StoppedBatch out;
    out.delivered = measurer.measure(dag, std::move(states), callbacks, stop.get_token());
    const auto returned = Clock::now();
    stopper.join();
    out.latency = returned - requested;
    return out;
}
} // namespace

TEST(LiveMeasure, StopWhileAKernelRunsReturnsPromptlyAndLeavesNoThread)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    warmUp(dag);
    const int threadsBefore = threadCount();
    {
        auto options = quickOptions();
        options.timing.minRepeatMs = 30000; // the kernel runs until the run timeout
        options.runTimeoutMs = 10000;
        measure::Measurer measurer(options);
        const StoppedBatch stopped = stopWhileRunning(measurer, dag, randomStates(dag, 3, 5), 300);
        EXPECT_EQ(stopped.delivered, 0);
        EXPECT_LT(stopped.latency, std::chrono::seconds(3));
        EXPECT_EQ(measurer.runnerStarts(), 1);
    }
    EXPECT_EQ(threadCount(), threadsBefore);
}

TEST(LiveMeasure, StoppedRunnerRestartsForTheNextBatch)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto options = quickOptions();
    options.timing.minRepeatMs = 300; // a run lasts 2 x 300 ms at least
    measure::Measurer measurer(options);
    const StoppedBatch stopped = stopWhileRunning(measurer, dag, randomStates(dag, 2, 6), 100);
    EXPECT_EQ(stopped.delivered, 0);
    EXPECT_LT(stopped.latency, std::chrono::seconds(3));
    EXPECT_EQ(measurer.runnerStarts(), 1);
    // The runner was killed; the next batch starts a new one and runs normally.
    const auto results = measurer.measure(dag, { sched::State::initial(dag) });
    EXPECT_TRUE(results[0].ok()) << results[0].message;
    EXPECT_EQ(measurer.runnerStarts(), 2);
}

TEST(LiveMeasure, BuildTimeoutIsAbandonedAndTheMeasurerDiesCleanly)
{
    const ir::ComputeDAG dag = geluChainDag();
    warmUp(dag);
    const int threadsBefore = threadCount();
    auto options = quickOptions();
    options.buildTimeoutMs = 1;
    options.buildParallelism = 1;
    auto measurer = std::make_unique<measure::Measurer>(options);
    const auto start = Clock::now();
    const auto results = measurer->measure(dag, { slowToBuild(dag), sched::State::initial(dag) });
    const auto measured = Clock::now();
    ASSERT_EQ(results.size(), 2u);
    for (const auto& r : results) {
        EXPECT_EQ(r.status, record::MeasureStatus::BuildTimeout) << r.message;
        EXPECT_EQ(r.message, "build took longer than 1 ms");
        EXPECT_EQ(r.costs, std::vector<double> { record::kFailedCost });
    }
    // measure did not wait for the slow build, nor did the second build: the pool lent a thread when
    // the measurer gave up on the first. Destroying the measurer waits for the abandoned build.
    measurer.reset();
    const auto destroyed = Clock::now();
    EXPECT_LT(measured - start, (destroyed - start) / 4);
    EXPECT_EQ(threadCount(), threadsBefore);
}

TEST(BuildPool, ALoanLetsQueuedJobsPassABlockedOne)
{
    const int threadsBefore = threadCount();
    {
        measure::BuildPool pool(1);
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        std::promise<void> blockedStarted;
        pool.submit([&] {
            blockedStarted.set_value();
            released.wait();
            pool.endLoan();
        });
        blockedStarted.get_future().wait();
        std::promise<int> second;
        pool.submit([&] { second.set_value(2); });
        auto secondResult = second.get_future();
        // One thread, blocked: the second job waits.
        EXPECT_EQ(secondResult.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
        EXPECT_EQ(pool.threads(), 1);
        pool.lend();
        EXPECT_EQ(secondResult.wait_for(std::chrono::seconds(10)), std::future_status::ready);
        EXPECT_EQ(pool.threads(), 2);
        release.set_value();
        // The loan ends with the blocked job: one thread retires.
        const auto deadline = Clock::now() + std::chrono::seconds(10);
        while (pool.threads() != 1 && Clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        EXPECT_EQ(pool.threads(), 1);
        std::promise<int> third;
        pool.submit([&] { third.set_value(3); }); // also joins the retired thread
        EXPECT_EQ(third.get_future().get(), 3);
    }
    EXPECT_EQ(threadCount(), threadsBefore);
}

TEST(BuildPool, DestroyingDropsJobsNotStartedAndWaitsForRunningOnes)
{
    std::atomic<bool> finished = false;
    std::atomic<bool> dropped = true;
    {
        measure::BuildPool pool(1);
        std::promise<void> started;
        pool.submit([&] {
            started.set_value();
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            finished = true;
        });
        pool.submit([&] { dropped = false; });
        started.get_future().wait();
    }
    EXPECT_TRUE(finished);
    EXPECT_TRUE(dropped);
}
