// Which tasks a command works on: a network's (all, or those named by id) or one operator's. Shared by the
// commands that tune, race and print sketches, so that they read their options the same way.
#pragma once

#include "app/cli/arguments.h"
#include "core/graph/task_extraction.h"
#include "core/ops/conv.h"
#include "core/store/schedule_source.h"
#include "core/support/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::cli {

// The tasks a command works on, with their ids as `tunescope-cli tasks` prints them (an operator's is 0).
struct Selection {
    std::string title; // "resnet-18, batch 1, layout NCHW", "matmul 64,64,64"
    std::optional<store::NetworkRef> network;
    ops::Layout layout = ops::Layout::NCHW;
    std::vector<graph::Task> tasks;
};

// --network [--batch] [--layout] [--<idsOption> IDS], or --op --shape [--layout]. `idsOption` is "task"
// (one id) or "tasks" (a list); `idsRequired`: whether --network needs it.
Expected<Selection> selectTasks(const Arguments& args, const std::string& idsOption, bool idsRequired);

// An integer option within [lo, hi].
Expected<int64_t> boundedInt(const Arguments& args, const std::string& name, int64_t fallback, int64_t lo, int64_t hi);

} // namespace ts::cli
