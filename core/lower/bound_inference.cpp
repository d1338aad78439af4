#include "core/lower/bound_inference.h"

#include "core/schedule/iter_graph.h"

#include <algorithm>
#include <deque>
#include <set>
#include <string_view>
#include <unordered_set>

namespace ts::lower {

using ir::Expr;
using ir::ExprKind;
using sched::Stage;

namespace {
    // The ops a body loads from (with repeats).
    std::vector<const ir::Operation*> readOps(const Expr& body)
    {
        std::vector<const ir::Operation*> ops;
        ir::postOrderVisit(body, [&](const ir::ExprNode& n) {
            if (n.kind == ExprKind::Load)
                ops.push_back(n.tensor.get());
        });
        return ops;
    }

    bool contains(const std::vector<const ir::Operation*>& ops, const ir::Operation* op)
    {
        return std::find(ops.begin(), ops.end(), op) != ops.end();
    }

    // TVM's thread ranks: blockIdx 0, threadIdx and vthread 1; -1 for a loop bound to no thread.
    int threadRank(sched::Annotation a)
    {
        switch (a) {
        case sched::Annotation::BlockX:
        case sched::Annotation::BlockY:
        case sched::Annotation::BlockZ:
            return 0;
        case sched::Annotation::ThreadX:
        case sched::Annotation::ThreadY:
        case sched::Annotation::ThreadZ:
        case sched::Annotation::VThread:
            return 1;
        default:
            return -1;
        }
    }

    // TVM's storage ranks: global 0, shared 1, warp 2, local 3.
    int storageRank(const std::string& scope)
    {
        if (scope == "shared")
            return 1;
        if (scope == "warp")
            return 2;
        if (scope == "local")
            return 3;
        return 0;
    }

    // Calls f(stage, iter) for each loop enclosing stage s's attach point, innermost first.
    template <typename F> void forEnclosingLoops(const sched::State& state, int s, F&& f)
    {
        for (int hops = 0; state.stage(s).computeAt == sched::ComputeAtKind::Iter && hops <= state.numStages();
             ++hops) {
            const int t = state.stage(s).attachStage;
            for (int p = state.stage(s).attachIter; p >= 0; --p)
                f(t, p);
            s = t;
        }
    }

    class BoundInference {
    public:
        explicit BoundInference(const sched::State& state)
            : m_state(state)
        {
            m_out.stages.resize(static_cast<size_t>(state.numStages()));
        }

        Expected<Bounds> run();

    private:
        StageBounds& info(int s) { return m_out.stages[static_cast<size_t>(s)]; }
        const Stage& stage(int s) const { return m_state.stage(s); }

        Expr inlineLoads(const Expr& e);
        Expected<void> inferStage(int s);
        using VarSet = std::vector<const ir::ExprNode*>; // sorted
        Expected<VarSet> rangingLoops(int s, int consumer);
        void regionFromConsumers(int s, const std::vector<std::pair<int, VarSet>>& consumers);
        std::string uniqueName(const std::string& name, const std::string& stageName);

        const sched::State& m_state;
        Bounds m_out;
        // Names taken: op and iterator names (stable in m_state) and the renamed ones (in m_renamed).
        std::unordered_set<std::string_view> m_names;
        std::deque<std::string> m_renamed;
    };
} // namespace

std::string storageScope(const sched::State& state, int s)
{
    if (!state.stage(s).scope.empty())
        return state.stage(s).scope;
    // TVM counts thread_extent loops only: a vthread alone does not make a buffer local.
    bool inThread = false, inBlock = false;
    forEnclosingLoops(state, s, [&](int t, int p) {
        const sched::Annotation a = state.stage(t).iters[static_cast<size_t>(p)].annotation;
        inThread = inThread || (threadRank(a) == 1 && a != sched::Annotation::VThread);
        inBlock = inBlock || threadRank(a) == 0;
    });
    return inThread ? "local" : inBlock ? "shared" : "global";
}

Error stageError(const sched::State& state, int stage, const std::string& why)
{
    return makeError(
        ErrorKind::Unsupported, "stage " + std::to_string(stage) + " (" + state.stage(stage).op->name() + "): " + why);
}

std::string BoundInference::uniqueName(const std::string& name, const std::string& stageName)
{
    if (m_names.insert(name).second) // name lives in m_state
        return name;
    std::string candidate = name + "_" + stageName;
    for (int k = 2; m_names.count(candidate); ++k)
        candidate = name + "_" + stageName + std::to_string(k);
    m_names.insert(m_renamed.emplace_back(candidate));
    return candidate;
}

// Loads of inlined stages become their bodies, with the stage's axes bound to the load's indices.
Expr BoundInference::inlineLoads(const Expr& e)
{
    return ir::rewrite(e, [&](const Expr& x) -> Expr {
        if (x->kind != ExprKind::Load)
            return Expr();
        const int producer = m_out.stageOf.at(x->tensor.get());
        if (stage(producer).computeAt != sched::ComputeAtKind::Inlined)
            return Expr();
        std::vector<std::pair<Expr, Expr>> bind;
        const auto& axes = stage(producer).op->axes();
        for (size_t d = 0; d < axes.size(); ++d)
            bind.emplace_back(axes[d].var, inlineLoads(x->operands[d]));
        return ir::substitute(inlineLoads(stage(producer).op->body()), bind);
    });
}

// The loops that run while one instance of stage s, computed at (T, t), stays valid, as seen from its
// consumer C: C's loops, the loops of each stage C is nested in on its way to T (C -> C1 -> ... -> T),
// and T's loops after t. Like TVM's InferRootBound, the loop t must enclose C: C is T, or C's attach chain
// reaches T at loop t or inside it.
Expected<BoundInference::VarSet> BoundInference::rangingLoops(int s, int consumer)
{
    const int target = stage(s).attachStage;
    const int attachIter = stage(s).attachIter;
    VarSet ranging;
    int c = consumer;
    size_t last = info(target).leafVars.size(); // T's loops (attachIter, last) enclose the consumer
    for (int hops = 0; c != target; ++hops) {
        const Stage& cs = stage(c);
        if (cs.computeAt != sched::ComputeAtKind::Iter || hops > m_state.numStages()) {
            c = -1;
            break;
        }
        for (const Expr& v : info(c).leafVars)
            ranging.push_back(v.get());
        last = static_cast<size_t>(cs.attachIter) + 1;
        c = cs.attachStage;
    }
    if (c != target || static_cast<int>(last) <= attachIter) {
        const std::string loop = stage(target).iters[static_cast<size_t>(attachIter)].name;
        return stageError(m_state, s,
            "computed at " + stage(target).op->name() + "'s loop " + loop + ", but its consumer "
                + stage(consumer).op->name() + " is not inside that loop");
    }
    for (size_t p = static_cast<size_t>(attachIter) + 1; p < last; ++p)
        ranging.push_back(info(target).leafVars[p].get());
    // GPU: the thread loops outside the attach point that the buffer's scope spans.
    const int rank = storageRank(storageScope(m_state, s));
    forEnclosingLoops(m_state, s, [&](int t, int p) {
        const int tr = threadRank(stage(t).iters[static_cast<size_t>(p)].annotation);
        if (tr >= 0 && rank <= tr)
            ranging.push_back(info(t).leafVars[static_cast<size_t>(p)].get());
    });
    std::sort(ranging.begin(), ranging.end());
    ranging.erase(std::unique(ranging.begin(), ranging.end()), ranging.end());
    return ranging;
}

// The region of stage s its consumers read, each consumer's ranging loops (rangingLoops) taken over their
// extents and every other loop fixed; the union over the consumers.
void BoundInference::regionFromConsumers(int s, const std::vector<std::pair<int, VarSet>>& consumers)
{
    StageBounds& si = info(s);
    arith::Analyzer& analyzer = m_out.analyzer;
    const size_t rank = stage(s).op->axes().size();
    struct DimRegion {
        bool seen = false;
        Expr fixedPart;
        int64_t lo = 0, hi = 0;
        bool whole = false;
    };
    std::vector<DimRegion> dims(rank);
    for (const auto& [consumer, ranging] : consumers) {
        const StageBounds& ci = info(consumer);
        // A term that reads a tensor (ops::take's row: a cast of a loaded index) varies with data, not with the
        // loops: like a ranging term, it spans its whole bound (the clamp's), or the whole axis when unbounded.
        auto usesRanging = [&](const Expr& e) {
            bool found = false;
            ir::postOrderVisit(e, [&](const ir::ExprNode& x) {
                found = found || (x.kind == ExprKind::Var && std::binary_search(ranging.begin(), ranging.end(), &x))
                    || x.kind == ExprKind::Load || x.kind == ExprKind::BufferLoad;
            });
            return found;
        };
        // The consumer's axes stand for their values in its loop variables (substituted while simplifying).
        for (const auto& [axis, value] : ci.axisValues)
            analyzer.bindValue(axis, value);
        ir::postOrderVisit(ci.body, [&](const ir::ExprNode& n) {
            if (n.kind != ExprKind::Load || n.tensor.get() != stage(s).op.get())
                return;
            for (size_t d = 0; d < rank; ++d) {
                const Expr index = analyzer.simplify(n.operands[d]);
                const arith::Linear form = analyzer.linear(index);
                arith::Linear fixed;
                fixed.constant = 0;
                int64_t lo = form.constant, hi = form.constant;
                for (const arith::LinearTerm& t : form.terms) {
                    if (!usesRanging(t.atom)) {
                        fixed.terms.push_back(t);
                        continue;
                    }
                    const arith::Interval r = analyzer.boundScaled(t.atom, t.coef); // bound(atom * coef)
                    if (!r.bounded) {
                        dims[d].whole = true;
                        break;
                    }
                    lo += r.lo;
                    hi += r.hi;
                }
                DimRegion& region = dims[d];
                const Expr fixedPart = arith::Analyzer::fromLinear(fixed);
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
        for (const auto& [axis, value] : ci.axisValues)
            analyzer.unbind(axis);
    }
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
        si.regionMin.push_back(analyzer.simplify(region.fixedPart + ir::intImm(region.lo)));
        si.rootExtents.push_back(region.hi - region.lo + 1);
    }
}

Expected<void> BoundInference::inferStage(int s)
{
    StageBounds& si = info(s);
    const Stage& st = stage(s);
    const ir::Operation& op = *st.op;
    if (st.computeAt == sched::ComputeAtKind::Iter) {
        const int target = st.attachStage;
        if (!info(target).active)
            return stageError(m_state, s, "computed at stage " + stage(target).op->name() + ", which is inlined");
        if (target < s)
            return stageError(m_state, s,
                "computed at stage " + stage(target).op->name() + ", which comes before it in the stage order");
        std::vector<std::pair<int, VarSet>> consumers;
        for (int c : si.consumers) {
            TS_TRY(VarSet ranging, rangingLoops(s, c));
            consumers.emplace_back(c, std::move(ranging));
        }
        regionFromConsumers(s, consumers);
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
    si.iterExtents.clear();
    for (const sched::Iterator& it : st.iters) {
        Expr v = ir::var(uniqueName(it.name, op.name()));
        const int64_t extent = si.nodeExtents[static_cast<size_t>(it.node)];
        m_out.analyzer.bind(v, 0, extent - 1);
        values[static_cast<size_t>(it.node)] = v;
        si.leafVars.push_back(v);
        si.iterExtents.push_back(extent);
    }
    sched::passUpValues(st, si.nodeExtents, values);
    si.rootValues.clear();
    si.localValues.clear();
    for (int k = 0; k < st.numRootNodes(); ++k) {
        Expr value = values[static_cast<size_t>(k)];
        si.localValues.push_back(m_out.analyzer.simplify(value));
        if (static_cast<size_t>(k) < si.regionMin.size())
            value = si.regionMin[static_cast<size_t>(k)] + value;
        si.rootValues.push_back(m_out.analyzer.simplify(value));
    }
    si.axisValues.clear();
    size_t k = 0;
    for (const ir::IterVar& a : op.axes())
        si.axisValues.emplace_back(a.var, si.rootValues[k++]);
    for (const ir::IterVar& a : op.reduceAxes())
        si.axisValues.emplace_back(a.var, si.rootValues[k++]);
    return {};
}

Expected<Bounds> BoundInference::run()
{
    const int n = m_state.numStages();
    for (int s = 0; s < n; ++s)
        m_out.stageOf[stage(s).op.get()] = s;
    // Argument and loop names must not collide.
    m_names.reserve(static_cast<size_t>(n) * 16);
    for (int s = 0; s < n; ++s)
        m_names.insert(stage(s).op->name());
    for (int s = 0; s < n; ++s)
        info(s).active = !stage(s).isPlaceholder() && stage(s).computeAt != sched::ComputeAtKind::Inlined;
    for (int s = 0; s < n; ++s) {
        if (!info(s).active)
            continue;
        info(s).body = inlineLoads(stage(s).op->body());
        const std::vector<const ir::Operation*> reads = readOps(info(s).body);
        for (int p = 0; p < n; ++p)
            if (info(p).active && p != s && contains(reads, stage(p).op.get()))
                info(p).consumers.push_back(s);
    }
    // Outputs: compute ops that no op reads.
    std::vector<const ir::Operation*> readByAny;
    for (int c = 0; c < n; ++c)
        if (!stage(c).isPlaceholder())
            for (const ir::Operation* op : readOps(stage(c).op->body()))
                readByAny.push_back(op);
    for (int s = 0; s < n; ++s)
        info(s).output = !stage(s).isPlaceholder() && !contains(readByAny, stage(s).op.get());
    for (int s = n; s-- > 0;) {
        if (!info(s).active) {
            for (const sched::Iterator& it : stage(s).iters)
                info(s).iterExtents.push_back(it.extent);
            continue;
        }
        if (info(s).output && stage(s).computeAt != sched::ComputeAtKind::Root)
            return stageError(m_state, s, "an output must be computed at root");
        TS_CHECK(inferStage(s));
    }
    return std::move(m_out);
}

Expected<Bounds> inferBounds(const sched::State& state) { return BoundInference(state).run(); }

} // namespace ts::lower
