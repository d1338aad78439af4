// Plain-text reports of a network's tasks, shared by the CLI and the GUI's headless mode.
#pragma once

#include "core/graph/task_extraction.h"

#include <string>

namespace ts::graph {

// One row per task (id, anchor, GFLOP per occurrence, weight, shapes, fused ops), then the totals.
std::string formatTaskTable(const TaskSet& tasks, const std::string& header);
// The DAG of one task as text: each op with its expression and Ansor's access analysis.
std::string formatTaskDag(const Task& task);

} // namespace ts::graph
