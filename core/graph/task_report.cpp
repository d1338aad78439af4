#include "core/graph/task_report.h"

#include "core/ir/dag_export.h"
#include "core/support/strings.h"

#include <algorithm>

namespace ts::graph {

namespace {
    std::string pad(std::string text, size_t width, bool right = false)
    {
        if (text.size() >= width)
            return text;
        return right ? std::string(width - text.size(), ' ') + text : text + std::string(width - text.size(), ' ');
    }
} // namespace

std::string formatTaskTable(const TaskSet& set, const std::string& header)
{
    size_t shapeWidth = 6;
    for (const Task& task : set.tasks)
        shapeWidth = std::max(shapeWidth, task.shapes.size());
    std::string out = header + "\n";
    out += pad("id", 4, true) + "  " + pad("anchor", 17) + pad("GFLOP", 9, true) + pad("weight", 8, true) + "  "
        + pad("shapes", shapeWidth) + "  fused ops\n";
    for (const Task& task : set.tasks) {
        out += pad(std::to_string(task.id), 4, true) + "  " + pad(std::string(toString(task.anchor)), 17)
            + pad(formatFixed(task.flops / 1e9, 4), 9, true) + pad(std::to_string(task.weight), 8, true) + "  "
            + pad(task.shapes, shapeWidth) + "  " + join(task.fusedOps, "+") + "\n";
    }
    const double total = set.totalFlops();
    out += "total: " + std::to_string(set.tasks.size()) + " tasks, " + std::to_string(set.totalWeight())
        + " task instances, " + formatFixed(total / 1e9, 3) + " GFLOP, " + formatFixed(set.totalMacs() / 1e9, 3)
        + " G multiply-accumulates in convolutions and matrix products";
    if (set.leftOutNodes)
        out += "; " + std::to_string(set.leftOutNodes) + " data-movement or lone element-wise nodes are not tasks";
    return out + "\n";
}

std::string formatTaskDag(const Task& task)
{
    const ir::ComputeDAG& dag = task.dag;
    std::string out
        = "task " + std::to_string(task.id) + ": " + task.name + "  (weight " + std::to_string(task.weight) + ")\n";
    out += "workload key " + dag.workloadKey() + ", " + formatFixed(dag.flopCount() / 1e9, 4) + " GFLOP, reads "
        + std::to_string(dag.bytesRead()) + " B, writes " + std::to_string(dag.bytesWritten()) + " B\n\n";
    for (int i = 0; i < dag.numOps(); ++i)
        out += pad(std::to_string(i), 3, true) + "  " + dag.op(i).toString()
            + "\n       analysis: " + ir::analysisSummary(dag, i) + "\n";
    return out;
}

} // namespace ts::graph
