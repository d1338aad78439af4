// State -> loop nests (TVM's ScheduleOps + MakeLoopNest, for one function): from the bounds bound
// inference finds (bound_inference.h), each active stage becomes a loop nest over its region, placed at
// root or inside the consumer loop it is computed at, with its buffer allocated around it. Loads of other
// stages become buffer loads relative to the producer's region. A value that can leave the tensor (a
// split that does not divide, a region wider than the tensor) gets a guard. Annotations become loop
// kinds for the target: GPU thread annotations become thread-binding loops on a GPU target.
#include "core/lower/bound_inference.h"
#include "core/lower/lower.h"

#include <algorithm>
#include <set>

namespace ts::lower {

using ir::Expr;
using ir::ExprKind;
using sched::Stage;

namespace {
    struct LoopKind {
        ForKind kind = ForKind::Serial;
        std::string threadTag; // ThreadBinding
    };
    using StageLoopKinds = std::vector<std::vector<LoopKind>>; // [stage][iterator]

    // The loop an annotation becomes on the target: GPU thread annotations bind GPU threads and need a
    // GPU target; `parallel` runs on CPU cores and needs a CPU target.
    Expected<LoopKind> loopKindOf(
        const sched::State& state, int s, const sched::Iterator& it, const target::Target& target)
    {
        auto wrong = [&](const std::string& why) {
            return stageError(
                state, s, std::string("annotation ") + sched::toString(it.annotation) + " on " + it.name + " " + why);
        };
        switch (it.annotation) {
        case sched::Annotation::None:
            return LoopKind { ForKind::Serial, {} };
        case sched::Annotation::Unroll:
            return LoopKind { ForKind::Unrolled, {} };
        case sched::Annotation::Vectorize:
            return LoopKind { ForKind::Vectorized, {} };
        case sched::Annotation::Parallel:
            if (target.isGpu())
                return wrong("needs a CPU target (bind GPU threads instead)");
            return LoopKind { ForKind::Parallel, {} };
        case sched::Annotation::VThread:
        case sched::Annotation::BlockX:
        case sched::Annotation::ThreadX:
        case sched::Annotation::BlockY:
        case sched::Annotation::ThreadY:
        case sched::Annotation::BlockZ:
        case sched::Annotation::ThreadZ:
            if (!target.isGpu())
                return wrong("needs a GPU target");
            return LoopKind { ForKind::ThreadBinding, sched::toString(it.annotation) };
        case sched::Annotation::Tensorize:
            break;
        }
        return wrong("is not supported (no tensor intrinsics yet)");
    }

    bool isReduce(const sched::Iterator& it) { return it.kind != sched::IteratorKind::Spatial; }
    bool isHardwareThread(const LoopKind& kind)
    {
        return kind.kind == ForKind::ThreadBinding && kind.threadTag.rfind("threadIdx.", 0) == 0;
    }

    // A stage is a cross-thread reduction when a reduce iterator is bound to threadIdx (TVM's
    // MakeCrossThreadReduction): its other ("normal") reduce loops move inside the rest, so nothing may be
    // computed at them or at a loop after the first of them.
    Expected<void> checkCrossThread(const sched::State& state, int s, const std::vector<LoopKind>& kinds)
    {
        const Stage& st = state.stage(s);
        std::set<std::string> threadTags;
        int firstNormal = -1;
        for (size_t p = 0; p < st.iters.size(); ++p) {
            if (!isReduce(st.iters[p]))
                continue;
            if (isHardwareThread(kinds[p]))
                threadTags.insert(kinds[p].threadTag);
            else if (firstNormal < 0)
                firstNormal = static_cast<int>(p);
        }
        if (threadTags.empty())
            return {};
        if (threadTags.size() > 1)
            return stageError(
                state, s, "a cross-thread reduction over more than one thread dimension is not supported");
        if (firstNormal < 0)
            return {};
        for (int q = 0; q < state.numStages(); ++q) {
            const Stage& other = state.stage(q);
            if (other.computeAt == sched::ComputeAtKind::Iter && other.attachStage == s
                && other.attachIter >= firstNormal)
                return stageError(state, q,
                    "is computed at " + st.iters[static_cast<size_t>(other.attachIter)].name + " of " + st.op->name()
                        + ", a cross-thread reduction, at or inside a reduce loop that is not bound to a thread");
        }
        return {};
    }

    // Consumers first, as bound inference reports its errors.
    Expected<StageLoopKinds> loopKinds(const sched::State& state, const target::Target& target)
    {
        StageLoopKinds kinds(static_cast<size_t>(state.numStages()));
        for (int s = state.numStages(); s-- > 0;) {
            const Stage& st = state.stage(s);
            if (st.isPlaceholder() || st.computeAt == sched::ComputeAtKind::Inlined)
                continue;
            auto& stageKinds = kinds[static_cast<size_t>(s)];
            for (const sched::Iterator& it : st.iters) {
                TS_TRY(LoopKind kind, loopKindOf(state, s, it, target));
                if (isReduce(it) && kind.kind == ForKind::ThreadBinding && kind.threadTag != "vthread"
                    && (it.kind == sched::IteratorKind::Mixed || !isHardwareThread(kind)))
                    return stageError(state, s,
                        std::string("annotation ") + sched::toString(it.annotation) + " on " + it.name
                            + ": a reduction can be spread over the threads of a block (threadIdx), not over blocks "
                              "or a fused spatial-and-reduce iterator");
                stageKinds.push_back(std::move(kind));
            }
            TS_CHECK(checkCrossThread(state, s, stageKinds));
        }
        return kinds;
    }

    class NestBuilder {
    public:
        NestBuilder(const sched::State& state, const Bounds& bounds, const StageLoopKinds& kinds, bool gpu)
            : m_state(state)
            , m_bounds(bounds)
            , m_kinds(kinds)
            , m_gpu(gpu)
        {
        }

        LoweredFunc build();

    private:
        const Stage& stage(int s) const { return m_state.stage(s); }
        const ir::BufferRef& buffer(int s) const { return m_buffers[static_cast<size_t>(s)]; }

        ir::BufferRef makeBuffer(int s) const;
        Expr lowerValue(int s, const Expr& e);
        Stmt stageNest(int s);
        Stmt crossThreadNest(int s, const std::vector<Expr>& index, const Expr& value);
        Stmt loop(int s, size_t p, Stmt body) const;
        Stmt attachedNests(int s, size_t p, Stmt inner);
        bool repeats(int s, size_t p) const;
        Expr guard(int s, bool spatialOnly);

        const sched::State& m_state;
        const Bounds& m_bounds;
        const StageLoopKinds& m_kinds;
        const bool m_gpu;
        std::vector<ir::BufferRef> m_buffers; // by stage; null for inlined stages
    };
} // namespace

// A placeholder's buffer is its tensor; a compute stage's holds its region (the whole tensor for root
// stages), rows padded by storage_align, or (below) its vectorized axis innermost.
ir::BufferRef NestBuilder::makeBuffer(int s) const
{
    const ir::Operation& op = *stage(s).op;
    auto buffer = std::make_shared<ir::BufferVar>();
    buffer->name = op.name();
    buffer->dtype = op.dtype();
    if (m_gpu)
        buffer->scope = storageScope(m_state, s);
    else
        buffer->scope = stage(s).computeAt == sched::ComputeAtKind::Iter ? "local" : "global";
    if (stage(s).isPlaceholder()) {
        buffer->shape = op.shape();
        return buffer;
    }
    const StageBounds& si = m_bounds[s];
    const size_t rank = op.axes().size();
    buffer->shape.assign(si.rootExtents.begin(), si.rootExtents.begin() + static_cast<long>(rank));
    buffer->strides.assign(rank, 1);
    // A local buffer whose stage vectorizes another axis than its last (an NCHW convolution's output
    // channels, say: its accumulators ff x a few pixels) stores that axis innermost, so that its vectors are
    // contiguous and stay in registers. In the DAG's order every accumulator vector would be strided: a
    // gather and a scatter per FMA, and LICM cannot promote those. Only this stage's own storage changes;
    // global buffers keep the caller's layout.
    if (!m_gpu && buffer->scope == "local" && stage(s).storageAligns.empty() && !si.output) {
        int vectorAxis = -1;
        for (size_t i = 0; i < stage(s).iters.size(); ++i)
            if (stage(s).iters[i].annotation == sched::Annotation::Vectorize)
                for (size_t d = 0; d < rank; ++d)
                    if (ir::usesVar(si.localValues[d], si.leafVars[i].get()))
                        vectorAxis = vectorAxis == -1 ? static_cast<int>(d) : -2;
        if (vectorAxis >= 0 && static_cast<size_t>(vectorAxis) + 1 != rank) {
            int64_t stride = buffer->shape[static_cast<size_t>(vectorAxis)];
            for (size_t d = rank; d-- > 0;) {
                if (static_cast<int>(d) == vectorAxis)
                    continue;
                buffer->strides[d] = stride;
                stride *= buffer->shape[d];
            }
            buffer->strides[static_cast<size_t>(vectorAxis)] = 1;
            return buffer;
        }
    }
    for (size_t d = rank; d-- > 0;) {
        if (d + 1 < rank)
            buffer->strides[d] = buffer->strides[d + 1] * buffer->shape[d + 1];
        for (const sched::StorageAlign& align : stage(s).storageAligns)
            if (static_cast<size_t>(align.axis) == d && !si.output) { // outputs keep the caller's layout
                const int64_t stride = buffer->strides[d];
                buffer->strides[d]
                    = (stride - align.offset + align.factor - 1) / align.factor * align.factor + align.offset;
            }
    }
    return buffer;
}

Expr NestBuilder::guard(int s, bool spatialOnly)
{
    const StageBounds& si = m_bounds[s];
    const ir::Operation& op = *stage(s).op;
    Expr condition;
    auto add = [&](const Expr& c) { condition = condition.defined() ? (condition && c) : c; };
    const size_t count = spatialOnly ? op.axes().size() : si.rootValues.size();
    int64_t zero = 0;
    for (size_t k = 0; k < count; ++k) {
        const int64_t full = k < op.axes().size() ? op.axes()[k].extent : op.reduceAxes()[k - op.axes().size()].extent;
        // Within the region (a split of the region may overshoot it), then within the tensor.
        const arith::Interval local = m_bounds.analyzer.bound(si.localValues[k]);
        if (!local.bounded || local.hi >= si.rootExtents[k])
            add(si.localValues[k] < ir::intImm(si.rootExtents[k]));
        const bool regionIsTensor = si.rootExtents[k] == full
            && ir::asConstInt(k < si.regionMin.size() ? si.regionMin[k] : ir::intImm(0), &zero) && zero == 0;
        if (regionIsTensor)
            continue;
        const arith::Interval r = m_bounds.analyzer.bound(si.rootValues[k]);
        if (!r.bounded || r.lo < 0)
            add(si.rootValues[k] >= ir::intImm(0));
        if (!r.bounded || r.hi >= full)
            add(si.rootValues[k] < ir::intImm(full));
    }
    return condition;
}

// A stage's body in loop variables, reading buffers: axis vars -> root values, loads -> buffer loads
// (relative to the producer's region when the producer is computed inside a loop).
Expr NestBuilder::lowerValue(int s, const Expr& e)
{
    const StageBounds& si = m_bounds[s];
    const ir::ExprNode& x = *e;
    if (x.kind == ExprKind::Var) {
        for (const auto& [v, value] : si.axisValues)
            if (v.sameAs(e))
                return value;
        return e;
    }
    if (x.kind == ExprKind::Load) {
        const int producer = m_bounds.stageOf.at(x.tensor.get());
        const StageBounds& pi = m_bounds[producer];
        std::vector<Expr> indices;
        indices.reserve(x.operands.size());
        for (size_t d = 0; d < x.operands.size(); ++d) {
            Expr index = lowerValue(s, x.operands[d]);
            if (d < pi.regionMin.size())
                index = index - pi.regionMin[d];
            indices.push_back(m_bounds.analyzer.simplify(index));
        }
        return ir::bufferLoad(buffer(producer), std::move(indices));
    }
    // Other nodes: rebuilt only when an operand changes (ir::rewrite's rule).
    ir::ExprList operands;
    for (size_t i = 0; i < x.operands.size(); ++i) {
        Expr lowered = lowerValue(s, x.operands[i]);
        if (operands.empty() && lowered.sameAs(x.operands[i]))
            continue;
        if (operands.empty()) {
            operands.reserve(x.operands.size());
            for (size_t k = 0; k < i; ++k)
                operands.push_back(x.operands[k]);
        }
        operands.push_back(std::move(lowered));
    }
    return operands.empty() ? e : ir::withOperands(e, std::move(operands));
}

// Whether stage s's loop p, or a loop around it, runs more than once per GPU thread: a serial loop (vthread
// included) of extent > 1 in the stage or on its way out to root.
bool NestBuilder::repeats(int s, size_t p) const
{
    for (int hops = 0; hops <= m_state.numStages(); ++hops) {
        for (size_t q = 0; q <= p; ++q) {
            const LoopKind& kind = m_kinds[static_cast<size_t>(s)][q];
            const bool hardwareThread = kind.kind == ForKind::ThreadBinding && kind.threadTag != "vthread";
            if (!hardwareThread && m_bounds[s].iterExtents[q] > 1)
                return true;
        }
        if (stage(s).computeAt != sched::ComputeAtKind::Iter)
            return false;
        p = static_cast<size_t>(stage(s).attachIter);
        s = stage(s).attachStage;
    }
    return false;
}

// The stages computed at stage s's loop p, each allocated around the rest, their nests before `inner`
// (TVM's order). On a GPU, the block's threads meet at a barrier after the shared stages are written, and
// before they are written again when a loop repeats them (the last readers must be done).
Stmt NestBuilder::attachedNests(int s, size_t p, Stmt inner)
{
    std::vector<int> attached = m_state.attachedAt(s, static_cast<int>(p));
    bool shared = false;
    for (int a : attached)
        shared = shared || (m_gpu && buffer(a)->scope == "shared");
    if (shared)
        inner = makeSeq({ makeBarrier(), std::move(inner) });
    for (size_t k = attached.size(); k-- > 0;) {
        const int a = attached[k];
        std::vector<Stmt> body;
        const bool firstShared = shared && buffer(a)->scope == "shared"
            && std::none_of(attached.begin(), attached.begin() + static_cast<long>(k),
                [&](int b) { return buffer(b)->scope == "shared"; });
        if (firstShared && repeats(s, p))
            body.push_back(makeBarrier());
        body.push_back(stageNest(a));
        body.push_back(std::move(inner));
        inner = makeAllocate(buffer(a), makeSeq(std::move(body)));
    }
    return inner;
}

Stmt NestBuilder::loop(int s, size_t p, Stmt body) const
{
    const StageBounds& si = m_bounds[s];
    const LoopKind& kind = m_kinds[static_cast<size_t>(s)][p];
    return makeFor(
        si.leafVars[p], si.iterExtents[p], kind.kind, std::move(body), stage(s).autoUnrollMaxStep, kind.threadTag);
}

Stmt NestBuilder::stageNest(int s)
{
    const StageBounds& si = m_bounds[s];
    const Stage& st = stage(s);
    const ir::Operation& op = *st.op;
    std::vector<Expr> index;
    for (size_t d = 0; d < op.axes().size(); ++d)
        index.push_back(m_bounds.analyzer.simplify(si.rootValues[d] - si.regionMin[d]));
    const Expr value = lowerValue(s, si.body);
    const size_t n = st.iters.size();
    for (size_t p = 0; p < n; ++p)
        if (isReduce(st.iters[p]) && isHardwareThread(m_kinds[static_cast<size_t>(s)][p]))
            return crossThreadNest(s, index, value);

    Stmt update;
    if (op.reducer() == ir::Reducer::None) {
        update = makeStore(buffer(s), index, value);
    } else {
        const Expr current = ir::bufferLoad(buffer(s), index);
        update = makeStore(buffer(s), index, ir::combine(op.reducer(), current, value));
    }
    if (Expr g = guard(s, false); g.defined())
        update = makeIf(g, update);

    size_t firstReduce = n;
    for (size_t p = 0; p < n; ++p)
        if (isReduce(st.iters[p])) {
            firstReduce = p;
            break;
        }
    Stmt init;
    if (op.reducer() != ir::Reducer::None) {
        init = makeStore(buffer(s), index, ir::floatImm(ir::reducerIdentity(op.reducer()), op.dtype()));
        if (Expr g = guard(s, true); g.defined())
            init = makeIf(g, init);
        for (size_t p = n; p-- > firstReduce;)
            if (!isReduce(st.iters[p]))
                init = loop(s, p, init);
    }
    Stmt inner = update;
    for (size_t p = n; p-- > 0;) {
        inner = attachedNests(s, p, inner);
        inner = loop(s, p, inner);
        if (p == firstReduce && init)
            inner = makeSeq({ init, inner });
    }
    return inner;
}

// A reduction spread over threadIdx (TVM's MakeCrossThreadReduction): the spatial loops and the
// thread-bound reduce loops stay in their order; inside them, the other reduce loops accumulate each
// thread's share in a local `<name>.partial`, an AllReduce combines the shares of the threads into
// `<name>.red` (every thread of the group gets the result), and each thread stores it (the same value, as
// TVM does: the buffer may be a thread's own local copy). The bounds guard selects the identity for values
// outside the tensor, so every thread reaches the AllReduce.
Stmt NestBuilder::crossThreadNest(int s, const std::vector<Expr>& index, const Expr& value)
{
    const Stage& st = stage(s);
    const ir::Operation& op = *st.op;
    const StageBounds& si = m_bounds[s];
    const auto& kinds = m_kinds[static_cast<size_t>(s)];
    const size_t n = st.iters.size();
    const Expr identity = ir::floatImm(ir::reducerIdentity(op.reducer()), op.dtype());
    auto local = [&](const std::string& suffix) {
        auto b = std::make_shared<ir::BufferVar>();
        b->name = op.name() + suffix;
        b->dtype = op.dtype();
        b->scope = "local";
        b->shape = { 1 };
        b->strides = { 1 };
        return ir::BufferRef(b);
    };
    const Expr zero = ir::intImm(0);
    const ir::BufferRef red = local(".red");
    std::vector<size_t> normal;
    std::vector<Expr> threads;
    for (size_t p = 0; p < n; ++p) {
        if (!isReduce(st.iters[p]))
            continue;
        if (isHardwareThread(kinds[p]))
            threads.push_back(si.leafVars[p]);
        else
            normal.push_back(p);
    }
    const Expr inside = guard(s, false);
    Stmt reduce;
    ir::BufferRef partial;
    if (normal.empty()) {
        reduce = makeAllReduce(
            op.reducer(), red, { zero }, inside.defined() ? ir::select(inside, value, identity) : value, threads);
    } else {
        partial = local(".partial");
        const Expr current = ir::bufferLoad(partial, { zero });
        Stmt update = makeStore(partial, { zero }, ir::combine(op.reducer(), current, value));
        if (inside.defined())
            update = makeIf(inside, update);
        for (size_t k = normal.size(); k-- > 0;)
            update = loop(s, normal[k], update);
        reduce = makeSeq({ makeStore(partial, { zero }, identity), update,
            makeAllReduce(op.reducer(), red, { zero }, current, threads) });
    }
    Stmt store = makeStore(buffer(s), index, ir::bufferLoad(red, { zero }));
    if (Expr g = guard(s, true); g.defined())
        store = makeIf(g, store);
    Stmt inner = makeAllocate(red, makeSeq({ reduce, store }));
    if (partial)
        inner = makeAllocate(partial, inner);
    for (size_t p = n; p-- > 0;) {
        if (isReduce(st.iters[p]) && !isHardwareThread(kinds[p]))
            continue;
        inner = attachedNests(s, p, inner);
        inner = loop(s, p, inner);
    }
    return inner;
}

LoweredFunc NestBuilder::build()
{
    const int n = m_state.numStages();
    LoweredFunc func;
    m_buffers.resize(static_cast<size_t>(n));
    for (int s = 0; s < n; ++s) {
        if (!stage(s).isPlaceholder() && !m_bounds[s].active)
            continue;
        m_buffers[static_cast<size_t>(s)] = makeBuffer(s);
        if (stage(s).isPlaceholder()) {
            func.args.push_back(buffer(s));
            func.argStages.push_back(s);
        }
    }
    func.numInputs = static_cast<int>(func.args.size());
    for (int s = 0; s < n; ++s)
        if (m_bounds[s].output) {
            func.args.push_back(buffer(s));
            func.argStages.push_back(s);
        }

    std::vector<Stmt> roots;
    std::vector<ir::BufferRef> rootBuffers;
    for (int s = 0; s < n; ++s) {
        if (!m_bounds[s].active || stage(s).computeAt != sched::ComputeAtKind::Root)
            continue;
        roots.push_back(stageNest(s));
        if (!m_bounds[s].output)
            rootBuffers.push_back(buffer(s));
    }
    Stmt body = makeSeq(std::move(roots));
    for (auto b = rootBuffers.rbegin(); b != rootBuffers.rend(); ++b)
        body = makeAllocate(*b, body);
    func.body = body;
    return func;
}

Expected<LoweredFunc> scheduleOps(const sched::State& state, const target::Target& target)
{
    TS_TRY(const StageLoopKinds kinds, loopKinds(state, target));
    TS_TRY(const Bounds bounds, inferBounds(state));
    return NestBuilder(state, bounds, kinds, target.isGpu()).build();
}

} // namespace ts::lower
