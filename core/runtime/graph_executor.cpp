#include "core/runtime/graph_executor.h"

#include "core/codegen/runtime.h"
#include "core/graph/graph_evaluator.h"
#include "core/lower/lower.h"
#include "core/ops/shape_check.h"
#include "core/runtime/network_plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>

namespace ts::runtime {

namespace {
    // A stage with no reduction (element-wise, data movement, or an output stage): its last loop split by 16
    // lanes and vectorized where 16 divides it, and every other loop fused into one parallel loop (a
    // [1, 128, 3072] GELU has an outer extent of 1), so the stage uses every core and the vector unit whatever
    // its shape. 16 float lanes are one AVX-512 register and two AVX2 ones.
    void defaultInjectiveLoops(sched::State& state, int s)
    {
        constexpr int64_t kLanes = 16;
        auto iters = [&] { return static_cast<int>(state.stage(s).iters.size()); };
        const int64_t lastExtent = state.stage(s).iters.back().extent;
        bool vector = false;
        if (lastExtent >= kLanes && lastExtent % kLanes == 0)
            vector = static_cast<bool>(state.apply(sched::SplitStep { s, iters() - 1, lastExtent, { kLanes }, true }));
        const int outer = vector ? iters() - 1 : iters(); // the loops to fuse
        if (outer > 1) {
            std::vector<int> ids(static_cast<size_t>(outer));
            std::iota(ids.begin(), ids.end(), 0);
            (void)state.apply(sched::FuseStep { s, ids });
        }
        if (vector)
            (void)state.apply(sched::AnnotationStep { s, iters() - 1, sched::Annotation::Vectorize });
        if ((!vector || iters() > 1) && state.stage(s).iters[0].extent > 1)
            (void)state.apply(sched::AnnotationStep { s, 0, sched::Annotation::Parallel });
    }
} // namespace

sched::State defaultSchedule(const ir::ComputeDAG& dag)
{
    sched::State state = sched::State::initial(dag);
    const std::vector<int> outputs = dag.outputs();
    // Inline what has no reduction and is not an output (bias, activation, padding), then make the outermost
    // loop of each root stage parallel. A step the state refuses is skipped: the result always lowers.
    for (int s = 0; s < state.numStages(); ++s) {
        const ir::Operation& op = dag.op(s);
        if (op.isPlaceholder() || !op.reduceAxes().empty()
            || std::find(outputs.begin(), outputs.end(), s) != outputs.end())
            continue;
        (void)state.apply(sched::ComputeInlineStep { s });
    }
    for (int s = 0; s < state.numStages(); ++s) {
        const sched::Stage& stage = state.stage(s);
        if (stage.isPlaceholder() || stage.computeAt != sched::ComputeAtKind::Root || stage.iters.empty())
            continue;
        if (dag.op(s).reduceAxes().empty())
            defaultInjectiveLoops(state, s);
        else if (stage.iters[0].extent > 1)
            (void)state.apply(sched::AnnotationStep { s, 0, sched::Annotation::Parallel });
    }
    return state;
}

namespace {
    // 64-byte aligned float storage, zeroed.
    struct Storage {
        float* data = nullptr;
        int64_t size = 0;

        explicit Storage(int64_t n)
            : size(n)
        {
            const size_t bytes = (static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(float) + 63) / 64 * 64;
            data = static_cast<float*>(std::aligned_alloc(64, bytes));
            std::memset(data, 0, bytes);
        }
        Storage(const Storage&) = delete;
        Storage& operator=(const Storage&) = delete;
        ~Storage() { std::free(data); }
    };

    int64_t elements(const std::vector<int64_t>& shape)
    {
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        return n;
    }

    // The storage a node's value lives in, following reshape views to what they view.
    int rootOf(const graph::Graph& g, int node)
    {
        while (g.node(node).kind == graph::NodeKind::Reshape)
            node = g.node(node).inputs[0];
        return node;
    }
} // namespace

Expected<NetworkPlan> planNetwork(const graph::Graph& g, const graph::Partition& partition,
    const ScheduleChooser& choose, const ExecutorOptions& options)
{
    if (g.error())
        return *g.error();
    NetworkPlan plan;
    const size_t numNodes = g.nodes().size();
    const auto& groups = partition.groups;

    // Outputs: given, or every computed node that nothing reads.
    plan.outputs = options.outputs;
    if (plan.outputs.empty())
        for (size_t i = 0; i < numNodes; ++i)
            if (!graph::isSource(g.nodes()[i].kind) && g.consumers(static_cast<int>(i)).empty())
                plan.outputs.push_back(static_cast<int>(i));
    for (int o : plan.outputs)
        if (o < 0 || static_cast<size_t>(o) >= numNodes)
            return makeError(ErrorKind::InvalidArgument, "output node " + std::to_string(o) + " does not exist");

    // Which group last reads each root value; graph outputs are read "after the end".
    const int never = static_cast<int>(groups.size());
    std::vector<int> lastUse(numNodes, -1);
    for (size_t gi = 0; gi < groups.size(); ++gi)
        for (const graph::ArgumentSource& s : groups[gi].sources)
            if (s.param < 0) {
                const int root = rootOf(g, s.node);
                lastUse[static_cast<size_t>(root)] = std::max(lastUse[static_cast<size_t>(root)], static_cast<int>(gi));
            }
    for (int o : plan.outputs)
        lastUse[static_cast<size_t>(rootOf(g, o))] = never;

    // Inputs and constants: a slot each, for the whole run.
    plan.nodeSlot.assign(numNodes, -1);
    for (size_t i = 0; i < numNodes; ++i) {
        const graph::Node& n = g.nodes()[i];
        if (!graph::isSource(n.kind))
            continue;
        Slot slot;
        slot.elements = elements(n.shape);
        slot.node = static_cast<int>(i);
        if (n.kind == graph::NodeKind::Constant) {
            slot.kind = SlotKind::Constant;
            slot.value = n.params[0];
        } else {
            slot.kind = SlotKind::Input;
            plan.inputs.push_back(static_cast<int>(i));
        }
        plan.slots.push_back(std::move(slot));
        plan.nodeSlot[i] = static_cast<int>(plan.slots.size() - 1);
    }

    // Activations: best fit from the slots no later group reads.
    std::vector<int> freeList;
    std::vector<int> slotRoot(plan.slots.size(), -1); // the root node an activation slot holds now
    auto allocate = [&](int64_t n) {
        int best = -1;
        for (int s : freeList)
            if (plan.slots[static_cast<size_t>(s)].elements >= n
                && (best < 0
                    || plan.slots[static_cast<size_t>(s)].elements < plan.slots[static_cast<size_t>(best)].elements))
                best = s;
        if (best >= 0) {
            freeList.erase(std::find(freeList.begin(), freeList.end(), best));
            return best;
        }
        Slot slot;
        slot.elements = n;
        plan.slots.push_back(slot);
        plan.plannedBytes += n * 4;
        slotRoot.push_back(-1);
        return static_cast<int>(plan.slots.size() - 1);
    };

    std::map<int, std::optional<GroupSchedule>> chosen; // per task
    lower::LowerOptions lowerOptions;
    lowerOptions.target = options.target;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        const graph::Group& group = groups[gi];
        const int outNode = group.nodes.back();
        const graph::Node& out = g.node(outNode);
        PlannedStep step;
        step.info.task = group.task;
        step.info.flops = group.dag.flopCount();
        step.dag = group.dag;
        plan.unplannedBytes += elements(out.shape) * 4;
        if (group.task < 0 && group.nodes.size() == 1 && out.kind == graph::NodeKind::Reshape) {
            step.info.name = "reshape (a view)";
            step.info.view = true;
            plan.nodeSlot[static_cast<size_t>(outNode)] = plan.nodeSlot[static_cast<size_t>(rootOf(g, outNode))];
            plan.steps.push_back(std::move(step));
            continue;
        }
        // The parameters this group owns: the graph's values or seeded random ones. Sources are in the order of
        // the DAG's placeholders, whose shapes are the parameters'.
        const std::vector<int> groupPlaceholders = group.dag.placeholders();
        for (size_t k = 0; k < group.sources.size(); ++k) {
            const graph::ArgumentSource& s = group.sources[k];
            if (s.param >= 0) {
                const graph::Node& owner = g.node(s.node);
                const std::vector<int64_t> shape = group.dag.op(groupPlaceholders[k]).shape();
                Slot slot;
                slot.kind = SlotKind::Parameter;
                slot.elements = elements(shape);
                if (static_cast<size_t>(s.param) < owner.params.size())
                    slot.value = owner.params[static_cast<size_t>(s.param)];
                else {
                    slot.value = std::make_shared<ir::Buffer>(
                        graph::seededParameter(owner, s.node, s.param, shape, options.seed));
                }
                plan.slots.push_back(std::move(slot));
                slotRoot.push_back(-1);
                step.placeholderSlots.push_back(static_cast<int>(plan.slots.size() - 1));
            } else {
                const int slot = plan.nodeSlot[static_cast<size_t>(rootOf(g, s.node))];
                if (slot < 0)
                    return makeError(ErrorKind::Internal,
                        "graph executor: group " + std::to_string(gi) + " reads node " + std::to_string(s.node)
                            + " before it is computed");
                step.placeholderSlots.push_back(slot);
            }
        }
        // The output's slot (later groups overwrite what this one read only after it has run).
        step.outputSlot = allocate(elements(out.shape));
        plan.nodeSlot[static_cast<size_t>(outNode)] = step.outputSlot;
        slotRoot[static_cast<size_t>(step.outputSlot)] = outNode;

        // The schedule: the chooser's record, replayed on this group's own DAG (whose placeholders are bound to
        // the group's values), else the default.
        std::optional<GroupSchedule> schedule;
        if (group.task >= 0) {
            auto it = chosen.find(group.task);
            if (it == chosen.end())
                it = chosen
                         .emplace(group.task,
                             choose ? choose(partition.tasks.tasks[static_cast<size_t>(group.task)]) : std::nullopt)
                         .first;
            schedule = it->second;
        }
        sched::State state = defaultSchedule(group.dag);
        std::string source = "default schedule";
        if (schedule) {
            auto replayed = sched::State::replay(group.dag, schedule->state.steps());
            if (replayed) {
                state = std::move(*replayed);
                source = schedule->source;
            } else
                source
                    = "default schedule (" + schedule->source + " does not replay: " + replayed.error().message + ")";
        } else if (group.task >= 0)
            source = "default schedule (no record)";
        if (group.task >= 0)
            step.info.name = partition.tasks.tasks[static_cast<size_t>(group.task)].name;
        else
            for (int node : group.nodes) // a fused group: its nodes' kinds, in order ("add_divide_unary_multiply")
                step.info.name += (step.info.name.empty() ? "" : "_") + std::string(graph::toString(g.node(node).kind));
        step.info.schedule = source;
        lowerOptions.functionName = "ts_step" + std::to_string(gi);
        // Weights packed once (option 2) only where the packed operand is a parameter: a batch_matmul's or
        // matmul's second operand is an activation here, which option 1 packs inside the kernel on every run.
        const graph::NodeKind anchor = g.node(group.nodes.front()).kind;
        const bool activationOperand = anchor == graph::NodeKind::BatchMatMul || anchor == graph::NodeKind::MatMul;
        lowerOptions.layoutRewrite = options.target.isGpu() ? 0 : activationOperand ? 1 : 2;
        auto lowered = lower::lower(state, lowerOptions);
        if (!lowered && schedule && source == schedule->source) {
            step.info.schedule
                = "default schedule (" + schedule->source + " does not lower: " + lowered.error().message + ")";
            state = defaultSchedule(group.dag);
            lowered = lower::lower(state, lowerOptions);
        }
        if (!lowered)
            return makeError(lowered.error().kind,
                "step " + std::to_string(gi) + " (" + step.info.name + "): " + lowered.error().message);
        const ir::ComputeDAG current = state.currentDag();
        const std::vector<int> placeholders = current.placeholders();
        for (size_t a = 0; a < lowered->args.size(); ++a) {
            const int stage = lowered->argStages[a];
            auto p = std::find(placeholders.begin(), placeholders.end(), stage);
            int slot = -1;
            if (p != placeholders.end())
                slot = step.placeholderSlots.at(static_cast<size_t>(p - placeholders.begin()));
            else if (current.op(stage).name() == group.dag.op(group.dag.numOps() - 1).name())
                slot = step.outputSlot;
            if (slot < 0)
                return makeError(ErrorKind::Internal,
                    "step " + std::to_string(gi) + ": argument " + std::to_string(a) + " (stage "
                        + current.op(stage).name() + ") is neither an input nor the output");
            step.argSlots.push_back(slot);
        }
        step.func = std::move(*lowered);
        plan.steps.push_back(std::move(step));

        // Values whose last reader this group was can be overwritten by later groups.
        for (size_t s = 0; s < slotRoot.size(); ++s) {
            const int root = slotRoot[s];
            if (root >= 0 && lastUse[static_cast<size_t>(root)] <= static_cast<int>(gi)) {
                freeList.push_back(static_cast<int>(s));
                slotRoot[s] = -1;
            }
        }
    }
    return plan;
}

struct GraphExecutor::Impl {
    NetworkPlan plan;
    std::vector<std::unique_ptr<Storage>> storage; // one per slot
    struct Compiled {
        std::shared_ptr<codegen::CompiledKernel> kernel; // null for views
        std::vector<void*> args;
    };
    std::vector<Compiled> compiled; // one per step
    std::vector<StepInfo> steps;
    std::vector<std::vector<int64_t>> shapes; // per graph node
};

GraphExecutor::GraphExecutor(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{
}
GraphExecutor::GraphExecutor(GraphExecutor&&) noexcept = default;
GraphExecutor& GraphExecutor::operator=(GraphExecutor&&) noexcept = default;
GraphExecutor::~GraphExecutor() = default;

Expected<GraphExecutor> GraphExecutor::build(const graph::Graph& graph, const graph::Partition& partition,
    const ScheduleChooser& choose, const ExecutorOptions& options)
{
    auto impl = std::make_unique<Impl>();
    TS_TRY(impl->plan, planNetwork(graph, partition, choose, options));
    Impl& x = *impl;
    for (const graph::Node& n : graph.nodes())
        x.shapes.push_back(n.shape);
    for (const PlannedStep& step : x.plan.steps)
        x.steps.push_back(step.info);
    for (const Slot& slot : x.plan.slots) {
        x.storage.push_back(std::make_unique<Storage>(slot.elements));
        if (slot.value)
            std::memcpy(x.storage.back()->data, slot.value->data(), static_cast<size_t>(slot.elements) * 4);
    }
    for (size_t i = 0; i < x.plan.steps.size(); ++i) {
        const PlannedStep& step = x.plan.steps[i];
        Impl::Compiled compiled;
        if (step.func) {
            auto kernel = codegen::compile(*step.func, options.target);
            if (!kernel)
                return makeError(kernel.error().kind,
                    "step " + std::to_string(i) + " (" + step.info.name + "): " + kernel.error().message);
            compiled.kernel = *kernel;
            for (int slot : step.argSlots)
                compiled.args.push_back(x.storage[static_cast<size_t>(slot)]->data);
            compiled.kernel->runSetup(compiled.args.data()); // weights packed once (layout_rewrite_option 2)
        }
        x.compiled.push_back(std::move(compiled));
    }
    return GraphExecutor(std::move(impl));
}

Expected<void> GraphExecutor::setInputs(const std::vector<ir::Buffer>& inputs)
{
    const size_t count = m_impl->plan.inputs.size();
    for (size_t k = 0; k < count; ++k) {
        const int node = m_impl->plan.inputs[k];
        const std::vector<int64_t>& shape = m_impl->shapes[static_cast<size_t>(node)];
        if (k >= inputs.size())
            return makeError(ErrorKind::InvalidArgument, "no value for input " + std::to_string(k));
        const ir::Buffer& b = inputs[k];
        if (elements(b.shape()) != elements(shape))
            return makeError(ErrorKind::InvalidArgument,
                "input " + std::to_string(k) + " has shape " + ops::shapeText(shape) + ", its value "
                    + ops::shapeText(b.shape()));
        const int slot = m_impl->plan.nodeSlot[static_cast<size_t>(node)];
        Storage& st = *m_impl->storage[static_cast<size_t>(slot)];
        std::memcpy(st.data, b.data(), static_cast<size_t>(st.size) * 4);
    }
    if (inputs.size() != count)
        return makeError(ErrorKind::InvalidArgument,
            std::to_string(inputs.size()) + " input values for " + std::to_string(count) + " inputs");
    return {};
}

void GraphExecutor::run()
{
    for (Impl::Compiled& step : m_impl->compiled)
        if (step.kernel)
            step.kernel->run(step.args.data());
}

void GraphExecutor::runHot(std::vector<double>& perStep, int repeats)
{
    perStep.assign(m_impl->compiled.size(), 0.0);
    std::vector<double> times(static_cast<size_t>(std::max(repeats, 1)));
    for (size_t i = 0; i < m_impl->compiled.size(); ++i) {
        Impl::Compiled& step = m_impl->compiled[i];
        if (!step.kernel)
            continue;
        step.kernel->run(step.args.data()); // in the network's order: its inputs are this run's values
        for (double& t : times) {
            const auto start = std::chrono::steady_clock::now();
            step.kernel->run(step.args.data()); // a step rewrites its whole output: running it again is harmless
            t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2), times.end());
        perStep[i] = times[times.size() / 2];
    }
}

void GraphExecutor::runTimed(std::vector<double>& perStep)
{
    perStep.resize(m_impl->compiled.size(), 0.0);
    for (size_t i = 0; i < m_impl->compiled.size(); ++i) {
        Impl::Compiled& step = m_impl->compiled[i];
        if (!step.kernel)
            continue;
        const auto start = std::chrono::steady_clock::now();
        step.kernel->run(step.args.data());
        perStep[i] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
}

Expected<ir::Buffer> GraphExecutor::value(int node) const
{
    const NetworkPlan& plan = m_impl->plan;
    if (node < 0 || static_cast<size_t>(node) >= plan.nodeSlot.size())
        return makeError(ErrorKind::InvalidArgument, "node " + std::to_string(node) + " does not exist");
    const bool kept = std::find(plan.inputs.begin(), plan.inputs.end(), node) != plan.inputs.end()
        || std::find(plan.outputs.begin(), plan.outputs.end(), node) != plan.outputs.end();
    const int st = plan.nodeSlot[static_cast<size_t>(node)];
    if (!kept || st < 0)
        return makeError(
            ErrorKind::InvalidArgument, "node " + std::to_string(node) + " is not an input or kept output");
    ir::Buffer b(m_impl->shapes[static_cast<size_t>(node)]);
    std::memcpy(b.data(), m_impl->storage[static_cast<size_t>(st)]->data, static_cast<size_t>(b.size()) * 4);
    return b;
}

const std::vector<int>& GraphExecutor::outputs() const { return m_impl->plan.outputs; }
const std::vector<StepInfo>& GraphExecutor::steps() const { return m_impl->steps; }
int64_t GraphExecutor::plannedBytes() const { return m_impl->plan.plannedBytes; }
int64_t GraphExecutor::unplannedBytes() const { return m_impl->plan.unplannedBytes; }

Expected<std::vector<StepCheck>> GraphExecutor::checkSteps(int samples, double rtol, double atol)
{
    std::vector<StepCheck> out;
    for (size_t i = 0; i < m_impl->compiled.size(); ++i) {
        Impl::Compiled& compiled = m_impl->compiled[i];
        const PlannedStep& step = m_impl->plan.steps[i];
        if (!compiled.kernel)
            continue;
        compiled.kernel->run(compiled.args.data()); // the planned buffers hold this step's inputs now
        std::vector<ir::Buffer> inputs;
        const std::vector<int> placeholders = step.dag.placeholders();
        for (size_t p = 0; p < placeholders.size(); ++p) {
            const Storage& st = *m_impl->storage[static_cast<size_t>(step.placeholderSlots[p])];
            ir::Buffer b(step.dag.op(placeholders[p]).shape());
            std::memcpy(b.data(), st.data, static_cast<size_t>(b.size()) * 4);
            inputs.push_back(std::move(b));
        }
        const int outStage = step.dag.numOps() - 1;
        const int64_t n = elements(step.dag.op(outStage).shape());
        std::vector<int64_t> offsets;
        for (int k = 0; k < samples && k < n; ++k)
            offsets.push_back(samples >= n ? k : (k * 7919 + k * k * 104729) % n);
        auto want = ir::evaluateAt(step.dag, inputs, outStage, offsets);
        if (!want)
            return makeError(want.error().kind, "step " + std::to_string(i) + ": " + want.error().message);
        const float* got = m_impl->storage[static_cast<size_t>(step.outputSlot)]->data;
        StepCheck check;
        check.step = static_cast<int>(i);
        for (size_t k = 0; k < offsets.size(); ++k) {
            const double w = (*want)[k];
            const double e = std::abs(got[offsets[k]] - w) / (atol + rtol * std::abs(w));
            check.error = std::isnan(e) ? 1e30 : std::max(check.error, e);
        }
        out.push_back(check);
    }
    return out;
}

} // namespace ts::runtime
