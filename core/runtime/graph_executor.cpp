#include "core/runtime/graph_executor.h"

#include "core/codegen/runtime.h"
#include "core/lower/lower.h"
#include "core/ops/shape_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

namespace ts::runtime {

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
        if (stage.iters[0].extent > 1)
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
} // namespace

struct GraphExecutor::Impl {
    const graph::Graph graph;
    const graph::Partition partition;
    std::vector<std::unique_ptr<Storage>> storage;
    std::vector<int> nodeStorage; // node -> storage index, -1 where the node has no buffer of its own
    std::vector<int> outputs;
    std::vector<StepInfo> steps;
    struct Compiled {
        std::shared_ptr<codegen::CompiledKernel> kernel;
        std::vector<void*> args;
        std::vector<int> argStorage; // storage index of each argument
        ir::ComputeDAG dag; // what the kernel computes (the group's DAG)
        std::vector<int> placeholderStorage; // storage of each of dag.placeholders()
        int outputStorage = -1;
    };
    std::vector<Compiled> compiled; // one per step; kernel null for views
    int64_t planned = 0;
    int64_t unplanned = 0;

    Impl(graph::Graph g, graph::Partition p)
        : graph(std::move(g))
        , partition(std::move(p))
    {
    }
};

GraphExecutor::GraphExecutor(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{
}
GraphExecutor::GraphExecutor(GraphExecutor&&) noexcept = default;
GraphExecutor& GraphExecutor::operator=(GraphExecutor&&) noexcept = default;
GraphExecutor::~GraphExecutor() = default;

namespace {
    // The storage a node's value lives in, following reshape views to what they view.
    int rootOf(const graph::Graph& g, int node)
    {
        while (g.node(node).kind == graph::NodeKind::Reshape)
            node = g.node(node).inputs[0];
        return node;
    }
} // namespace

Expected<GraphExecutor> GraphExecutor::build(const graph::Graph& graph, const graph::Partition& partition,
    const ScheduleChooser& choose, const ExecutorOptions& options)
{
    if (graph.error())
        return *graph.error();
    auto impl = std::make_unique<Impl>(graph, partition);
    Impl& x = *impl;
    const graph::Graph& g = x.graph;
    const size_t numNodes = g.nodes().size();
    const auto& groups = x.partition.groups;

    // Outputs: given, or every computed node that nothing reads.
    x.outputs = options.outputs;
    if (x.outputs.empty())
        for (size_t i = 0; i < numNodes; ++i)
            if (!graph::isSource(g.nodes()[i].kind) && g.consumers(static_cast<int>(i)).empty())
                x.outputs.push_back(static_cast<int>(i));
    for (int o : x.outputs)
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
    for (int o : x.outputs)
        lastUse[static_cast<size_t>(rootOf(g, o))] = never;

    // Inputs and constants: a buffer each, for the whole run.
    x.nodeStorage.assign(numNodes, -1);
    for (size_t i = 0; i < numNodes; ++i) {
        const graph::Node& n = g.nodes()[i];
        if (!graph::isSource(n.kind))
            continue;
        x.storage.push_back(std::make_unique<Storage>(elements(n.shape)));
        x.nodeStorage[i] = static_cast<int>(x.storage.size() - 1);
        if (n.kind == graph::NodeKind::Constant)
            std::memcpy(x.storage.back()->data, n.params[0]->data(), static_cast<size_t>(n.params[0]->size()) * 4);
    }

    // Activations: best fit from the buffers no later group reads.
    std::vector<int> freeList;
    std::vector<int> storageRoot; // root node held by each activation storage, per storage index (-1: none)
    storageRoot.assign(x.storage.size(), -1);
    auto allocate = [&](int64_t n) {
        int best = -1;
        for (int s : freeList)
            if (x.storage[static_cast<size_t>(s)]->size >= n
                && (best < 0 || x.storage[static_cast<size_t>(s)]->size < x.storage[static_cast<size_t>(best)]->size))
                best = s;
        if (best >= 0) {
            freeList.erase(std::find(freeList.begin(), freeList.end(), best));
            return best;
        }
        x.storage.push_back(std::make_unique<Storage>(n));
        x.planned += n * 4;
        storageRoot.push_back(-1);
        return static_cast<int>(x.storage.size() - 1);
    };

    std::map<int, std::optional<GroupSchedule>> chosen; // per task
    lower::LowerOptions lowerOptions;
    lowerOptions.target = options.target;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        const graph::Group& group = groups[gi];
        const int outNode = group.nodes.back();
        const graph::Node& out = g.node(outNode);
        StepInfo info;
        info.task = group.task;
        info.flops = group.dag.flopCount();
        Impl::Compiled step;
        step.dag = group.dag;
        x.unplanned += elements(out.shape) * 4;
        if (group.task < 0 && group.nodes.size() == 1 && out.kind == graph::NodeKind::Reshape) {
            info.name = "reshape (a view)";
            info.view = true;
            x.nodeStorage[static_cast<size_t>(outNode)] = x.nodeStorage[static_cast<size_t>(rootOf(g, outNode))];
            x.steps.push_back(std::move(info));
            x.compiled.push_back(std::move(step));
            continue;
        }
        // The parameters this group owns: the graph's values or seeded random ones.
        for (const graph::ArgumentSource& s : group.sources) {
            if (s.param >= 0) {
                const graph::Node& owner = g.node(s.node);
                std::vector<ir::Tensor> placeholders;
                for (int input : owner.inputs)
                    placeholders.push_back(ir::placeholder("x", g.shape(input)));
                std::vector<ir::Tensor> params;
                TS_TRY(ir::Tensor unused, graph::lowerNode(owner, placeholders, params));
                (void)unused;
                const std::vector<int64_t> shape = params.at(static_cast<size_t>(s.param))->shape();
                x.storage.push_back(std::make_unique<Storage>(elements(shape)));
                storageRoot.push_back(-1);
                Storage& st = *x.storage.back();
                if (static_cast<size_t>(s.param) < owner.params.size())
                    std::memcpy(
                        st.data, owner.params[static_cast<size_t>(s.param)]->data(), static_cast<size_t>(st.size) * 4);
                else
                    ir::fillRandomInput(st.data, st.size, options.seed, s.node * 16 + s.param);
                step.placeholderStorage.push_back(static_cast<int>(x.storage.size() - 1));
            } else {
                const int root = rootOf(g, s.node);
                const int st = x.nodeStorage[static_cast<size_t>(root)];
                if (st < 0)
                    return makeError(ErrorKind::Internal,
                        "graph executor: group " + std::to_string(gi) + " reads node " + std::to_string(s.node)
                            + " before it is computed");
                step.placeholderStorage.push_back(st);
            }
        }
        // The output's buffer, then free what no later group reads.
        const int outStorage = allocate(elements(out.shape));
        x.nodeStorage[static_cast<size_t>(outNode)] = outStorage;
        step.outputStorage = outStorage;
        storageRoot[static_cast<size_t>(outStorage)] = outNode;

        // The schedule.
        std::optional<GroupSchedule> schedule;
        if (group.task >= 0) {
            auto it = chosen.find(group.task);
            if (it == chosen.end())
                it = chosen
                         .emplace(group.task,
                             choose ? choose(x.partition.tasks.tasks[static_cast<size_t>(group.task)]) : std::nullopt)
                         .first;
            schedule = it->second;
        }
        // A record's steps, replayed on this group's own DAG (whose placeholders are bound to the group's values).
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
        info.name = group.task >= 0 ? x.partition.tasks.tasks[static_cast<size_t>(group.task)].name
                                    : std::string(graph::toString(out.kind));
        info.schedule = source;
        lowerOptions.functionName = "step" + std::to_string(gi);
        // Weights packed once (option 2) only where the packed operand is a parameter: a batch_matmul's or
        // matmul's second operand is an activation here, which option 1 packs inside the kernel on every run.
        const graph::NodeKind anchor = g.node(group.nodes.front()).kind;
        const bool activationOperand = anchor == graph::NodeKind::BatchMatMul || anchor == graph::NodeKind::MatMul;
        lowerOptions.layoutRewrite = options.target.isGpu() ? 0 : activationOperand ? 1 : 2;
        auto lowered = lower::lower(state, lowerOptions);
        if (!lowered && schedule) {
            info.schedule
                = "default schedule (" + schedule->source + " does not lower: " + lowered.error().message + ")";
            state = defaultSchedule(group.dag);
            lowered = lower::lower(state, lowerOptions);
        }
        if (!lowered)
            return makeError(lowered.error().kind,
                "step " + std::to_string(gi) + " (" + info.name + "): " + lowered.error().message);
        auto kernel = codegen::compile(*lowered, options.target);
        if (!kernel)
            return makeError(
                kernel.error().kind, "step " + std::to_string(gi) + " (" + info.name + "): " + kernel.error().message);
        step.kernel = *kernel;
        const ir::ComputeDAG current = state.currentDag();
        const std::vector<int> placeholders = current.placeholders();
        for (size_t a = 0; a < lowered->args.size(); ++a) {
            const int stage = lowered->argStages[a];
            auto p = std::find(placeholders.begin(), placeholders.end(), stage);
            int st = -1;
            if (p != placeholders.end())
                st = step.placeholderStorage.at(static_cast<size_t>(p - placeholders.begin()));
            else if (current.op(stage).name() == group.dag.op(group.dag.numOps() - 1).name())
                st = outStorage;
            if (st < 0)
                return makeError(ErrorKind::Internal,
                    "step " + std::to_string(gi) + ": argument " + std::to_string(a) + " (stage "
                        + current.op(stage).name() + ") is neither an input nor the output");
            step.argStorage.push_back(st);
            step.args.push_back(x.storage[static_cast<size_t>(st)]->data);
        }
        // Weights packed once (layout_rewrite_option 2).
        step.kernel->runSetup(step.args.data());
        x.steps.push_back(std::move(info));
        x.compiled.push_back(std::move(step));

        // Values whose last reader this group was can be overwritten by later groups.
        for (size_t s = 0; s < storageRoot.size(); ++s) {
            const int root = storageRoot[s];
            if (root >= 0 && lastUse[static_cast<size_t>(root)] <= static_cast<int>(gi)
                && std::find(freeList.begin(), freeList.end(), static_cast<int>(s)) == freeList.end()) {
                freeList.push_back(static_cast<int>(s));
                storageRoot[s] = -1;
            }
        }
    }
    return GraphExecutor(std::move(impl));
}

Expected<void> GraphExecutor::setInputs(const std::vector<ir::Buffer>& inputs)
{
    const graph::Graph& g = m_impl->graph;
    size_t next = 0;
    for (size_t i = 0; i < g.nodes().size(); ++i) {
        const graph::Node& n = g.nodes()[i];
        if (n.kind != graph::NodeKind::Input)
            continue;
        if (next >= inputs.size())
            return makeError(ErrorKind::InvalidArgument, "no value for input " + n.name);
        const ir::Buffer& b = inputs[next++];
        if (elements(b.shape()) != elements(n.shape))
            return makeError(ErrorKind::InvalidArgument,
                "input " + n.name + " has shape " + ops::shapeText(n.shape) + ", its value "
                    + ops::shapeText(b.shape()));
        Storage& st = *m_impl->storage[static_cast<size_t>(m_impl->nodeStorage[i])];
        std::memcpy(st.data, b.data(), static_cast<size_t>(st.size) * 4);
    }
    if (next != inputs.size())
        return makeError(ErrorKind::InvalidArgument,
            std::to_string(inputs.size()) + " input values for " + std::to_string(next) + " inputs");
    return {};
}

void GraphExecutor::run()
{
    for (Impl::Compiled& step : m_impl->compiled)
        if (step.kernel)
            step.kernel->run(step.args.data());
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
    const graph::Graph& g = m_impl->graph;
    if (node < 0 || static_cast<size_t>(node) >= g.nodes().size())
        return makeError(ErrorKind::InvalidArgument, "node " + std::to_string(node) + " does not exist");
    const bool kept = g.node(node).kind == graph::NodeKind::Input
        || std::find(m_impl->outputs.begin(), m_impl->outputs.end(), node) != m_impl->outputs.end();
    const int st = m_impl->nodeStorage[static_cast<size_t>(node)];
    if (!kept || st < 0)
        return makeError(ErrorKind::InvalidArgument, "node " + g.node(node).name + " is not an input or kept output");
    ir::Buffer b(g.shape(node));
    std::memcpy(b.data(), m_impl->storage[static_cast<size_t>(st)]->data, static_cast<size_t>(b.size()) * 4);
    return b;
}

const std::vector<int>& GraphExecutor::outputs() const { return m_impl->outputs; }
const std::vector<StepInfo>& GraphExecutor::steps() const { return m_impl->steps; }
int64_t GraphExecutor::plannedBytes() const { return m_impl->planned; }
int64_t GraphExecutor::unplannedBytes() const { return m_impl->unplanned; }

Expected<std::vector<StepCheck>> GraphExecutor::checkSteps(int samples, double rtol, double atol)
{
    std::vector<StepCheck> out;
    for (size_t i = 0; i < m_impl->compiled.size(); ++i) {
        Impl::Compiled& step = m_impl->compiled[i];
        if (!step.kernel)
            continue;
        step.kernel->run(step.args.data()); // the planned buffers hold this step's inputs now
        std::vector<ir::Buffer> inputs;
        const std::vector<int> placeholders = step.dag.placeholders();
        for (size_t p = 0; p < placeholders.size(); ++p) {
            const Storage& st = *m_impl->storage[static_cast<size_t>(step.placeholderStorage[p])];
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
        const float* got = m_impl->storage[static_cast<size_t>(step.outputStorage)]->data;
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
