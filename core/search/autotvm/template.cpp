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

    // The one compute op tagged `tag`, which must be the DAG's only output (TVM's templates schedule an op with
    // no fused consumers; a bias or activation epilogue is not supported yet).
    Expected<int> findOp(const std::string& name, const ir::ComputeDAG& dag, const std::string& tag, size_t numAxes)
    {
        int found = -1;
        for (int i = 0; i < dag.numOps(); ++i) {
            const ir::Operation& op = dag.op(i);
            if (op.isPlaceholder() || op.tag() != tag)
                continue;
            if (found >= 0)
                return makeError(ErrorKind::InvalidArgument, name + ": the DAG has more than one " + tag + " op");
            found = i;
        }
        if (found < 0)
            return makeError(
                ErrorKind::InvalidArgument, name + ": the DAG has no " + tag + " op (tag \"" + tag + "\")");
        const ir::Operation& op = dag.op(found);
        if (op.axes().size() != numAxes || op.reduceAxes().size() != 1)
            return makeError(ErrorKind::InvalidArgument,
                name + ": op " + op.name() + " has " + std::to_string(op.axes().size()) + " axes and "
                    + std::to_string(op.reduceAxes().size()) + " reduce axes, expected " + std::to_string(numAxes)
                    + " and 1");
        const std::vector<int> outputs = dag.outputs();
        if (outputs.size() != 1 || outputs[0] != found)
            return makeError(ErrorKind::InvalidArgument,
                name + ": op " + op.name() + " must be the DAG's only output (epilogues are not supported)");
        return found;
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
    using sched::FuseStep;
    using sched::PragmaStep;
    using sched::ReorderStep;
    using sched::RfactorStep;
    using sched::SplitStep;

    // ---- dense_nopack.x86 (topi/x86/dense.py: dense_nopack, _schedule_dense_nopack_template) ----
    //
    // Knobs: tile_y (M), tile_x (N), tile_k (K), each define_split(policy "factors", num_outputs=2).
    // TVM computes CC[z, y, x] = sum_k data[z, k*vec + x] * weight[y, k*vec + x] (vec = tile_k's inner size)
    // and C[y, x] = sum_kk CC[y, x, kk]; here that is an rfactor of dense's reduce axis split by vec, with the
    // factored axis last (C.rf = CC). Then, as TVM:
    //   C:  split y by tile_y, x by tile_x; reorder(yo, xo, yi, xi, kk); fuse(yo, xo); parallel; unroll kk
    //   CC: compute_at C's fused loop; fuse(z, y); reorder(k, zy, x); unroll zy; vectorize x
    // Differences from TVM: the rfactor replaces TVM's hand-written two-stage compute (same loop nest and
    // arithmetic, names dense.rf / k.1.v instead of compute / kk). TVM truncates K // vec; a tile_k that does not
    // divide K is an instantiation error here.
    Expected<ConfigSpace> denseNopackSpace(const ir::ComputeDAG& dag)
    {
        const std::string name = "dense_nopack.x86";
        TS_TRY(const int opId, findOp(name, dag, "dense", 2));
        const ir::Operation& op = dag.op(opId);
        ConfigSpace space;
        TS_CHECK(addFactorsSplit(space, "tile_y", op.axes()[0].extent));
        TS_CHECK(addFactorsSplit(space, "tile_x", op.axes()[1].extent));
        TS_CHECK(addFactorsSplit(space, "tile_k", op.reduceAxes()[0].extent));
        return space;
    }

    Expected<std::vector<sched::Step>> denseNopackApply(
        const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
    {
        const std::string name = "dense_nopack.x86";
        TS_CHECK(checkIndex(name, space, index));
        TS_TRY(const int opId, findOp(name, dag, "dense", 2));
        const ir::Operation& op = dag.op(opId);
        TS_TRY(const int64_t ty, innerFactor(name, space, index, "tile_y", op.axes()[0].extent));
        TS_TRY(const int64_t tx, innerFactor(name, space, index, "tile_x", op.axes()[1].extent));
        TS_TRY(const int64_t tk, innerFactor(name, space, index, "tile_k", op.reduceAxes()[0].extent));

        StepBuilder b(name, dag);
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
        TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(AnnotationStep { out, 3, Annotation::Unroll }));
        // CC: z y x k -> (z@y) x k -> k (z@y) x
        TS_CHECK(b.add(ComputeAtStep { cc, out, 0 }));
        TS_CHECK(b.add(FuseStep { cc, { 0, 1 } }));
        TS_CHECK(b.add(ReorderStep { cc, { 2, 0, 1 } }));
        TS_CHECK(b.add(AnnotationStep { cc, 1, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 2, Annotation::Vectorize }));
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
    // is computed at C's loop (the same schedule, other step order). TVM's template handles a batch_matmul
    // followed by an injective epilogue (compute_inline into the output); ours needs batch_matmul as the output.
    Expected<ConfigSpace> batchMatmulSpace(const ir::ComputeDAG& dag)
    {
        const std::string name = "batch_matmul.x86";
        TS_TRY(const int opId, findOp(name, dag, "batch_matmul", 3));
        const ir::Operation& op = dag.op(opId);
        ConfigSpace space;
        TS_CHECK(addFactorsSplit(space, "tile_y", op.axes()[1].extent));
        TS_CHECK(addFactorsSplit(space, "tile_x", op.axes()[2].extent));
        TS_CHECK(addFactorsSplit(space, "tile_k", op.reduceAxes()[0].extent));
        return space;
    }

    Expected<std::vector<sched::Step>> batchMatmulApply(
        const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
    {
        const std::string name = "batch_matmul.x86";
        TS_CHECK(checkIndex(name, space, index));
        TS_TRY(const int opId, findOp(name, dag, "batch_matmul", 3));
        const ir::Operation& op = dag.op(opId);
        TS_TRY(const int64_t ty, innerFactor(name, space, index, "tile_y", op.axes()[1].extent));
        TS_TRY(const int64_t tx, innerFactor(name, space, index, "tile_x", op.axes()[2].extent));
        TS_TRY(const int64_t tk, innerFactor(name, space, index, "tile_k", op.reduceAxes()[0].extent));

        StepBuilder b(name, dag);
        const int c = b.stage(op.name());
        // cache_write: CC = stage c, C = stage c + 1. CC: b y x k -> b y x k.0 k.1; rfactor k.1 at axis 0:
        // Crf = stage c (k.1.v b y x | k.0), CC = c + 1 (b y x | ki), C = c + 2.
        TS_CHECK(b.add(CacheWriteStep { c, "global" }));
        TS_CHECK(b.add(SplitStep { c, 3, op.reduceAxes()[0].extent, { tk }, true }));
        TS_CHECK(b.add(RfactorStep { c, 4, 0 }));
        const int crf = c;
        const int cc = c + 1;
        const int out = c + 2;
        // C: b y x -> b y.0 y.1 x.0 x.1 -> b y.0 x.0 y.1 x.1 -> (b@y.0@x.0) y.1 x.1
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

} // namespace

const std::vector<Template>& templates()
{
    static const std::vector<Template> all {
        { "dense_nopack.x86", "dense", denseNopackSpace, denseNopackApply },
        { "batch_matmul.x86", "batch_matmul", batchMatmulSpace, batchMatmulApply },
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
