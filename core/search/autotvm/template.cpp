// AutoTVM templates (template.h): the registry, StepBuilder, and the x86 dense and batch_matmul templates.
#include "core/search/autotvm/template.h"

#include "core/schedule/state.h"

#include <algorithm>
#include <utility>

namespace ts::autotvm {

namespace {

    Error instantiationError(const std::string& name, const std::string& why)
    {
        return makeError(ErrorKind::InvalidArgument, "instantiation error: " + name + ": " + why);
    }

    // The op a template schedules (its anchor, tagged `tag`), the injective ops before it (a pad) and the
    // element-wise epilogue after it (bias, residual add, activation) ending in the DAG's only output, as TVM
    // fuses them into the anchor's kernel (relay's fusion: an anchor with injective producers and an
    // element-wise tail).
    struct Anchored {
        int anchor = -1;
        int output = -1; // == anchor when there is no epilogue
        std::vector<std::string> producers; // compute ops before the anchor (a pad), by name
        std::vector<std::string> inlined; // epilogue ops between the anchor and the output, by name
    };

    Expected<Anchored> findAnchor(const std::string& name, const ir::ComputeDAG& dag, const std::string& tag,
        size_t numAxes, size_t numReduceAxes = 1)
    {
        Anchored a;
        for (int i = 0; i < dag.numOps(); ++i) {
            const ir::Operation& op = dag.op(i);
            if (op.isPlaceholder() || op.tag() != tag)
                continue;
            if (a.anchor >= 0)
                return makeError(ErrorKind::InvalidArgument, name + ": the DAG has more than one " + tag + " op");
            a.anchor = i;
        }
        if (a.anchor < 0)
            return makeError(
                ErrorKind::InvalidArgument, name + ": the DAG has no " + tag + " op (tag \"" + tag + "\")");
        const ir::Operation& anchor = dag.op(a.anchor);
        if (anchor.axes().size() != numAxes || anchor.reduceAxes().size() != numReduceAxes)
            return makeError(ErrorKind::InvalidArgument,
                name + ": op " + anchor.name() + " has " + std::to_string(anchor.axes().size()) + " axes and "
                    + std::to_string(anchor.reduceAxes().size()) + " reduce axes, expected " + std::to_string(numAxes)
                    + " and " + std::to_string(numReduceAxes));
        const std::vector<int> outputs = dag.outputs();
        if (outputs.size() != 1)
            return makeError(ErrorKind::InvalidArgument,
                name + ": the DAG has " + std::to_string(outputs.size()) + " outputs; a template schedules one");
        a.output = outputs[0];
        for (int i = 0; i < dag.numOps(); ++i) {
            const ir::Operation& op = dag.op(i);
            if (op.isPlaceholder() || i == a.anchor)
                continue;
            if (!op.reduceAxes().empty())
                return makeError(ErrorKind::InvalidArgument,
                    name + ": op " + op.name() + " is a second reduction; the template fuses element-wise ops only");
            if (i < a.anchor) {
                a.producers.push_back(op.name());
                continue;
            }
            // After the anchor: element-wise over the anchor's output shape.
            bool sameShape = op.axes().size() == anchor.axes().size();
            for (size_t k = 0; sameShape && k < op.axes().size(); ++k)
                sameShape = op.axes()[k].extent == anchor.axes()[k].extent;
            if (!sameShape)
                return makeError(ErrorKind::InvalidArgument,
                    name + ": op " + op.name() + " after " + anchor.name()
                        + " does not have its shape; the template fuses element-wise epilogues only");
            if (i != a.output)
                a.inlined.push_back(op.name());
        }
        return a;
    }

    Expected<void> addFactorsSplit(ConfigSpace& space, const std::string& knob, int64_t extent)
    {
        SplitOptions options;
        options.numOutputs = 2;
        auto split = makeSplitKnob(knob, extent, options);
        if (!split)
            return split.error();
        return space.add(std::move(split).value());
    }

    // The inner factor of a two-way split knob in config `index`: size [-1, f] or [extent / f, f]. Anything
    // that does not split `extent` exactly is an instantiation error (TVM's factors policy never makes one;
    // a space declared for another shape or a hand-made candidate list can).
    Expected<int64_t> innerFactor(
        const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob, int64_t extent)
    {
        const auto& knobs = space.knobs();
        const auto it = std::find_if(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.name() == knob; });
        if (it == knobs.end() || it->kind() != KnobKind::Split)
            return instantiationError(name, "the space has no split knob " + knob);
        const size_t position = static_cast<size_t>(it - knobs.begin());
        const auto* entity = std::get_if<SplitEntity>(&space.entity(index, position));
        const std::string text = knob + " " + it->valueJson(space.knobIndexes(index)[position]);
        if (entity == nullptr || entity->size.size() != 2)
            return instantiationError(name, text + " is not a two-way split");
        const int64_t outer = entity->size[0];
        const int64_t inner = entity->size[1];
        if (inner < 1 || extent % inner != 0)
            return instantiationError(name, text + " does not divide the extent " + std::to_string(extent));
        if (outer != -1 && outer * inner != extent)
            return instantiationError(name,
                text + " has product " + std::to_string(outer * inner) + ", not the extent " + std::to_string(extent));
        return inner;
    }

    Expected<void> checkIndex(const std::string& name, const ConfigSpace& space, int64_t index)
    {
        if (index < 0 || index >= space.size())
            return instantiationError(name,
                "config index " + std::to_string(index) + " out of range [0, " + std::to_string(space.size()) + ")");
        return {};
    }

    // Builds a step list while replaying it, so that a step that does not apply fails at once, naming the
    // template; and so that stage ids can be looked up by name as the cache and rfactor steps shift them.
    class StepBuilder {
    public:
        StepBuilder(std::string name, const ir::ComputeDAG& dag)
            : m_name(std::move(name))
            , m_state(sched::State::initial(dag))
        {
        }

        Expected<void> add(const sched::Step& step)
        {
            if (auto ok = m_state.apply(step); !ok)
                return instantiationError(m_name, ok.error().message);
            m_steps.push_back(step);
            return {};
        }

        int stage(const std::string& opName) const { return m_state.stageIndex(opName); }
        std::vector<sched::Step> take() { return std::move(m_steps); }

    private:
        std::string m_name;
        sched::State m_state;
        std::vector<sched::Step> m_steps;
    };

    using sched::Annotation;
    using sched::AnnotationStep;
    using sched::CacheWriteStep;
    using sched::ComputeAtStep;
    using sched::ComputeInlineStep;
    using sched::FuseStep;
    using sched::PragmaStep;
    using sched::ReorderStep;
    using sched::RfactorStep;
    using sched::SplitStep;

    // Inlines the epilogue ops between the anchor and the output (and, when asked, the anchor's producers), as
    // TVM's fused kernels compute them inside the output's loop.
    Expected<void> inlineFused(StepBuilder& b, const Anchored& a, bool producersToo)
    {
        for (const std::string& op : a.inlined)
            TS_CHECK(b.add(ComputeInlineStep { b.stage(op) }));
        if (producersToo)
            for (const std::string& op : a.producers)
                TS_CHECK(b.add(ComputeInlineStep { b.stage(op) }));
        return {};
    }

    // The output of a fused 2-D kernel (dense's epilogue), tiled as the anchor: split y by ty and x by tx,
    // reorder (yo, xo, yi, xi), fuse (yo, xo), parallel, vectorize xi; the anchor's stage is computed at the
    // fused loop (TVM's `if C != O` branch of its x86 dense schedules).
    Expected<void> tileOutput2d(StepBuilder& b, const ir::ComputeDAG& dag, const Anchored& a, int anchorStage,
        int64_t ty, int64_t tx, int firstAxis)
    {
        const ir::Operation& o = dag.op(a.output);
        const int out = b.stage(o.name());
        const int y = firstAxis;
        TS_CHECK(b.add(SplitStep { out, y, o.axes()[static_cast<size_t>(y)].extent, { ty }, true }));
        TS_CHECK(b.add(SplitStep { out, y + 2, o.axes()[static_cast<size_t>(y) + 1].extent, { tx }, true }));
        std::vector<int> order;
        for (int i = 0; i < y; ++i)
            order.push_back(i);
        for (int i : { y, y + 2, y + 1, y + 3 })
            order.push_back(i);
        TS_CHECK(b.add(ReorderStep { out, order }));
        std::vector<int> fused;
        for (int i = 0; i <= y + 1; ++i)
            fused.push_back(i);
        TS_CHECK(b.add(FuseStep { out, fused }));
        TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(AnnotationStep { out, 2, Annotation::Vectorize }));
        TS_CHECK(b.add(ComputeAtStep { anchorStage, out, 0 }));
        return {};
    }

    // dense and batch_matmul declare the same knobs: tile_y and tile_x over the output's two last axes (from yAxis)
    // and tile_k over the reduction, each define_split(policy "factors", num_outputs=2).
    Expected<ConfigSpace> yxkSpace(
        const std::string& name, const ir::ComputeDAG& dag, const std::string& tag, size_t numAxes, size_t yAxis)
    {
        TS_TRY(const Anchored a, findAnchor(name, dag, tag, numAxes));
        const ir::Operation& op = dag.op(a.anchor);
        ConfigSpace space;
        TS_CHECK(addFactorsSplit(space, "tile_y", op.axes()[yAxis].extent));
        TS_CHECK(addFactorsSplit(space, "tile_x", op.axes()[yAxis + 1].extent));
        TS_CHECK(addFactorsSplit(space, "tile_k", op.reduceAxes()[0].extent));
        return space;
    }

    // A config of that space: the anchor and the three inner factors.
    struct YxkConfig {
        Anchored anchored;
        int64_t ty = 1;
        int64_t tx = 1;
        int64_t tk = 1;
    };

    Expected<YxkConfig> yxkConfig(const std::string& name, const ir::ComputeDAG& dag, const std::string& tag,
        size_t numAxes, size_t yAxis, const ConfigSpace& space, int64_t index)
    {
        TS_CHECK(checkIndex(name, space, index));
        YxkConfig c;
        TS_TRY(c.anchored, findAnchor(name, dag, tag, numAxes));
        const ir::Operation& op = dag.op(c.anchored.anchor);
        TS_TRY(c.ty, innerFactor(name, space, index, "tile_y", op.axes()[yAxis].extent));
        TS_TRY(c.tx, innerFactor(name, space, index, "tile_x", op.axes()[yAxis + 1].extent));
        TS_TRY(c.tk, innerFactor(name, space, index, "tile_k", op.reduceAxes()[0].extent));
        return c;
    }

    // ---- dense_nopack.x86 (topi/x86/dense.py: dense_nopack, _schedule_dense_nopack_template) ----
    //
    // Knobs: tile_y (M), tile_x (N), tile_k (K), each define_split(policy "factors", num_outputs=2).
    // TVM computes CC[z, y, x] = sum_k data[z, k*vec + x] * weight[y, k*vec + x] (vec = tile_k's inner size)
    // and C[y, x] = sum_kk CC[y, x, kk]; here that is an rfactor of dense's reduce axis split by vec, with the
    // factored axis last (C.rf = CC). Then, as TVM:
    //   C:  split y by tile_y, x by tile_x; reorder(yo, xo, yi, xi, kk); fuse(yo, xo); parallel; unroll kk
    //   CC: compute_at C's fused loop; fuse(z, y); reorder(k, zy, x); unroll zy; vectorize x
    // With an element-wise epilogue (bias, residual, activation) as the output O, as TVM's `C != O` branch:
    // O is tiled as C (split, reorder, fuse, parallel, vectorize xi) and C is computed at O's fused loop; the
    // epilogue ops before O are inlined.
    // Differences from TVM: the rfactor replaces TVM's hand-written two-stage compute (same loop nest and
    // arithmetic, names dense.rf / k.1.v instead of compute / kk). TVM truncates K // vec; a tile_k that does not
    // divide K is an instantiation error here.
    Expected<ConfigSpace> denseNopackSpace(const ir::ComputeDAG& dag)
    {
        return yxkSpace("dense_nopack.x86", dag, "dense", 2, 0);
    }

    Expected<std::vector<sched::Step>> denseNopackApply(
        const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
    {
        const std::string name = "dense_nopack.x86";
        TS_TRY(const YxkConfig config, yxkConfig(name, dag, "dense", 2, 0, space, index));
        const Anchored& a = config.anchored;
        const ir::Operation& op = dag.op(a.anchor);
        const int64_t ty = config.ty, tx = config.tx, tk = config.tk;

        StepBuilder b(name, dag);
        TS_CHECK(inlineFused(b, a, true));
        const int c = b.stage(op.name());
        const int64_t k = op.reduceAxes()[0].extent;
        // C: y, x, k -> y, x, k.0, k.1; rfactor k.1 as CC's last axis: CC = stage c (y, x, k.1.v | k.0),
        // C = stage c + 1 (y, x | kk).
        TS_CHECK(b.add(SplitStep { c, 2, k, { tk }, true }));
        TS_CHECK(b.add(RfactorStep { c, 3, 2 }));
        const int cc = c;
        const int out = c + 1;
        // C: y.0 y.1 x kk -> y.0 y.1 x.0 x.1 kk -> y.0 x.0 y.1 x.1 kk -> (y.0@x.0) y.1 x.1 kk
        TS_CHECK(b.add(SplitStep { out, 0, op.axes()[0].extent, { ty }, true }));
        TS_CHECK(b.add(SplitStep { out, 2, op.axes()[1].extent, { tx }, true }));
        TS_CHECK(b.add(ReorderStep { out, { 0, 2, 1, 3, 4 } }));
        TS_CHECK(b.add(FuseStep { out, { 0, 1 } }));
        if (a.output == a.anchor)
            TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(AnnotationStep { out, 3, Annotation::Unroll }));
        // CC: z y x k -> (z@y) x k -> k (z@y) x
        TS_CHECK(b.add(ComputeAtStep { cc, out, 0 }));
        TS_CHECK(b.add(FuseStep { cc, { 0, 1 } }));
        TS_CHECK(b.add(ReorderStep { cc, { 2, 0, 1 } }));
        TS_CHECK(b.add(AnnotationStep { cc, 1, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 2, Annotation::Vectorize }));
        if (a.output != a.anchor)
            TS_CHECK(tileOutput2d(b, dag, a, out, ty, tx, 0));
        return b.take();
    }

    // ---- batch_matmul.x86 (topi/x86/batch_matmul.py: schedule_batch_matmul) ----
    //
    // Knobs: tile_y (M), tile_x (N), tile_k (K), each define_split(policy "factors", num_outputs=2). As TVM:
    //   CC = cache_write(C, "global")
    //   C:   split y by tile_y, x by tile_x; reorder(b, yo, xo, yi, xi); fuse(b, yo, xo); parallel;
    //        pragma auto_unroll_max_step 16
    //   CC:  compute_at C's fused loop; split k by tile_k; Crf = rfactor(CC, ki) (factor axis 0)
    //   Crf: compute_at CC's b; fuse(y, x); vectorize its axis 0 (ki)
    // Differences from TVM: our rfactor needs a stage computed at root, so CC is split and rfactored before it
    // is computed at C's loop (the same schedule, other step order). With an element-wise epilogue (BERT's
    // scale), the output O takes C's tiling and C is inlined into it, as TVM's template does.
    Expected<ConfigSpace> batchMatmulSpace(const ir::ComputeDAG& dag)
    {
        return yxkSpace("batch_matmul.x86", dag, "batch_matmul", 3, 1);
    }

    Expected<std::vector<sched::Step>> batchMatmulApply(
        const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
    {
        const std::string name = "batch_matmul.x86";
        TS_TRY(const YxkConfig config, yxkConfig(name, dag, "batch_matmul", 3, 1, space, index));
        const Anchored& a = config.anchored;
        const ir::Operation& op = dag.op(a.anchor);
        const int64_t ty = config.ty, tx = config.tx, tk = config.tk;

        StepBuilder b(name, dag);
        TS_CHECK(inlineFused(b, a, true));
        const int c = b.stage(op.name());
        // cache_write: CC = stage c, C = stage c + 1. CC: b y x k -> b y x k.0 k.1; rfactor k.1 at axis 0:
        // Crf = stage c (k.1.v b y x | k.0), CC = c + 1 (b y x | ki), C = c + 2.
        TS_CHECK(b.add(CacheWriteStep { c, "global" }));
        TS_CHECK(b.add(SplitStep { c, 3, op.reduceAxes()[0].extent, { tk }, true }));
        TS_CHECK(b.add(RfactorStep { c, 4, 0 }));
        const int crf = c;
        const int cc = c + 1;
        int out = c + 2;
        // With an epilogue, the output O is tiled and C (the cache's copy-out) is inlined into it, as TVM does.
        if (a.output != a.anchor) {
            TS_CHECK(b.add(ComputeInlineStep { out }));
            out = b.stage(dag.op(a.output).name());
        }
        // O: b y x -> b y.0 y.1 x.0 x.1 -> b y.0 x.0 y.1 x.1 -> (b@y.0@x.0) y.1 x.1
        TS_CHECK(b.add(SplitStep { out, 1, op.axes()[1].extent, { ty }, true }));
        TS_CHECK(b.add(SplitStep { out, 3, op.axes()[2].extent, { tx }, true }));
        TS_CHECK(b.add(ReorderStep { out, { 0, 1, 3, 2, 4 } }));
        TS_CHECK(b.add(FuseStep { out, { 0, 1, 2 } }));
        TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(PragmaStep { out, 0, "auto_unroll_max_step$16" }));
        TS_CHECK(b.add(ComputeAtStep { cc, out, 0 }));
        // Crf: k.1.v b y x k.0 -> k.1.v b (y@x) k.0
        TS_CHECK(b.add(ComputeAtStep { crf, cc, 0 }));
        TS_CHECK(b.add(FuseStep { crf, { 2, 3 } }));
        TS_CHECK(b.add(AnnotationStep { crf, 0, Annotation::Vectorize }));
        return b.take();
    }

    // ---- conv2d_NCHWc.x86 (topi/x86/conv2d.py: conv2d_NCHWc, _create_tuning_space; conv2d_avx_common.py and
    // conv2d_avx_1x1.py: _schedule_conv_NCHWc) ----
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

    // The value of an "other" knob in config `index`, as its JSON text ("true", "2").
    Expected<std::string> otherValue(
        const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob)
    {
        const auto& knobs = space.knobs();
        for (size_t i = 0; i < knobs.size(); ++i)
            if (knobs[i].name() == knob) {
                if (knobs[i].kind() != KnobKind::Other)
                    return instantiationError(name, knob + " is not a knob of values");
                return knobs[i].valueJson(space.knobIndexes(index)[i]);
            }
        return instantiationError(name, "the space has no knob " + knob);
    }

    Expected<std::vector<sched::Step>> conv2dNchwcApply(
        const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
    {
        const std::string name = "conv2d_NCHWc.x86";
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
        const size_t owKnob = static_cast<size_t>(space.findKnob("tile_ow") - space.knobs().data());
        const auto* owEntity = std::get_if<SplitEntity>(&space.entity(index, owKnob));
        if (owEntity == nullptr || owEntity->size.size() != 2 || owEntity->size[1] < 1)
            return instantiationError(name, "tile_ow is not a two-way split");
        const int64_t regN = owEntity->size[1];
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
        for (const std::string& producer : a.producers) {
            const int p = b.stage(producer);
            TS_CHECK(b.add(FuseStep { p, { 0, 1, 2 } }));
            TS_CHECK(b.add(AnnotationStep { p, 0, Annotation::Parallel }));
        }
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

} // namespace

const std::vector<Template>& templates()
{
    static const std::vector<Template> all {
        { "dense_nopack.x86", "dense", denseNopackSpace, denseNopackApply },
        { "batch_matmul.x86", "batch_matmul", batchMatmulSpace, batchMatmulApply },
        { "conv2d_NCHWc.x86", "conv2d_nchw", conv2dNchwcSpace, conv2dNchwcApply },
    };
    return all;
}

const Template* findTemplate(std::string_view name)
{
    for (const Template& t : templates())
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace ts::autotvm
