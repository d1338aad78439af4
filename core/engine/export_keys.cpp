#include "core/engine/export_keys.h"

#include "core/graph/op_tasks.h"
#include "core/graph/workload_registry.h"
#include "core/store/network_match.h"
#include "core/store/schedule_source.h"
#include "core/store/tvm_log.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <set>

namespace ts::engine {

namespace {
    using Json = nlohmann::json;

    // As TVM writes a key (Python's json.dumps: ", " between items): TVM compares keys as text.
    std::string pythonText(const Json& key)
    {
        auto text = store::pythonJsonText(key.dump());
        return text ? *text : key.dump();
    }

    // The registered workload's key of an operator: TVM's, ["matmul", 64, 64, 64, "float32"], when the
    // operator is one of TVM's workloads with the same DAG, else TuneScope's, ["tunescope_dense", 64, 64, 64,
    // "float32"] (workload_registry.h).
    std::string operatorKey(const TuneOrigin& origin, const ir::ComputeDAG& dag)
    {
        bool tvmWorkload = false;
        if (auto spec = graph::parseWorkloadSpec(origin.op + ":" + origin.shape))
            if (auto built = graph::buildWorkload(*spec))
                tvmWorkload = built->workloadKey() == dag.workloadKey();
        auto layout = ops::layoutFromString(origin.layout);
        const std::string name
            = tvmWorkload ? origin.op : graph::operatorWorkloadName(origin.op, layout ? *layout : ops::Layout::NCHW);
        Json key = Json::array({ name });
        for (const std::string& v : split(origin.shape, ','))
            key.push_back(std::stoll(v));
        key.push_back("float32");
        return pythonText(key);
    }

    // TuneScope's own hash of the DAG followed by its tensors' shapes, in TVM's key order.
    std::string ownHashKey(const ir::ComputeDAG& dag)
    {
        Json key = Json::array({ dag.workloadKey() });
        for (const ir::Tensor& t : store::tvmKeyTensors(dag))
            key.push_back(t->shape());
        return pythonText(key);
    }
} // namespace

std::string exportKey(const TuneOrigin& origin, const graph::Task& task)
{
    return origin.op.empty() ? ownHashKey(task.dag) : operatorKey(origin, task.dag);
}

Expected<std::map<int64_t, std::string>> exportKeys(store::Store& store)
{
    TS_TRY(std::vector<store::TaskInfo> tasks, store.tasks());
    std::map<std::string, int64_t> ownTasks; // own hash -> task id
    for (const store::TaskInfo& t : tasks)
        if (t.kind == store::RecordKind::Ansor && store::isOwnTaskKey(t.key))
            ownTasks.emplace(t.key, t.id);
    std::map<int64_t, std::string> out;
    if (ownTasks.empty())
        return out;
    TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
    std::set<std::string> origins; // each distinct origin built once
    for (const store::SessionInfo& s : sessions) {
        const Json settings = Json::parse(s.settings, nullptr, false);
        if (!settings.is_object() || !settings.contains("origin") || !origins.insert(settings["origin"].dump()).second)
            continue;
        auto origin = TuneOrigin::fromJson(settings["origin"].dump());
        auto built = origin ? buildTasks(*origin) : Expected<std::vector<graph::Task>>(origin.error());
        if (!built)
            continue;
        for (const graph::Task& task : *built)
            if (auto it = ownTasks.find(task.dag.workloadKey()); it != ownTasks.end() && !out.count(it->second))
                out.emplace(it->second, exportKey(*origin, task));
    }
    // A dataset `collect` measured names no origin in its sessions: its networks table says what the tasks are.
    TS_TRY(std::vector<store::NetworkInfo> networks, store.networks());
    for (const store::NetworkInfo& n : networks) {
        if (out.size() == ownTasks.size())
            break;
        auto layout = ops::layoutFromString(n.layout);
        auto built
            = layout ? store::loadNetworkTasks({ n.name, n.batch, *layout }) : Expected<graph::TaskSet>(layout.error());
        if (!built)
            continue;
        for (const graph::Task& task : built->tasks)
            if (auto it = ownTasks.find(task.dag.workloadKey()); it != ownTasks.end() && !out.count(it->second))
                out.emplace(it->second, ownHashKey(task.dag));
    }
    return out;
}

} // namespace ts::engine
