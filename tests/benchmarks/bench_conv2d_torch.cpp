// conv2d 56x56, 64 -> 64 channels, 3x3, pad 1 (ResNet-18's layer 1): the hand-written NHWC schedule and an
// Ansor-style one with auto_unroll_max_step 0 (hand_schedules.h) measured through tunescope-runner, next to
// LibTorch's conv2d (oneDNN) in the same run, 1 and 2 threads, with the fp32 FMA peak measured in the same run.
// LibTorch's backends and OpenBLAS's kernel (chosen first by a probe, library_kernels.h) are printed before the table.
//   ./build/release/tests/benchmarks/ts_bench_conv2d_torch
#include "bench_util.h"
#include "hand_schedules.h"
#include "library_kernels_torch.h"
#include "peak_flops.h"

#include "core/measure/measurer.h"
#include "core/ops/conv.h"
#include "core/schedule/step_json.h"

#include <torch/torch.h>

#include <cstdio>

using namespace ts;

int main(int, char** argv)
{
    bench::selectLibraryKernels(argv); // before any measurement
    const int64_t hw = 56, c = 64;
    ir::Tensor data = ir::placeholder("data", { 1, hw, hw, c });
    ir::Tensor weight = ir::placeholder("weight", { 3, 3, c, c });
    ops::Conv2dParams params;
    params.layout = ops::Layout::NHWC;
    params.padding = ops::Conv2dParams::symmetric(1, 1);
    const ir::ComputeDAG dag = ir::ComputeDAG::create({ data, weight, ops::conv2d(data, weight, params).value() });
    const sched::State hand = bench::conv2dNhwcSchedule(dag, hw, c, 4);
    auto ansorStyle = sched::State::replayJson(dag, bench::kConv2dNhwcAnsorStyleSteps);
    if (!ansorStyle) {
        std::fprintf(stderr, "the Ansor-style schedule does not replay: %s\n", ansorStyle.error().message.c_str());
        return 1;
    }

    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::rand({ 1, c, hw, hw });
    const torch::Tensor w = torch::rand({ c, c, 3, 3 });
    std::printf("conv2d 1x%ldx%ldx%ld -> %ld, 3x3, pad 1 (%.3f GFLOP)\n", hw, hw, c, c, dag.flopCount() / 1e9);
    std::printf("  schedule                 threads  TuneScope GFLOP/s  LibTorch GFLOP/s  ratio  LibTorch threads  "
                "fp32 FMA peak\n");
    for (const auto& [name, state] : { std::pair<const char*, const sched::State*> { "hand (x unrolled)", &hand },
             std::pair<const char*, const sched::State*> { "Ansor-style, unroll 0", &*ansorStyle } })
        for (int threads : { 1, 2 }) {
            const double seconds = bench::tuneScopeSeconds(dag, *state, threads);
            if (seconds < 0)
                return 1;
            torch::set_num_threads(threads);
            const double torchSeconds = bench::secondsPerRun([&] { torch::conv2d(x, w, {}, 1, 1); });
            const double ours = dag.flopCount() / seconds / 1e9;
            const double theirs = dag.flopCount() / torchSeconds / 1e9;
            std::printf("  %-23s  %7d  %17.1f  %16.1f  %5.0f%%  %16d  %13.1f\n", name, threads, ours, theirs,
                100 * ours / theirs, at::get_num_threads(), bench::peakGflops(threads));
        }
    return 0;
}
