// What scoring a candidate costs: Ansor's per-store features (lowering to the loop IR, then the extractor)
// and the cost model's prediction, per program, on every core. The search scores 2048 x 4 candidates a round,
// so this decides whether a learned model slows the search down.
//   ./build/release/tests/benchmarks/ts_bench_features [MODEL]     (MODEL: a cost model kind, default xgb)
//   ./build/release/tests/benchmarks/ts_bench_features --digest FILE
//       writes, per program of every ResNet-18 task and of matmul, a digest of its
//       lowered IR (scheduleOps + simplify, and the full lower()) and of its features: two runs of it
//       before and after a change to lowering or the features must write the same file.
// Programs: 2048 random annotations of every sketch of ResNet-18's 3x3 conv2d (64 channels, 56x56) and of
// matmul 1024^3. The model is trained first on 512 of them with made-up labels (only speed is measured).
#include "core/cost/cost_model.h"
#include "core/cost/neural_models.h"
#include "core/features/per_store_features.h"
#include "core/graph/op_tasks.h"
#include "core/lower/bound_inference.h"
#include "core/lower/lower.h"
#include "core/search/annotation.h"
#include "core/search/sketch.h"
#include "core/store/schedule_source.h"
#include "core/support/rng.h"
#include "core/support/thread_pool.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

using namespace ts;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::vector<sched::State> sample(const search::SearchTask& task, int n)
{
    auto sketches = search::generateSketches(task).value();
    Rng rng(7);
    std::vector<sched::State> states;
    for (int i = 0; states.size() < static_cast<size_t>(n) && i < n * 4; ++i)
        if (auto s = search::randomAnnotation(task, sketches[static_cast<size_t>(i) % sketches.size()], {}, rng))
            states.push_back(std::move(s).value());
    return states;
}

void run(const std::string& title, const search::SearchTask& task, const std::string& modelKind)
{
    const std::vector<sched::State> states = sample(task, 2048);
    const int n = static_cast<int>(states.size());
    std::printf("%s: %d programs\n", title.c_str(), n);

    auto start = Clock::now();
    for (const sched::State& s : states) {
        auto func = lower::scheduleOps(s, task.target);
        if (func)
            func->body = lower::simplify(func->body);
    }
    const double lowering = secondsSince(start);
    start = Clock::now();
    int rows = 0;
    for (const sched::State& s : states)
        if (auto f = features::perStoreFeatures(s, task.target))
            rows += f->rows();
    const double oneThread = secondsSince(start);
    std::printf("  1 thread:  lowering %.1f us, lowering + features %.1f us per program (%.1f rows each)\n",
        lowering / n * 1e6, oneThread / n * 1e6, static_cast<double>(rows) / n);
    double phases[4] = {}; // bound inference, scheduleOps, simplify, extractor
    for (const sched::State& s : states) {
        start = Clock::now();
        (void)lower::inferBounds(s);
        phases[0] += secondsSince(start);
        start = Clock::now();
        auto func = lower::scheduleOps(s, task.target);
        phases[1] += secondsSince(start);
        if (!func)
            continue;
        start = Clock::now();
        func->body = lower::simplify(func->body);
        phases[2] += secondsSince(start);
        start = Clock::now();
        rows += features::perStoreFeatures(*func, { static_cast<int>(task.target.cacheLineBytes), true }).rows();
        phases[3] += secondsSince(start);
    }
    std::printf(
        "  1 thread:  scheduleOps %.1f us (bound inference alone %.1f us), simplify %.1f us, extractor %.1f us\n",
        phases[1] / n * 1e6, phases[0] / n * 1e6, phases[2] / n * 1e6, phases[3] / n * 1e6);

    ThreadPool pool(0);
    start = Clock::now();
    const auto batch = features::perStoreFeatures(states, task.target, &pool);
    const double parallel = secondsSince(start);
    std::printf("  %d threads: features %.0f programs/s\n", pool.numThreads(), n / parallel);

    auto model = cost::makeCostModel(modelKind, 1);
    if (!model) {
        std::printf("  model %s: %s\n", modelKind.c_str(), model.error().message.c_str());
        return;
    }
    const cost::CostTask costTask { &task.dag, task.dag.workloadKey(), task.flops };
    std::vector<record::MeasureResult> results;
    Rng rng(3);
    for (int i = 0; i < 512 && i < n; ++i) {
        record::MeasureResult r;
        r.costs = { 1e-3 * (1.0 + rng.uniform()) };
        results.push_back(r);
    }
    start = Clock::now();
    (void)(*model)->update(costTask, std::span(states).first(results.size()), results);
    std::printf("  %s: update on %zu programs %.2f s\n", modelKind.c_str(), results.size(), secondsSince(start));
    start = Clock::now();
    const auto scores = (*model)->predict(costTask, states);
    const double predict = secondsSince(start);
    std::printf("  %s: features + predict %.0f programs/s (%zu scores); a search round of 2048 x 4 costs %.2f s\n",
        modelKind.c_str(), n / predict, scores.size(), 2048.0 * 4 * predict / n);
}

uint64_t digest(const void* data, size_t size, uint64_t h = 1469598103934665603ull) // FNV-1a
{
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}
uint64_t digest(const std::string& s) { return digest(s.data(), s.size()); }

void writeDigests(std::FILE* out, const std::string& title, const search::SearchTask& task, int n)
{
    const std::vector<sched::State> states = sample(task, n);
    std::fprintf(out, "%s: %zu programs\n", title.c_str(), states.size());
    for (size_t i = 0; i < states.size(); ++i) {
        std::string line = std::to_string(i);
        auto func = lower::scheduleOps(states[i], task.target);
        if (func) {
            func->body = lower::simplify(func->body);
            line += " lowered " + std::to_string(digest(lower::toString(*func)));
        } else {
            line += " error " + func.error().message;
        }
        lower::LowerOptions options;
        options.target = task.target;
        auto full = lower::lower(states[i], options);
        line += full ? " full " + std::to_string(digest(lower::toString(*full))) : " error " + full.error().message;
        if (auto f = features::perStoreFeatures(states[i], task.target)) {
            uint64_t h = digest(f->values.data(), f->values.size() * sizeof(float));
            for (const std::string& b : f->rowBuffers)
                h = digest(b.data(), b.size(), h);
            line += " features " + std::to_string(f->rows()) + " " + std::to_string(h);
        } else {
            line += " error " + f.error().message;
        }
        std::fprintf(out, "%s\n", line.c_str());
    }
}

int digestAll(const char* path)
{
    std::FILE* out = std::fopen(path, "w");
    if (!out)
        return 1;
    const graph::TaskSet resnet = store::loadNetworkTasks({ "resnet-18", 1, ops::Layout::NCHW }).value();
    for (const graph::Task& t : resnet.tasks)
        writeDigests(out, t.name, { t.dag, target::Target::host(), t.name, t.flops }, 256);
    const graph::Task matmul = graph::operatorTask("matmul", { 1024, 1024, 1024 }, ops::Layout::NCHW).value();
    writeDigests(out, "matmul", { matmul.dag, target::Target::host(), matmul.name, matmul.flops }, 512);
    std::fclose(out);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 2 && std::strcmp(argv[1], "--digest") == 0)
        return digestAll(argv[2]);
    const std::string model = argc > 1 ? argv[1] : "xgb";
    cost::registerNeuralModels();
    std::printf("ts_bench_features on %u hardware threads\n", std::thread::hardware_concurrency());
    const graph::TaskSet resnet = store::loadNetworkTasks({ "resnet-18", 1, ops::Layout::NCHW }).value();
    const graph::Task& conv = resnet.tasks[2];
    run("resnet-18 task 2 (" + conv.name + ")", { conv.dag, target::Target::host(), conv.name, conv.flops }, model);
    const graph::Task matmul = graph::operatorTask("matmul", { 1024, 1024, 1024 }, ops::Layout::NCHW).value();
    run("matmul 1024^3", { matmul.dag, target::Target::host(), matmul.name, matmul.flops }, model);
    return 0;
}
