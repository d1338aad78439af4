#include "widgets/models/network_catalog.h"

#include "core/graph/model_zoo.h"

namespace ts::models {

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
        NetworkEntry entry { info.name, info.description, {}, {} };
        auto graph = graph::buildNetwork(info.name, batch, layout);
        Expected<graph::TaskSet> tasks = graph ? graph::extractTasks(*graph) : Expected<graph::TaskSet>(graph.error());
        if (tasks)
            entry.tasks = std::move(*tasks);
        else
            entry.error = tasks.error().message;
        catalog.networks.push_back(std::move(entry));
    }
    for (const std::string& path : models) {
        if (stop.stop_requested())
            break;
        NetworkEntry entry { path, "ONNX model " + path, {}, {} };
        auto graph = graph::buildNetwork(path, batch, layout);
        Expected<graph::TaskSet> tasks = graph ? graph::extractTasks(*graph) : Expected<graph::TaskSet>(graph.error());
        if (tasks)
            entry.tasks = std::move(*tasks);
        else
            entry.error = tasks.error().message;
        catalog.networks.push_back(std::move(entry));
    }
    return catalog;
}

} // namespace ts::models
