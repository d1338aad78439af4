// Generated CPU code against the libraries, compile latency and measurement throughput.
//   ./build/release/tests/benchmarks/ts_bench_kernels [matmul|tails|compile]   (no argument: all four parts)
// Prints:
//   1. matmul 1024^3 fp32: the hand-written schedule (steps only) measured through tunescope-runner, with B
//      as given, with B's rows padded to 1040 floats, and with B packed (layout rewrite 1), next to OpenBLAS
//      cblas_sgemm, on 1 and 2 threads, and the fp32 FMA peak measured in the same run; OpenBLAS runs its fastest
//      kernel for this CPU (library_kernels.h: a probe of OPENBLAS_CORETYPE values first, printed);
//   1b. vector tails: register tiles whose width does not divide the extent (masked last tile);
//   2. compile latency (State -> callable code): median and p95 over random matmul and conv2d schedules
//      and the hand schedules;
//   3. measurement throughput: 64 random valid schedules through Measurer (build in parallel, run in the
//      runner, check against the reference), candidates per minute.
#include "../core/schedule_fixtures.h"
#include "bench_util.h"
#include "hand_schedules.h"
#include "library_kernels.h"
#include "peak_flops.h"

#include "core/codegen/codegen.h"
#include "core/codegen/runtime.h"
#include "core/ir/reference_evaluator.h"
#include "core/lower/lower.h"
#include "core/measure/measurer.h"
#include "core/schedule/step_json.h"

#include <algorithm>
#include <cblas.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ts;
using Clock = std::chrono::steady_clock;

namespace {
// C = A B with B's rows `rowStride` floats apart (columns past n unread): the same loops, another address
// pattern.
ir::ComputeDAG matmulWithRowStride(int64_t n, int64_t rowStride)
{
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, rowStride });
    ir::setNextAxisNames({ "i", "j" }, { "k" });
    ir::Tensor c = ir::computeReduce(
        "matmul", { n, n }, { n }, ir::Reducer::Sum,
        [&](const std::vector<ir::Expr>& i, const std::vector<ir::Expr>& r) {
            return ir::load(a, { i[0], r[0] }) * ir::load(b, { r[0], i[1] });
        },
        "matmul");
    return ir::ComputeDAG::create({ a, b, c });
}

// The hand schedule (a 4 x 64 register tile, k innermost, column panels in parallel) three ways: B as given
// (rows 4 KiB apart: every row of a column panel falls in the same few cache sets, so the panel does not stay
// in L1 or L2 on CPUs whose sets are few, Intel's), B with rows 1040 floats apart (the same code, no
// conflicts), and B packed by layout rewrite 1 inside the timed kernel (TVM's default for a CPU task).
void matmulAgainstOpenBlas()
{
    const int64_t n = 1024;
    const ir::ComputeDAG dag = fixtures::matmulDag(n, n, n);
    const sched::State state = bench::matmulSchedule(dag, n, 4, 64);
    const ir::ComputeDAG strided = matmulWithRowStride(n, n + 16);
    const sched::State stridedState = bench::matmulSchedule(strided, n, 4, 64);
    std::vector<float> a(n * n), b(n * n), c(n * n);
    ir::fillRandomInput(a.data(), n * n, 1, 0);
    ir::fillRandomInput(b.data(), n * n, 1, 1);
    std::printf("matmul %ldx%ldx%ld fp32 (%.2f GFLOP), host CPU %s, hand schedule 4x64 register tile\n", n, n, n,
        dag.flopCount() / 1e9, codegen::hostCpuName().c_str());
    const double peaks[] = { 0.0, bench::peakGflops(1), bench::peakGflops(2) };
    std::printf("  OpenBLAS kernel %s; fp32 FMA peak measured here: %.1f GFLOP/s on 1 thread, %.1f on 2\n",
        bench::openBlasCoreName().c_str(), peaks[1], peaks[2]);
    std::printf("  threads  B as given  B rows 1040 apart  B packed (LR 1)  OpenBLAS   ratio: given  packed  "
                "OpenBLAS/peak  GFLOP/s\n");
    for (int threads : { 1, 2 }) {
        const double given = bench::tuneScopeSeconds(dag, state, threads);
        const double padded = bench::tuneScopeSeconds(strided, stridedState, threads);
        const double packed = bench::tuneScopeSeconds(dag, state, threads, 1);
        if (given < 0 || padded < 0 || packed < 0)
            return;
        openblas_set_num_threads(threads);
        const double blas = bench::secondsPerRun([&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n),
                static_cast<int>(n), 1.0f, a.data(), static_cast<int>(n), b.data(), static_cast<int>(n), 0.0f, c.data(),
                static_cast<int>(n));
        });
        auto gflops = [&](double seconds) { return dag.flopCount() / seconds / 1e9; };
        std::printf("  %7d  %10.1f  %17.1f  %15.1f  %8.1f  %12.0f%%  %5.0f%%  %12.0f%%\n", threads, gflops(given),
            gflops(padded), gflops(packed), gflops(blas), 100 * blas / given, 100 * blas / packed,
            100 * gflops(blas) / peaks[threads]);
    }
}

void compileLatency()
{
    struct Case {
        const char* name;
        ir::ComputeDAG dag;
    };
    std::vector<Case> cases = { { "matmul 512", fixtures::matmulDag(512, 512, 512) },
        { "conv2d 3x3 64->64 28x28", fixtures::conv2dDag(64, 28, 64) } };
    const bool verbose = std::getenv("TS_BENCH_VERBOSE") != nullptr;
    std::printf("\ncompile latency, State -> callable code (lower + LLVM O3 + JIT link), ms\n");
    std::printf("  %-26s %8s %8s %8s\n", "workload", "median", "p95", "count");
    for (const Case& c : cases) {
        Rng rng(99);
        std::vector<double> ms;
        for (int i = 0; i < 40; ++i) {
            const sched::State state = fixtures::randomSchedule(c.dag, rng);
            const auto start = Clock::now();
            auto func = lower::lower(state);
            auto kernel
                = func ? codegen::compile(*func) : Expected<std::shared_ptr<codegen::CompiledKernel>>(func.error());
            if (kernel)
                ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
            if (kernel && verbose) {
                auto ir = codegen::emitLlvmIr(*func, false);
                std::printf("    #%-3d %8.1f ms  %7zu lines of LLVM IR before O3\n", i, ms.back(),
                    ir ? static_cast<size_t>(std::count(ir->begin(), ir->end(), '\n')) : 0);
                if (ms.back() > 300)
                    std::printf("%s\n", sched::stepsToText(state.steps()).c_str());
            }
        }
        std::printf(
            "  %-26s %8.1f %8.1f %8zu\n", c.name, bench::percentile(ms, 0.5), bench::percentile(ms, 0.95), ms.size());
    }
    const ir::ComputeDAG mm = fixtures::matmulDag(1024, 1024, 1024);
    std::vector<double> ms;
    for (int i = 0; i < 10; ++i) {
        const auto start = Clock::now();
        auto kernel = codegen::compile(lower::lower(bench::matmulSchedule(mm, 1024, 4, 64)).value());
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::printf("  %-26s %8.1f %8.1f %8zu\n", "matmul 1024 hand schedule", bench::percentile(ms, 0.5),
        bench::percentile(ms, 0.95), ms.size());
}

// Vector tails: register tiles whose width does not divide 1024 (48: 21 tiles and 16 left over; 40: 25 and
// 24) next to the dividing 64. The last column tile runs masked (llvm.masked.load/store), not scalar.
void vectorTails()
{
    const int64_t n = 1024;
    const ir::ComputeDAG dag = fixtures::matmulDag(n, n, n);
    std::printf("\nvector tails: matmul 1024 hand schedule, 4 x cols register tile, 1 thread\n");
    std::printf("  %-6s %-28s %10s\n", "cols", "tiles", "GFLOP/s");
    for (int64_t cols : { 64, 48, 40 }) {
        const double seconds = bench::tuneScopeSeconds(dag, bench::matmulSchedule(dag, n, 4, cols), 1);
        if (seconds < 0)
            return;
        const std::string tiles = std::to_string(n / cols) + " full"
            + (n % cols ? " + 1 masked (" + std::to_string(n % cols) + " lanes)" : std::string());
        std::printf("  %-6ld %-28s %10.1f\n", cols, tiles.c_str(), dag.flopCount() / seconds / 1e9);
    }
}

void measurementThroughput()
{
    const ir::ComputeDAG dag = fixtures::matmulDag(256, 256, 256);
    Rng rng(5);
    std::vector<sched::State> states;
    for (int i = 0; i < 64; ++i)
        states.push_back(fixtures::randomSchedule(dag, rng));
    std::printf(
        "\nmeasurement throughput, 64 random matmul 256 schedules (build in parallel, run isolated, checked)\n");
    for (int minRepeatMs : { 100, 0 }) {
        measure::MeasureOptions options;
        options.timing.minRepeatMs = minRepeatMs;
        measure::Measurer measurer(options);
        const auto start = Clock::now();
        const auto results = measurer.measure(dag, states);
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        int ok = 0;
        for (const auto& r : results)
            ok += r.ok();
        std::printf("  min_repeat_ms %3d: %5.1f s, %6.0f candidates/minute, %d ok\n", minRepeatMs, seconds,
            64 / seconds * 60, ok);
    }
}
} // namespace

int main(int argc, char** argv)
{
    const std::string part = argc > 1 ? argv[1] : "";
    // `ts_bench_kernels compile`: only the compile latencies (TS_BENCH_VERBOSE=1: each schedule's time).
    if (part == "compile") {
        compileLatency();
        return 0;
    }
    if (part == "tails") {
        vectorTails();
        return 0;
    }
    bench::selectOpenBlasKernel(argv); // before any measurement: OpenBLAS's fastest kernel for this CPU
    matmulAgainstOpenBlas();
    if (part == "matmul")
        return 0;
    vectorTails();
    compileLatency();
    measurementThroughput();
    return 0;
}
