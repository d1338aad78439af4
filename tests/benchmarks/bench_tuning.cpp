// The search, measured: tuning curves, tuned kernels against the libraries, and where a trial's time goes.
// Every figure comes from real tuning sessions (real compilation and measurement, a temporary workspace).
//   ./build/release/tests/benchmarks/ts_bench_tuning overhead          one matmul-1024 session of 2 rounds:
//                                                                       wall time per trial by phase, states/s
//   ./build/release/tests/benchmarks/ts_bench_tuning compile [N]       compile latency of N random annotations
//                     of matmul 1024 and a ResNet-18 conv2d, by unroll pragma (median, p95, max)
//   ./build/release/tests/benchmarks/ts_bench_tuning crossover         one search round with crossover 0.2:
//                     how many crossovers give a valid child
//   ./build/release/tests/benchmarks/ts_bench_tuning curves [TRIALS [VARIANT [SEED]]]   best GFLOP/s against trials and
//   time
//                     for matmul 1024^3 and two ResNet-18 conv2d tasks: random sampling, evolutionary search,
//                     evolutionary search with crossover; same seed and budget (default 256 trials)
//   ./build/release/tests/benchmarks/ts_bench_tuning matmul [TRIALS]   matmul 1024^3 tuned (default 1000
//                     trials) against OpenBLAS in the same run, 1 and 2 threads
//   ./build/release/tests/benchmarks/ts_bench_tuning resnet [PER_TASK] ResNet-18 batch 1 NHWC tuned (default
//                     200 trials per task): estimated end-to-end latency against LibTorch's inference
//   ./build/release/tests/benchmarks/ts_bench_tuning layers NETWORK LAYOUT [PER_TASK [REWRITE [RULES [TASKS]]]]   every
//   conv2d and
//                     depthwise conv2d task of a network (batch 1, NCHW or NHWC) tuned in one session with XGBoost
//                     (default 128 trials per task, layout rewrite option 2), each against LibTorch's layer (conv2d
//                     with its bias, then the task's fused ReLU / ReLU6 / residual add in place; the better of
//                     channels-last and contiguous tensors) in the same run, 2 threads, and the sums weighted by
//                     occurrences. RULES: `all` (default) every TuneScope rule, `rule` the weight-axis vectorization
//                     rule but no similar-task seeds, `random-warmup` every rule but Ansor's random warm-up instead
//                     of the analytical one, `ansor` none (Ansor's init rules and warm-up)
// matmul, linear, resnet and layers (the modes with OpenBLAS or LibTorch figures) first choose OpenBLAS's fastest
// kernel for this CPU and print it with LibTorch's backends (library_kernels_torch.h).
#include "bench_util.h"
#include "library_kernels_torch.h"
#include "peak_flops.h"
#include "tuning_util.h"

#include "core/codegen/codegen.h"
#include "core/cost/cost_model.h"
#include "core/engine/machine.h"
#include "core/engine/tuning_session.h"
#include "core/graph/op_tasks.h"
#include "core/lower/lower.h"
#include "core/measure/machine_profile.h"
#include "core/ops/linear.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/support/thread_pool.h"

#include <torch/torch.h>

#include <cblas.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <unistd.h>

using namespace ts;
using namespace ts::bench;

namespace {

void overhead()
{
    std::printf("== wall time per trial by phase: matmul 1024^3, Ansor policy, random model, 2 rounds of 64\n");
    engine::TuneOptions o = baseOptions({ matmulTask(1024) }, 128, freshWorkspace("overhead"));
    o.remeasureTop = 0;
    const Run r = tune(o);
    const int trials = r.finished.totalTrials;
    const double sum = r.phases.search + r.phases.model + r.phases.measure + r.phases.store;
    std::printf("  trials %d, wall %.1f s, %.3f s per trial\n", trials, r.wall, r.wall / trials);
    const auto row = [&](const char* name, double s) {
        std::printf("    %-32s %8.3f s  %6.1f%%  %7.1f ms/trial\n", name, s, 100.0 * s / r.wall, 1e3 * s / trials);
    };
    row("search (sampling, mutation)", r.phases.search);
    row("cost model (predict, update)", r.phases.model);
    row("measure (compile + run + check)", r.phases.measure);
    row("store (one transaction a batch)", r.phases.store);
    row("other (setup, scheduler, events)", r.wall - sum);
    std::printf("  states sampled %d (valid and new %d) in %.2f s: %.0f states/s; mutations %d; predictions %d\n",
        r.search.sampled, r.search.valid, r.phases.search, r.search.sampled / std::max(1e-9, r.phases.search),
        r.search.mutations, r.search.predicted);
}

// Compile latency (lower + LLVM O3 + JIT link) of Ansor's random annotations, by unroll pragma: the heavy
// tail the measurer's build budget has to absorb.
// CPU time of this thread: what compiling costs, without the time a busy neighbour takes from the VM.
double threadCpuMs()
{
    timespec t {};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

void compileLatency(int samples)
{
    std::printf("== compile latency of random annotations (lower + LLVM + JIT link), ms: wall, and the compiling "
                "thread's CPU time\n");
    std::vector<std::pair<std::string, engine::TuneTask>> cases { { "matmul 1024^3", matmulTask(1024) },
        { "resnet-18 NHWC task 2", resnetTasks({ 2 }).at(0) } };
    for (const auto& [name, task] : cases) {
        search::SearchTask st { task.dag, target::Target::host(), task.name, task.dag.flopCount() };
        const auto sketches = search::generateSketches(st).value();
        struct Times {
            std::vector<double> wall, cpu;
        };
        std::map<int, Times> byUnroll;
        Times all;
        Rng rng(5);
        for (int i = 0; i < samples; ++i) {
            const auto& sketch
                = sketches[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(sketches.size()) - 1))];
            auto state = search::randomAnnotation(st, sketch, {}, rng);
            if (!state)
                continue;
            int unroll = 0;
            for (const sched::Step& step : state->steps())
                if (const auto* p = std::get_if<sched::PragmaStep>(&step))
                    unroll = std::atoi(p->pragma.substr(p->pragma.find('$') + 1).c_str());
            const auto start = Clock::now();
            const double cpuStart = threadCpuMs();
            auto func = lower::lower(*state);
            auto kernel
                = func ? codegen::compile(*func) : Expected<std::shared_ptr<codegen::CompiledKernel>>(func.error());
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            const double cpu = threadCpuMs() - cpuStart;
            if (!kernel)
                continue;
            if (const char* dump = std::getenv("TS_BENCH_DUMP_SLOW"); dump && ms > 250) { // for reading, with opt
                static int dumped = 0;
                const std::string base = dump + std::to_string(dumped++);
                std::ofstream(base + ".ll") << codegen::emitLlvmIr(*func, false).value();
                std::ofstream(base + ".txt") << name << " " << ms << " ms\n" << lower::toString(*func);
            }
            byUnroll[unroll].wall.push_back(ms);
            byUnroll[unroll].cpu.push_back(cpu);
            all.wall.push_back(ms);
            all.cpu.push_back(cpu);
        }
        std::printf("  %s\n    %-8s %8s %8s %8s %10s %8s %6s\n", name.c_str(), "unroll", "median", "p95", "max",
            "cpu median", "cpu p95", "count");
        const auto row = [](const std::string& label, const Times& t) {
            std::printf("    %-8s %8.0f %8.0f %8.0f %10.0f %8.0f %6zu\n", label.c_str(), bench::percentile(t.wall, 0.5),
                bench::percentile(t.wall, 0.95), *std::max_element(t.wall.begin(), t.wall.end()),
                bench::percentile(t.cpu, 0.5), bench::percentile(t.cpu, 0.95), t.wall.size());
        };
        for (const auto& [unroll, t] : byUnroll)
            row(std::to_string(unroll), t);
        row("all", all);
    }
}

// What crossover does inside a round: one search round (no measurement) of each workload with crossover
// probability 0.2, and how many crossovers gave a valid child.
void crossoverStats()
{
    std::printf("== one search round with crossover 0.2 (population 2048, random model, no measurement)\n");
    std::vector<std::pair<std::string, engine::TuneTask>> cases { { "matmul 1024^3", matmulTask(1024) },
        { "resnet-18 NHWC task 2", resnetTasks({ 2 }).at(0) }, { "resnet-18 NHWC task 9", resnetTasks({ 9 }).at(0) } };
    ThreadPool pool(0);
    for (const auto& [name, task] : cases) {
        search::SearchParams params;
        params.crossoverProb = 0.2;
        auto model = cost::makeCostModel("random", 1).value();
        search::SketchPolicy policy(
            search::SearchTask { task.dag, target::Target::host(), task.name, task.dag.flopCount() },
            search::PolicyKind::Ansor, params, *model, 1, &pool);
        const auto start = Clock::now();
        const auto candidates = policy.searchOneRound(64).value();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        const search::RoundStats& r = policy.lastRound();
        std::printf("  %-24s %zu candidates in %.2f s; crossovers %d (valid %d, %.0f%%), mutations %d (valid %.0f%%)\n",
            name.c_str(), candidates.size(), seconds, r.crossovers, r.crossovers - r.crossoverFailures,
            100.0 * (r.crossovers - r.crossoverFailures) / std::max(1, r.crossovers), r.mutations,
            100.0 * (r.mutations - r.mutationFailures) / std::max(1, r.mutations));
    }
}

void curves(int trials, const std::string& only, uint64_t seed)
{
    struct Workload {
        const char* name;
        std::vector<engine::TuneTask> tasks;
    };
    const std::vector<Workload> workloads { { "matmul 1024^3", { matmulTask(1024) } },
        { "resnet-18 NHWC task 2 (conv 56x56, 64->64, 3x3)", resnetTasks({ 2 }) },
        { "resnet-18 NHWC task 9 (conv 14x14, 256->256, 3x3, residual)", resnetTasks({ 9 }) } };
    struct Variant {
        const char* name;
        search::PolicyKind policy;
        double crossover;
    };
    const std::vector<Variant> variants { { "random sampling", search::PolicyKind::Random, 0.0 },
        { "evolutionary", search::PolicyKind::Ansor, 0.0 },
        { "evolutionary + crossover 0.2", search::PolicyKind::Ansor, 0.2 } };
    std::printf("== tuning curves, %d trials each, seed %llu, random cost model, peak fp32 %.0f GFLOP/s (2 threads)\n",
        trials, static_cast<unsigned long long>(seed), bench::peakGflops(2));
    for (const Workload& w : workloads) {
        std::printf("\n%s\n", w.name);
        std::printf("  %-30s %10s %8s %8s %12s %12s   curve (trial: GFLOP/s)\n", "variant", "best GF/s", "wall s",
            "s/trial", "90%: trials", "90%: wall s");
        for (const Variant& v : variants) {
            if (!only.empty() && std::string(v.name).find(only) == std::string::npos)
                continue;
            engine::TuneOptions o = baseOptions(w.tasks, trials, freshWorkspace("curve"));
            o.seed = seed;
            o.policy = v.policy;
            o.search.crossoverProb = v.crossover;
            o.remeasureTop = 0;
            const Run r = tune(o);
            const CurvePoint p90 = reached(r.curve, 0.9);
            std::string points;
            for (int checkpoint : { 16, 64, 128, 256, 512, 1000 }) {
                if (checkpoint > trials)
                    break;
                double best = 0;
                for (const CurvePoint& p : r.curve)
                    if (p.trial <= checkpoint)
                        best = p.gflops;
                points += std::to_string(checkpoint) + ": " + std::to_string(static_cast<int>(best)) + "  ";
            }
            std::printf("  %-30s %10.1f %8.0f %8.3f %12d %12.0f   %s\n", v.name,
                r.curve.empty() ? 0.0 : r.curve.back().gflops, r.wall, r.wall / std::max(1, r.finished.totalTrials),
                p90.trial, p90.seconds, points.c_str());
            std::fflush(stdout);
        }
    }
}

sched::State bestState(const std::string& workspace, const engine::TuneTask& task)
{
    store::Store s = store::Store::open(workspace).value();
    const auto info = s.findTask(task.dag.workloadKey()).value();
    const auto device = s.addDevice(store::deviceOf(target::Target::host())).value();
    const auto best = s.bestRecords(info->id, device, 1).value();
    return sched::State::replay(task.dag, sched::parseSteps(best.at(0).steps).value()).value();
}

void matmul(int trials)
{
    const int64_t n = 1024;
    std::printf("== matmul %lld^3 tuned for %d trials (Ansor policy, random model, seed 1, 2 threads)\n",
        static_cast<long long>(n), trials);
    const std::string ws = freshWorkspace("matmul");
    const engine::TuneTask task = matmulTask(n);
    const Run r = tune(baseOptions({ task }, trials, ws));
    std::printf("  tuning wall %.0f s (%.3f s per trial); best while tuning %.1f GFLOP/s, re-measured %.1f\n", r.wall,
        r.wall / trials, r.curve.empty() ? 0.0 : r.curve.back().gflops, r.finished.tasks[0].gflops());
    const sched::State best = bestState(ws, task);
    std::vector<float> a(static_cast<size_t>(n * n), 1.0f), b(a), c(a);
    const double flops = 2.0 * n * n * n;
    for (int threads : { 1, 2 }) {
        openblas_set_num_threads(threads);
        double blas = 0, ours = 0;
        for (int round = 0; round < 3; ++round) { // interleaved; the best of each
            const double t = bench::secondsPerRun([&] {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n),
                    static_cast<int>(n), 1.0f, a.data(), static_cast<int>(n), b.data(), static_cast<int>(n), 0.0f,
                    c.data(), static_cast<int>(n));
            });
            const double o = bench::tuneScopeSeconds(task.dag, best, threads);
            blas = blas == 0 ? t : std::min(blas, t);
            ours = ours == 0 || (o > 0 && o < ours) ? o : ours;
        }
        std::printf("  %d thread%s: TuneScope %6.1f GFLOP/s, OpenBLAS (%s) %6.1f GFLOP/s -> %5.1f%% of OpenBLAS (peak "
                    "%.0f)\n",
            threads, threads == 1 ? " " : "s", flops / ours / 1e9, bench::openBlasCoreName().c_str(),
            flops / blas / 1e9, 100.0 * blas / ours, bench::peakGflops(threads));
    }
}

// Tuned matmul, dense and batch_matmul against the libraries, as issue 13 asks: 512^3 and 1024^3, BERT-base's
// dense layers (128x768x768 and its FFN down-projection 128x3072x768, as N,K,M) and its attention
// batch_matmul (12x128x128x64, as B,N,K,M). Each is tuned on its own (XGBoost, 2 threads); its best schedule
// is then timed at 1 and 2 threads against OpenBLAS's sgemm (12 calls for the batch) and LibTorch (mm, linear,
// bmm), interleaved, the best of 3 rounds each. Layout rewrite: dense weights are a network's constants, packed
// before the timed runs (option 2, as Relay's constant folding leaves them); matmul and batch_matmul have no
// constant operand, so their B is packed inside the timed kernel (option 1, TVM's default for a task). ONLY: the
// workloads whose label contains it.
void linear(int trials, const std::string& only)
{
    struct Case {
        const char* label;
        const char* op;
        std::vector<int64_t> shape;
        int rewrite;
    };
    const std::vector<Case> cases { { "matmul 512^3", "matmul", { 512, 512, 512 }, 1 },
        { "matmul 1024^3", "matmul", { 1024, 1024, 1024 }, 1 },
        { "dense 128x768x768 (BERT)", "dense", { 128, 768, 768 }, 2 },
        { "dense 128x3072x768 (BERT FFN)", "dense", { 128, 3072, 768 }, 2 },
        { "batch_matmul 12x128x128x64", "batch_matmul", { 12, 128, 128, 64 }, 1 } };
    std::printf("== matmul, dense, batch_matmul tuned for %d trials each (XGBoost, 2 threads) against OpenBLAS and "
                "LibTorch; GFLOP/s, best of 3 interleaved rounds\n",
        trials);
    const double peaks[] = { 0.0, bench::peakGflops(1), bench::peakGflops(2) }; // measured once
    std::printf("  fp32 FMA peak measured here: %.1f GFLOP/s on 1 thread, %.1f on 2; OpenBLAS kernel %s (LibTorch's "
                "matmuls too)\n\n",
        peaks[1], peaks[2], bench::openBlasCoreName().c_str());
    std::printf("  %-32s %3s %10s %10s %10s %8s %8s\n", "workload", "thr", "TuneScope", "OpenBLAS", "LibTorch",
        "ts/best", "ts/peak");
    torch::NoGradGuard noGrad;
    for (const Case& c : cases) {
        if (std::string(c.label).find(only) == std::string::npos)
            continue;
        const graph::Task task = graph::operatorTask(c.op, c.shape, ops::Layout::NCHW).value();
        const engine::TuneTask tuneTask { c.label, task.dag, 1, c.op };
        const std::string ws = freshWorkspace("linear");
        engine::TuneOptions o = baseOptions({ tuneTask }, trials, ws);
        o.model = "xgb";
        o.measure.kernelThreads = 2;
        o.measure.layoutRewrite = c.rewrite;
        const Run r = tune(o);
        const sched::State best = bestState(ws, tuneTask);
        const double flops = task.dag.flopCount();
        // The library's operands, row-major: A [batch, n, k], B [batch, k, m] (dense: weight [m, k]).
        const bool dense = std::string(c.op) == "dense", batched = std::string(c.op) == "batch_matmul";
        const int64_t batch = batched ? c.shape[0] : 1;
        const int64_t n = c.shape[batched ? 1 : 0], k = c.shape[batched ? 2 : 1], m = c.shape[batched ? 3 : 2];
        std::vector<float> a(static_cast<size_t>(batch * n * k), 0.5f), b(static_cast<size_t>(batch * k * m), 0.25f),
            out(static_cast<size_t>(batch * n * m));
        const torch::Tensor ta = torch::rand({ batch, n, k }), tb = torch::rand({ batch, m, k });
        for (int threads : { 1, 2 }) {
            openblas_set_num_threads(threads);
            torch::set_num_threads(threads);
            double blas = 0, lib = 0, ours = 0;
            for (int round = 0; round < 3; ++round) {
                const double tBlas = bench::secondsPerRun([&] {
                    for (int64_t i = 0; i < batch; ++i) // B^T for dense and batch_matmul (weight [m, k])
                        cblas_sgemm(CblasRowMajor, CblasNoTrans, dense || batched ? CblasTrans : CblasNoTrans,
                            static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), 1.0f, a.data() + i * n * k,
                            static_cast<int>(k), b.data() + i * k * m, static_cast<int>(dense || batched ? k : m), 0.0f,
                            out.data() + i * n * m, static_cast<int>(m));
                });
                const double tLib = bench::secondsPerRun([&] {
                    if (batched)
                        torch::bmm(ta, tb.transpose(1, 2));
                    else if (dense)
                        torch::linear(ta[0], tb[0]);
                    else
                        torch::mm(ta[0], tb[0].t());
                });
                const double tOurs = bench::tuneScopeSeconds(task.dag, best, threads, c.rewrite);
                blas = round == 0 ? tBlas : std::min(blas, tBlas);
                lib = round == 0 ? tLib : std::min(lib, tLib);
                ours = ours == 0 || (tOurs > 0 && tOurs < ours) ? tOurs : ours;
            }
            const double bestLib = std::min(blas, lib);
            std::printf("  %-32s %3d %10.1f %10.1f %10.1f %7.0f%% %7.0f%%\n", c.label, threads, flops / ours / 1e9,
                flops / blas / 1e9, flops / lib / 1e9, 100.0 * bestLib / ours,
                100.0 * flops / ours / 1e9 / peaks[threads]);
        }
        std::printf(
            "  %-32s     (tuning %.0f s, best while tuning %.1f GFLOP/s)\n", "", r.wall, r.finished.tasks[0].gflops());
        std::fflush(stdout);
    }
}

// ResNet-18 in LibTorch's functional ops, NCHW (its fastest layout on the CPU), batch norm folded into the
// convolutions' bias, as TuneScope's model zoo builds it.
double torchResnetSeconds(int threads)
{
    torch::NoGradGuard noGrad;
    torch::set_num_threads(threads);
    struct Conv {
        torch::Tensor w, b;
        int stride, pad;
    };
    const auto conv = [](int64_t in, int64_t out, int k, int stride) {
        return Conv { torch::randn({ out, in, k, k }) * 0.05, torch::randn({ out }) * 0.05, stride, k / 2 };
    };
    const auto apply
        = [](const Conv& c, const torch::Tensor& x) { return torch::conv2d(x, c.w, c.b, c.stride, c.pad); };
    struct Block {
        Conv c1, c2;
        std::optional<Conv> down;
    };
    std::vector<Block> blocks;
    int64_t channels = 64;
    for (int64_t width : { 64, 128, 256, 512 })
        for (int i = 0; i < 2; ++i) {
            const int stride = (i == 0 && width != 64) ? 2 : 1;
            Block blk { conv(channels, width, 3, stride), conv(width, width, 3, 1), std::nullopt };
            if (stride != 1 || channels != width)
                blk.down = conv(channels, width, 1, stride);
            blocks.push_back(blk);
            channels = width;
        }
    const Conv stem = conv(3, 64, 7, 2);
    const torch::Tensor fcW = torch::randn({ 1000, 512 }) * 0.05, fcB = torch::randn({ 1000 });
    const torch::Tensor input = torch::randn({ 1, 3, 224, 224 });
    const auto forward = [&] {
        torch::Tensor x = torch::relu(apply(stem, input));
        x = torch::max_pool2d(x, 3, 2, 1);
        for (const Block& blk : blocks) {
            torch::Tensor y = torch::relu(apply(blk.c1, x));
            y = apply(blk.c2, y);
            x = torch::relu(y + (blk.down ? apply(*blk.down, x) : x));
        }
        x = torch::adaptive_avg_pool2d(x, { 1, 1 }).flatten(1);
        return torch::linear(x, fcW, fcB);
    };
    return bench::secondsPerRun([&] { forward(); }, 5, 500);
}

// LibTorch's seconds per run of the same layer as `task` (its anchor conv2d with the task's fused element-wise ops),
// its tensors in `format`.
double torchLayerSeconds(const graph::Task& task, int threads, torch::MemoryFormat format)
{
    torch::NoGradGuard noGrad;
    torch::set_num_threads(threads);
    const ops::Conv2dParams& p = task.conv;
    const bool depthwise = task.anchor == graph::NodeKind::DepthwiseConv2d;
    const bool nhwc = p.layout == ops::Layout::NHWC;
    const std::vector<int64_t>& d = task.dataShape;
    const int64_t batch = d[0], channels = nhwc ? d[3] : d[1], h = nhwc ? d[1] : d[2], w = nhwc ? d[2] : d[3];
    const std::vector<int64_t>& ws = task.weightShape; // NCHW: [O, I/g, kh, kw]; NHWC: [kh, kw, I/g, O]
    const int64_t out = nhwc ? ws[3] : ws[0], perGroup = nhwc ? ws[2] : ws[1], kh = nhwc ? ws[0] : ws[2],
                  kw = nhwc ? ws[1] : ws[3];
    const int64_t groups = depthwise ? channels : p.groups;
    const torch::Tensor x = torch::rand({ batch, channels, h, w }).contiguous(format);
    const torch::Tensor weight
        = (torch::rand({ depthwise ? channels : out, depthwise ? 1 : perGroup, kh, kw }) * 0.05).contiguous(format);
    const auto fused = [&](const char* op) {
        return std::find(task.fusedOps.begin() + 1, task.fusedOps.end(), op) != task.fusedOps.end();
    };
    const bool relu = fused("relu"), relu6 = fused("clip"), residual = fused("add");
    const torch::Tensor bias = fused("bias_add") ? torch::rand({ weight.size(0) }) : torch::Tensor();
    const auto conv = [&] {
        return torch::conv2d(x, weight, bias, { p.stride[0], p.stride[1] }, { p.padding[0], p.padding[1] },
            { p.dilation[0], p.dilation[1] }, groups);
    };
    const torch::Tensor addend = residual ? torch::rand_like(conv()) : torch::Tensor();
    return bench::secondsPerRun(
        [&] { // in the order the networks' chains have them: residual add, then ReLU or ReLU6
            torch::Tensor y = conv();
            if (residual)
                y.add_(addend);
            if (relu)
                y.relu_();
            if (relu6)
                y.clamp_(0.0, 6.0); // MobileNet-V2's ReLU6, its only clip
        },
        5, 200);
}

// `only`: task ids ("0,4"), none for every conv2d and depthwise task.
void layers(const std::string& network, ops::Layout layout, int perTask, int rewrite, const std::string& rules,
    const std::string& only)
{
    const bool ansorOnly = rules == "ansor";
    const graph::TaskSet set = store::loadNetworkTasks(store::NetworkRef { network, 1, layout }).value();
    std::set<int> ids;
    for (size_t at = 0; at < only.size();) {
        const size_t comma = std::min(only.find(',', at), only.size());
        ids.insert(std::atoi(only.substr(at, comma - at).c_str()));
        at = comma + 1;
    }
    std::vector<const graph::Task*> convs;
    std::vector<engine::TuneTask> tasks;
    for (const graph::Task& t : set.tasks)
        if ((t.anchor == graph::NodeKind::Conv2d || t.anchor == graph::NodeKind::DepthwiseConv2d)
            && (ids.empty() || ids.count(t.id) > 0)) {
            convs.push_back(&t);
            std::string tags;
            for (const std::string& op : t.fusedOps)
                tags += (tags.empty() ? "" : ",") + op;
            tasks.push_back({ t.name + " #" + std::to_string(t.id), t.dag, t.weight, tags });
        }
    const int trials = perTask * static_cast<int>(tasks.size());
    std::printf("== %s batch 1 %s: %zu conv2d / depthwise tasks of %zu, %d trials (%d per task), XGBoost, layout "
                "rewrite %d, 2 threads%s\n",
        network.c_str(), ops::toString(layout).data(), tasks.size(), set.tasks.size(), trials, perTask, rewrite,
        ansorOnly                      ? ", Ansor's init rules and warm-up only"
            : rules == "rule"          ? ", no similar-task seeds, analytical warm-up"
            : rules == "random-warmup" ? ", similar-task seeds, random warm-up"
                                       : ", similar-task seeds, analytical warm-up");
    engine::TuneOptions o = baseOptions(tasks, trials, freshWorkspace("layers"));
    o.model = "xgb";
    o.measure.layoutRewrite = rewrite;
    o.measure.kernelThreads = 2;
    o.search.weightAxisInnermost = !ansorOnly;
    if (rules == "ansor" || rules == "rule")
        o.search.similarTaskSeeds = 0;
    if (rules == "ansor" || rules == "random-warmup")
        o.search.analyticalWarmup = false;
    // The machine's limits as `tunescope-cli machine` measures them (the generated FMA kernel, the cache sweeps,
    // the triad past the L3), measured first and kept in the workspace: the search's analytical warm-up
    // estimates with them, and each layer is placed against them below.
    measure::ProfileOptions profileOptions;
    profileOptions.maxThreads = 2;
    profileOptions.target = o.measure.target;
    const measure::MachineProfile profile = [&] {
        store::Store workspace = store::Store::open(o.workspace).value();
        return engine::workspaceProfile(workspace, profileOptions).value();
    }();
    const Run r = tune(o, false);
    std::printf("  tuning wall %.0f s (%.3f s per trial)\n", r.wall, r.wall / std::max(1, r.finished.totalTrials));
    // Each layer's roofline point from its compulsory traffic (every tensor read or written once). The roof's
    // bandwidth is that of the level the layer's tensors fit in (L2, L3 or DRAM: measure::levelOf); a layer
    // whose roof is that bandwidth, not the FMA peak, is marked with the level.
    std::printf("  measured here: fp32 FMA peak %.1f GFLOP/s; L2 %.1f, L3 %.1f, DRAM %.1f GB/s (2 threads; L2 and L3 "
                "0: not measured)\n\n",
        profile.peak(2),
        profile.measures(measure::MemoryLevel::L2) ? profile.bandwidth(measure::MemoryLevel::L2, 2) : 0.0,
        profile.measures(measure::MemoryLevel::L3) ? profile.bandwidth(measure::MemoryLevel::L3, 2) : 0.0,
        profile.bandwidth(2));
    std::printf("  %-44s %6s %10s %10s %10s %7s %7s %7s %7s\n", "task", "weight", "TuneScope", "LibTorch", "GFLOP/s",
        "GB/s", "ts/lib", "ts/peak", "ts/roof");
    std::printf("  %-44s %6s %10s %10s %10s %7s\n", "", "", "ms", "ms", "TuneScope", "TS");
    double oursSum = 0.0, theirsSum = 0.0;
    int atOrAbove = 0;
    for (size_t i = 0; i < convs.size(); ++i) {
        const engine::TaskStatus& t = r.finished.tasks[i];
        // The better of LibTorch's two layouts: channels-last (NHWC) takes a slow path on some 1x1 layers.
        const double theirs = std::min(torchLayerSeconds(*convs[i], 2, torch::MemoryFormat::ChannelsLast),
            torchLayerSeconds(*convs[i], 2, torch::MemoryFormat::Contiguous));
        const double ours = t.bestCost;
        oursSum += t.weight * ours;
        theirsSum += t.weight * theirs;
        atOrAbove += ours > 0.0 && ours <= theirs ? 1 : 0;
        const double bytes = static_cast<double>(convs[i]->dag.bytesRead() + convs[i]->dag.bytesWritten());
        const measure::RooflinePoint point = measure::rooflinePoint(profile, t.flops, bytes, ours, 2);
        std::printf("  %-44s %6d %10.4f %10.4f %10.1f %7.1f %6.0f%% %6.0f%% %6.0f%%%s\n", tasks[i].name.c_str(),
            t.weight, ours * 1e3, theirs * 1e3, t.gflops(), point.gbps, ours > 0.0 ? 100.0 * theirs / ours : 0.0,
            100.0 * point.ofPeak, 100.0 * point.ofRoof,
            point.memoryBound ? (std::string(" ") + measure::toString(point.level)).c_str() : "");
    }
    std::printf("\n  weighted sum: TuneScope %.3f ms, LibTorch %.3f ms -> TuneScope at %.0f%% of LibTorch's speed; "
                "%d of %zu layers at or above it\n",
        oursSum * 1e3, theirsSum * 1e3, 100.0 * theirsSum / oursSum, atOrAbove, convs.size());
}

void resnet(int perTask)
{
    const auto tasks = resnetTasks();
    const int trials = perTask * static_cast<int>(tasks.size());
    std::printf("== resnet-18 batch 1 NHWC: %zu tasks, %d trials (%d per task), gradient scheduler, random model, "
                "2 threads\n",
        tasks.size(), trials, perTask);
    engine::TuneOptions o = baseOptions(tasks, trials, freshWorkspace("resnet"));
    const Run r = tune(o, false);
    std::printf("  tuning wall %.0f s (%.3f s per trial)\n", r.wall, r.wall / std::max(1, r.finished.totalTrials));
    for (const engine::TaskStatus& t : r.finished.tasks)
        std::printf("    %-40s weight %d  trials %4d  %8.3f ms  %6.1f GFLOP/s%s\n", t.name.c_str(), t.weight, t.trials,
            t.bestCost * 1e3, t.gflops(), t.dead ? (" (" + t.deadReason + ")").c_str() : "");
    const double torchMs = torchResnetSeconds(2) * 1e3;
    std::printf("  estimated end-to-end latency %.3f ms (sum of weight x best); LibTorch inference %.3f ms "
                "(2 threads, same run) -> TuneScope at %.0f%% of LibTorch's time\n",
        r.finished.estimatedLatency * 1e3, torchMs, 100.0 * r.finished.estimatedLatency * 1e3 / torchMs);
    std::printf(
        "  (the estimate leaves out the one element-wise node task extraction does not tune, as Ansor's does)\n");
    std::printf("  fp32 FMA peak measured here: %.1f GFLOP/s on 2 threads\n", bench::peakGflops(2));
}

} // namespace

int main(int argc, char** argv)
{
    const std::string what = argc > 1 ? argv[1] : "overhead";
    const int count = argc > 2 ? std::atoi(argv[2]) : 0;
    if (what == "matmul" || what == "linear" || what == "resnet" || what == "layers")
        bench::selectLibraryKernels(argv); // before any measurement: OpenBLAS's fastest kernel, LibTorch's backends
    std::printf("CPU: %s\n", target::Target::host().cpuName.c_str());
    if (what == "overhead")
        overhead();
    else if (what == "compile")
        compileLatency(count > 0 ? count : 120);
    else if (what == "crossover")
        crossoverStats();
    else if (what == "curves")
        curves(count > 0 ? count : 256, argc > 3 ? argv[3] : "", argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1);
    else if (what == "matmul")
        matmul(count > 0 ? count : 1000);
    else if (what == "resnet")
        resnet(count > 0 ? count : 200);
    else if (what == "linear")
        linear(count > 0 ? count : 192, argc > 3 ? argv[3] : "");
    else if (what == "layers" && argc >= 4)
        layers(argv[2], std::string(argv[3]) == "NHWC" ? ops::Layout::NHWC : ops::Layout::NCHW,
            argc > 4 ? std::atoi(argv[4]) : 128, argc > 5 ? std::atoi(argv[5]) : 2, argc > 6 ? argv[6] : "all",
            argc > 7 ? argv[7] : "");
    else {
        std::fprintf(stderr,
            "usage: ts_bench_tuning [overhead|compile [N]|crossover|curves [TRIALS [VARIANT [SEED]]]|matmul "
            "[TRIALS]|linear [TRIALS [ONLY]]|resnet [PER_TASK]|layers NETWORK NCHW|NHWC [PER_TASK [REWRITE "
            "[all|rule|random-warmup|ansor "
            "[TASKS]]]]]\n"
            "TS_BENCH_DUMP_SLOW=PREFIX with compile: write each build over 250 ms as PREFIX<n>.ll and .txt\n");
        return 2;
    }
    return 0;
}
