// TuneOrigin: what a tuning session's tasks are made from (a network with a batch, a layout and some of its
// task ids, or one operator with its shape), as a value the CLI, the GUI's "New tuning session" dialog and a
// viewer of stored sessions share. The session keeps it as JSON in its settings (TuneOptions::origin), so a
// stored session can be shown with its DAGs and resumed later.
#pragma once

#include "core/graph/task_extraction.h"
#include "core/support/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::engine {

struct TuneOrigin {
    // A network's tasks: `network` set, `taskIds` in extraction order (empty: all of them).
    std::string network;
    int64_t batch = 1;
    std::vector<int> taskIds;
    // Or one operator: `op` set ("conv2d"), `shape` its values ("1,56,56,64,64,3,3,1,1").
    std::string op;
    std::string shape;
    std::string layout = "NCHW";

    // "resnet-18, batch 1, layout NCHW" or "matmul 64,64,64"
    std::string title() const;
    std::string toJson() const;
    // From TuneOptions::origin (or a session's settings "origin" value); an error names what is missing.
    static Expected<TuneOrigin> fromJson(const std::string& json);
};

// The tasks the origin names, with their ids as `tunescope-cli tasks` prints them (an operator's is 0).
// Errors: an unknown network or operator, a bad shape, a task id out of range, one named twice.
Expected<std::vector<graph::Task>> buildTasks(const TuneOrigin& origin);

} // namespace ts::engine
