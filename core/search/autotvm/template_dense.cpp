// AutoTVM's x86 dense and batch_matmul templates (template.h): dense_pack, dense_nopack, batch_matmul.
#include "core/ops/linear.h"
#include "core/search/autotvm/template_builder.h"

namespace ts::autotvm::detail {

namespace {
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

} // namespace

// ---- dense_nopack.x86 (topi/x86/dense.py: dense_nopack, _schedule_dense_nopack_template) ----
//
// Knobs: tile_y (M), tile_x (N), tile_k (K), each define_split(policy "factors", num_outputs=2), on the task's
// dense. The program is TVM's compute for the config (denseNopackProgram), not the plain dense: with vec = tile_k's
// inner size, a partial sum vec wide
//   CC[z, y, x] = sum_k data[z, k*vec + x] * weight[y, k*vec + x]     (shape [M, N, vec], k over K / vec)
// then C[y, x] = sum_kk CC[y, x, kk], tagged "dense". TVM's schedule, on that program:
//   C:  split y by tile_y, x by tile_x; reorder(yo, xo, yi, xi) (kk stays innermost); fuse(yo, xo); parallel;
//       unroll kk
//   CC: compute_at C's fused loop; fuse(z, y); reorder(k, zy, x); unroll zy; vectorize x (the vec-wide lane axis)
// As for dense_pack, a task with a fused epilogue (bias, activation) is tuned as TVM's task is, the dense alone:
// the epilogue is not part of the program (TVM's schedule_dense_nopack leaves a fused output unscheduled at root).
// Differences from TVM: the stage names (CC is "dense_nopack.CC", C "T_dense"); TVM truncates K // vec, while a
// tile_k that does not divide K is an instantiation error here (the factors policy never gives one). (Before
// issue 39 this template scheduled the plain dense, reaching the same loop nest with an rfactor of its K.)
Expected<ConfigSpace> denseNopackSpace(const ir::ComputeDAG& dag)
{
    return yxkSpace("dense_nopack.x86", dag, "dense", 2, 0);
}

Expected<ir::ComputeDAG> denseNopackProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "dense_nopack.x86";
    TS_TRY(const YxkConfig config, yxkConfig(name, taskDag, "dense", 2, 0, space, index));
    const ir::Operation& op = taskDag.op(config.anchored.anchor);
    const std::vector<int64_t> dataShape = op.inputs()[0]->shape();
    const std::vector<int64_t> weightShape = op.inputs()[1]->shape();
    const int64_t m = dataShape[0], k = dataShape[1], n = weightShape[0];
    const int64_t vec = config.tk;
    ir::Tensor data = ir::placeholder("data", dataShape);
    ir::Tensor weight = ir::placeholder("weight", weightShape);
    ir::setNextAxisNames({ "z", "y", "x" }, { "k" });
    ir::Tensor cc = ir::computeReduce(
        "dense_nopack.CC", { m, n, vec }, { k / vec }, ir::Reducer::Sum,
        [&](const std::vector<ir::Expr>& i, const std::vector<ir::Expr>& r) {
            const ir::Expr kk = r[0] * ir::Expr(vec) + i[2];
            return ir::load(data, { i[0], kk }) * ir::load(weight, { i[1], kk });
        },
        "dense_nopack_partial");
    ir::setNextAxisNames({ "y", "x" }, { "kk" });
    ir::Tensor c = ir::computeReduce(
        "T_dense", { m, n }, { vec }, ir::Reducer::Sum,
        [&](const std::vector<ir::Expr>& i, const std::vector<ir::Expr>& r) {
            return ir::load(cc, { i[0], i[1], r[0] });
        },
        "dense");
    return ir::ComputeDAG::create({ data, weight, c });
}

Expected<std::vector<sched::Step>> denseNopackApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "dense_nopack.x86";
    TS_CHECK(checkIndex(name, space, index));
    // The program: data, weight, CC (3 axes, K / vec), C (tagged dense, reducing CC's vec lanes).
    int c = -1;
    for (int i = 0; i < dag.numOps(); ++i)
        if (!dag.op(i).isPlaceholder() && dag.op(i).tag() == "dense")
            c = i;
    const ir::Operation* cc = c >= 0 ? dag.op(c).inputs()[0].get() : nullptr;
    if (cc == nullptr || cc->isPlaceholder() || cc->axes().size() != 3 || dag.op(c).axes().size() != 2
        || dag.outputs() != std::vector<int> { c })
        return instantiationError(name,
            "the DAG is not the template's program (dense over a partial sum CC[M, N, vec]); "
            "instantiate the config through Template::program");
    const ir::Operation& op = dag.op(c);
    const int64_t m = op.axes()[0].extent, n = op.axes()[1].extent;
    const int64_t vec = op.reduceAxes()[0].extent;
    TS_TRY(const int64_t ty, innerFactor(name, space, index, "tile_y", m));
    TS_TRY(const int64_t tx, innerFactor(name, space, index, "tile_x", n));
    TS_TRY(const int64_t tk, innerFactor(name, space, index, "tile_k", vec * cc->reduceAxes()[0].extent));
    if (tk != vec)
        return instantiationError(name,
            "the program's partial sum is " + std::to_string(vec) + " wide, the config's tile_k " + std::to_string(tk));

    StepBuilder b(name, dag);
    const int out = b.stage(op.name());
    const int partial = b.stage(cc->name());
    // C: y x | kk -> y.0 y.1 x.0 x.1 kk -> y.0 x.0 y.1 x.1 kk -> (y.0@x.0) y.1 x.1 kk
    TS_CHECK(b.add(SplitStep { out, 0, m, { ty }, true }));
    TS_CHECK(b.add(SplitStep { out, 2, n, { tx }, true }));
    TS_CHECK(b.add(ReorderStep { out, { 0, 2, 1, 3, 4 } }));
    TS_CHECK(b.add(FuseStep { out, { 0, 1 } }));
    TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
    TS_CHECK(b.add(AnnotationStep { out, 3, Annotation::Unroll }));
    // CC: z y x | k -> (z@y) x k -> k (z@y) x
    TS_CHECK(b.add(ComputeAtStep { partial, out, 0 }));
    TS_CHECK(b.add(FuseStep { partial, { 0, 1 } }));
    TS_CHECK(b.add(ReorderStep { partial, { 2, 0, 1 } }));
    TS_CHECK(b.add(AnnotationStep { partial, 1, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { partial, 2, Annotation::Vectorize }));
    return b.take();
}

// ---- batch_matmul.x86 (topi/x86/batch_matmul.py: batch_matmul, schedule_batch_matmul) ----
//
// Checked against TVM v0.13.0 (v0.19.0 has the same compute and schedule). The compute is topi.nn.batch_matmul's,
// unchanged by the config: C[b, i, j] = sum_k A[b, i, k] * B[b, j, k] (transpose_b, TVM's default; B[b, k, j]
// without), which is ops::batchMatmul, so the program is the task's DAG (no Template::program). The knobs are
// declared by the schedule: tile_y (M), tile_x (N), tile_k (K), each define_split(policy "factors",
// num_outputs=2). As TVM:
//   CC = cache_write(C, "global")
//   C:   split y by tile_y, x by tile_x; reorder(b, yo, xo, yi, xi); fuse(b, yo, xo); parallel;
//        pragma auto_unroll_max_step 16
//   CC:  compute_at C's fused loop; split k by tile_k; Crf = rfactor(CC, ki) (factor axis 0)
//   Crf: compute_at CC's b; fuse(y, x); vectorize its axis 0 (ki)
// Nothing is vectorised but Crf's ki (the output's xi is not), and the only unrolling is the pragma's.
// Differences from TVM: our rfactor needs a stage computed at root, so CC is split and rfactored before it
// is computed at C's loop (the same schedule, other step order); the stage names (T_batch_matmul for TVM's
// T_batch_matmul_NT). With an element-wise epilogue (BERT's scale), the output O takes C's tiling and C is inlined
// into it, as TVM's schedule does when C is not an output (TVM's tuning task is the batch_matmul alone). Not built:
// transpose_a and a batch of 1 broadcast against the other's (task_args.cpp refuses them).
Expected<ConfigSpace> batchMatmulSpace(const ir::ComputeDAG& dag)
{
    return yxkSpace("batch_matmul.x86", dag, "batch_matmul", 3, 1);
}

Expected<std::vector<sched::Step>> batchMatmulApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
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

// ---- dense_pack.x86 (topi/x86/dense.py: dense_pack, _schedule_dense_pack_template) ----
//
// Knobs, as TVM declares them: tile_y (M) and tile_x (N), define_split(num_outputs=3); tile_k (K),
// define_split(num_outputs=2); tile_inner (M, num_outputs=2, inner size <= 16); all policy "factors". TVM packs
// the weight to [N / bn, K, bn] with bn = tile_x's innermost size (during tuning the packed weight is a
// placeholder, so the packing is not measured) and schedules:
//   CC = cache_write(C, "global")
//   C:  split y into (yt, yo, yi), x into (xt, xo, xi); reorder (xt, yt, yo, xo, yi, xi); fuse (xt, yt),
//       parallel when C is the output; fuse (yo, xo); unroll yi; vectorize xi
//   CC: compute_at C's (yo, xo); split k by tile_k; reorder (ko, ki, y, x); vectorize x; with tile_inner > 1
//       split y by it and reorder (ko, yo, ki, yi, x), unrolling yo, ki and yi; else unroll ki and y
//   O (a fused epilogue's output): tiled as C; (xt, yt) fused, parallel, C computed at it; vectorize xi
// The program is TVM's (densePackProgram): the dense on a weight placeholder already packed by the config's bn,
// as TVM's tuner measures it (the packing outside the task), so the vectorized xi loop reads the weight
// contiguously; a task with a fused epilogue (bias) is tuned as TVM's task is, the dense alone. The loop nest,
// its order and annotations are TVM's. tile_inner need not divide C's yi tile (TVM's split leaves a tail there
// as well). (Before issue 39 this template ran on the plain [N, K] weight, its xi loop reading it with stride K.)
Expected<ConfigSpace> densePackSpace(const ir::ComputeDAG& dag)
{
    const std::string name = "dense_pack.x86";
    TS_TRY(const Anchored a, findAnchor(name, dag, "dense", 2));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t m = op.axes()[0].extent;
    ConfigSpace space;
    TS_CHECK(addFactorsSplit(space, "tile_y", m, 3));
    TS_CHECK(addFactorsSplit(space, "tile_x", op.axes()[1].extent, 3));
    TS_CHECK(addFactorsSplit(space, "tile_k", op.reduceAxes()[0].extent, 2));
    SplitOptions inner;
    inner.numOutputs = 2;
    inner.filter = [](const SplitEntity& e) { return e.size.back() <= 16; };
    TS_TRY(Knob tileInner, makeSplitKnob("tile_inner", m, inner));
    TS_CHECK(space.add(std::move(tileInner)));
    return space;
}

Expected<ir::ComputeDAG> densePackProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "dense_pack.x86";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, taskDag, "dense", 2));
    const ir::Operation& op = taskDag.op(a.anchor);
    const std::vector<int64_t> data = op.inputs()[0]->shape();
    const int64_t n = op.axes()[1].extent;
    TS_TRY(const std::vector<int64_t> tx, splitLengths(name, space, index, "tile_x", n));
    const int64_t bn = tx.back();
    ir::Tensor x = ir::placeholder("data", data);
    ir::Tensor packed = ir::placeholder("packed_weight", { n / bn, data[1], bn });
    auto out = ops::densePacked(x, packed);
    if (!out)
        return instantiationError(name, out.error().message);
    return ir::ComputeDAG::create({ x, packed, *out });
}

Expected<std::vector<sched::Step>> densePackApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index)
{
    const std::string name = "dense_pack.x86";
    TS_CHECK(checkIndex(name, space, index));
    TS_TRY(const Anchored a, findAnchor(name, dag, "dense", 2));
    const ir::Operation& op = dag.op(a.anchor);
    const int64_t m = op.axes()[0].extent;
    const int64_t n = op.axes()[1].extent;
    TS_TRY(const std::vector<int64_t> ty, splitLengths(name, space, index, "tile_y", m));
    TS_TRY(const std::vector<int64_t> tx, splitLengths(name, space, index, "tile_x", n));
    TS_TRY(const int64_t tk, innerFactor(name, space, index, "tile_k", op.reduceAxes()[0].extent));
    TS_TRY(const int64_t tileInner, innerFactor(name, space, index, "tile_inner", m));
    if (ty.size() != 2 || tx.size() != 2)
        return instantiationError(name, "tile_y and tile_x must be three-way splits");

    StepBuilder b(name, dag);
    TS_CHECK(inlineFused(b, a, true));
    const int c0 = b.stage(op.name());
    TS_CHECK(b.add(CacheWriteStep { c0, "global" }));
    const int cc = c0;
    const int c = c0 + 1;
    // y x -> y.0 y.1 y.2 x.0 x.1 x.2 -> (x.0 y.0 y.1 x.1 y.2 x.2) -> (x.0@y.0) y.1 x.1 y.2 x.2
    const auto tile = [&](int stage) -> Expected<void> {
        TS_CHECK(b.add(SplitStep { stage, 0, m, { ty[0], ty[1] }, true }));
        TS_CHECK(b.add(SplitStep { stage, 3, n, { tx[0], tx[1] }, true }));
        TS_CHECK(b.add(ReorderStep { stage, { 3, 0, 1, 4, 2, 5 } }));
        TS_CHECK(b.add(FuseStep { stage, { 0, 1 } }));
        return {};
    };
    TS_CHECK(tile(c));
    if (!a.fused())
        TS_CHECK(b.add(AnnotationStep { c, 0, Annotation::Parallel }));
    TS_CHECK(b.add(FuseStep { c, { 1, 2 } })); // xyt xyo yi xi
    TS_CHECK(b.add(AnnotationStep { c, 2, Annotation::Unroll }));
    TS_CHECK(b.add(AnnotationStep { c, 3, Annotation::Vectorize }));

    // CC: y x | k -> y x k.0 k.1 [-> y.0 y.1 x k.0 k.1]
    TS_CHECK(b.add(SplitStep { cc, 2, op.reduceAxes()[0].extent, { tk }, true }));
    if (tileInner > 1) {
        TS_CHECK(b.add(SplitStep { cc, 0, m, { tileInner }, true }));
        TS_CHECK(b.add(ReorderStep { cc, { 3, 0, 4, 1, 2 } })); // ko yo ki yi x
        TS_CHECK(b.add(AnnotationStep { cc, 1, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 2, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 3, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 4, Annotation::Vectorize }));
    } else {
        TS_CHECK(b.add(ReorderStep { cc, { 2, 3, 0, 1 } })); // ko ki y x
        TS_CHECK(b.add(AnnotationStep { cc, 1, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 2, Annotation::Unroll }));
        TS_CHECK(b.add(AnnotationStep { cc, 3, Annotation::Vectorize }));
    }
    TS_CHECK(b.add(ComputeAtStep { cc, c, 1 }));

    if (a.fused()) {
        const int out = b.stage(dag.op(a.output).name());
        TS_CHECK(tile(out)); // xyt yo xo yi xi
        TS_CHECK(b.add(AnnotationStep { out, 0, Annotation::Parallel }));
        TS_CHECK(b.add(AnnotationStep { out, 4, Annotation::Vectorize }));
        TS_CHECK(b.add(ComputeAtStep { c, out, 0 }));
    }
    return b.take();
}

} // namespace ts::autotvm::detail
