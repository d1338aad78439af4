#include "widgets/models/network_catalog.h"

#include "core/graph/model_zoo.h"

namespace ts::models {

namespace {
    // A network's row: its tasks, or why it has none.
    NetworkEntry entryFor(const std::string& name, const std::string& description, int64_t batch, ops::Layout layout)
    {
        NetworkEntry entry { name, description, {}, {} };
        auto graph = graph::buildNetwork(name, batch, layout);
        Expected<graph::TaskSet> tasks = graph ? graph::extractTasks(*graph) : Expected<graph::TaskSet>(graph.error());
        if (tasks)
            entry.tasks = std::move(*tasks);
        else
            entry.error = tasks.error().message;
        return entry;
    }
} // namespace

NetworkCatalog buildNetworkCatalog(
    int64_t batch, ops::Layout layout, const std::vector<std::string>& models, const std::stop_token& stop)
{
    NetworkCatalog catalog;
    catalog.batch = batch;
    catalog.layout = layout;
    for (const graph::NetworkInfo& info : graph::networks()) {
        if (stop.stop_requested())
            break;
        if (!info.imageLayouts && layout != ops::Layout::NCHW)
            continue;
        catalog.networks.push_back(entryFor(info.name, info.description, batch, layout));
    }
    for (const std::string& path : models) {
        if (stop.stop_requested())
            break;
        catalog.networks.push_back(entryFor(path, "ONNX model " + path, batch, layout));
    }
    return catalog;
}

} // namespace ts::models
