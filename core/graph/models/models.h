// Builders of the model-zoo graphs (private to core/graph; use buildNetwork()).
#pragma once

#include "core/graph/graph.h"

namespace ts::graph::models {

Graph resnet(int depth, int64_t batch, ops::Layout layout); // 18 or 50
Graph mobilenetV2(int64_t batch, ops::Layout layout);
Graph squeezenet11(int64_t batch, ops::Layout layout);
Graph vgg11(int64_t batch, ops::Layout layout);
// BERT encoder stack on [batch * sequence, hidden] activations (embedding lookup and pooler left out).
Graph bert(const std::string& name, int64_t batch, int64_t sequence, int64_t layers, int64_t hidden, int64_t heads,
    int64_t intermediate);

// [batch, channels, size, size] or [batch, size, size, channels].
std::vector<int64_t> imageShape(ops::Layout layout, int64_t batch, int64_t channels, int64_t size);

} // namespace ts::graph::models
