// AutoTVM's x86 convolution templates on our plain NCHW / NHWC DAGs (template.h): the spaces of conv2d_NCHWc and
// depthwise_conv2d_NCHWc (TVM's knobs, shared with TVM's programs in template_nchwc.cpp), TuneScope's own
// plain-layout variants of their schedules (conv2d_nchw_blocked.tunescope, depthwise_conv2d_nchw_blocked.tunescope),
// and our NHWC template, conv2d_nhwc_spatial_pack.tunescope.
#include "core/search/autotvm/template_builder.h"

namespace ts::autotvm::detail {

namespace {
    // The pad (or another injective producer) at root, parallel over its outer `fused` axes.
    Expected<void> producersAtRoot(StepBuilder& b, const Anchored& a, std::vector<int> fused)
    {
        for (const std::string& producer : a.producers) {
            const int p = b.stage(producer);
            TS_CHECK(b.add(FuseStep { p, fused }));
            TS_CHECK(b.add(AnnotationStep { p, 0, Annotation::Parallel }));
        }
        return {};
    }
} // namespace

// ---- conv2d_NCHWc.x86's space (topi/x86/conv2d.py: conv2d_NCHWc, _create_tuning_space; conv2d_avx_common.py and
// conv2d_avx_1x1.py: _schedule_conv_NCHWc), and our plain-layout variant of its schedule,
// conv2d_nchw_blocked.tunescope (TVM's own program: template_nchwc.cpp) ----
//
// Knobs, as TVM declares them: tile_ic (input channels), tile_oc (output channels), both
// define_split(num_outputs=2) with policy "factors"; tile_ow (output width, num_outputs=2, policy "verbose",
// inner size <= 64); then unroll_kw [True, False], or for a 1x1 kernel tile_oh ([1, 2] when oh > 1, else [1]).
// TVM computes in the NCHW[x]c layout (channels blocked by tile_ic / tile_oc inner sizes, the block
// innermost) and schedules:
//   C (conv): cache_write CC; split ow by reg_n = tile_ow[-1]; reorder (oc_chunk, oh, ow_chunk, ow_block,
//             oc_block); fuse (n, oc_chunk, oh), parallel; vectorize oc_block
//   CC:       compute_at C's ow_chunk; split ow by reg_n, ic by ic_bn; reorder (oc_chunk, oh, ow_chunk,
//             ic_chunk, kh, [ic_block, kw | kw, ic_block], ow_block, oc_block); unroll kw if unroll_kw;
//             vectorize oc_block; unroll ow_block
//   O (a fused epilogue's output, 4-D): split ow by reg_n, oc by oc_bn; the same reorder and fuse;
//             C computed at its fused loop; vectorize oc_block; parallel
// Differences from TVM (our DAGs are plain NCHW; there is no layout transform to NCHWc): the channel blocks
// are splits of the plain channel axes, so the oc block is not contiguous in memory. The register tile
// therefore vectorizes ow_block (contiguous in NCHW) and unrolls oc_block, the transpose of TVM's
// (ow_block unrolled, oc_block vectorized); the loop order is TVM's otherwise. The pad stays a stage at
// root, parallel over (n, c, h) as TVM's data_vec. A 1x1 kernel also splits oh by tile_oh in C, CC and O
// (TVM's 1x1 schedule blocks oh the same way); its kh/kw loops have extent 1.
Expected<ConfigSpace> conv2dNchwcSpace(const ir::ComputeDAG& dag)
{
    const std::string name = "conv2d_NCHWc.x86";
    TS_TRY(const Anchored a, findAnchor(name, dag, "conv2d_nchw", 4, 3));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t inChannels = op.reduceAxes()[0].extent;
    const int64_t outChannels = op.axes()[1].extent;
    const int64_t oh = op.axes()[2].extent;
    const int64_t ow = op.axes()[3].extent;
    const bool kernel1x1 = op.reduceAxes()[1].extent == 1 && op.reduceAxes()[2].extent == 1;
    ConfigSpace space;
    TS_CHECK(addFactorsSplit(space, "tile_ic", inChannels));
    TS_CHECK(addFactorsSplit(space, "tile_oc", outChannels));
    SplitOptions owOptions;
    owOptions.policy = SplitPolicy::Verbose;
    owOptions.numOutputs = 2;
    owOptions.filter = [](const SplitEntity& e) { return e.size.back() <= 64; };
    TS_TRY(Knob tileOw, makeSplitKnob("tile_ow", ow, owOptions));
    TS_CHECK(space.add(std::move(tileOw)));
    if (kernel1x1) {
        TS_TRY(Knob tileOh,
            makeOtherKnob(
                "tile_oh", oh > 1 ? std::vector<std::string> { "1", "2" } : std::vector<std::string> { "1" }));
        TS_CHECK(space.add(std::move(tileOh)));
    } else {
        TS_TRY(Knob unrollKw, makeOtherKnob("unroll_kw", { "true", "false" }));
        TS_CHECK(space.add(std::move(unrollKw)));
    }
    return space;
}

Expected<std::vector<sched::Step>> conv2dNchwcApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "conv2d_nchw_blocked.tunescope";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, dag, "conv2d_nchw", 4, 3));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t outChannels = op.axes()[1].extent;
    const int64_t oh = op.axes()[2].extent;
    const int64_t ow = op.axes()[3].extent;
    const int64_t inChannels = op.reduceAxes()[0].extent;
    TS_TRY(const int64_t icBn, innerFactor(name, space, index, "tile_ic", inChannels));
    TS_TRY(const int64_t ocBn, innerFactor(name, space, index, "tile_oc", outChannels));
    // tile_ow is "verbose": its inner size may leave a tail, which our split handles.
    TS_TRY(const int64_t regN, innerFactor(name, space, index, "tile_ow", ow, false));
    const bool kernel1x1 = space.findKnob("tile_oh") != nullptr;
    int64_t ohFactor = 1;
    bool unrollKw = false;
    if (kernel1x1) {
        TS_TRY(const std::string v, otherValue(name, space, index, "tile_oh"));
        ohFactor = std::stoll(v);
        if (ohFactor < 1 || oh % ohFactor != 0)
            return instantiationError(
                name, "tile_oh " + v + " does not divide the output height " + std::to_string(oh));
    } else {
        TS_TRY(const std::string v, otherValue(name, space, index, "unroll_kw"));
        unrollKw = v == "true";
    }

    StepBuilder b(name, dag);
    TS_CHECK(inlineFused(b, a, false));
    // The pad (TVM's data_vec) at root: fuse (n, c, h), parallel.
    TS_CHECK(producersAtRoot(b, a, { 0, 1, 2 }));
    const int c0 = b.stage(op.name());
    TS_CHECK(b.add(CacheWriteStep { c0, "global" }));
    const int cc = c0; // the cache stage comes first, the conv's copy-out after it
    const int c = c0 + 1;
    // The output loop nest of C (or of O): n oc oh ow -> n oc.0 oc.1 oh[.0 oh.1] ow.0 ow.1, reordered to
    // (n, oc.0, oh[.0], ow.0, [oh.1,] oc.1, ow.1) and (n, oc.0, oh[.0]) fused: f ow.0 [oh.1] oc.1 ow.1.
    const auto tileOutput = [&](int stage) -> Expected<int> {
        TS_CHECK(b.add(SplitStep { stage, 3, ow, { regN }, true }));
        int ohIters = 1;
        if (kernel1x1) {
            TS_CHECK(b.add(SplitStep { stage, 2, oh, { ohFactor }, true }));
            ohIters = 2;
        }
        TS_CHECK(b.add(SplitStep { stage, 1, outChannels, { ocBn }, true }));
        // n(0) oc.0(1) oc.1(2) oh.. (3, 3+ohIters-1) ow.0 ow.1
        const int owOuter = 3 + ohIters;
        std::vector<int> order { 0, 1, 3, owOuter };
        if (kernel1x1)
            order.push_back(4);
        order.push_back(2);
        order.push_back(owOuter + 1);
        TS_CHECK(b.add(ReorderStep { stage, order }));
        TS_CHECK(b.add(FuseStep { stage, { 0, 1, 2 } }));
        const int inner = kernel1x1 ? 4 : 3; // f ow.0 [oh.1] oc.1 ow.1
        TS_CHECK(b.add(AnnotationStep { stage, inner - 1, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { stage, inner, Annotation::Vectorize }));
        return inner;
    };
    TS_CHECK(tileOutput(c));
    if (a.output == a.anchor)
        TS_CHECK(b.add(AnnotationStep { c, 0, Annotation::Parallel }));

    // CC: n oc oh ow | ic kh kw -> split ow, [oh,] oc, ic; reorder; annotate.
    TS_CHECK(b.add(SplitStep { cc, 3, ow, { regN }, true }));
    int ohIters = 1;
    if (kernel1x1) {
        TS_CHECK(b.add(SplitStep { cc, 2, oh, { ohFactor }, true }));
        ohIters = 2;
    }
    TS_CHECK(b.add(SplitStep { cc, 1, outChannels, { ocBn }, true }));
    // n(0) oc.0(1) oc.1(2) oh..(3..) ow.0 ow.1 ic kh kw
    const int owOuter = 3 + ohIters;
    const int icAxis = owOuter + 2;
    TS_CHECK(b.add(SplitStep { cc, icAxis, inChannels, { icBn }, true }));
    const int kh = icAxis + 2;
    const int kw = icAxis + 3;
    std::vector<int> order { 0, 1, 3 };
    if (kernel1x1)
        order.push_back(4);
    order.push_back(owOuter);
    order.push_back(icAxis);
    order.push_back(kh);
    if (unrollKw) {
        order.push_back(icAxis + 1);
        order.push_back(kw);
    } else {
        order.push_back(kw);
        order.push_back(icAxis + 1);
    }
    order.push_back(2);
    order.push_back(owOuter + 1);
    TS_CHECK(b.add(ReorderStep { cc, order }));
    const int last = static_cast<int>(order.size()) - 1;
    if (unrollKw)
        TS_CHECK(b.add(AnnotationStep { cc, last - 2, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, last - 1, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, last, Annotation::Vectorize }));
    TS_CHECK(b.add(ComputeAtStep { cc, c, 1 }));

    if (a.output != a.anchor) {
        const int out = b.stage(dag.op(a.output).name());
        TS_CHECK(tileOutput(out));
        TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(ComputeAtStep { c, out, 0 }));
    }
    return b.take();
}

// ---- depthwise_conv2d_NCHWc.x86 (topi/x86/depthwise_conv2d.py: depthwise_conv2d_NCHWc,
// _schedule_depthwise_conv2d_NCHWc_impl); TVM's x86 strategy uses it for NCHW depthwise convolutions with
// channel multiplier 1 and dilation 1 (depthwise_conv2d_nchw.x86 calls it) ----
//
// Knobs, as TVM declares them: tile_ic, tile_oc (channels), tile_ow (output width, inner size <= 64), each
// define_split(num_outputs=2) with policy "factors"; unroll_kw [True, False]. TVM computes in NCHW[x]c and
// schedules:
//   pad: fuse (n, c_chunk, h), parallel; vectorize c_block
//   C:   cache_write CC; split ow by tile_ow; reorder (oc_chunk, oh, ow_chunk, ow_block, oc_block);
//        vectorize oc_block; fuse (oc_chunk, oh), parallel
//   CC:  compute_at C's ow_chunk; reorder (oc_chunk, oh, kh, kw, ow_block, oc_block); unroll kw if unroll_kw;
//        vectorize oc_block; unroll ow_block
//   O (a fused epilogue's output, 4-D): split ow by tile_ow, oc by tile_oc; the same reorder and fuse,
//        parallel; C computed at the fused loop; vectorize oc_block
// Differences from TVM (plain NCHW, no NCHWc packing), as conv2d_NCHWc.x86's: the oc block is a split of the
// plain channel axis, so the register tile vectorizes ow_block and unrolls oc_block (TVM the reverse); the
// fused parallel loop takes the batch as well (n, oc_chunk, oh); the pad is a stage at root, parallel over
// (n, c, h). tile_ic only sets the blocking of TVM's packed input (data_vec); the plain input has none, so
// configs that differ only in tile_ic give the same program here.
Expected<ConfigSpace> depthwiseNchwcSpace(const ir::ComputeDAG& dag)
{
    const std::string name = "depthwise_conv2d_NCHWc.x86";
    TS_TRY(const Anchored a, findAnchor(name, dag, "depthwise_conv2d_nchw", 4, 2));
    const ir::Operation& op = dag.op(a.anchor);
    const auto& weight = op.inputs()[1]->shape();
    if (weight.size() != 4 || weight[1] != 1)
        return makeError(ErrorKind::InvalidArgument,
            name + ": channel multiplier " + (weight.size() == 4 ? std::to_string(weight[1]) : std::string("?"))
                + "; TVM's template takes multiplier 1");
    const int64_t channels = op.axes()[1].extent;
    ConfigSpace space;
    TS_CHECK(addFactorsSplit(space, "tile_ic", weight[0]));
    TS_CHECK(addFactorsSplit(space, "tile_oc", channels));
    SplitOptions owOptions;
    owOptions.numOutputs = 2;
    owOptions.filter = [](const SplitEntity& e) { return e.size.back() <= 64; };
    TS_TRY(Knob tileOw, makeSplitKnob("tile_ow", op.axes()[3].extent, owOptions));
    TS_CHECK(space.add(std::move(tileOw)));
    TS_TRY(Knob unrollKw, makeOtherKnob("unroll_kw", { "true", "false" }));
    TS_CHECK(space.add(std::move(unrollKw)));
    return space;
}

Expected<std::vector<sched::Step>> depthwiseNchwcApply(
    const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "depthwise_conv2d_nchw_blocked.tunescope";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, dag, "depthwise_conv2d_nchw", 4, 2));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t channels = op.axes()[1].extent;
    const int64_t ow = op.axes()[3].extent;
    TS_TRY(const int64_t icBn, innerFactor(name, space, index, "tile_ic", op.inputs()[1]->shape()[0]));
    (void)icBn; // checked, but it shapes only TVM's packed input (above)
    TS_TRY(const int64_t ocBn, innerFactor(name, space, index, "tile_oc", channels));
    TS_TRY(const int64_t owBn, innerFactor(name, space, index, "tile_ow", ow));
    TS_TRY(const std::string unroll, otherValue(name, space, index, "unroll_kw"));
    const bool unrollKw = unroll == "true";

    StepBuilder b(name, dag);
    TS_CHECK(inlineFused(b, a, false));
    TS_CHECK(producersAtRoot(b, a, { 0, 1, 2 }));
    const int c0 = b.stage(op.name());
    TS_CHECK(b.add(CacheWriteStep { c0, "global" }));
    const int cc = c0;
    const int c = c0 + 1;
    // n oc oh ow -> n oc.0 oc.1 oh ow.0 ow.1 -> (n oc.0 oh ow.0 oc.1 ow.1) -> (n@oc.0@oh) ow.0 oc.1 ow.1
    const auto tileOutput = [&](int stage) -> Expected<void> {
        TS_CHECK(b.add(SplitStep { stage, 3, ow, { owBn }, true }));
        TS_CHECK(b.add(SplitStep { stage, 1, channels, { ocBn }, true }));
        TS_CHECK(b.add(ReorderStep { stage, { 0, 1, 3, 4, 2, 5 } }));
        TS_CHECK(b.add(FuseStep { stage, { 0, 1, 2 } }));
        TS_CHECK(b.add(AnnotationStep { stage, 2, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { stage, 3, Annotation::Vectorize }));
        return {};
    };
    TS_CHECK(tileOutput(c));
    if (!a.fused())
        TS_CHECK(b.add(AnnotationStep { c, 0, Annotation::Parallel }));
    // CC: n oc oh ow | kh kw -> n oc.0 oc.1 oh ow.0 ow.1 kh kw -> (n oc.0 oh ow.0 kh kw oc.1 ow.1)
    TS_CHECK(b.add(SplitStep { cc, 3, ow, { owBn }, true }));
    TS_CHECK(b.add(SplitStep { cc, 1, channels, { ocBn }, true }));
    TS_CHECK(b.add(ReorderStep { cc, { 0, 1, 3, 4, 6, 7, 2, 5 } }));
    if (unrollKw)
        TS_CHECK(b.add(AnnotationStep { cc, 5, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, 6, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { cc, 7, Annotation::Vectorize }));
    TS_CHECK(b.add(ComputeAtStep { cc, c, 1 }));
    if (a.fused()) {
        const int out = b.stage(dag.op(a.output).name());
        TS_CHECK(tileOutput(out));
        TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(ComputeAtStep { c, out, 0 }));
    }
    return b.take();
}

// ---- conv2d_nhwc_spatial_pack.tunescope: TuneScope's own NHWC template (TVM has none for x86) ----
//
// Decided from TVM's source (v0.13.0 and v0.19.0 alike): "conv2d_nhwc.x86" is only the name of a relay strategy
// implementation (relay/op/strategy/x86.py) that runs topi.nn.conv2d_nhwc under topi.x86.schedule_conv2d_nhwc;
// neither is registered as an AutoTVM compute or schedule (register_topi_compute / register_topi_schedule), the
// schedule takes no config and declares no knobs, and the strategy warns "conv2d NHWC layout is not optimized for
// x86 with autotvm". So no TVM log holds a record of an AutoTVM task of that name, and this template, which TuneScope
// registered under it until issue 39, carries a name of our own (ownVariant; records stored under the former name
// still replay: formerTemplateNames in template.cpp). Task extraction offers it for an NHWC convolution, the one
// anchor no TVM template schedules. It declares the knobs of TVM's spatial-pack NHWC template
// (topi/arm_cpu/conv2d_spatial_pack.py: conv2d_spatial_pack_nhwc with num_tile 2, task
// conv2d_nhwc_spatial_pack.arm_cpu), in its order:
//   tile_co, tile_oh, tile_ow: define_split(num_outputs=2), policy "factors"
//   reorder_conv: define_reorder over [n, oho, owo, oco, kh, kw, ic, ohi, owi, oci], policy "candidate":
//                 that order; ohi after oco; then owi before ic; then ohi before oco as well
//   ann_reduce:   define_annotate over [kh, kw], policy "try_unroll"
//   ann_spatial:  define_annotate over [owi, oci], policy "try_unroll_vec"
//   compat:       define_knob [0, 1] (declared by the schedule, so last): the loop the conv is computed at
// and schedules as that template does:
//   O:    split oc, oh, ow by the tiles; reorder (n, oho, owo, oco, ohi, owi, oci); ann_spatial on (owi, oci);
//         fuse (n, oho), parallel; the conv computed at owo (compat 0) or oco (compat 1)
//   conv: the same splits; reorder_conv; ann_reduce on (kh, kw); ann_spatial on (owi, oci)
// Unrolling an axis longer than 16 is TVM's instantiation error ("too large factor for unrolling").
// Differences from TVM's spatial pack: our DAG is the plain NHWC conv, not the packed (n, oho, owo, oco, ohi,
// owi, oci) compute with its unpack stage; the conv is scheduled with splits of the plain axes instead (with no
// epilogue, a cache_write makes the separate conv stage that TVM's unpack gives). The HWIO weight is read in
// place (its oc is already innermost, which is what TVM's kernel_vec packs for); the pad is a stage at root,
// fused (n, h) and parallel, as TVM's x86 schedule_conv2d_nhwc does, where the spatial pack copies each tile's
// window (data_vec) at the compat loop.
Expected<ConfigSpace> conv2dNhwcSpace(const ir::ComputeDAG& dag)
{
    const std::string name = "conv2d_nhwc_spatial_pack.tunescope";
    TS_TRY(const Anchored a, findAnchor(name, dag, "conv2d_nhwc", 4, 3));
    const ir::Operation& op = dag.op(a.anchor);
    ConfigSpace space;
    TS_CHECK(addFactorsSplit(space, "tile_co", op.axes()[3].extent));
    TS_CHECK(addFactorsSplit(space, "tile_oh", op.axes()[1].extent));
    TS_CHECK(addFactorsSplit(space, "tile_ow", op.axes()[2].extent));
    ReorderOptions reorder;
    reorder.policy = ReorderPolicy::Candidate;
    // positions in [n, oho, owo, oco, kh, kw, ic, ohi, owi, oci]
    reorder.candidate = {
        { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 },
        { 0, 1, 2, 3, 7, 4, 5, 6, 8, 9 },
        { 0, 1, 2, 3, 7, 4, 5, 8, 6, 9 },
        { 0, 1, 2, 7, 3, 4, 5, 8, 6, 9 },
    };
    TS_TRY(Knob reorderConv, makeReorderKnob("reorder_conv", 10, reorder));
    TS_CHECK(space.add(std::move(reorderConv)));
    AnnotateOptions unroll;
    unroll.policy = "try_unroll";
    TS_TRY(Knob annReduce, makeAnnotateKnob("ann_reduce", 2, unroll));
    TS_CHECK(space.add(std::move(annReduce)));
    AnnotateOptions unrollVec;
    unrollVec.policy = "try_unroll_vec";
    TS_TRY(Knob annSpatial, makeAnnotateKnob("ann_spatial", 2, unrollVec));
    TS_CHECK(space.add(std::move(annSpatial)));
    TS_TRY(Knob compat, makeOtherKnob("compat", { "0", "1" }));
    TS_CHECK(space.add(std::move(compat)));
    return space;
}

Expected<std::vector<sched::Step>> conv2dNhwcApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "conv2d_nhwc_spatial_pack.tunescope";
    constexpr int64_t kMaxUnroll = 16; // TVM's max_unroll for both annotations
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, dag, "conv2d_nhwc", 4, 3));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t oh = op.axes()[1].extent;
    const int64_t ow = op.axes()[2].extent;
    const int64_t oc = op.axes()[3].extent;
    TS_TRY(const int64_t oci, innerFactor(name, space, index, "tile_co", oc));
    TS_TRY(const int64_t ohi, innerFactor(name, space, index, "tile_oh", oh));
    TS_TRY(const int64_t owi, innerFactor(name, space, index, "tile_ow", ow));
    TS_TRY(const std::vector<int> perm, reorderValue(name, space, index, "reorder_conv"));
    TS_TRY(const std::vector<std::string> annReduce, annotateValue(name, space, index, "ann_reduce"));
    TS_TRY(const std::vector<std::string> annSpatial, annotateValue(name, space, index, "ann_spatial"));
    TS_TRY(const std::string compat, otherValue(name, space, index, "compat"));
    if (perm.size() != 10)
        return instantiationError(name, "reorder_conv is not a permutation of 10 axes");

    StepBuilder b(name, dag);
    TS_CHECK(inlineFused(b, a, false));
    TS_CHECK(producersAtRoot(b, a, { 0, 1 }));
    int conv = b.stage(op.name());
    int out = b.stage(dag.op(a.output).name());
    if (!a.fused()) { // the conv's own stage (TVM's packed conv before its unpack) and the output copying it
        TS_CHECK(b.add(CacheWriteStep { conv, "global" }));
        out = conv + 1;
    }
    // Both stages: n oh ow oc -> n oh.0 oh.1 ow.0 ow.1 oc.0 oc.1 (ids 0..6; the conv's kh kw ic follow: 7 8 9).
    const auto splitSpatial = [&](int stage) -> Expected<void> {
        TS_CHECK(b.add(SplitStep { stage, 3, oc, { oci }, true }));
        TS_CHECK(b.add(SplitStep { stage, 2, ow, { owi }, true }));
        TS_CHECK(b.add(SplitStep { stage, 1, oh, { ohi }, true }));
        return {};
    };
    // O: (n oho owo oco ohi owi oci) -> (n@oho) owo oco ohi owi oci
    TS_CHECK(splitSpatial(out));
    TS_CHECK(b.add(ReorderStep { out, { 0, 1, 3, 5, 2, 4, 6 } }));
    TS_CHECK(b.add(FuseStep { out, { 0, 1 } }));
    TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
    TS_CHECK(applyAnnotations(b, out, { 4, 5 }, { owi, oci }, annSpatial, kMaxUnroll));
    // conv: TVM's axis list [n, oho, owo, oco, kh, kw, ic, ohi, owi, oci] as our iterator ids, reordered.
    TS_CHECK(splitSpatial(conv));
    const int axisIds[10] = { 0, 1, 3, 5, 7, 8, 9, 2, 4, 6 };
    std::vector<int> order;
    for (int p : perm) {
        if (p < 0 || p >= 10)
            return instantiationError(name, "reorder_conv position " + std::to_string(p) + " out of range");
        order.push_back(axisIds[p]);
    }
    TS_CHECK(b.add(ReorderStep { conv, order }));
    const auto positionOf = [&](int listIndex) {
        for (size_t i = 0; i < perm.size(); ++i)
            if (perm[i] == listIndex)
                return static_cast<int>(i);
        return -1;
    };
    TS_CHECK(applyAnnotations(b, conv, { positionOf(4), positionOf(5) },
        { op.reduceAxes()[0].extent, op.reduceAxes()[1].extent }, annReduce, kMaxUnroll));
    TS_CHECK(applyAnnotations(b, conv, { positionOf(8), positionOf(9) }, { owi, oci }, annSpatial, kMaxUnroll));
    TS_CHECK(b.add(ComputeAtStep { conv, out, compat == "1" ? 2 : 1 }));
    return b.take();
}

} // namespace ts::autotvm::detail
