// NetworkCatalog: every model-zoo network's tuning tasks for one batch size and layout, and those of the ONNX
// models the user opened (File > Open model...), as one value.
//
// buildNetworkCatalog() builds each network and extracts its tasks; it touches no Qt object, so the
// explorer runs it as a session job off the GUI thread and hands the finished catalog to the model. A
// network that cannot be built for the configuration (BERT has no image layout) is left out; one whose
// extraction fails keeps its row with the error. Once built, a catalog is never changed: the model and the
// selection share it (and point into it) through shared_ptr<const ...>.
#pragma once

#include "core/graph/task_extraction.h"
#include "core/ops/conv.h"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace ts::models {

struct NetworkEntry {
    std::string name; // "resnet-18"
    std::string description;
    std::optional<graph::TaskSet> tasks; // absent when the network failed to build or extract
    std::string error; // why, when `tasks` is absent
};

struct NetworkCatalog {
    int64_t batch = 1;
    ops::Layout layout = ops::Layout::NCHW;
    std::vector<NetworkEntry> networks;
};

// The built-in networks, then each ONNX model in `models` (absolute paths; an entry's name is its path, as a
// session and the store name it). Returns early, with the networks built so far, once `stop` is requested (the
// result is then dropped).
NetworkCatalog buildNetworkCatalog(
    int64_t batch, ops::Layout layout, const std::vector<std::string>& models = {}, const std::stop_token& stop = {});

} // namespace ts::models
