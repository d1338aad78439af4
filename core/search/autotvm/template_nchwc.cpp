// TVM's x86 NCHW[x]c convolution templates as TVM builds them (template.h): conv2d_NCHWc.x86 and
// depthwise_conv2d_NCHWc.x86 compute on data and weights already blocked by the config's tile_ic / tile_oc
// (TVM's tuner declares them as placeholders in the packed layout: the packing is outside the task) and
// vectorise the output-channel block. Read from TVM v0.13's topi/x86/conv2d.py (conv2d_NCHWc),
// conv2d_avx_common.py and conv2d_avx_1x1.py (_schedule_conv_NCHWc), depthwise_conv2d.py
// (depthwise_conv2d_NCHWc, _schedule_depthwise_conv2d_NCHWc_impl), topi/nn/conv2d.py (conv2d_NCHWc).
//
// Their knobs are the ones template_conv.cpp declares (the spaces are shared). What differs from TVM, with no
// change to the loop nest: our conv reduces over (ic_chunk, ic_block) where TVM reduces over ic and its schedule
// splits it by ic_bn (ops::conv2dNchwc); the 1x1 schedule's unit kh, kw loops sit before the register tile
// rather than after the vectorised oc_block (both have extent 1); the depthwise parallel loop fuses the batch
// (extent 1 in every TVM task) with (oc_chunk, oh). A task with a fused epilogue (bias, ReLU) is tuned as TVM's
// AutoTVM task is, the anchor alone: the epilogue is not part of the program.
#include "core/ir/compute_dag.h"
#include "core/ops/conv.h"
#include "core/search/autotvm/template.h"
#include "core/search/autotvm/template_builder.h"
#include "core/support/assert.h"

namespace ts::autotvm::detail {

namespace {
    // The data, weight and parameters of the task's convolution, as TVM's task args give them.
    Expected<ConvWorkload> taskConv(const std::string& name, const ir::ComputeDAG& taskDag)
    {
        const Template* self = findTemplate(name);
        TS_ASSERT(self) << name << " is not registered";
        TS_TRY(const std::string args, taskArgs(*self, taskDag));
        return convWorkload(name, args);
    }

    // The padded data at root as TVM schedules data_pad: fuse (n, c_chunk, h), parallel; vectorize c_block.
    Expected<void> padAtRoot(StepBuilder& b, const ir::ComputeDAG& dag, const std::string& padName)
    {
        for (int i = 0; i < dag.numOps(); ++i) {
            if (dag.op(i).name() != padName || dag.op(i).isPlaceholder())
                continue;
            const int p = b.stage(padName);
            TS_CHECK(b.add(FuseStep { p, { 0, 1, 2 } })); // f w c_block
            TS_CHECK(b.add(AnnotationStep { p, 0, Annotation::Parallel }));
            TS_CHECK(b.add(AnnotationStep { p, 2, Annotation::Vectorize }));
        }
        return {};
    }
} // namespace

Expected<ir::ComputeDAG> conv2dNchwcProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "conv2d_NCHWc.x86";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const ConvWorkload w, taskConv(name, taskDag));
    const int64_t inChannels = w.data[1], outChannels = w.weight[0];
    TS_TRY(const int64_t icBn, innerFactor(name, space, index, "tile_ic", inChannels));
    TS_TRY(const int64_t ocBn, innerFactor(name, space, index, "tile_oc", outChannels));
    ir::Tensor data = ir::placeholder("data", { w.data[0], inChannels / icBn, w.data[2], w.data[3], icBn });
    ir::Tensor kernel
        = ir::placeholder("kernel", { outChannels / ocBn, inChannels / icBn, w.weight[2], w.weight[3], icBn, ocBn });
    auto out = ops::conv2dNchwc(data, kernel, w.params);
    if (!out)
        return instantiationError(name, out.error().message);
    return ir::ComputeDAG::create({ data, kernel, *out });
}

// _schedule_conv_NCHWc (3x3 and other kernels: conv2d_avx_common.py; 1x1: conv2d_avx_1x1.py) on the program.
Expected<std::vector<sched::Step>> conv2dNchwcPackedApply(
    const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "conv2d_NCHWc.x86";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, dag, "conv2d_NCHWc", 5, 4));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t oh = op.axes()[2].extent;
    const int64_t ow = op.axes()[3].extent;
    TS_TRY(const int64_t regN, innerFactor(name, space, index, "tile_ow", ow, false));
    const bool kernel1x1 = space.findKnob("tile_oh") != nullptr;
    int64_t ohFactor = 1;
    bool unrollKw = false;
    if (kernel1x1) {
        TS_TRY(const std::string v, otherValue(name, space, index, "tile_oh"));
        ohFactor = std::stoll(v);
        if (ohFactor < 1 || ohFactor > oh)
            return instantiationError(name, "tile_oh " + v + " for the output height " + std::to_string(oh));
    } else {
        TS_TRY(const std::string v, otherValue(name, space, index, "unroll_kw"));
        unrollKw = v == "true";
    }

    StepBuilder b(name, dag);
    TS_CHECK(padAtRoot(b, dag, "data_pad"));
    const int c0 = b.stage(op.name());
    TS_CHECK(b.add(CacheWriteStep { c0, "global" }));
    const int cc = c0; // the cache stage comes first, the conv's copy-out after it
    const int c = c0 + 1;
    if (!kernel1x1) {
        // C: n oc_chunk oh ow oc_block -> split ow by reg_n (already TVM's order: oc_chunk oh ow_chunk ow_block
        // oc_block) -> fuse (n, oc_chunk, oh), parallel; vectorize oc_block.
        TS_CHECK(b.add(SplitStep { c, 3, ow, { regN }, true }));
        TS_CHECK(b.add(FuseStep { c, { 0, 1, 2 } })); // f ow.0 ow.1 oc_block
        TS_CHECK(b.add(AnnotationStep { c, 0, Annotation::Parallel }));
        TS_CHECK(b.add(AnnotationStep { c, 3, Annotation::Vectorize }));
        // CC at C's ow_chunk: n oc oh ow oc_block | ic_chunk ic_block kh kw -> split ow by reg_n ->
        // (n oc oh ow.0 ic_chunk kh [ic_block kw | kw ic_block] ow.1 oc_block); unroll kw when asked and ow.1,
        // vectorize oc_block.
        TS_CHECK(b.add(SplitStep { cc, 3, ow, { regN }, true })); // n oc oh ow.0 ow.1 ocb icc icb kh kw
        TS_CHECK(b.add(ReorderStep { cc,
            unrollKw ? std::vector<int> { 0, 1, 2, 3, 6, 8, 7, 9, 4, 5 }
                     : std::vector<int> { 0, 1, 2, 3, 6, 8, 9, 7, 4, 5 } }));
        if (unrollKw)
            TS_CHECK(b.add(AnnotationStep { cc, 7, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 8, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 9, Annotation::Vectorize }));
        TS_CHECK(b.add(ComputeAtStep { cc, c, 1 }));
        return b.take();
    }
    // 1x1. C: split oh by tile_oh, ow by tile_ow -> (n oc_chunk oh.0 ow.0 oh.1 ow.1 oc_block); vectorize
    // oc_block; fuse (n, oc_chunk, oh.0), parallel.
    TS_CHECK(b.add(SplitStep { c, 2, oh, { ohFactor }, true }));
    TS_CHECK(b.add(SplitStep { c, 4, ow, { regN }, true })); // n oc oh.0 oh.1 ow.0 ow.1 ocb
    TS_CHECK(b.add(ReorderStep { c, { 0, 1, 2, 4, 3, 5, 6 } }));
    TS_CHECK(b.add(FuseStep { c, { 0, 1, 2 } })); // f ow.0 oh.1 ow.1 ocb
    TS_CHECK(b.add(AnnotationStep { c, 0, Annotation::Parallel }));
    TS_CHECK(b.add(AnnotationStep { c, 4, Annotation::Vectorize }));
    // CC at C's fused loop: split oh, ow -> (n oc oh.0 ow.0 ic_chunk ic_block kh kw oh.1 ow.1 oc_block); fuse
    // (oc, oh.0); unroll oh.1 and ow.1, vectorize oc_block.
    TS_CHECK(b.add(SplitStep { cc, 2, oh, { ohFactor }, true }));
    TS_CHECK(b.add(SplitStep { cc, 4, ow, { regN }, true })); // n oc oh.0 oh.1 ow.0 ow.1 ocb icc icb kh kw
    TS_CHECK(b.add(ReorderStep { cc, { 0, 1, 2, 4, 7, 8, 9, 10, 3, 5, 6 } }));
    TS_CHECK(b.add(FuseStep { cc, { 1, 2 } })); // n f ow.0 icc icb kh kw oh.1 ow.1 ocb
    TS_CHECK(b.add(AnnotationStep { cc, 7, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, 8, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, 9, Annotation::Vectorize }));
    TS_CHECK(b.add(ComputeAtStep { cc, c, 0 }));
    return b.take();
}

Expected<ir::ComputeDAG> depthwiseNchwcProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "depthwise_conv2d_NCHWc.x86";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const ConvWorkload w, taskConv(name, taskDag));
    const int64_t channels = w.data[1];
    TS_TRY(const int64_t icBn, innerFactor(name, space, index, "tile_ic", channels));
    TS_TRY(const int64_t ocBn, innerFactor(name, space, index, "tile_oc", w.weight[0] * w.weight[1]));
    ir::Tensor data = ir::placeholder("data", { w.data[0], channels / icBn, w.data[2], w.data[3], icBn });
    ir::Tensor kernel = ir::placeholder("kernel", { channels / ocBn, 1, w.weight[2], w.weight[3], 1, ocBn });
    auto out = ops::depthwiseConv2dNchwc(data, kernel, w.params);
    if (!out)
        return instantiationError(name, out.error().message);
    return ir::ComputeDAG::create({ data, kernel, *out });
}

Expected<std::vector<sched::Step>> depthwiseNchwcPackedApply(
    const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "depthwise_conv2d_NCHWc.x86";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, dag, "depthwise_conv2d_NCHWc", 5, 2));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t ow = op.axes()[3].extent;
    TS_TRY(const int64_t tileOw, innerFactor(name, space, index, "tile_ow", ow));
    TS_TRY(const std::string unroll, otherValue(name, space, index, "unroll_kw"));

    StepBuilder b(name, dag);
    TS_CHECK(padAtRoot(b, dag, "PaddedInput"));
    const int c0 = b.stage(op.name());
    TS_CHECK(b.add(CacheWriteStep { c0, "global" }));
    const int cc = c0;
    const int c = c0 + 1;
    // C: b oc_chunk oh ow oc_block -> split ow by tile_ow (TVM's order already) -> vectorize oc_block; fuse
    // (b, oc_chunk, oh), parallel.
    TS_CHECK(b.add(SplitStep { c, 3, ow, { tileOw }, true }));
    TS_CHECK(b.add(FuseStep { c, { 0, 1, 2 } })); // f ow.0 ow.1 ocb
    TS_CHECK(b.add(AnnotationStep { c, 0, Annotation::Parallel }));
    TS_CHECK(b.add(AnnotationStep { c, 3, Annotation::Vectorize }));
    // CC at C's ow_chunk (its ow is C's ow_block): b oc oh ow ocb | kh kw -> (b oc oh kh kw ow ocb); unroll kw
    // when asked and ow, vectorize ocb.
    TS_CHECK(b.add(ReorderStep { cc, { 0, 1, 2, 5, 6, 3, 4 } }));
    if (unroll == "true")
        TS_CHECK(b.add(AnnotationStep { cc, 4, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, 5, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, 6, Annotation::Vectorize }));
    TS_CHECK(b.add(ComputeAtStep { cc, c, 1 }));
    return b.take();
}

} // namespace ts::autotvm::detail
