// networks, tasks, dag: the built-in networks, their tuning tasks and each task's compute DAG.
#include "app/cli/commands.h"
#include "core/graph/model_zoo.h"
#include "core/graph/onnx_import.h"
#include "core/graph/task_report.h"
#include "core/ir/dag_export.h"
#include "core/search/autotvm/template.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace ts::cli {

Expected<ops::Layout> layoutOption(const Arguments& args)
{
    auto layout = ops::layoutFromString(args.value("layout", "NCHW"));
    if (!layout)
        return makeError(ErrorKind::InvalidArgument, "--" + layout.error().message.substr(4));
    return layout;
}

bool hasNetwork(const Arguments& args) { return args.has("network") || args.has("onnx"); }

Expected<store::NetworkRef> networkRef(const Arguments& args)
{
    if (args.has("network") && args.has("onnx"))
        return makeError(ErrorKind::InvalidArgument, "give --network or --onnx, not both");
    if (!hasNetwork(args))
        return makeError(ErrorKind::InvalidArgument, "--network or --onnx is required");
    store::NetworkRef ref;
    if (args.has("onnx")) {
        // The model is named by its absolute path, so sessions and records find it again from any folder.
        std::error_code ec;
        const std::filesystem::path path = std::filesystem::absolute(args.value("onnx"), ec).lexically_normal();
        ref.name = path.string();
        if (!graph::isOnnxPath(ref.name))
            return makeError(ErrorKind::InvalidArgument, "--onnx " + args.value("onnx") + ": not a .onnx file");
    } else
        ref.name = args.value("network");
    TS_TRY(ref.batch, args.intValue("batch", 1));
    TS_TRY(ref.layout, layoutOption(args));
    return ref;
}

namespace {

    // The network named by the options and its tuning tasks.
    struct NetworkTasks {
        store::NetworkRef network;
        graph::TaskSet tasks;
    };

    Expected<NetworkTasks> networkTasks(const Arguments& args)
    {
        TS_TRY(store::NetworkRef network, networkRef(args));
        TS_TRY(graph::TaskSet tasks, store::loadNetworkTasks(network));
        return NetworkTasks { std::move(network), std::move(tasks) };
    }

    int runNetworks(const Arguments&)
    {
        for (const graph::NetworkInfo& info : graph::networks()) {
            std::string name = info.name;
            name.resize(16, ' ');
            std::cout << name << info.description << "\n";
        }
        return 0;
    }

    // tasks --onnx FILE --check: every node the importer cannot convert, at once.
    int runOnnxCheck(const Arguments& args)
    {
        auto network = networkRef(args);
        if (!network)
            return fail(network.error().message);
        if (!args.has("onnx"))
            return fail("--check goes with --onnx");
        auto check = graph::checkOnnx(network->name, { network->batch, {} });
        if (!check)
            return fail(check.error().message);
        std::cout << network->name << ": opset " << check->opset << ", " << check->nodes << " nodes\n";
        if (auto inputs = graph::onnxInputs(network->name))
            for (const graph::OnnxInput& in : *inputs) {
                std::string shape;
                for (int64_t d : in.shape)
                    shape += (shape.empty() ? "" : ", ") + (d < 0 ? std::string("?") : std::to_string(d));
                std::cout << "  input " << in.name << ": " << in.type << " [" << shape << "]\n";
            }
        if (check->issues.empty()) {
            std::cout << "every node is supported\n";
            return 0;
        }
        std::cout << check->issues.size() << " unsupported node" << (check->issues.size() == 1 ? "" : "s");
        if (check->notChecked)
            std::cout << " (and " << check->notChecked << " nodes after them, not checked)";
        std::cout << ":\n";
        for (const graph::OnnxIssue& issue : check->issues)
            std::cout << "  " << issue.text() << "\n";
        return 1;
    }

    int runTasks(const Arguments& args)
    {
        if (args.has("check"))
            return runOnnxCheck(args);
        auto loaded = networkTasks(args);
        if (!loaded)
            return fail(loaded.error().message);
        const store::NetworkRef& network = loaded->network;
        std::cout << graph::formatTaskTable(loaded->tasks,
            "network " + network.name + ", batch " + std::to_string(network.batch) + ", layout "
                + std::string(ops::toString(network.layout)));
        if (args.has("autotvm")) {
            // AutoTVM's task extraction: the tasks whose anchor op one of its templates schedules.
            int count = 0;
            std::cout << "\nAutoTVM tasks (templates in preference order, config-space sizes):\n";
            for (const graph::Task& task : loaded->tasks.tasks) {
                std::string line;
                for (const autotvm::Template* t : autotvm::templatesFor(task.dag)) {
                    auto space = t->space(task.dag);
                    line += (line.empty() ? "" : ", ") + t->name + " ("
                        + (space ? std::to_string(space->size()) : std::string("?")) + ")";
                }
                if (line.empty())
                    continue;
                ++count;
                std::printf("  %3d  %-28s %s\n", task.id, task.name.c_str(), line.c_str());
            }
            std::cout << "  " << count << " of " << loaded->tasks.tasks.size() << " tasks have a template\n";
        }
        return 0;
    }

    int runDag(const Arguments& args)
    {
        auto loaded = networkTasks(args);
        if (!loaded)
            return fail(loaded.error().message);
        if (!args.has("task"))
            return fail("--task is required");
        auto id = args.intValue("task", 0);
        if (!id)
            return fail(id.error().message);
        auto found = store::findTask(loaded->tasks, *id, "--task");
        if (!found)
            return fail(found.error().message);
        const graph::Task& task = **found;
        const std::string format = args.value("format", "text");
        if (format == "text")
            std::cout << graph::formatTaskDag(task);
        else if (format == "dot")
            std::cout << ir::toDot(task.dag, task.name);
        else if (format == "json")
            std::cout << ir::toJson(task.dag);
        else
            return fail("--format must be text, dot or json, got '" + format + "'");
        return 0;
    }

} // namespace

std::vector<Command> graphCommands()
{
    return {
        { "networks", "list the built-in networks", "tunescope-cli networks", { kHelpOption }, runNetworks },
        { "tasks", "partition a network into tuning tasks and print them",
            "tunescope-cli tasks (--network NAME | --onnx FILE [--check]) [--batch N] [--layout NCHW|NHWC] [--autotvm]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
                { "autotvm", "", "also list the tasks AutoTVM tunes: their templates and config-space sizes" },
                { "check", "", "with --onnx: list every node TuneScope cannot import (exit status 1 if any)" },
                kHelpOption },
            runTasks },
        { "dag", "print the compute DAG of one task",
            "tunescope-cli dag --network NAME --task ID [--format text|dot|json]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
                { "task", "ID", "task id from 'tunescope-cli tasks'" },
                { "format", "text|dot|json", "output format (default text)" }, kHelpOption },
            runDag },
    };
}

} // namespace ts::cli
