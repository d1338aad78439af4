// How long building networks, extracting tasks and evaluating reference results take. The explorer builds
// every network's tasks when it opens, so extraction must stay in the milliseconds.
#include "core/graph/model_zoo.h"
#include "core/graph/task_extraction.h"
#include "core/ir/reference_evaluator.h"
#include "core/ops/linear.h"

#include <benchmark/benchmark.h>

using namespace ts;

static void extractNetwork(benchmark::State& state, const char* name)
{
    for (auto _ : state) {
        auto graph = graph::buildNetwork(name, 1);
        auto tasks = graph::extractTasks(*graph);
        benchmark::DoNotOptimize(tasks->tasks.size());
    }
}
BENCHMARK_CAPTURE(extractNetwork, resnet18, "resnet-18")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(extractNetwork, resnet50, "resnet-50")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(extractNetwork, mobilenet_v2, "mobilenet-v2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(extractNetwork, bert_base, "bert-base")->Unit(benchmark::kMillisecond);

static void extractAllNetworks(benchmark::State& state)
{
    for (auto _ : state)
        for (const graph::NetworkInfo& info : graph::networks())
            benchmark::DoNotOptimize(graph::extractTasks(*graph::buildNetwork(info.name, 1))->tasks.size());
}
BENCHMARK(extractAllNetworks)->Unit(benchmark::kMillisecond);

// Reference evaluator throughput on a 128^3 matmul: multiply-accumulates per second.
static void referenceMatmul(benchmark::State& state)
{
    const int64_t n = state.range(0);
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, n });
    ir::ComputeDAG dag = ir::ComputeDAG::create({ a, b, ops::matmul(a, b).value() });
    auto inputs = ir::randomInputs(dag, 1);
    for (auto _ : state)
        benchmark::DoNotOptimize(ir::evaluate(dag, inputs)->size());
    state.counters["MAC/s"] = benchmark::Counter(double(n * n * n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(referenceMatmul)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
