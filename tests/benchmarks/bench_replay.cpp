// What a schedule State costs to rebuild, copy and edit. The search replays step histories millions of
// times (every candidate is a step list; mutations edit one step and replay), so these must stay in the
// microseconds and grow linearly with the number of steps.
//   ./build/release/tests/benchmarks/ts_bench_replay
// The schedule: an Ansor-style CPU schedule of ResNet-18's 3x3 conv2d layer (conv2d_layer 1x56x56, 64 -> 64
// channels, NCHW, + bias + ReLU, as in shared/data/tvm-logs/conv2d_layer-ansor-spr.json) with a cache_write
// stage: multi-level tiling of every axis (SSRSRS), the output following the tiles, compute_at of the
// cache-write and pad stages, fused parallel outer loops, vectorized inner loops, auto_unroll.
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/schedule/state.h"

#include <benchmark/benchmark.h>

using namespace ts;
using namespace ts::sched;

namespace {
ir::ComputeDAG conv2dLayerDag()
{
    ir::Tensor data = ir::placeholder("data", { 1, 64, 56, 56 });
    ir::Tensor kernel = ir::placeholder("kernel", { 64, 64, 3, 3 });
    ir::Tensor bias = ir::placeholder("bias", { 1, 64, 1, 1 });
    ops::Conv2dParams params;
    params.padding = ops::Conv2dParams::symmetric(1, 1);
    ir::Tensor conv = ops::conv2d(data, kernel, params).value();
    ir::Tensor out = ops::relu(ops::add(conv, bias).value()).value();
    return ir::ComputeDAG::create({ data, kernel, bias, out });
}

// Stages: data(0) pad_temp(1) kernel(2) conv2d_nchw(3) bias(4) T_add(5) T_relu(6); after the cache_write:
// data pad_temp kernel conv2d_nchw.local(3) conv2d_nchw(4) bias T_add T_relu(7).
std::vector<Step> conv2dLayerSteps()
{
    return {
        ComputeInlineStep { 5 }, // T_add
        CacheWriteStep { 3, "local" },
        ComputeInlineStep { 4 }, // the copy out of the cache: T_relu reads the local tile through it
        SplitStep { 3, 0, 1, { 1, 1, 1 }, true }, // nn, ff, yy, xx in four levels
        SplitStep { 3, 4, 64, { 2, 2, 16 }, true },
        SplitStep { 3, 8, 56, { 2, 2, 1 }, true },
        SplitStep { 3, 12, 56, { 1, 1, 14 }, true },
        SplitStep { 3, 16, 64, { 4 }, true }, // rc, ry, rx in two
        SplitStep { 3, 18, 3, { 3 }, true },
        SplitStep { 3, 20, 3, { 1 }, true },
        ReorderStep { 3, { 0, 4, 8, 12, 1, 5, 9, 13, 16, 18, 20, 2, 6, 10, 14, 17, 19, 21, 3, 7, 11, 15 } },
        FollowSplitStep { 7, 0, 3, 2 }, // T_relu follows the outer two levels
        FollowSplitStep { 7, 3, 4, 2 },
        FollowSplitStep { 7, 6, 5, 2 },
        FollowSplitStep { 7, 9, 6, 2 },
        ReorderStep { 7, { 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11 } },
        ComputeAtStep { 3, 7, 7 }, // the local tile inside T_relu's second level
        ComputeAtStep { 1, 3, 10 }, // the padded input inside the local tile's reduction
        FuseStep { 7, { 0, 1, 2, 3 } },
        AnnotationStep { 7, 0, Annotation::Parallel },
        PragmaStep { 3, 0, "auto_unroll_max_step$512" },
        AnnotationStep { 3, 21, Annotation::Vectorize },
        AnnotationStep { 7, 8, Annotation::Vectorize },
        AnnotationStep { 1, 3, Annotation::Vectorize },
    };
}

const ir::ComputeDAG& dag()
{
    static const ir::ComputeDAG kDag = conv2dLayerDag();
    return kDag;
}

// The sketch the schedule fills: every split length unfilled (Ansor's multi-level tiling).
std::vector<Step> conv2dLayerSketch()
{
    std::vector<Step> steps = conv2dLayerSteps();
    for (Step& step : steps)
        if (auto* split = std::get_if<SplitStep>(&step))
            split->lengths.assign(split->lengths.size(), std::nullopt);
    return steps;
}

State replayOrDie(const std::vector<Step>& steps)
{
    auto state = State::replay(dag(), steps);
    if (!state)
        std::abort();
    return std::move(state).value();
}
} // namespace

// Replay of the first n steps: time per step should not grow with n.
static void replay(benchmark::State& bench)
{
    std::vector<Step> steps = conv2dLayerSteps();
    steps.resize(static_cast<size_t>(bench.range(0)));
    for (auto _ : bench)
        benchmark::DoNotOptimize(State::replay(dag(), steps)->numStages());
    bench.counters["steps"] = static_cast<double>(steps.size());
    bench.counters["per_step"] = benchmark::Counter(
        static_cast<double>(steps.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(replay)->Arg(8)->Arg(16)->Arg(static_cast<int64_t>(conv2dLayerSteps().size()))->Unit(benchmark::kMicrosecond);

static void copyState(benchmark::State& bench)
{
    const State full = replayOrDie(conv2dLayerSteps());
    for (auto _ : bench) {
        State copy = full;
        benchmark::DoNotOptimize(copy.numStages());
    }
}
BENCHMARK(copyState)->Unit(benchmark::kMicrosecond);

// A copy of the full state plus one more step (what a search rule does to extend a candidate).
static void copyAndApplyOneStep(benchmark::State& bench)
{
    const State full = replayOrDie(conv2dLayerSteps());
    const Step step = AnnotationStep { 3, 20, Annotation::Unroll };
    for (auto _ : bench) {
        State next = full;
        benchmark::DoNotOptimize(static_cast<bool>(next.apply(step)));
    }
}
BENCHMARK(copyAndApplyOneStep)->Unit(benchmark::kMicrosecond);

// Filling one split of the history with new lengths (what InitFillTileSize and the tile-size mutation do):
// the edited step list replayed from the start.
static void fillSplitByReplay(benchmark::State& bench)
{
    std::vector<Step> steps = conv2dLayerSteps();
    for (auto _ : bench) {
        std::get<SplitStep>(steps[6]).lengths = { 2, 1, 7 };
        benchmark::DoNotOptimize(State::replay(dag(), steps)->numStages());
    }
}
BENCHMARK(fillSplitByReplay)->Unit(benchmark::kMicrosecond);

// The same through State::withSplitLengths, on the sketch (every split length unfilled): one split, then all
// seven at once (InitFillTileSize).
static void fillOneSplitOfSketch(benchmark::State& bench)
{
    const State sketch = replayOrDie(conv2dLayerSketch());
    for (auto _ : bench)
        benchmark::DoNotOptimize(sketch.withSplitLengths(6, { 2, 1, 7 })->numStages());
}
BENCHMARK(fillOneSplitOfSketch)->Unit(benchmark::kMicrosecond);

static void fillAllSplitsOfSketch(benchmark::State& bench)
{
    const State sketch = replayOrDie(conv2dLayerSketch());
    std::vector<SplitFill> fills;
    const std::vector<Step> filled = conv2dLayerSteps();
    for (size_t i = 0; i < filled.size(); ++i) {
        if (const auto* split = std::get_if<SplitStep>(&filled[i])) {
            SplitFill fill { static_cast<int>(i), {} };
            for (const SplitLength& length : split->lengths)
                fill.lengths.push_back(*length);
            fills.push_back(fill);
        }
    }
    for (auto _ : bench)
        benchmark::DoNotOptimize(sketch.withSplitLengths(fills)->numStages());
}
BENCHMARK(fillAllSplitsOfSketch)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
