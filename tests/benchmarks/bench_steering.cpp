// Steering benchmark (issue 41): does a person's help make a search reach a good program sooner?
//
// ResNet-18's 3x3 conv2d (56x56x64, NHWC, task 2 with bias and relu) tuned twice with the same seed and budget,
// one after the other in the same process: unsteered, then steered as a person would at trial 0 — one
// hand-written state seeded into the population and one constraint (the innermost output-channel tile is one
// AVX-512 vector, 16 floats). Printed: the trials each run needed to reach 95% of the unsteered run's best at the
// full budget, the two bests, and the hand-written state's own GFLOP/s.
//
// The hand-written state is what a person writes first for this layer: Ansor's fused multi-level tiling sketch
// with the tiles a register-blocking argument gives (16 output channels x 4 columns per register tile, 4 vectors
// of channels, the 3x3 window unsplit, 16 input channels per reduction step), unroll 64, and the parallel and
// vector annotations of a seeded random annotation of that sketch.
//
//   ./build/release/tests/benchmarks/ts_bench_steering [TRIALS=256] [SEED=1]
#include "peak_flops.h"
#include "tuning_util.h"

#include "core/search/annotation.h"
#include "core/search/annotation_rules.h"
#include "core/search/constraints.h"
#include "core/search/sketch.h"
#include "core/support/rng.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>

using namespace ts;

namespace {

// The hand-written tiles, by loop name: the lengths of x.1 .. x.n (x.0 takes the rest).
const std::map<std::string, std::vector<int64_t>> kHandTiles {
    { "nn", { 1, 1, 1 } },
    { "yy", { 1, 1, 1 } },
    { "xx", { 7, 1, 4 } },
    { "ff", { 1, 4, 16 } },
    { "ry", { 3 } },
    { "rx", { 3 } },
    { "rc", { 16 } },
};

sched::State handWritten(const engine::TuneTask& task)
{
    search::SearchTask st { task.dag, target::Target::host(), task.name, task.dag.flopCount() };
    st.packsWeights = true;
    const std::vector<search::Sketch> sketches = search::generateSketches(st).value();
    const search::Sketch* fused = nullptr;
    for (const search::Sketch& s : sketches)
        if (s.rules.find("MultiLevelTilingWithFusion") != std::string::npos)
            fused = &s;
    if (!fused) {
        std::fprintf(stderr, "no fused multi-level tiling sketch for %s\n", task.name.c_str());
        std::exit(1);
    }
    Rng rng(7);
    sched::State annotated = search::randomAnnotation(st, *fused, {}, rng).value();
    // Each split of a tiled loop gets the hand-written lengths; the unroll pragma gets 64.
    std::vector<sched::Step> steps = annotated.steps();
    sched::State replay = sched::State::initial(task.dag);
    for (sched::Step& step : steps) {
        if (auto* split = std::get_if<sched::SplitStep>(&step)) {
            const std::string name = replay.stage(split->stageId).iters[static_cast<size_t>(split->iterId)].name;
            const std::string base = name.substr(0, name.find('.'));
            if (auto hand = kHandTiles.find(base);
                hand != kHandTiles.end() && hand->second.size() == split->lengths.size())
                for (size_t i = 0; i < split->lengths.size(); ++i)
                    split->lengths[i] = hand->second[i];
        } else if (auto* pragma = std::get_if<sched::PragmaStep>(&step)) {
            if (pragma->pragma.starts_with("auto_unroll_max_step"))
                pragma->pragma = "auto_unroll_max_step$64";
        }
        if (auto applied = replay.apply(step); !applied) {
            std::fprintf(stderr, "the annotated sketch does not replay: %s\n", applied.error().message.c_str());
            std::exit(1);
        }
    }
    auto state = search::detail::replayAndInfer(task.dag, steps);
    if (!state) {
        std::fprintf(stderr, "the hand-written state does not replay: %s\n", state.error().message.c_str());
        std::exit(1);
    }
    return std::move(state).value();
}

std::string cpuModel()
{
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0)
            return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

// Trials until the run's best first reached `gflops` (-1: never).
int trialsToReach(const bench::Run& run, double gflops)
{
    for (const bench::CurvePoint& p : run.curve)
        if (p.gflops >= gflops)
            return p.trial;
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    const int trials = argc > 1 ? std::atoi(argv[1]) : 256;
    const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    std::vector<engine::TuneTask> tasks = bench::resnetTasks({ 2 });
    const engine::TuneTask task = tasks.front();
    const double peak = bench::peakGflops(static_cast<int>(std::thread::hardware_concurrency()));
    std::printf("CPU: %s (LLVM: %s); FMA peak %.1f GFLOP/s on %u threads\n", cpuModel().c_str(),
        target::Target::host().cpuName.c_str(), peak, std::thread::hardware_concurrency());
    std::printf("task: resnet-18 NHWC task 2, %s (%.4f GFLOP), %d trials, seed %llu\n\n", task.name.c_str(),
        task.dag.flopCount() / 1e9, trials, static_cast<unsigned long long>(seed));

    auto options = [&](const std::string& name) {
        engine::TuneOptions o = bench::baseOptions({ task }, trials, bench::freshWorkspace(name));
        o.seed = seed;
        o.resume = false;
        o.remeasureTop = 0; // the curves compare the search's own measurements
        return o;
    };
    const bench::Run plain = bench::tune(options("steering-unsteered"));

    engine::TuneOptions steeredOptions = options("steering-steered");
    const sched::State hand = handWritten(task);
    steeredOptions.seeds = { { hand } };
    steeredOptions.constraints = { search::constraintsFromJson(
        nlohmann::json::parse(R"({"splits": [{"stage": "Conv2dOutput", "iter": "ff", "part": -1, "equals": 16}]})"))
                                       .value() };
    // The hand-written state's own figure: measured first, as a person's "try it" would.
    double handGflops = 0.0;
    {
        measure::Measurer measurer(steeredOptions.measure);
        measure::MeasureCallbacks callbacks;
        callbacks.onResult = [&](int, record::MeasureResult r) {
            if (r.ok())
                handGflops = task.dag.flopCount() / r.meanCost() / 1e9;
            else
                std::printf("the hand-written state failed: %s\n", r.message.c_str());
        };
        measurer.measure(task.dag, { hand }, callbacks);
    }
    const bench::Run steered = bench::tune(steeredOptions);

    const double plainBest = plain.curve.empty() ? 0.0 : plain.curve.back().gflops;
    const double steeredBest = steered.curve.empty() ? 0.0 : steered.curve.back().gflops;
    const double target = 0.95 * plainBest;
    std::printf("hand-written state: %.1f GFLOP/s (%.0f%% of the unsteered best)\n", handGflops,
        plainBest > 0 ? 100.0 * handGflops / plainBest : 0.0);
    std::printf("%-34s %10s %12s %18s %8s\n", "run", "best GF/s", "% FMA peak", "trials to 95%", "wall s");
    std::printf("%-34s %10.1f %11.1f%% %18d %8.0f\n", "unsteered", plainBest, 100.0 * plainBest / peak,
        trialsToReach(plain, target), plain.wall);
    std::printf("%-34s %10.1f %11.1f%% %18d %8.0f\n", "steered (seed + ff innermost = 16)", steeredBest,
        100.0 * steeredBest / peak, trialsToReach(steered, target), steered.wall);
    std::printf("(95%% of the unsteered best at %d trials = %.1f GFLOP/s; -1: never reached)\n", trials, target);
    return 0;
}
