// Every CPU record of a folder of TVM logs that TuneScope can rebuild, replayed and measured on this host,
// next to the library for the same workload timed in the same run, on 1 and 2 threads.
//   ./build/release/tests/benchmarks/ts_bench_tvm_records [LOG_DIR]     (default ../shared/data/tvm-logs,
//                                                                        i.e. run from the repository root)
// Records are resolved as the CLI resolves them (store::resolveSchedule, file:line), compiled for this host
// (not for the record's -mcpu) and measured through tunescope-runner, checked against the reference.
// Records of GPU targets, AutoTVM records and workloads TuneScope cannot rebuild (a DAG-hash key) are
// counted per file with the reason. A record that does not replay, lower or run prints its error in the
// table. Libraries, whatever the workload's epilogue costs them included:
//   matmul, matmul_auto_scheduler_test  OpenBLAS cblas_sgemm
//   matmul_add                          C copied into the output, then cblas_sgemm with beta = 1
//   dense* (AutoTVM keys)               the bias rows copied into the output (if any), then sgemm(X, W^T, beta)
//   conv2d_layer                        LibTorch conv2d, then add_(bias) and relu_() in place (NCHW)
//   conv2d_nchw*, conv2d_NCHWc*         LibTorch conv2d (NCHW)
//   ./build/release/tests/benchmarks/ts_bench_tvm_records autotvm LOG   (AutoTVM records: autotvmMode below)
// The only other LibTorch translation unit of the benchmarks besides bench_conv2d_torch.cpp.
#include "bench_util.h"
#include "library_kernels_torch.h"
#include "peak_flops.h"

#include "core/codegen/codegen.h"
#include "core/graph/workload_registry.h"
#include "core/ir/reference_evaluator.h"
#include "core/lower/lower.h"
#include "core/measure/measurer.h"
#include "core/search/autotvm/template.h"
#include "core/store/schedule_source.h"
#include "core/store/tvm_log.h"
#include "core/target/target.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <cblas.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

using namespace ts;

namespace {

using Kind = graph::WorkloadArg::Kind;

// The library's run of a workload, or why there is none.
struct Baseline {
    std::string name; // "OpenBLAS", "LibTorch"
    std::function<void(int threads)> setThreads;
    std::function<void()> run;
};

std::vector<float> randomBuffer(int64_t size, int ordinal)
{
    std::vector<float> v(static_cast<size_t>(size));
    ir::fillRandomInput(v.data(), size, 1, ordinal);
    return v;
}

std::vector<int64_t> ints(const graph::WorkloadArg& arg, size_t n)
{
    if (arg.kind == Kind::Int || arg.values.size() == 1)
        return std::vector<int64_t>(n, arg.values.at(0));
    return arg.values;
}

// C[n, m] = A[n, k] x B (B is [k, m], or [m, k] when transposed), plus `init` (copied into C in each run,
// then beta = 1) when it is not empty.
Baseline sgemm(int64_t n, int64_t k, int64_t m, bool transposeB, std::vector<float> init)
{
    auto a = std::make_shared<std::vector<float>>(randomBuffer(n * k, 0));
    auto b = std::make_shared<std::vector<float>>(randomBuffer(k * m, 1));
    auto c = std::make_shared<std::vector<float>>(static_cast<size_t>(n * m));
    auto pre = std::make_shared<std::vector<float>>(std::move(init));
    Baseline out { "OpenBLAS", [](int threads) { openblas_set_num_threads(threads); }, {} };
    out.run = [=] {
        const bool add = !pre->empty();
        if (add)
            std::copy(pre->begin(), pre->end(), c->begin());
        cblas_sgemm(CblasRowMajor, CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans, static_cast<int>(n),
            static_cast<int>(m), static_cast<int>(k), 1.0f, a->data(), static_cast<int>(k), b->data(),
            static_cast<int>(transposeB ? k : m), add ? 1.0f : 0.0f, c->data(), static_cast<int>(m));
    };
    return out;
}

// conv2d (NCHW data, OIHW kernel) with TVM's padding (one value, [h, w] or [top, left, bottom, right]);
// `bias` adds [1, CO, 1, 1] and applies relu, as conv2d_layer does.
Baseline torchConv(std::vector<int64_t> data, std::vector<int64_t> kernel, std::vector<int64_t> stride,
    const graph::WorkloadArg& padArg, std::vector<int64_t> dilation, bool biasRelu)
{
    std::vector<int64_t> pad = padArg.kind == Kind::IntList && padArg.values.size() == 4
        ? padArg.values
        : std::vector<int64_t> { ints(padArg, 2)[0], ints(padArg, 2)[1], ints(padArg, 2)[0], ints(padArg, 2)[1] };
    const bool symmetric = pad[0] == pad[2] && pad[1] == pad[3];
    auto x = std::make_shared<torch::Tensor>(torch::rand(data));
    auto w = std::make_shared<torch::Tensor>(torch::rand(kernel));
    auto b = std::make_shared<torch::Tensor>(torch::rand({ 1, kernel[0], 1, 1 }));
    Baseline out { "LibTorch", [](int threads) { at::set_num_threads(threads); }, {} };
    out.run = [=] {
        torch::NoGradGuard noGrad;
        // Asymmetric padding: padded explicitly first (torch's conv2d pads symmetrically).
        const torch::Tensor in = symmetric ? *x : torch::constant_pad_nd(*x, { pad[1], pad[3], pad[0], pad[2] });
        torch::Tensor y = torch::conv2d(in, *w, {}, stride,
            symmetric ? std::vector<int64_t> { pad[0], pad[1] } : std::vector<int64_t> { 0, 0 }, dilation);
        if (biasRelu) {
            y.add_(*b);
            y.relu_();
        }
    };
    return out;
}

Expected<Baseline> baseline(const graph::WorkloadKey& key)
{
    const auto& a = key.args;
    auto arg = [&](size_t i) { return a.at(i).values.at(0); };
    if (key.name == "matmul")
        return sgemm(arg(0), arg(1), arg(2), false, {});
    if (key.name == "matmul_auto_scheduler_test")
        return sgemm(arg(0), arg(2), arg(1), false, {});
    if (key.name == "matmul_add")
        return sgemm(arg(0), arg(1), arg(2), false, randomBuffer(arg(0) * arg(2), 2));
    if (key.name.rfind("dense", 0) == 0) {
        const std::vector<int64_t>& x = a.at(0).values;
        const std::vector<int64_t>& w = a.at(1).values;
        std::vector<float> init;
        if (a.size() > 2 && a[2].kind == Kind::Tensor) {
            const std::vector<float> bias = randomBuffer(w[0], 2);
            for (int64_t i = 0; i < x[0]; ++i)
                init.insert(init.end(), bias.begin(), bias.end());
        }
        return sgemm(x[0], x[1], w[0], true, std::move(init));
    }
    if (key.name == "conv2d_layer") {
        // N H W CO CI KH KW stride padding
        return torchConv({ arg(0), arg(4), arg(1), arg(2) }, { arg(3), arg(4), arg(5), arg(6) }, ints(a.at(7), 2),
            a.at(8), { 1, 1 }, true);
    }
    if (key.name.rfind("conv2d_nchw", 0) == 0 || key.name.rfind("conv2d_NCHWc", 0) == 0)
        return torchConv(a.at(0).values, a.at(1).values, ints(a.at(2), 2), a.at(3), ints(a.at(4), 2), false);
    return makeError(ErrorKind::Unsupported, "no library baseline for " + key.name);
}

// "conv2d_layer 1,56,56,64,64,3,3,[1,1],[1,1]"
std::string describe(const graph::WorkloadKey& key)
{
    std::string out = key.name;
    for (size_t i = 0; i < key.args.size(); ++i) {
        const graph::WorkloadArg& arg = key.args[i];
        out += i == 0 ? " " : ",";
        if (arg.kind == Kind::Int) {
            out += std::to_string(arg.values[0]);
            continue;
        }
        out += "[";
        for (size_t j = 0; j < arg.values.size(); ++j)
            out += (j ? "," : "") + std::to_string(arg.values[j]);
        out += "]";
    }
    return out;
}

// Why a line is not measured ("" when it is), by category so that a file's skips fit one line.
std::string skipReason(const store::LogRecord& record, std::optional<graph::WorkloadKey>& key)
{
    if (record.kind != store::RecordKind::Ansor)
        return "AutoTVM record (measured by: ts_bench_tvm_records autotvm LOG)";
    auto target = target::fromTvm(record.target);
    if (!target)
        return "target not understood (" + target.error().message + ")";
    if (target->isGpu())
        return std::string(target::toString(target->kind)) + " target";
    auto parsed = graph::parseWorkloadKey(record.workloadKey);
    if (!parsed)
        return "workload key not parsed";
    auto dag = graph::buildWorkload(*parsed);
    if (!dag)
        return dag.error().kind == ErrorKind::NotFound ? "workload not rebuilt (foreign key, e.g. a DAG hash)"
                                                       : "workload not rebuilt (" + dag.error().message + ")";
    key = std::move(parsed).value();
    return "";
}

struct Row {
    std::string where;
    std::string workload;
};

constexpr int kRounds = 3;

// The measured fp32 FMA peak on 1 and 2 threads, and a record's compile latency (ms), for the row.
struct Context {
    double peak[3] = { 0, 0, 0 };
    double compileMs = 0;
};

// Median milliseconds from a replayed state to an object file (lower + LLVM O3 + machine code), 5 times.
double compileMs(const sched::State& state)
{
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto func = lower::lower(state);
        if (!func || !codegen::compileToObject(*func))
            return 0;
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return bench::percentile(ms, 0.5);
}

// One table row: the figures, or the error in place of a figure (the TuneScope error last, it is longer).
void printRow(const Row& row, int threads, double flops, double ours, const std::string& oursError, double theirs,
    const std::string& theirsError, const Context& context, double withoutRewrite, double prepacked)
{
    auto figure = [&](double seconds, const std::string& error) {
        char text[32] = "-";
        if (error.empty())
            std::snprintf(text, sizeof text, "%.1f", flops / seconds / 1e9);
        return std::string(text);
    };
    std::printf("%-36s %-44s %3d %10s %10s ", row.where.c_str(), row.workload.c_str(), threads,
        figure(ours, oursError).c_str(), figure(theirs, theirsError).c_str());
    if (oursError.empty() && theirsError.empty())
        std::printf("%5.0f%% %6.0f%% %8.1f %8s %8s\n", 100 * theirs / ours,
            context.peak[threads] > 0 ? 100 * flops / ours / 1e9 / context.peak[threads] : 0.0, context.compileMs,
            withoutRewrite > 0 ? figure(withoutRewrite, "").c_str() : "",
            prepacked > 0 ? figure(prepacked, "").c_str() : "");
    else
        std::printf("  %s%s%s\n", theirsError.empty() ? "" : ("library: " + theirsError).c_str(),
            !theirsError.empty() && !oursError.empty() ? "; " : "", oursError.c_str());
}

// ts_bench_tvm_records autotvm LOG: every AutoTVM record of a TVM log through its template as TVM builds it
// (conv2d_NCHWc.x86: data and kernel packed outside the timed kernel, as TVM's tuner measured them), beside the
// same config through TuneScope's plain-layout variant (conv2d_nchw_blocked.tunescope) and LibTorch's conv2d on
// the unpacked tensors (dense: OpenBLAS sgemm on the unpacked weight; batch_matmul: no library), 2 threads, best of
// kRounds alternating rounds; and the figure the log itself recorded (another machine: the log's target says which).
int autotvmMode(const std::string& path, const Context& context)
{
    auto measurer = [] {
        measure::MeasureOptions options;
        options.kernelThreads = 2;
        options.timing.repeat = 3;
        options.timing.minRepeatMs = 100;
        return std::make_unique<measure::Measurer>(options);
    }();
    std::printf("\n%-28s %-22s %-40s %9s %9s %9s %9s %7s %7s\n", "record", "template", "workload", "TVM-tmpl", "plain",
        "library", "log", "tmpl/", "tmpl/");
    std::printf("%-28s %-22s %-40s %9s %9s %9s %9s %7s %7s\n", "", "", "", "GFLOP/s", "GFLOP/s", "GFLOP/s", "GFLOP/s",
        "lib", "peak");
    std::ifstream in(path, std::ios::binary);
    std::string line;
    int records = 0, measured = 0, failed = 0;
    std::vector<double> ratios;
    for (int64_t number = 1; std::getline(in, line); ++number) {
        auto parsed = store::parseLogLine(line);
        if (!parsed || !*parsed || (**parsed).kind != store::RecordKind::AutoTvm)
            continue;
        ++records;
        const store::LogRecord& record = **parsed;
        const std::string where = std::filesystem::path(path).filename().string() + ":" + std::to_string(number);
        auto resolved = store::resolveSchedule({ store::RecordRef { path, number }, std::nullopt });
        if (!resolved) {
            ++failed;
            std::printf("%-28s %s\n", where.c_str(), resolved.error().message.c_str());
            continue;
        }
        // The workload as LibTorch runs it, from the task's args (NCHW data, OIHW kernel).
        const nlohmann::json args = nlohmann::json::parse(record.autoTvmArgs, nullptr, false);
        std::string workload = "-";
        std::optional<Baseline> library;
        const bool convArgs = args.is_array() && args.size() >= 5 && args[0].is_array() && args[1].is_array()
            && args[2].is_array() && args[3].is_array() && args[4].is_array();
        const bool denseArgs = args.is_array() && args.size() >= 2 && record.taskName.rfind("dense_", 0) == 0
            && args[0].is_array() && args[1].is_array();
        if (denseArgs) {
            // dense: data [M, K], weight [N, K]; OpenBLAS sgemm(X, W^T).
            const std::vector<int64_t> data = args[0][1].get<std::vector<int64_t>>();
            const std::vector<int64_t> weight = args[1][1].get<std::vector<int64_t>>();
            library = sgemm(data[0], data[1], weight[0], true, {});
            workload = args[0][1].dump() + "x" + args[1][1].dump();
        } else if (record.taskName == "batch_matmul.x86" && args.is_array() && args.size() >= 2) {
            workload = args[0][1].dump() + "x" + args[1][1].dump();
        } else if (convArgs) {
            const std::vector<int64_t> data = args[0][1].get<std::vector<int64_t>>();
            const std::vector<int64_t> kernel = args[1][1].get<std::vector<int64_t>>();
            graph::WorkloadArg pad { Kind::IntList, args[3].get<std::vector<int64_t>>() };
            library = torchConv(
                data, kernel, args[2].get<std::vector<int64_t>>(), pad, args[4].get<std::vector<int64_t>>(), false);
            workload = args[0][1].dump() + "x" + args[1][1].dump() + " s" + std::to_string(args[2][0].get<int>());
        }
        // The same config through the plain-layout variant, where there is one.
        std::optional<sched::State> plain;
        ir::ComputeDAG plainDag = resolved->dag;
        const std::string variant = record.taskName == "conv2d_NCHWc.x86" ? "conv2d_nchw_blocked.tunescope"
            : record.taskName == "depthwise_conv2d_NCHWc.x86"             ? "depthwise_conv2d_nchw_blocked.tunescope"
                                                                          : "";
        if (const autotvm::Template* own = autotvm::findTemplate(variant)) {
            auto task = autotvm::dagFromTaskArgs(record.taskName, record.autoTvmArgs);
            auto space = task ? own->space(*task) : Expected<autotvm::ConfigSpace>(task.error());
            auto config = space ? space->parseConfig(record.steps) : Expected<autotvm::ParsedConfig>(space.error());
            auto instance = config ? autotvm::instantiate(*own, *task, *space, config->index)
                                   : Expected<autotvm::Instance>(config.error());
            if (instance)
                if (auto state = sched::State::replay(instance->dag, instance->steps)) {
                    plain = std::move(state).value();
                    plainDag = instance->dag;
                }
        }
        double ours = 1e30, theirs = 1e30, own = 1e30;
        record::MeasureResult result;
        for (int round = 0; round < kRounds; ++round) {
            result = measurer->measure(resolved->dag, { resolved->state })[0];
            if (!result.ok())
                break;
            ours = std::min(ours, *std::min_element(result.costs.begin(), result.costs.end()));
            if (plain) {
                const record::MeasureResult r = measurer->measure(plainDag, { *plain })[0];
                if (r.ok())
                    own = std::min(own, *std::min_element(r.costs.begin(), r.costs.end()));
            }
            if (library) {
                library->setThreads(2);
                for (double cost : bench::secondsPerRunEach(library->run, 3, 100))
                    theirs = std::min(theirs, cost);
            }
        }
        if (!result.ok()) {
            ++failed;
            std::printf("%-28s %-22s %-40s %s: %s\n", where.c_str(), record.taskName.c_str(), workload.c_str(),
                measure::toString(result.status), result.message.c_str());
            continue;
        }
        ++measured;
        const double flops = resolved->flops;
        auto gflops = [&](double seconds) { return seconds > 0 && seconds < 1e29 ? flops / seconds / 1e9 : 0.0; };
        const double logged = record.result.ok() ? gflops(record.result.meanCost()) : 0.0;
        if (library)
            ratios.push_back(theirs / ours);
        std::printf("%-28s %-22s %-40s %9.1f %9.1f %9.1f %9.1f %6.0f%% %6.0f%%\n", where.c_str(),
            record.taskName.c_str(), workload.c_str(), gflops(ours), gflops(own), gflops(theirs), logged,
            library ? 100 * theirs / ours : 0.0, context.peak[2] > 0 ? 100 * gflops(ours) / context.peak[2] : 0.0);
        std::fflush(stdout);
    }
    double logSum = 0;
    for (double r : ratios)
        logSum += std::log(r);
    std::printf("\n%s: %d AutoTVM records, %d measured and checked, %d failed; geomean TVM template / library %.2f\n",
        path.c_str(), records, measured, failed, ratios.empty() ? 0.0 : std::exp(logSum / ratios.size()));
    return failed == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    bench::selectLibraryKernels(argv); // OpenBLAS's fastest kernel for this CPU, LibTorch's backends, printed
    namespace fs = std::filesystem;
    if (argc > 1 && std::string(argv[1]) == "autotvm") {
        if (argc < 3) {
            std::fprintf(stderr, "usage: ts_bench_tvm_records autotvm LOG\n");
            return 2;
        }
        Context context;
        context.peak[1] = bench::peakGflops(1);
        context.peak[2] = bench::peakGflops(2);
        std::printf("host CPU %s; fp32 FMA peak measured here: %.1f GFLOP/s on 1 thread, %.1f on 2\n",
            target::Target::host().cpuName.c_str(), context.peak[1], context.peak[2]);
        std::printf("TVM-tmpl: the record's template as TVM builds it (packed data and kernel, packing untimed);\n"
                    "plain: TuneScope's plain-NCHW variant of the same config; log: the log's own figure (its "
                    "machine)\n");
        return autotvmMode(argv[2], context);
    }
    const fs::path dir = argc > 1 ? argv[1] : "../shared/data/tvm-logs";
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    if (ec || files.empty()) {
        std::fprintf(stderr, "no log files in %s%s\n", dir.c_str(), ec ? (": " + ec.message()).c_str() : "");
        return 1;
    }
    std::sort(files.begin(), files.end());

    const target::Target& host = target::Target::host();
    std::printf("host CPU %s, %ld cores; records compiled for this host, not for their own -mcpu\n",
        host.cpuName.empty() ? "(LLVM's generic)" : host.cpuName.c_str(), host.cores);
    std::printf("TuneScope (tunescope-runner, checked) and the library alternate, %d rounds each of 3 repeats of\n"
                ">= 200 ms; the best repeat of each is shown (a busy neighbour only ever slows a run down)\n",
        kRounds);
    Context context;
    context.peak[1] = bench::peakGflops(1);
    context.peak[2] = bench::peakGflops(2);
    std::printf("fp32 FMA peak measured here (%d lanes, 16 accumulators): %.1f GFLOP/s on 1 thread, %.1f on 2\n",
        bench::peakLanes(), context.peak[1], context.peak[2]);
    std::printf("ts/peak: TuneScope against that peak; compile: median ms of lower + LLVM O3 + object code\n");

    // One measurer per thread count and layout rewrite option, kept across records (references are computed once
    // per workload).
    std::map<std::pair<int, int>, std::unique_ptr<measure::Measurer>> measurers;
    for (int threads : { 1, 2 })
        for (int rewrite : { 0, 1, 2 }) {
            measure::MeasureOptions options;
            options.kernelThreads = threads;
            options.timing.repeat = 3;
            options.timing.minRepeatMs = 200;
            options.layoutRewrite = rewrite;
            measurers[{ threads, rewrite }] = std::make_unique<measure::Measurer>(options);
        }
    std::printf(
        "records of layout_rewrite_option 1 (TVM's default for a CPU task) are measured with the weight packed\n"
        "in the kernel, as TVM measured them (2: packed before the timed runs); no-LR: the same schedule\n"
        "without the rewrite\n");

    std::vector<std::string> skipLines;
    std::printf("\n%-36s %-44s %3s %10s %10s %6s %7s %8s %8s %8s\n", "record", "workload", "thr", "TuneScope",
        "library", "ratio", "", "compile", "no-LR", "LR 2");
    std::printf("%-36s %-44s %3s %10s %10s %6s %7s %8s %8s %8s\n", "", "", "", "GFLOP/s", "GFLOP/s", "ts/lib",
        "ts/peak", "ms", "GFLOP/s", "GFLOP/s");
    for (const fs::path& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::string line;
        std::map<std::string, int> skipped;
        int records = 0, measured = 0, failed = 0;
        for (int64_t number = 1; std::getline(in, line); ++number) {
            auto parsed = store::parseLogLine(line);
            if (parsed && !*parsed)
                continue; // a comment or blank line
            ++records;
            if (!parsed) {
                ++skipped["malformed"];
                continue;
            }
            std::optional<graph::WorkloadKey> key;
            const std::string reason = skipReason(**parsed, key);
            if (!reason.empty()) {
                ++skipped[reason];
                continue;
            }
            const Row row { path.filename().string() + ":" + std::to_string(number), describe(*key) };
            auto resolved = store::resolveSchedule({ store::RecordRef { path.string(), number }, std::nullopt });
            auto library = baseline(*key);
            bool ok = resolved.hasValue();
            context.compileMs = resolved ? compileMs(resolved->state) : 0;
            for (int threads : { 1, 2 }) {
                if (!resolved) {
                    // The resolver's message starts with the file:line the row names already.
                    const std::string& message = resolved.error().message;
                    const std::string prefix = path.string() + ":" + std::to_string(number) + ": ";
                    std::printf("%-36s %-44s %3d %s\n", row.where.c_str(), row.workload.c_str(), threads,
                        (message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message).c_str());
                    continue;
                }
                // Rounds alternate between TuneScope and the library, so that both see the same machine.
                const int rewrite = (*parsed)->layoutRewriteOption;
                record::MeasureResult result;
                double ours = 1e30, theirs = 1e30, plain = rewrite ? 1e30 : 0.0, prepacked = rewrite ? 1e30 : 0.0;
                for (int round = 0; round < kRounds; ++round) {
                    result = measurers[{ threads, rewrite }]->measure(resolved->dag, { resolved->state })[0];
                    if (!result.ok())
                        break;
                    ours = std::min(ours, *std::min_element(result.costs.begin(), result.costs.end()));
                    if (rewrite) {
                        const record::MeasureResult without
                            = measurers[{ threads, 0 }]->measure(resolved->dag, { resolved->state })[0];
                        if (without.ok())
                            plain = std::min(plain, *std::min_element(without.costs.begin(), without.costs.end()));
                        const record::MeasureResult before
                            = measurers[{ threads, 2 }]->measure(resolved->dag, { resolved->state })[0];
                        if (before.ok())
                            prepacked
                                = std::min(prepacked, *std::min_element(before.costs.begin(), before.costs.end()));
                    }
                    if (library) {
                        library->setThreads(threads);
                        for (double cost : bench::secondsPerRunEach(library->run, 3, 200))
                            theirs = std::min(theirs, cost);
                    }
                }
                const std::string oursError
                    = result.ok() ? "" : std::string(measure::toString(result.status)) + ": " + result.message;
                printRow(row, threads, resolved->flops, result.ok() ? ours : 0, oursError, library ? theirs : 0,
                    library ? "" : library.error().message, context, plain < 1e30 ? plain : 0.0,
                    prepacked < 1e30 ? prepacked : 0.0);
                ok = ok && result.ok();
            }
            ++(ok ? measured : failed);
            std::fflush(stdout);
        }
        std::string summary = path.filename().string() + ": " + std::to_string(records) + " records, "
            + std::to_string(measured) + " measured, " + std::to_string(failed) + " failed (errors above)";
        for (const auto& [why, count] : skipped)
            summary += ", " + std::to_string(count) + " skipped: " + why;
        skipLines.push_back(summary);
    }
    std::printf("\n");
    for (const std::string& line : skipLines)
        std::printf("%s\n", line.c_str());
    return 0;
}
