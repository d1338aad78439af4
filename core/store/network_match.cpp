#include "core/store/network_match.h"

#include "core/graph/model_zoo.h"
#include "core/graph/workload_registry.h"
#include "core/lower/lower.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <unordered_set>

namespace ts::store {

namespace {

    using Json = nlohmann::json;
    using Shape = std::vector<int64_t>;

    constexpr int64_t kMaxBatch = 4096; // as buildNetwork allows

    bool isHash(const std::string& text)
    {
        return (text.size() == 32 || text.size() == DagHashKey::kOwnHashDigits)
            && text.find_first_not_of("0123456789abcdef") == std::string::npos;
    }

    Shape withoutUnitDims(const Shape& shape)
    {
        Shape out;
        std::copy_if(shape.begin(), shape.end(), std::back_inserter(out), [](int64_t d) { return d != 1; });
        return out;
    }

    std::vector<Shape> keyShapes(const ir::ComputeDAG& dag)
    {
        std::vector<Shape> out;
        for (const ir::Tensor& t : tvmKeyTensors(dag))
            out.push_back(t->shape());
        return out;
    }

    // How the DAG's shapes compare with the key's: 2 equal, 1 equal once unit dimensions are dropped, 0 not.
    int shapeFit(const DagHashKey& key, const std::vector<Shape>& ours)
    {
        if (key.form == DagHashKey::Form::Flat) {
            Shape flat;
            for (const Shape& s : ours)
                flat.insert(flat.end(), s.begin(), s.end());
            const Shape& theirs = key.shapes.front();
            if (flat == theirs)
                return 2;
            return withoutUnitDims(flat) == withoutUnitDims(theirs) ? 1 : 0;
        }
        if (ours.size() != key.shapes.size())
            return 0;
        if (ours == key.shapes)
            return 2;
        for (size_t i = 0; i < ours.size(); ++i)
            if (withoutUnitDims(ours[i]) != withoutUnitDims(key.shapes[i]))
                return 0;
        return 1;
    }

    std::string shapeText(const Shape& shape) { return "[" + join(shape, ", ") + "]"; }

} // namespace

bool isDagHashKey(const std::string& key)
{
    const Json json = Json::parse(key, nullptr, false);
    return !json.is_discarded() && json.is_array() && !json.empty() && json[0].is_string()
        && isHash(json[0].get<std::string>());
}

Expected<std::optional<DagHashKey>> parseDagHashKey(const std::string& key)
{
    const Json json = Json::parse(key, nullptr, false);
    if (json.is_discarded() || !json.is_array() || json.empty() || !json[0].is_string()
        || !isHash(json[0].get<std::string>()))
        return std::optional<DagHashKey>();
    DagHashKey out;
    out.hash = json[0].get<std::string>();
    auto bad = [&](const std::string& what) {
        return makeError(ErrorKind::Parse, "DAG-hash workload key " + key.substr(0, 80) + ": " + what);
    };
    auto dimension = [&](const Json& v) -> Expected<int64_t> {
        if (!v.is_number_integer() || v.get<int64_t>() < 0)
            return bad("a shape holds " + v.dump() + ", not a dimension");
        return v.get<int64_t>();
    };
    if (json.size() == 1)
        return std::optional<DagHashKey>(std::move(out));
    out.form = json[1].is_array() ? DagHashKey::Form::Nested : DagHashKey::Form::Flat;
    if (out.form == DagHashKey::Form::Flat)
        out.shapes.emplace_back();
    for (size_t i = 1; i < json.size(); ++i) {
        if (out.form == DagHashKey::Form::Flat) {
            TS_TRY(int64_t d, dimension(json[i]));
            out.shapes.front().push_back(d);
            continue;
        }
        if (!json[i].is_array())
            return bad("element " + std::to_string(i) + " is " + json[i].dump() + ", not a shape");
        Shape shape;
        for (const Json& v : json[i]) {
            TS_TRY(int64_t d, dimension(v));
            shape.push_back(d);
        }
        out.shapes.push_back(std::move(shape));
    }
    return std::optional<DagHashKey>(std::move(out));
}

std::string shapesText(const DagHashKey& key)
{
    if (key.form == DagHashKey::Form::Flat)
        return join(key.shapes.front(), ", ");
    return join(key.shapes, ", ", [](const Shape& s) { return shapeText(s); });
}

std::vector<ir::Tensor> tvmKeyTensors(const ir::ComputeDAG& dag)
{
    std::vector<ir::Tensor> outputs;
    for (const ir::Tensor& t : dag.tensors())
        if (!t->isPlaceholder())
            outputs.push_back(t);
    std::vector<ir::Tensor> out;
    std::unordered_set<const ir::Operation*> visited;
    auto walk = [&](auto&& self, const ir::Tensor& t) -> void {
        if (!visited.insert(t.get()).second)
            return;
        if (t->isPlaceholder()) {
            out.push_back(t);
            return;
        }
        for (const ir::Tensor& input : t->inputs())
            self(self, input);
    };
    for (const ir::Tensor& t : outputs)
        walk(walk, t);
    out.insert(out.end(), outputs.begin(), outputs.end());
    return out;
}

std::string ZooTask::label() const
{
    const graph::NetworkInfo* info = graph::findNetwork(network);
    std::string out = network;
    if (!info || info->imageLayouts)
        out += " " + std::string(ops::toString(layout));
    return out + " batch " + std::to_string(batch) + " task " + std::to_string(task.id);
}

Expected<sched::State> replayAndInferBound(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
{
    TS_TRY(sched::State state, sched::State::replay(dag, steps));
    auto bounded = lower::inferBound(state);
    if (!bounded)
        return makeError(bounded.error().kind, "bound inference: " + bounded.error().message);
    return bounded;
}

NetworkMatcher::NetworkMatcher(std::vector<ZooTask> tasks)
    : m_fixed(true)
    , m_fixedTasks(std::move(tasks))
{
}

Expected<const std::vector<ZooTask>*> NetworkMatcher::zooTasks(
    const std::string& network, ops::Layout layout, int64_t batch)
{
    const auto key = std::make_tuple(network, static_cast<int>(layout), batch);
    if (auto it = m_zoo.find(key); it != m_zoo.end())
        return &it->second;
    TS_TRY(graph::Graph g, graph::buildNetwork(network, batch, layout));
    TS_TRY(graph::TaskSet set, graph::extractTasks(g));
    std::vector<ZooTask> tasks;
    for (graph::Task& task : set.tasks)
        tasks.push_back(ZooTask { network, batch, layout, std::move(task) });
    return &m_zoo.emplace(key, std::move(tasks)).first->second;
}

Expected<std::vector<const ZooTask*>> NetworkMatcher::tasksForKey(const DagHashKey& key)
{
    std::vector<const ZooTask*> out;
    if (m_fixed) {
        for (const ZooTask& task : m_fixedTasks)
            out.push_back(&task);
        return out;
    }
    const bool bare = key.form == DagHashKey::Form::Hash;
    if (!bare && (key.shapes.empty() || key.shapes.front().empty()))
        return out;
    for (const graph::NetworkInfo& info : graph::networks()) {
        std::vector<ops::Layout> layouts { ops::Layout::NCHW };
        if (info.imageLayouts)
            layouts.push_back(ops::Layout::NHWC);
        for (ops::Layout layout : layouts) {
            TS_TRY(const std::vector<ZooTask>* base, zooTasks(info.name, layout, 1));
            if (bare) { // no shapes, no batch: the zoo at batch 1
                for (const ZooTask& task : *base)
                    out.push_back(&task);
                continue;
            }
            // The batch the key implies: its first dimension over what the task's first is at batch 1.
            const int64_t first = key.shapes.front().front();
            std::set<int64_t> batches;
            for (const ZooTask& task : *base) {
                const std::vector<ir::Tensor> tensors = tvmKeyTensors(task.task.dag);
                const int64_t f = tensors.front()->shape().empty() ? 0 : tensors.front()->shape().front();
                if (f > 0 && first % f == 0 && first / f >= 1 && first / f <= kMaxBatch)
                    batches.insert(first / f);
            }
            for (int64_t batch : batches) {
                TS_TRY(const std::vector<ZooTask>* tasks, zooTasks(info.name, layout, batch));
                for (const ZooTask& task : *tasks)
                    out.push_back(&task);
            }
        }
    }
    return out;
}

Expected<std::vector<const ZooTask*>> NetworkMatcher::candidates(const DagHashKey& key)
{
    std::vector<const ZooTask*> exact;
    std::vector<const ZooTask*> loose;
    TS_TRY(std::vector<const ZooTask*> tasks, tasksForKey(key));
    std::unordered_set<std::string> seenExact;
    std::unordered_set<std::string> seenLoose;
    for (const ZooTask* task : tasks) {
        const int fit = key.form == DagHashKey::Form::Hash ? 2 : shapeFit(key, keyShapes(task->task.dag));
        const std::string& id = task->task.dag.workloadKey();
        if (key.own() && id != key.hash)
            continue;
        if (fit == 2 && seenExact.insert(id).second)
            exact.push_back(task);
        else if (fit == 1 && seenLoose.insert(id).second)
            loose.push_back(task);
    }
    return exact.empty() ? loose : exact;
}

Expected<NetworkMatch> NetworkMatcher::match(const DagHashKey& key, const std::vector<sched::Step>& steps)
{
    using Outcome = NetworkMatch::Outcome;
    auto name = [](const ZooTask* t) { return t->label() + " (" + t->task.name + ")"; };
    const bool bare = key.form == DagHashKey::Form::Hash;
    NetworkMatch out;
    out.stepsAlone = bare;
    TS_TRY(std::vector<const ZooTask*> candidates, candidates(key));
    if (candidates.empty() && key.own()) {
        out.outcome = bare ? Outcome::NoShapes : Outcome::NoShapeMatch;
        out.reason = std::string("no model-zoo task is the DAG TuneScope's own hash names")
            + (bare ? " at batch 1 (the key carries no shapes)" : "")
            + " (an operator tuned with `tune --op` is rebuilt from a log only when it is a registered workload)";
        out.detail = shapesText(key);
        return out;
    }
    if (candidates.empty() && !bare) {
        out.outcome = Outcome::NoShapeMatch;
        out.reason = "no model-zoo task has the key's tensor shapes";
        out.detail = shapesText(key);
        return out;
    }
    std::vector<const ZooTask*> replayed;
    std::string firstError;
    for (const ZooTask* task : candidates) {
        if (!bare)
            out.candidates.push_back(name(task));
        auto state = replayAndInferBound(task->task.dag, steps);
        if (state)
            replayed.push_back(task);
        else if (firstError.empty())
            firstError = name(task) + ": " + state.error().message;
    }
    if (replayed.size() == 1) {
        out.outcome = Outcome::Matched;
        out.task = *replayed.front();
        return out;
    }
    if (replayed.empty()) {
        out.outcome = bare ? Outcome::NoShapes : Outcome::NoReplay;
        out.reason = bare ? "the key carries no tensor shapes (TVM before 0.8 hashed the DAG alone) and the steps "
                            "replay on no model-zoo task"
                          : "the steps do not replay on the model-zoo task with the key's shapes";
        out.detail = bare ? "" : firstError;
        return out;
    }
    out.outcome = Outcome::Ambiguous;
    out.reason = bare ? "the key carries no tensor shapes and the steps replay on several model-zoo tasks"
                      : "several model-zoo tasks have the key's shapes and replay its steps";
    out.detail = join(replayed, ", ", name);
    return out;
}

Expected<ir::ComputeDAG> rebuildTask(const TaskInfo& task)
{
    if (!task.rebuildable)
        return makeError(ErrorKind::NotFound, "task " + task.name + " is foreign: TuneScope cannot rebuild it");
    if (isOwnTaskKey(task.key))
        return makeError(ErrorKind::NotFound,
            "task " + task.name + " is TuneScope's own, keyed by its DAG's hash alone: it is rebuilt from the "
                + "session or network that tuned it, not from its key");
    TS_TRY(std::optional<DagHashKey> hashKey, parseDagHashKey(task.key));
    if (!hashKey) {
        TS_TRY(graph::WorkloadKey key, graph::parseWorkloadKey(task.key));
        return graph::buildWorkload(key);
    }
    NetworkMatcher matcher;
    TS_TRY(std::vector<const ZooTask*> candidates, matcher.candidates(*hashKey));
    for (const ZooTask* candidate : candidates)
        if (candidate->task.dag.toString() == task.dagText)
            return candidate->task.dag;
    return makeError(ErrorKind::NotFound,
        "task " + task.name + ": no model-zoo task with the key's shapes is the DAG it was matched to on import");
}

} // namespace ts::store
