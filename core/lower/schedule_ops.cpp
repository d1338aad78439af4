// State -> loop nests (TVM's InferBound + ScheduleOps + MakeLoopNest, for one CPU function).
//
// Stages are visited consumers first (reverse stage order). A root stage covers its whole tensor. A stage
// computed at (C, t) covers the region C's body reads while C's loops 0..t are fixed and the loops after t
// run over their extents: for each index of each load, the part that depends only on fixed loops is the
// region's (symbolic) minimum, and the loops after t give its (constant) extent. Splits then pass the
// region's extents down to the stage's own loops (iter_graph.h), and the leaf loop variables pass up to
// the axis values. A value that can leave the tensor (a split that does not divide, a region wider than
// the tensor) gets a guard.
#include "core/lower/analyzer.h"
#include "core/lower/lower.h"
#include "core/schedule/iter_graph.h"
#include "core/support/strings.h"

#include <algorithm>
#include <map>
#include <set>

namespace ts::lower {

using ir::Expr;
using ir::ExprKind;
using sched::Stage;

namespace {
    struct StageInfo {
        bool active = false; // a compute stage that is not inlined
        bool output = false;
        Expr body; // inlined producers substituted
        std::vector<int> consumers; // active stages whose body reads this one
        std::vector<Expr> regionMin; // per spatial axis
        std::vector<int64_t> rootExtents; // region extents, then full reduce extents
        std::vector<int64_t> nodeExtents;
        std::vector<Expr> leafVars; // per iterator
        std::vector<Expr> rootValues; // global value of each root node
        std::vector<Expr> localValues; // value within the region (rootValues - regionMin)
        ir::BufferRef buffer;
    };

    class NestBuilder {
    public:
        explicit NestBuilder(const sched::State& state)
            : m_state(state)
            , m_info(static_cast<size_t>(state.numStages()))
        {
        }

        Expected<LoweredFunc> build();
        std::vector<std::vector<int64_t>> iteratorExtents() const;

    private:
        StageInfo& info(int s) { return m_info[static_cast<size_t>(s)]; }
        const Stage& stage(int s) const { return m_state.stage(s); }
        Error fail(int s, const std::string& why) const
        {
            return makeError(
                ErrorKind::Unsupported, "stage " + std::to_string(s) + " (" + stage(s).op->name() + "): " + why);
        }

        Expr inlineBody(int s);
        Expr inlineLoads(const Expr& e);
        Expected<void> inferStage(int s);
        Expected<void> regionFromConsumer(int s, int consumer, int attachIter);
        Expr lowerValue(int s, const Expr& e);
        Stmt stageNest(int s);
        Stmt allocateAttached(int s, Stmt inner);
        Expr guard(int s, bool spatialOnly);
        std::string uniqueName(const std::string& name, const std::string& stageName);

        const sched::State& m_state;
        std::vector<StageInfo> m_info;
        std::map<const ir::Operation*, int> m_stageOf;
        Analyzer m_analyzer;
        std::set<std::string> m_names;
    };

    std::vector<Expr> axisVars(const ir::Operation& op)
    {
        std::vector<Expr> vars;
        for (const ir::IterVar& a : op.axes())
            vars.push_back(a.var);
        for (const ir::IterVar& a : op.reduceAxes())
            vars.push_back(a.var);
        return vars;
    }

    bool readsStage(const Expr& body, const ir::Operation* op)
    {
        bool found = false;
        ir::postOrderVisit(
            body, [&](const ir::ExprNode& n) { found |= n.kind == ExprKind::Load && n.tensor.get() == op; });
        return found;
    }

    ForKind forKindOf(sched::Annotation a)
    {
        switch (a) {
        case sched::Annotation::Unroll:
            return ForKind::Unrolled;
        case sched::Annotation::Vectorize:
            return ForKind::Vectorized;
        case sched::Annotation::Parallel:
            return ForKind::Parallel;
        default:
            return ForKind::Serial;
        }
    }
} // namespace

std::string NestBuilder::uniqueName(const std::string& name, const std::string& stageName)
{
    std::string candidate = name;
    if (m_names.count(candidate))
        candidate = name + "_" + stageName;
    for (int k = 2; m_names.count(candidate); ++k)
        candidate = name + "_" + stageName + std::to_string(k);
    m_names.insert(candidate);
    return candidate;
}

Expr NestBuilder::inlineBody(int s)
{
    StageInfo& si = info(s);
    if (!si.body.defined())
        si.body = inlineLoads(stage(s).op->body());
    return si.body;
}

// Loads of inlined stages become their bodies, with the stage's axes bound to the load's indices.
Expr NestBuilder::inlineLoads(const Expr& e)
{
    return ir::rewrite(e, [&](const Expr& x) -> Expr {
        if (x->kind != ExprKind::Load)
            return Expr();
        const int producer = m_stageOf.at(x->tensor.get());
        if (stage(producer).computeAt != sched::ComputeAtKind::Inlined)
            return Expr();
        std::vector<std::pair<Expr, Expr>> bind;
        const auto& axes = stage(producer).op->axes();
        for (size_t d = 0; d < axes.size(); ++d)
            bind.emplace_back(axes[d].var, inlineLoads(x->operands[d]));
        return ir::substitute(inlineLoads(stage(producer).op->body()), bind);
    });
}

// The region of stage s that `consumer` reads, with consumer loops 0..attachIter fixed.
Expected<void> NestBuilder::regionFromConsumer(int s, int consumer, int attachIter)
{
    StageInfo& si = info(s);
    const StageInfo& ci = info(consumer);
    const Stage& cs = stage(consumer);
    std::set<const ir::ExprNode*> ranging;
    for (size_t p = static_cast<size_t>(attachIter) + 1; p < ci.leafVars.size(); ++p)
        ranging.insert(ci.leafVars[p].get());
    std::vector<std::pair<Expr, Expr>> rootBind;
    const std::vector<Expr> vars = axisVars(*cs.op);
    for (size_t k = 0; k < vars.size(); ++k)
        rootBind.emplace_back(vars[k], ci.rootValues[k]);

    const size_t rank = stage(s).op->axes().size();
    struct DimRegion {
        bool seen = false;
        Expr fixedPart;
        int64_t lo = 0, hi = 0;
        bool whole = false;
    };
    std::vector<DimRegion> dims(rank);
    auto usesRanging = [&](const Expr& e) {
        for (const ir::ExprNode* v : ranging)
            if (ir::usesVar(e, v))
                return true;
        return false;
    };
    bool failed = false;
    ir::postOrderVisit(ci.body, [&](const ir::ExprNode& n) {
        if (n.kind != ExprKind::Load || n.tensor.get() != stage(s).op.get() || failed)
            return;
        for (size_t d = 0; d < rank; ++d) {
            const Expr index = m_analyzer.simplify(ir::substitute(n.operands[d], rootBind));
            const Linear form = m_analyzer.linear(index);
            Linear fixed;
            fixed.constant = 0;
            int64_t lo = form.constant, hi = form.constant;
            for (const LinearTerm& t : form.terms) {
                if (!usesRanging(t.atom)) {
                    fixed.terms.push_back(t);
                    continue;
                }
                const Interval r = m_analyzer.bound(t.atom * ir::intImm(t.coef));
                if (!r.bounded) {
                    dims[d].whole = true;
                    break;
                }
                lo += r.lo;
                hi += r.hi;
            }
            DimRegion& region = dims[d];
            const Expr fixedPart = Analyzer::fromLinear(fixed);
            if (!region.seen) {
                region = DimRegion { true, fixedPart, lo, hi, region.whole };
            } else if (ir::structuralEqual(region.fixedPart, fixedPart)) {
                region.lo = std::min(region.lo, lo);
                region.hi = std::max(region.hi, hi);
            } else {
                region.whole = true;
            }
        }
    });
    si.regionMin.clear();
    si.rootExtents.clear();
    for (size_t d = 0; d < rank; ++d) {
        const DimRegion& region = dims[d];
        const int64_t full = stage(s).op->axes()[d].extent;
        if (!region.seen || region.whole || region.hi - region.lo + 1 >= full) {
            // Not narrower than the tensor: cover it all.
            si.regionMin.push_back(ir::intImm(0));
            si.rootExtents.push_back(full);
            continue;
        }
        si.regionMin.push_back(m_analyzer.simplify(region.fixedPart + ir::intImm(region.lo)));
        si.rootExtents.push_back(region.hi - region.lo + 1);
    }
    return {};
}

Expected<void> NestBuilder::inferStage(int s)
{
    StageInfo& si = info(s);
    const Stage& st = stage(s);
    const ir::Operation& op = *st.op;
    if (st.computeAt == sched::ComputeAtKind::Iter) {
        const int target = st.attachStage;
        if (!info(target).active)
            return fail(s, "computed at stage " + stage(target).op->name() + ", which is inlined");
        for (int c : si.consumers)
            if (c != target)
                return fail(s, "computed at " + stage(target).op->name() + " but also read by " + stage(c).op->name());
        TS_CHECK(regionFromConsumer(s, target, st.attachIter));
    } else {
        si.regionMin.assign(op.axes().size(), ir::intImm(0));
        si.rootExtents.clear();
        for (const ir::IterVar& a : op.axes())
            si.rootExtents.push_back(a.extent);
    }
    for (const ir::IterVar& a : op.reduceAxes())
        si.rootExtents.push_back(a.extent);
    si.nodeExtents = sched::passDownExtents(st, si.rootExtents);

    std::vector<Expr> values(st.nodes.size());
    si.leafVars.clear();
    for (const sched::Iterator& it : st.iters) {
        if (it.annotation != sched::Annotation::None && it.annotation != sched::Annotation::Unroll
            && it.annotation != sched::Annotation::Vectorize && it.annotation != sched::Annotation::Parallel)
            return fail(s,
                std::string("annotation ") + sched::toString(it.annotation) + " on " + it.name + " needs a GPU target");
        Expr v = ir::var(uniqueName(it.name, op.name()));
        const int64_t extent = si.nodeExtents[static_cast<size_t>(it.node)];
        m_analyzer.bind(v, 0, extent - 1);
        values[static_cast<size_t>(it.node)] = v;
        si.leafVars.push_back(v);
    }
    sched::passUpValues(st, si.nodeExtents, values);
    si.rootValues.clear();
    si.localValues.clear();
    for (int k = 0; k < st.numRootNodes(); ++k) {
        Expr value = values[static_cast<size_t>(k)];
        si.localValues.push_back(m_analyzer.simplify(value));
        if (static_cast<size_t>(k) < si.regionMin.size())
            value = si.regionMin[static_cast<size_t>(k)] + value;
        si.rootValues.push_back(m_analyzer.simplify(value));
    }
    return {};
}

Expr NestBuilder::guard(int s, bool spatialOnly)
{
    const StageInfo& si = info(s);
    const ir::Operation& op = *stage(s).op;
    Expr condition;
    auto add = [&](const Expr& c) { condition = condition.defined() ? (condition && c) : c; };
    const size_t count = spatialOnly ? op.axes().size() : si.rootValues.size();
    int64_t zero = 0;
    for (size_t k = 0; k < count; ++k) {
        const int64_t full = k < op.axes().size() ? op.axes()[k].extent : op.reduceAxes()[k - op.axes().size()].extent;
        // Within the region (a split of the region may overshoot it), then within the tensor.
        const Interval local = m_analyzer.bound(si.localValues[k]);
        if (!local.bounded || local.hi >= si.rootExtents[k])
            add(si.localValues[k] < ir::intImm(si.rootExtents[k]));
        const bool regionIsTensor = si.rootExtents[k] == full
            && ir::asConstInt(k < si.regionMin.size() ? si.regionMin[k] : ir::intImm(0), &zero) && zero == 0;
        if (regionIsTensor)
            continue;
        const Interval r = m_analyzer.bound(si.rootValues[k]);
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
    const StageInfo& si = info(s);
    std::vector<std::pair<Expr, Expr>> bind;
    const std::vector<Expr> vars = axisVars(*stage(s).op);
    for (size_t k = 0; k < vars.size(); ++k)
        bind.emplace_back(vars[k], si.rootValues[k]);
    std::function<Expr(const Expr&)> convert = [&](const Expr& x) -> Expr {
        if (x->kind == ExprKind::Var)
            for (const auto& [v, value] : bind)
                if (v.sameAs(x))
                    return value;
        if (x->kind != ExprKind::Load)
            return Expr();
        const StageInfo& pi = info(m_stageOf.at(x->tensor.get()));
        std::vector<Expr> indices;
        for (size_t d = 0; d < x->operands.size(); ++d) {
            Expr index = ir::rewrite(x->operands[d], convert);
            if (d < pi.regionMin.size())
                index = index - pi.regionMin[d];
            indices.push_back(m_analyzer.simplify(index));
        }
        return ir::bufferLoad(pi.buffer, std::move(indices));
    };
    return ir::rewrite(e, convert);
}

Stmt NestBuilder::allocateAttached(int s, Stmt inner)
{
    const StageInfo& si = info(s);
    return makeAllocate(si.buffer, makeSeq({ stageNest(s), std::move(inner) }));
}

Stmt NestBuilder::stageNest(int s)
{
    const StageInfo& si = info(s);
    const Stage& st = stage(s);
    const ir::Operation& op = *st.op;
    std::vector<Expr> index;
    for (size_t d = 0; d < op.axes().size(); ++d)
        index.push_back(m_analyzer.simplify(si.rootValues[d] - si.regionMin[d]));
    const Expr value = lowerValue(s, si.body);
    Stmt update;
    if (op.reducer() == ir::Reducer::None) {
        update = makeStore(si.buffer, index, value);
    } else {
        const Expr current = ir::bufferLoad(si.buffer, index);
        const Expr combined = op.reducer() == ir::Reducer::Sum ? current + value
            : op.reducer() == ir::Reducer::Max                 ? ir::max(current, value)
                                                               : ir::min(current, value);
        update = makeStore(si.buffer, index, combined);
    }
    if (Expr g = guard(s, false); g.defined())
        update = makeIf(g, update);

    const size_t n = st.iters.size();
    size_t firstReduce = n;
    for (size_t p = 0; p < n; ++p)
        if (st.iters[p].kind != sched::IteratorKind::Spatial) {
            firstReduce = p;
            break;
        }
    auto loop = [&](size_t p, Stmt body) {
        return makeFor(si.leafVars[p], si.nodeExtents[static_cast<size_t>(st.iters[p].node)],
            forKindOf(st.iters[p].annotation), std::move(body), st.autoUnrollMaxStep);
    };
    Stmt init;
    if (op.reducer() != ir::Reducer::None) {
        init = makeStore(si.buffer, index, ir::floatImm(ir::reducerIdentity(op.reducer()), op.dtype()));
        if (Expr g = guard(s, true); g.defined())
            init = makeIf(g, init);
        for (size_t p = n; p-- > firstReduce;)
            if (st.iters[p].kind == sched::IteratorKind::Spatial)
                init = loop(p, init);
    }
    Stmt inner = update;
    for (size_t p = n; p-- > 0;) {
        for (int a : [&] {
                 auto attached = m_state.attachedAt(s, static_cast<int>(p));
                 std::reverse(attached.begin(), attached.end());
                 return attached;
             }())
            inner = allocateAttached(a, inner);
        inner = loop(p, inner);
        if (p == firstReduce && init)
            inner = makeSeq({ init, inner });
    }
    return inner;
}

Expected<LoweredFunc> NestBuilder::build()
{
    const int n = m_state.numStages();
    for (int s = 0; s < n; ++s)
        m_stageOf[stage(s).op.get()] = s;
    // Argument and loop names must not collide.
    for (int s = 0; s < n; ++s)
        m_names.insert(stage(s).op->name());
    for (int s = 0; s < n; ++s)
        info(s).active = !stage(s).isPlaceholder() && stage(s).computeAt != sched::ComputeAtKind::Inlined;
    for (int s = 0; s < n; ++s) {
        if (!info(s).active)
            continue;
        const Expr body = inlineBody(s);
        for (int p = 0; p < n; ++p)
            if (info(p).active && p != s && readsStage(body, stage(p).op.get()))
                info(p).consumers.push_back(s);
    }
    // Outputs: compute ops that no op reads.
    for (int s = 0; s < n; ++s) {
        bool read = false;
        for (int c = 0; c < n; ++c)
            read = read || (!stage(c).isPlaceholder() && readsStage(stage(c).op->body(), stage(s).op.get()));
        info(s).output = !stage(s).isPlaceholder() && !read;
    }

    LoweredFunc func;
    for (int s = 0; s < n; ++s) {
        const ir::Operation& op = *stage(s).op;
        if (!stage(s).isPlaceholder() && !info(s).active)
            continue;
        auto buffer = std::make_shared<ir::BufferVar>();
        buffer->name = op.name();
        buffer->dtype = op.dtype();
        buffer->scope = stage(s).computeAt == sched::ComputeAtKind::Iter ? "local" : "global";
        info(s).buffer = buffer;
        if (stage(s).isPlaceholder()) {
            buffer->shape = op.shape();
            func.args.push_back(buffer);
            func.argStages.push_back(s);
        }
    }
    func.numInputs = static_cast<int>(func.args.size());

    for (int s = n; s-- > 0;) {
        if (!info(s).active)
            continue;
        TS_CHECK(inferStage(s));
        // The buffer holds the region (the whole tensor for root stages), rows padded by storage_align.
        auto buffer = std::const_pointer_cast<ir::BufferVar>(info(s).buffer);
        const size_t rank = stage(s).op->axes().size();
        buffer->shape.assign(info(s).rootExtents.begin(), info(s).rootExtents.begin() + static_cast<long>(rank));
        buffer->strides.assign(rank, 1);
        for (size_t d = rank; d-- > 0;) {
            if (d + 1 < rank)
                buffer->strides[d] = buffer->strides[d + 1] * buffer->shape[d + 1];
            for (const sched::StorageAlign& align : stage(s).storageAligns)
                if (static_cast<size_t>(align.axis) == d && !info(s).output) { // outputs keep the caller's layout
                    const int64_t stride = buffer->strides[d];
                    buffer->strides[d]
                        = (stride - align.offset + align.factor - 1) / align.factor * align.factor + align.offset;
                }
        }
        if (info(s).output && stage(s).computeAt != sched::ComputeAtKind::Root)
            return fail(s, "an output must be computed at root");
    }
    for (int s = 0; s < n; ++s)
        if (info(s).output) {
            func.args.push_back(info(s).buffer);
            func.argStages.push_back(s);
        }

    std::vector<Stmt> roots;
    std::vector<ir::BufferRef> rootBuffers;
    for (int s = 0; s < n; ++s) {
        if (!info(s).active || stage(s).computeAt != sched::ComputeAtKind::Root)
            continue;
        roots.push_back(stageNest(s));
        if (!info(s).output)
            rootBuffers.push_back(info(s).buffer);
    }
    Stmt body = makeSeq(std::move(roots));
    for (auto b = rootBuffers.rbegin(); b != rootBuffers.rend(); ++b)
        body = makeAllocate(*b, body);
    func.body = body;
    return func;
}

std::vector<std::vector<int64_t>> NestBuilder::iteratorExtents() const
{
    std::vector<std::vector<int64_t>> out;
    for (int s = 0; s < m_state.numStages(); ++s) {
        std::vector<int64_t> extents;
        const StageInfo& si = m_info[static_cast<size_t>(s)];
        for (const sched::Iterator& it : stage(s).iters)
            extents.push_back(si.nodeExtents.empty() ? it.extent : si.nodeExtents[static_cast<size_t>(it.node)]);
        out.push_back(std::move(extents));
    }
    return out;
}

Expected<LoweredFunc> scheduleOps(const sched::State& state, std::vector<std::vector<int64_t>>* iterExtents)
{
    NestBuilder builder(state);
    TS_TRY(LoweredFunc func, builder.build());
    if (iterExtents)
        *iterExtents = builder.iteratorExtents();
    return func;
}

} // namespace ts::lower
