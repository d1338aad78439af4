// Workloads and schedules shared by the schedule, lowering, codegen and measurement tests.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/lower/lower.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/support/rng.h"

#include <gtest/gtest.h>

namespace ts::fixtures {

// A CUDA target for the GPU lowering and code generation tests (TVM's defaults but the architecture).
inline target::Target cudaTarget(const std::string& arch = "sm_86")
{
    auto t = target::fromTvm("cuda -keys=cuda,gpu -arch=" + arch + " -max_num_threads=1024 -thread_warp_size=32");
    EXPECT_TRUE(t) << t.error().message;
    return t ? *t : target::Target {};
}

inline lower::LowerOptions loweringFor(const target::Target& t)
{
    lower::LowerOptions options;
    options.target = t;
    return options;
}

inline ir::ComputeDAG matmulAddDag(int64_t n, int64_t l, int64_t m)
{
    return ir::ComputeDAG::create(ops::matmulAdd(n, l, m).value());
}

inline ir::ComputeDAG matmulDag(int64_t n, int64_t l, int64_t m)
{
    ir::Tensor a = ir::placeholder("A", { n, l });
    ir::Tensor b = ir::placeholder("B", { l, m });
    ir::setNextAxisNames({ "i", "j" }, { "k" });
    return ir::ComputeDAG::create({ a, b, ops::matmul(a, b).value() });
}

// conv2d NCHW with a pad stage: data [1, c, h, w], weight [k, c, 3, 3], pad 1.
inline ir::ComputeDAG conv2dDag(int64_t c, int64_t hw, int64_t k, int64_t stride = 1)
{
    ir::Tensor data = ir::placeholder("data", { 1, c, hw, hw });
    ir::Tensor weight = ir::placeholder("weight", { k, c, 3, 3 });
    ops::Conv2dParams params;
    params.padding = ops::Conv2dParams::symmetric(1, 1);
    params.stride = { stride, stride };
    return ir::ComputeDAG::create({ data, weight, ops::conv2d(data, weight, params).value() });
}

// TVM's conv2d_layer tutorial workload (conv2d NCHW, pad 1, + bias, ReLU), as the workload registry builds
// it: data pad_temp kernel conv2d_nchw bias T_add T_relu. With stride 2 it is ResNet-18's task 4 at c = 64, hw = 56,
// k = 128.
inline ir::ComputeDAG conv2dLayerDag(int64_t c, int64_t hw, int64_t k, int64_t stride = 1)
{
    ir::Tensor data = ir::placeholder("data", { 1, c, hw, hw });
    ir::Tensor kernel = ir::placeholder("kernel", { k, c, 3, 3 });
    ir::Tensor bias = ir::placeholder("bias", { 1, k, 1, 1 });
    ops::Conv2dParams params;
    params.padding = ops::Conv2dParams::symmetric(1, 1);
    params.stride = { stride, stride };
    ir::Tensor conv = ops::conv2d(data, kernel, params).value();
    ir::Tensor out = ops::relu(ops::add(conv, bias).value()).value();
    return ir::ComputeDAG::create({ data, kernel, bias, out });
}

// shared/data/tvm-logs/conv2d_layer-ansor-spr.json line 3 (Ansor on Sapphire Rapids, conv2d_layer
// 1x64x56x56, 64 filters): pad_temp is computed at T_relu's k.0, which encloses conv2d_nchw (at l.0).
inline const char* tvmConv2dLayerLine3Steps()
{
    return R"([["CI", 5], ["SP", 3, 0, 1, [1, 1, 1], 1], ["SP", 3, 4, 64, [8, 4, 2], 1], )"
           R"(["SP", 3, 8, 56, [1, 14, 2], 1], ["SP", 3, 12, 56, [7, 1, 8], 1], ["SP", 3, 16, 64, [2], 1], )"
           R"(["SP", 3, 18, 3, [3], 1], ["SP", 3, 20, 3, [3], 1], )"
           R"(["RE", 3, [0, 4, 8, 12, 1, 5, 9, 13, 16, 18, 20, 2, 6, 10, 14, 17, 19, 21, 3, 7, 11, 15]], )"
           R"(["FSP", 6, 0, 1, 1], ["FSP", 6, 2, 2, 1], ["FSP", 6, 4, 3, 1], ["FSP", 6, 6, 4, 1], )"
           R"(["RE", 6, [0, 2, 4, 6, 1, 3, 5, 7]], ["CA", 3, 6, 3], ["CA", 1, 6, 2], ["FU", 6, [0, 1, 2]], )"
           R"(["AN", 6, 0, 3], ["PR", 3, 0, "auto_unroll_max_step$512"], ["AN", 3, 21, 2], ["AN", 6, 5, 2]])";
}

// The record in shared/data/tvm-logs/matmul.json (Ansor, matmul_add 1024).
inline const char* tvmMatmulSteps()
{
    return R"([["SP", 2, 0, 1024, [2, 1, 4], 1], ["SP", 2, 4, 1024, [1, 1, 8], 1], ["SP", 2, 8, 1024, [4], 1], )"
           R"(["RE", 2, [0, 4, 1, 5, 8, 2, 6, 9, 3, 7]], ["FSP", 4, 0, 0, 2], ["FSP", 4, 3, 1, 2], )"
           R"(["RE", 4, [0, 3, 1, 4, 2, 5]], ["CA", 2, 4, 3], ["FU", 4, [0, 1]], ["AN", 4, 0, 3], )"
           R"(["PR", 2, 0, "auto_unroll_max_step$8"], ["AN", 2, 9, 2], ["AN", 4, 4, 2]])";
}

inline void apply(sched::State& state, const sched::Step& step)
{
    auto applied = state.apply(step);
    ASSERT_TRUE(applied) << applied.error().message;
}

// The initial state of `dag` with `steps` applied in order (each must apply).
inline sched::State withSteps(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
{
    sched::State state = sched::State::initial(dag);
    for (const sched::Step& step : steps)
        apply(state, step);
    return state;
}

// A random valid schedule, built from steps as a search would: optional cache_write, multi-level splits
// (dividing or not), a random order, fusion and parallel outer loops, vectorize / unroll, a pragma, and
// compute_at or inline of the producers.
inline sched::State randomSchedule(const ir::ComputeDAG& dag, Rng& rng)
{
    sched::State state = sched::State::initial(dag);
    int main = -1;
    for (int s = 0; s < state.numStages(); ++s)
        if (state.stage(s).op->reducer() != ir::Reducer::None)
            main = s;
    const int64_t factors[] = { 1, 2, 3, 4, 5, 8, 16 };
    auto splitAll = [&](int stage, int maxParts) {
        for (int it = static_cast<int>(state.stage(stage).iters.size()); it-- > 0;) {
            const int parts = static_cast<int>(rng.uniformInt(0, maxParts));
            if (parts == 0)
                continue;
            std::vector<sched::SplitLength> lengths;
            for (int p = 0; p < parts; ++p)
                lengths.push_back(factors[rng.uniformInt(0, 6)]);
            apply(state, sched::SplitStep { stage, it, state.stage(stage).iters[size_t(it)].extent, lengths, true });
        }
    };
    const bool cacheWrite = rng.uniform(0, 1) < 0.3;
    if (cacheWrite)
        apply(state, sched::CacheWriteStep { main, "local" });
    const int compute = main; // the stage holding the reduction
    const int consumer = cacheWrite ? main + 1 : -1;

    splitAll(compute, 2);
    std::vector<int> order(state.stage(compute).iters.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    rng.shuffle(order);
    apply(state, sched::ReorderStep { compute, order });
    int outer = compute;
    if (cacheWrite) {
        splitAll(consumer, 1);
        const int at
            = static_cast<int>(rng.uniformInt(0, static_cast<int64_t>(state.stage(consumer).iters.size()) - 1));
        apply(state, sched::ComputeAtStep { compute, consumer, at });
        outer = consumer;
    }
    // Producers of the reduction (the pad stage): inline, compute_at, or leave at root.
    for (int s = 0; s < compute; ++s) {
        if (state.stage(s).isPlaceholder())
            continue;
        const double choice = rng.uniform(0, 1);
        if (choice < 0.4)
            apply(state, sched::ComputeInlineStep { s });
        else if (choice < 0.8) {
            const int at
                = static_cast<int>(rng.uniformInt(0, static_cast<int64_t>(state.stage(compute).iters.size()) - 1));
            apply(state, sched::ComputeAtStep { s, compute, at });
        }
    }
    // Annotations on the outer stage: fuse + parallel over leading spatial iterators; vectorize the last.
    const auto& iters = state.stage(outer).iters;
    if (iters.size() >= 2 && iters[0].kind == sched::IteratorKind::Spatial
        && iters[1].kind == sched::IteratorKind::Spatial && state.attachedAt(outer, 0).empty()
        && rng.uniform(0, 1) < 0.5)
        apply(state, sched::FuseStep { outer, { 0, 1 } });
    if (state.stage(outer).iters[0].kind == sched::IteratorKind::Spatial && rng.uniform(0, 1) < 0.7)
        apply(state, sched::AnnotationStep { outer, 0, sched::Annotation::Parallel });
    for (int stage : { compute, outer }) {
        const int last = static_cast<int>(state.stage(stage).iters.size()) - 1;
        if (last > 0 && state.stage(stage).iters[size_t(last)].annotation == sched::Annotation::None
            && rng.uniform(0, 1) < 0.6)
            apply(state, sched::AnnotationStep { stage, last, sched::Annotation::Vectorize });
        if (last > 1 && state.stage(stage).iters[size_t(last - 1)].annotation == sched::Annotation::None
            && rng.uniform(0, 1) < 0.3)
            apply(state, sched::AnnotationStep { stage, last - 1, sched::Annotation::Unroll });
    }
    if (rng.uniform(0, 1) < 0.5) {
        const int64_t steps[] = { 0, 16, 64, 512 };
        apply(state,
            sched::PragmaStep { compute, 0, "auto_unroll_max_step$" + std::to_string(steps[rng.uniformInt(0, 3)]) });
    }
    return state;
}

} // namespace ts::fixtures
