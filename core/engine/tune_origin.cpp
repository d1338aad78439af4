#include "core/engine/tune_origin.h"

#include "core/graph/op_tasks.h"
#include "core/store/schedule_source.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ts::engine {

std::string TuneOrigin::title() const
{
    if (!op.empty())
        return op + " " + shape + (layout.empty() ? "" : ", layout " + layout);
    return network + ", batch " + std::to_string(batch) + ", layout " + layout;
}

std::string TuneOrigin::toJson() const
{
    nlohmann::json j;
    if (!op.empty()) {
        j["op"] = op;
        j["shape"] = shape;
    } else {
        j["network"] = network;
        j["batch"] = batch;
        j["tasks"] = taskIds;
    }
    j["layout"] = layout;
    return j.dump();
}

Expected<TuneOrigin> TuneOrigin::fromJson(const std::string& json)
{
    const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorKind::Parse, "a tuning origin is a JSON object, got: " + json.substr(0, 80));
    TuneOrigin origin;
    try {
        origin.layout = j.value("layout", std::string("NCHW"));
        if (j.contains("op")) {
            origin.op = j.at("op").get<std::string>();
            origin.shape = j.value("shape", std::string());
        } else if (j.contains("network")) {
            origin.network = j.at("network").get<std::string>();
            origin.batch = j.value("batch", int64_t { 1 });
            if (j.contains("tasks"))
                origin.taskIds = j.at("tasks").get<std::vector<int>>();
        } else {
            return makeError(ErrorKind::Parse, "a tuning origin names a network or an op: " + json.substr(0, 80));
        }
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorKind::Parse, std::string("tuning origin: ") + e.what());
    }
    return origin;
}

Expected<std::vector<graph::Task>> buildTasks(const TuneOrigin& origin)
{
    TS_TRY(ops::Layout layout, ops::layoutFromString(origin.layout));
    if (!origin.op.empty()) {
        TS_TRY(std::vector<int64_t> shape, graph::parseShapeValues(origin.shape));
        TS_TRY(graph::Task task, graph::operatorTask(origin.op, shape, layout));
        return std::vector<graph::Task> { std::move(task) };
    }
    TS_TRY(graph::TaskSet set, store::loadNetworkTasks(store::NetworkRef { origin.network, origin.batch, layout }));
    if (origin.taskIds.empty())
        return std::move(set.tasks);
    std::vector<graph::Task> tasks;
    for (size_t i = 0; i < origin.taskIds.size(); ++i) {
        const int id = origin.taskIds[i];
        if (std::count(origin.taskIds.begin(), origin.taskIds.begin() + static_cast<ptrdiff_t>(i), id))
            return makeError(ErrorKind::InvalidArgument, "task " + std::to_string(id) + " is named twice");
        TS_TRY(const graph::Task* task, store::findTask(set, id));
        tasks.push_back(*task);
    }
    return tasks;
}

} // namespace ts::engine
