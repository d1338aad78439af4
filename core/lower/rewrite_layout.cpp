// Pass: layout rewrite (Ansor's layout_rewrite_option 1, INSERT_TRANSFORM_STAGE, the default TVM gives a CPU
// task). A weight (a constant input of a conv2d, dense, matmul or batch_matmul) is read by the tiled loops of one stage
// in an order its own layout does not follow: `weight[ff, rc, ry, rx]` under loops ff.0, rc.0, ..., ff.3 strides
// through memory on every inner iteration. The pass packs the weight once, at the start of the function, into
// the layout the loops read: one dimension per split part of its axes, in the stage's loop order (a fused
// loop's parts in their fuse order), so that the innermost loops walk it contiguously. Every load of
// weight[i...] becomes packed[(i_d / stride) % extent, ...], which simplification turns into the loop
// variables themselves.
//
// TVM inserts the packing as a stage of the DAG; here it is a loop nest the pass prepends, in the function, so
// it is timed with the kernel as TVM's measurements of option 1 are. With option 2 (REWRITE_FOR_PRE_TRANSFORMED:
// the weights a network runs with are packed once, by constant folding) the nest is the function's setup, run
// once before the timed runs, and the packed weight a "static" buffer that lives as long as the loaded kernel. Splits
// that do not divide pad the packed buffer with zeros (the loops that would read them are guarded). Weights the pass
// cannot rewrite (read by two stages, through a fused-then-split loop, with indices that are not plain axis variables)
// are left as they are.
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"
#include "core/lower/stmt_visitor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace ts::lower {

bool hasLayoutFreeWeight(const std::string& tag)
{
    static const std::set<std::string> kTags { "conv2d_nchw", "conv2d_nhwc", "group_conv2d_nchw", "group_conv2d_nhwc",
        "dense", "matmul", "batch_matmul" };
    return kTags.count(tag) > 0;
}

std::vector<int> loadAxes(const ir::Operation& op, const ir::Tensor& tensor)
{
    std::vector<int> axes;
    bool found = false;
    ir::postOrderVisit(op.body(), [&](const ir::ExprNode& n) {
        if (n.kind != ir::ExprKind::Load || n.tensor != tensor || found)
            return;
        found = true;
        for (const ir::Expr& index : n.operands) {
            int root = -1;
            for (size_t a = 0; a < op.axes().size(); ++a)
                if (op.axes()[a].var.get() == index.get())
                    root = static_cast<int>(a);
            for (size_t a = 0; a < op.reduceAxes().size(); ++a)
                if (op.reduceAxes()[a].var.get() == index.get())
                    root = static_cast<int>(op.axes().size() + a);
            axes.push_back(root);
        }
    });
    return axes;
}

namespace {
    // One split part of a weight axis: its iterator-graph node, extent and stride in the axis.
    struct Part {
        int node = -1;
        int dim = 0; // the weight's dimension
        int64_t extent = 1;
        int64_t stride = 1;
        bool outermost = false; // of its dimension: no modulo needed
    };

    // The parts of root node `root` (outer to inner) through the stage's splits; nullopt when a part is split
    // after a fuse or has no known extent.
    std::optional<std::vector<Part>> partsOf(const sched::Stage& stage, int root, int dim)
    {
        std::vector<Part> parts;
        bool ok = true;
        auto walk = [&](auto&& self, int node, int64_t stride) -> void {
            for (const sched::IterRelation& r : stage.relations)
                if (r.kind == sched::IterRelation::Kind::Split && r.parent == node) {
                    const int64_t inner = stage.nodes[static_cast<size_t>(r.inner)].extent;
                    if (inner <= 0) {
                        ok = false;
                        return;
                    }
                    self(self, r.outer, stride * inner);
                    self(self, r.inner, stride);
                    return;
                }
            const int64_t extent = stage.nodes[static_cast<size_t>(node)].extent;
            if (extent <= 0)
                ok = false;
            parts.push_back(Part { node, dim, extent, stride, false });
        };
        walk(walk, root, 1);
        if (!ok || parts.empty())
            return std::nullopt;
        parts.front().outermost = true;
        return parts;
    }

    // The nodes of the stage's loops, outer to inner, a fused loop expanded into what it fused.
    std::vector<int> loopNodes(const sched::Stage& stage)
    {
        std::vector<int> out;
        auto expand = [&](auto&& self, int node) -> void {
            for (const sched::IterRelation& r : stage.relations)
                if (r.kind == sched::IterRelation::Kind::Fuse && r.result == node) {
                    for (int f : r.fused)
                        self(self, f);
                    return;
                }
            out.push_back(node);
        };
        for (const sched::Iterator& it : stage.iters)
            expand(expand, it.node);
        return out;
    }

    struct Rewrite {
        ir::BufferRef weight;
        ir::BufferRef packed;
        std::vector<Part> layout; // the packed buffer's dimensions, outer to inner
    };

    // The layout the one stage reading `weight` (placeholder stage `ps`) wants, or nullopt; the packed buffer in
    // `scope`.
    std::optional<Rewrite> planFor(
        const sched::State& state, int ps, const ir::BufferRef& weight, const std::string& scope)
    {
        const ir::Tensor& placeholder = state.stage(ps).op;
        int reader = -1;
        for (int s = 0; s < state.numStages(); ++s) {
            const sched::Stage& stage = state.stage(s);
            if (stage.isPlaceholder())
                continue;
            const auto& inputs = stage.op->inputs();
            if (std::find(inputs.begin(), inputs.end(), placeholder) == inputs.end())
                continue;
            if (reader >= 0)
                return std::nullopt; // read by two stages
            reader = s;
        }
        if (reader < 0)
            return std::nullopt;
        const sched::Stage& stage = state.stage(reader);
        const ir::Operation& op = *stage.op;
        if (!hasLayoutFreeWeight(op.tag()) || op.inputs().size() < 2 || op.inputs()[1] != placeholder)
            return std::nullopt;
        // The load's indices must be the op's axis variables, each once.
        const std::vector<int> rootOfDim = loadAxes(op, placeholder);
        bool plain = rootOfDim.size() == placeholder->shape().size();
        for (size_t d = 0; d < rootOfDim.size(); ++d)
            plain = plain && rootOfDim[d] >= 0
                && std::count(rootOfDim.begin(), rootOfDim.begin() + static_cast<long>(d), rootOfDim[d]) == 0;
        if (!plain)
            return std::nullopt;
        std::map<int, Part> partOfNode;
        for (size_t d = 0; d < rootOfDim.size(); ++d) {
            auto parts = partsOf(stage, rootOfDim[d], static_cast<int>(d));
            if (!parts)
                return std::nullopt;
            for (const Part& p : *parts)
                partOfNode[p.node] = p;
        }
        Rewrite plan;
        plan.weight = weight;
        for (int node : loopNodes(stage))
            if (auto it = partOfNode.find(node); it != partOfNode.end()) {
                plan.layout.push_back(it->second);
                partOfNode.erase(it);
            }
        if (!partOfNode.empty())
            return std::nullopt; // a part that is no loop of the stage (split after a fuse)
        // Already in the loops' order with no split: nothing to gain.
        if (plan.layout.size() == rootOfDim.size()
            && std::is_sorted(
                plan.layout.begin(), plan.layout.end(), [](const Part& a, const Part& b) { return a.dim < b.dim; }))
            return std::nullopt;
        auto packed = std::make_shared<ir::BufferVar>();
        packed->name = weight->name + "_packed";
        packed->dtype = weight->dtype;
        packed->scope = scope;
        for (const Part& p : plan.layout)
            packed->shape.push_back(p.extent);
        plan.packed = std::move(packed);
        return plan;
    }

    class LoadRewriter : public StmtMutator {
    public:
        explicit LoadRewriter(const std::vector<Rewrite>& plans)
            : m_plans(plans)
        {
        }

    protected:
        ir::Expr mutateExpr(const ir::Expr& e) override
        {
            return ir::rewrite(e, [&](const ir::Expr& n) -> ir::Expr {
                if (n->kind != ir::ExprKind::BufferLoad)
                    return {};
                for (const Rewrite& plan : m_plans)
                    if (n->buffer == plan.weight) {
                        std::vector<ir::Expr> indices;
                        for (const Part& p : plan.layout) {
                            ir::Expr i = mutateExpr(n->operands[static_cast<size_t>(p.dim)]);
                            if (p.stride != 1)
                                i = i / ir::intImm(p.stride);
                            if (!p.outermost)
                                i = i % ir::intImm(p.extent);
                            indices.push_back(std::move(i));
                        }
                        return ir::bufferLoad(plan.packed, std::move(indices));
                    }
                return {};
            });
        }

    private:
        const std::vector<Rewrite>& m_plans;
    };

    class HasParallel : public StmtVisitor {
    public:
        bool found = false;

    protected:
        void visitFor(const StmtNode& s) override
        {
            found = found || s.forKind == ForKind::Parallel;
            StmtVisitor::visitFor(s);
        }
    };

    // packed[c...] = weight[sum of c * stride per dimension], zero where a split pads past the weight.
    Stmt packNest(const Rewrite& plan, bool parallel)
    {
        std::vector<ir::Expr> vars;
        std::vector<ir::Expr> index(plan.weight->shape.size(), ir::intImm(0));
        std::vector<int64_t> covered(plan.weight->shape.size(), 1);
        for (size_t k = 0; k < plan.layout.size(); ++k) {
            const Part& p = plan.layout[k];
            vars.push_back(ir::var(plan.packed->name + ".c" + std::to_string(k)));
            index[static_cast<size_t>(p.dim)] = index[static_cast<size_t>(p.dim)] + vars.back() * ir::intImm(p.stride);
            covered[static_cast<size_t>(p.dim)] *= p.extent;
        }
        ir::Expr inside;
        for (size_t d = 0; d < index.size(); ++d)
            if (covered[d] > plan.weight->shape[d]) {
                ir::Expr term = index[d] < ir::intImm(plan.weight->shape[d]);
                inside = inside.defined() ? inside && term : term;
            }
        Stmt body = makeStore(plan.packed, vars, ir::bufferLoad(plan.weight, index));
        if (inside.defined())
            body = makeIf(inside, body, makeStore(plan.packed, vars, ir::floatImm(0.0, plan.packed->dtype)));
        // The outermost loop of more than one iteration is parallel when the kernel is (loops of one iteration
        // disappear in simplification).
        size_t outer = 0;
        while (outer + 1 < plan.layout.size() && plan.layout[outer].extent == 1)
            ++outer;
        for (size_t k = vars.size(); k-- > 0;)
            body = makeFor(vars[k], plan.layout[k].extent, parallel && k == outer ? ForKind::Parallel : ForKind::Serial,
                std::move(body));
        return body;
    }
} // namespace

LoweredFunc rewriteLayout(const LoweredFunc& func, const sched::State& state, bool inSetup)
{
    // In the setup, the packed weights are written once and read by every run of the body: static buffers.
    const std::string scope = inSetup ? "static" : "global";
    std::vector<Rewrite> plans;
    for (int i = 0; i < func.numInputs && i < static_cast<int>(func.argStages.size()); ++i)
        if (auto plan
            = planFor(state, func.argStages[static_cast<size_t>(i)], func.args[static_cast<size_t>(i)], scope))
            plans.push_back(std::move(*plan));
    if (plans.empty())
        return func;
    HasParallel parallel;
    parallel.visit(func.body);
    Stmt body = LoadRewriter(plans).mutate(func.body);
    std::vector<Stmt> packs;
    for (const Rewrite& plan : plans)
        packs.push_back(packNest(plan, parallel.found));
    Stmt setup;
    if (inSetup) {
        setup = makeSeq(std::move(packs));
    } else {
        packs.push_back(std::move(body));
        body = makeSeq(std::move(packs));
    }
    for (const Rewrite& plan : plans) {
        body = makeAllocate(plan.packed, std::move(body));
        if (setup)
            setup = makeAllocate(plan.packed, std::move(setup));
    }
    LoweredFunc out = func;
    out.body = simplify(body);
    if (setup)
        out.setup = simplify(setup);
    return out;
}

} // namespace ts::lower
