// Steps that change where a stage is computed (compute_at / inline / root) or change the DAG itself
// (cache_read, cache_write, rfactor). The DAG-changing steps build new ops with ir::computeFromParts and
// rebuild every op downstream, so that loads point at the new tensors, as TVM's ReplayAndGetDAG does.
#include "core/schedule/iter_graph.h"
#include "core/schedule/step_applier.h"
#include "core/support/strings.h"

#include <algorithm>

namespace ts::sched {

namespace {
    bool reads(const ir::Operation& consumer, const ir::Operation* producer)
    {
        const auto& inputs = consumer.inputs();
        return std::any_of(inputs.begin(), inputs.end(), [&](const ir::Tensor& t) { return t.get() == producer; });
    }

    ir::Expr replaceLoads(const ir::Expr& body, const std::map<const ir::Operation*, ir::Tensor>& replaced)
    {
        return ir::rewrite(body, [&](const ir::Expr& e) {
            if (e->kind != ir::ExprKind::Load)
                return ir::Expr();
            auto it = replaced.find(e->tensor.get());
            if (it == replaced.end())
                return ir::Expr();
            std::vector<ir::Expr> indices;
            for (const ir::Expr& index : e->operands)
                indices.push_back(replaceLoads(index, replaced));
            return ir::load(it->second, std::move(indices));
        });
    }

    ir::Tensor withBody(const ir::Operation& op, ir::Expr body)
    {
        return ir::computeFromParts(op.name(), op.tag(), op.axes(), op.reduceAxes(), op.reducer(), std::move(body));
    }

    std::vector<ir::IterVar> freshAxes(const std::vector<ir::IterVar>& axes)
    {
        std::vector<ir::IterVar> out;
        for (const ir::IterVar& axis : axes)
            out.push_back(ir::IterVar { ir::var(axis.var->name), axis.extent });
        return out;
    }

    std::vector<ir::Expr> varsOf(const std::vector<ir::IterVar>& axes)
    {
        std::vector<ir::Expr> vars;
        for (const ir::IterVar& axis : axes)
            vars.push_back(axis.var);
        return vars;
    }
} // namespace

void StepApplier::rebuildReaders(std::map<const ir::Operation*, ir::Tensor> replaced, int fromStage)
{
    for (int i = fromStage; i < m_state.numStages(); ++i) {
        const Stage& stage = m_state.stage(i);
        if (stage.isPlaceholder())
            continue;
        const auto& inputs = stage.op->inputs();
        if (std::none_of(inputs.begin(), inputs.end(), [&](const ir::Tensor& t) { return replaced.count(t.get()); }))
            continue;
        ir::Tensor rebuilt = withBody(*stage.op, replaceLoads(stage.op->body(), replaced));
        replaced[stage.op.get()] = rebuilt;
        m_state.mutableStage(i).op = rebuilt;
    }
    refreshDagTensors();
}

void StepApplier::refreshDagTensors()
{
    std::vector<ir::Tensor> tensors;
    for (int i = 0; i < m_state.numStages(); ++i) {
        const Stage& stage = m_state.stage(i);
        bool read = false;
        for (int j = 0; j < m_state.numStages() && !read; ++j)
            read = !m_state.stage(j).isPlaceholder() && reads(*m_state.stage(j).op, stage.op.get());
        if (stage.isPlaceholder() || !read)
            tensors.push_back(stage.op);
    }
    m_state.m_dagTensors = std::make_shared<std::vector<ir::Tensor>>(std::move(tensors));
}

void StepApplier::splitStage(int stageId, const ir::Tensor& producer, const ir::Tensor& consumer)
{
    const ir::Operation* old = m_state.stage(stageId).op.get();
    shiftStageIds(stageId, 1);
    State::StageList& stages = m_state.mutableStages();
    stages[static_cast<size_t>(stageId)] = std::make_shared<Stage>(freshStage(consumer));
    stages.insert(stages.begin() + stageId, std::make_shared<Stage>(freshStage(producer)));
    rebuildReaders({ { old, consumer } }, stageId + 2);
}

void StepApplier::shiftStageIds(int from, int by)
{
    for (int i = 0; i < m_state.numStages(); ++i)
        if (m_state.stage(i).computeAt == ComputeAtKind::Iter && m_state.stage(i).attachStage >= from)
            m_state.mutableStage(i).attachStage += by;
}

Expected<void> StepApplier::operator()(const ComputeAtStep& step)
{
    TS_CHECK(checkStage(step.kCode, step.stageId));
    TS_CHECK(checkIter(step.kCode, step.targetStageId, step.targetIterId));
    if (step.targetStageId == step.stageId)
        return fail(step.kCode, step.stageId, "cannot compute a stage at itself");
    // The target need not read this stage (TVM's rule): its loop must enclose every consumer, which may be
    // attached inside it by a later step, so bound inference checks that (bound_inference.h).
    for (int s = step.targetStageId; s >= 0;) {
        const Stage& t = m_state.stage(s);
        if (s == step.stageId)
            return fail(step.kCode, step.stageId, "the target stage is computed inside this stage (a cycle)");
        s = t.computeAt == ComputeAtKind::Iter ? t.attachStage : -1;
    }
    if (m_state.stage(step.targetStageId).computeAt == ComputeAtKind::Inlined)
        return fail(step.kCode, step.stageId, "the target stage is inlined");
    Stage& stage = m_state.mutableStage(step.stageId);
    stage.computeAt = ComputeAtKind::Iter;
    stage.attachStage = step.targetStageId;
    stage.attachIter = step.targetIterId;
    for (Iterator& it : stage.iters)
        it.extent = -1; // known again after bound inference
    return {};
}

Expected<void> StepApplier::operator()(const ComputeInlineStep& step)
{
    TS_CHECK(checkStage(step.kCode, step.stageId));
    const Stage& inlined = m_state.stage(step.stageId);
    if (inlined.op->reducer() != ir::Reducer::None)
        return fail(step.kCode, step.stageId, "cannot inline a reduction");
    bool read = false;
    for (int j = 0; j < m_state.numStages() && !read; ++j)
        read = !m_state.stage(j).isPlaceholder() && reads(*m_state.stage(j).op, inlined.op.get());
    if (!read)
        return fail(step.kCode, step.stageId, "cannot inline an output");
    for (size_t i = 0; i < inlined.iters.size(); ++i)
        if (!m_state.attachedAt(step.stageId, static_cast<int>(i)).empty())
            return fail(step.kCode, step.stageId, "cannot inline: other stages are computed at its iterators");
    Stage& stage = m_state.mutableStage(step.stageId);
    stage.computeAt = ComputeAtKind::Inlined;
    stage.attachStage = stage.attachIter = -1;
    return {};
}

Expected<void> StepApplier::operator()(const ComputeRootStep& step)
{
    TS_CHECK(checkStage(step.kCode, step.stageId));
    Stage& stage = m_state.mutableStage(step.stageId);
    stage.computeAt = ComputeAtKind::Root;
    stage.attachStage = stage.attachIter = -1;
    for (Iterator& it : stage.iters)
        it.extent = -1;
    return {};
}

Expected<void> StepApplier::operator()(const CacheReadStep& step)
{
    if (step.stageId < 0 || step.stageId >= m_state.numStages())
        return fail(step.kCode, step.stageId, "no such stage");
    if (step.scope.empty())
        return fail(step.kCode, step.stageId, "empty scope");
    if (step.readerStageIds.empty())
        return fail(step.kCode, step.stageId, "no reader stages");
    const ir::Tensor source = m_state.stage(step.stageId).op;
    for (int reader : step.readerStageIds) {
        TS_CHECK(checkStage(step.kCode, reader));
        if (!reads(*m_state.stage(reader).op, source.get()))
            return fail(step.kCode, step.stageId,
                "stage " + std::to_string(reader) + " (" + m_state.stage(reader).op->name() + ") does not read it");
    }
    std::vector<ir::IterVar> axes;
    for (size_t d = 0; d < source->shape().size(); ++d)
        axes.push_back(ir::IterVar { ir::var("ax" + std::to_string(d)), source->shape()[d] });
    ir::Tensor cache = ir::computeFromParts(
        source->name() + "." + step.scope, "cache_read", axes, {}, ir::Reducer::None, ir::load(source, varsOf(axes)));

    // Readers read the cache; the ops after them are rebuilt to read the rebuilt readers.
    std::map<const ir::Operation*, ir::Tensor> replaced;
    for (int reader : step.readerStageIds) {
        const ir::Tensor& op = m_state.stage(reader).op;
        ir::Tensor rebuilt = withBody(*op, replaceLoads(op->body(), { { source.get(), cache } }));
        replaced[op.get()] = rebuilt;
        m_state.mutableStage(reader).op = rebuilt;
    }
    const int added = step.stageId + 1;
    shiftStageIds(added, 1);
    State::StageList& stages = m_state.mutableStages();
    stages.insert(stages.begin() + added, std::make_shared<Stage>(freshStage(cache)));
    stages[static_cast<size_t>(added)]->scope = step.scope;
    rebuildReaders(std::move(replaced), added + 1);
    return {};
}

Expected<void> StepApplier::operator()(const CacheWriteStep& step)
{
    TS_CHECK(checkStage(step.kCode, step.stageId));
    if (step.scope.empty())
        return fail(step.kCode, step.stageId, "empty scope");
    const Stage& target = m_state.stage(step.stageId);
    if (!target.relations.empty() || target.computeAt != ComputeAtKind::Root)
        return fail(step.kCode, step.stageId, "cache_write must come before any other step on the stage");
    const ir::Operation& op = *target.op;
    ir::Tensor cache = ir::computeFromParts(
        op.name() + "." + step.scope, op.tag(), op.axes(), op.reduceAxes(), op.reducer(), op.body());
    std::vector<ir::IterVar> axes = freshAxes(op.axes());
    ir::Tensor copy
        = ir::computeFromParts(op.name(), op.tag(), axes, {}, ir::Reducer::None, ir::load(cache, varsOf(axes)));
    splitStage(step.stageId, cache, copy);
    m_state.mutableStage(step.stageId).scope = step.scope;
    return {};
}

Expected<void> StepApplier::operator()(const RfactorStep& step)
{
    TS_CHECK(checkIter(step.kCode, step.stageId, step.iterId));
    const Stage& target = m_state.stage(step.stageId);
    const ir::Operation& op = *target.op;
    const Iterator& factored = target.iters[static_cast<size_t>(step.iterId)];
    if (factored.kind != IteratorKind::Reduce)
        return fail(step.kCode, step.stageId, factored.name + " is not a reduction iterator");
    if (step.factorIterId < 0 || static_cast<size_t>(step.factorIterId) > op.axes().size())
        return fail(step.kCode, step.stageId,
            "factor axis " + std::to_string(step.factorIterId) + " out of range (0.." + std::to_string(op.axes().size())
                + ")");
    if (target.computeAt != ComputeAtKind::Root)
        return fail(step.kCode, step.stageId, "rfactor needs a stage computed at root");

    // Every reduce leaf becomes an axis of the rf op: the factored one spatial, the others reduce axes.
    const std::vector<int64_t> extents = passDownExtents(target, [&] {
        std::vector<int64_t> roots;
        for (const ir::IterVar& axis : op.axes())
            roots.push_back(axis.extent);
        for (const ir::IterVar& axis : op.reduceAxes())
            roots.push_back(axis.extent);
        return roots;
    }());
    std::vector<ir::Expr> values(target.nodes.size());
    std::vector<ir::IterVar> rfReduce;
    ir::IterVar factorAxis;
    int64_t leafProduct = 1;
    for (const Iterator& it : target.iters) {
        const int64_t extent = extents[static_cast<size_t>(it.node)];
        if (it.kind == IteratorKind::Mixed)
            return fail(step.kCode, step.stageId, it.name + " mixes spatial and reduction axes");
        if (it.kind == IteratorKind::Spatial) {
            values[static_cast<size_t>(it.node)] = ir::intImm(0);
            continue;
        }
        if (extent < 0) // TVM fails here too: the rf op's axes need the split lengths
            return fail(step.kCode, step.stageId, "rfactor needs the split lengths of " + it.name + " filled");
        leafProduct *= extent;
        ir::IterVar axis { ir::var(&it == &factored ? it.name + ".v" : it.name), extent };
        values[static_cast<size_t>(it.node)] = axis.var;
        if (&it == &factored)
            factorAxis = axis;
        else
            rfReduce.push_back(axis);
    }
    // Only the reduction axes' relations: the rf op needs none of the spatial ones, which may still hold
    // unfilled lengths (as in TVM, whose rfactor replays only the split it factors).
    Stage reduction = target;
    std::erase_if(reduction.relations, [&](const IterRelation& r) {
        const int node = r.kind == IterRelation::Kind::Split ? r.parent : r.result;
        return target.nodes[static_cast<size_t>(node)].kind != IteratorKind::Reduce;
    });
    passUpValues(reduction, extents, values);
    std::vector<std::pair<ir::Expr, ir::Expr>> reduceValues;
    int64_t rootProduct = 1;
    ir::Expr inRange;
    for (size_t k = 0; k < op.reduceAxes().size(); ++k) {
        const ir::IterVar& axis = op.reduceAxes()[k];
        const ir::Expr& value = values[op.axes().size() + k];
        reduceValues.emplace_back(axis.var, value);
        rootProduct *= axis.extent;
        const ir::Expr bound = value < ir::intImm(axis.extent);
        inRange = inRange.defined() ? (inRange && bound) : bound;
    }
    ir::Expr body = ir::substitute(op.body(), reduceValues);
    if (leafProduct != rootProduct) // a split that does not divide: padded iterations add the identity
        body = ir::select(inRange, body, ir::floatImm(ir::reducerIdentity(op.reducer()), body->dtype));

    std::vector<ir::IterVar> rfAxes = op.axes();
    rfAxes.insert(rfAxes.begin() + step.factorIterId, factorAxis);
    const ir::Reducer rfReducer = rfReduce.empty() ? ir::Reducer::None : op.reducer();
    ir::Tensor rf = ir::computeFromParts(op.name() + ".rf", op.tag(), rfAxes, rfReduce, rfReducer, body);

    std::vector<ir::IterVar> finalAxes = freshAxes(op.axes());
    ir::IterVar finalReduce { ir::var(factored.name + ".v"), factorAxis.extent };
    std::vector<ir::Expr> rfIndex = varsOf(finalAxes);
    rfIndex.insert(rfIndex.begin() + step.factorIterId, finalReduce.var);
    ir::Tensor combined
        = ir::computeFromParts(op.name(), op.tag(), finalAxes, { finalReduce }, op.reducer(), ir::load(rf, rfIndex));

    splitStage(step.stageId, rf, combined);
    return {};
}

} // namespace ts::sched
