#include "app/cli/task_selection.h"

#include "app/cli/commands.h"
#include "core/graph/op_tasks.h"

#include <algorithm>

namespace ts::cli {

Expected<Selection> selectTasks(const Arguments& args, const std::string& idsOption, bool idsRequired)
{
    const bool byOp = args.has("op");
    if (byOp && hasNetwork(args))
        return makeError(ErrorKind::InvalidArgument, "give --network (or --onnx) or --op, not both");
    if (!byOp && !hasNetwork(args))
        return makeError(ErrorKind::InvalidArgument, "--network, --onnx or --op is required");
    Selection selection;
    TS_TRY(selection.layout, layoutOption(args));
    if (byOp) {
        for (const std::string& option : { std::string("batch"), idsOption })
            if (args.has(option))
                return makeError(ErrorKind::InvalidArgument, "--" + option + " goes with --network, not --op");
        const std::string op = args.value("op");
        const auto& known = graph::operators();
        auto info
            = std::find_if(known.begin(), known.end(), [&](const graph::OperatorInfo& i) { return i.name == op; });
        if (!args.has("shape"))
            return makeError(ErrorKind::InvalidArgument,
                "--op needs --shape" + (info == known.end() ? "" : " " + info->shapeValues));
        auto shape = graph::parseShapeValues(args.value("shape"));
        if (!shape)
            return makeError(ErrorKind::InvalidArgument, "--shape: " + shape.error().message);
        TS_TRY(graph::Task task, graph::operatorTask(op, *shape, selection.layout));
        selection.title = op + " " + args.value("shape");
        if (task.anchor == graph::NodeKind::Conv2d || task.anchor == graph::NodeKind::DepthwiseConv2d)
            selection.title += ", layout " + std::string(ops::toString(selection.layout));
        selection.tasks.push_back(std::move(task));
        return selection;
    }
    if (args.has("shape"))
        return makeError(ErrorKind::InvalidArgument, "--shape goes with --op, not --network");
    TS_TRY(store::NetworkRef network, networkRef(args));
    TS_TRY(graph::TaskSet set, store::loadNetworkTasks(network));
    selection.title = network.name + ", batch " + std::to_string(network.batch) + ", layout "
        + std::string(ops::toString(network.layout));
    selection.network = network;
    if (!args.has(idsOption)) {
        if (idsRequired)
            return makeError(ErrorKind::InvalidArgument, "--" + idsOption + " is required with --network");
        selection.tasks = std::move(set.tasks);
        return selection;
    }
    TS_TRY(std::vector<int64_t> ids, parseIds(args.value(idsOption), "--" + idsOption));
    for (size_t i = 0; i < ids.size(); ++i) {
        if (std::find(ids.begin(), ids.begin() + static_cast<ptrdiff_t>(i), ids[i]) != ids.begin() + i)
            return makeError(
                ErrorKind::InvalidArgument, "--" + idsOption + " names task " + std::to_string(ids[i]) + " twice");
        TS_TRY(const graph::Task* task, store::findTask(set, ids[i], "--" + idsOption));
        selection.tasks.push_back(*task);
    }
    return selection;
}

Expected<int64_t> boundedInt(const Arguments& args, const std::string& name, int64_t fallback, int64_t lo, int64_t hi)
{
    TS_TRY(int64_t value, args.intValue(name, fallback));
    if (value < lo || value > hi)
        return makeError(ErrorKind::InvalidArgument,
            "--" + name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got "
                + std::to_string(value));
    return value;
}

} // namespace ts::cli
