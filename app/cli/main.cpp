// tunescope-cli: the workbench's engine from a shell.
//   networks                       list the built-in networks
//   tasks --network N [--batch B] [--layout NCHW|NHWC]
//   dag --network N --task ID [--format text|dot|json]
// Every failure prints "tunescope-cli: <reason>" and exits non-zero; bad input never crashes it.
#include "app/cli/arguments.h"
#include "core/graph/model_zoo.h"
#include "core/graph/task_report.h"
#include "core/ir/dag_export.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <cstdio>
#include <functional>
#include <iostream>

namespace {

using namespace ts;
using cli::Arguments;
using cli::OptionSpec;

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

int fail(const std::string& message, int code = kExitFailure)
{
    std::cerr << "tunescope-cli: " << message << "\n";
    return code;
}

struct Command {
    std::string name;
    std::string summary;
    std::string usage;
    std::vector<OptionSpec> options;
    std::function<int(const Arguments&)> run;
};

const OptionSpec kNetworkOption { "network", "NAME", "network name (see 'tunescope-cli networks')" };
const OptionSpec kBatchOption { "batch", "N", "batch size, 1..4096 (default 1)" };
const OptionSpec kLayoutOption { "layout", "NCHW|NHWC", "data layout of CNNs (default NCHW)" };
const OptionSpec kHelpOption { "help", "", "show this help" };

Expected<graph::TaskSet> loadTasks(const Arguments& args, std::string* header)
{
    if (!args.has("network"))
        return makeError(ErrorKind::InvalidArgument, "--network is required");
    TS_TRY(int64_t batch, args.intValue("batch", 1));
    const std::string layoutText = args.value("layout", "NCHW");
    ops::Layout layout;
    if (layoutText == "NCHW" || layoutText == "nchw")
        layout = ops::Layout::NCHW;
    else if (layoutText == "NHWC" || layoutText == "nhwc")
        layout = ops::Layout::NHWC;
    else
        return makeError(ErrorKind::InvalidArgument, "--layout must be NCHW or NHWC, got '" + layoutText + "'");
    const std::string name = args.value("network");
    TS_TRY(graph::Graph g, graph::buildNetwork(name, batch, layout));
    if (header)
        *header
            = "network " + name + ", batch " + std::to_string(batch) + ", layout " + std::string(ops::toString(layout));
    return graph::extractTasks(g);
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

int runTasks(const Arguments& args)
{
    std::string header;
    auto tasks = loadTasks(args, &header);
    if (!tasks)
        return fail(tasks.error().message);
    std::cout << graph::formatTaskTable(*tasks, header);
    return 0;
}

int runDag(const Arguments& args)
{
    auto tasks = loadTasks(args, nullptr);
    if (!tasks)
        return fail(tasks.error().message);
    if (!args.has("task"))
        return fail("--task is required");
    auto id = args.intValue("task", 0);
    if (!id)
        return fail(id.error().message);
    if (*id < 0 || *id >= static_cast<int64_t>(tasks->tasks.size()))
        return fail("--task " + std::to_string(*id) + " is out of range: " + args.value("network") + " has "
            + std::to_string(tasks->tasks.size()) + " tasks (0.." + std::to_string(tasks->tasks.size() - 1) + ")");
    const graph::Task& task = tasks->tasks[static_cast<size_t>(*id)];
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

std::vector<Command> commands()
{
    return {
        { "networks", "list the built-in networks", "tunescope-cli networks", { kHelpOption }, runNetworks },
        { "tasks", "partition a network into tuning tasks and print them",
            "tunescope-cli tasks --network NAME [--batch N] [--layout NCHW|NHWC]",
            { kNetworkOption, kBatchOption, kLayoutOption, kHelpOption }, runTasks },
        { "dag", "print the compute DAG of one task",
            "tunescope-cli dag --network NAME --task ID [--format text|dot|json]",
            { kNetworkOption, kBatchOption, kLayoutOption, { "task", "ID", "task id from 'tunescope-cli tasks'" },
                { "format", "text|dot|json", "output format (default text)" }, kHelpOption },
            runDag },
    };
}

std::string mainHelp()
{
    std::string out = "tunescope-cli - tune tensor programs from the command line\n\nUsage: tunescope-cli COMMAND "
                      "[OPTIONS]\n\nCommands:\n";
    for (const Command& c : commands()) {
        std::string name = "  " + c.name;
        name.resize(14, ' ');
        out += name + c.summary + "\n";
    }
    return out + "\nRun 'tunescope-cli COMMAND --help' for a command's options.\n";
}

int run(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return fail("no command given\n" + mainHelp(), kExitUsage);
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << mainHelp();
        return 0;
    }
    for (const Command& command : commands()) {
        if (command.name != args[0])
            continue;
        auto parsed = Arguments::parse({ args.begin() + 1, args.end() }, command.options);
        if (!parsed)
            return fail(parsed.error().message + "\nusage: " + command.usage, kExitUsage);
        if (parsed->has("help")) {
            std::cout << "usage: " << command.usage << "\n\n"
                      << command.summary << "\n\n"
                      << cli::optionsHelp(command.options);
            return 0;
        }
        if (!parsed->positional().empty())
            return fail(
                "unexpected argument '" + parsed->positional().front() + "'\nusage: " + command.usage, kExitUsage);
        return command.run(*parsed);
    }
    return fail("unknown command '" + args[0] + "'\n" + mainHelp(), kExitUsage);
}

} // namespace

int main(int argc, char** argv)
{
    try {
        return run(argc, argv);
    } catch (const ts::InternalError& e) {
        return fail(std::string("internal error, please report: ") + e.what());
    } catch (const std::exception& e) {
        return fail(std::string("unexpected error: ") + e.what());
    }
}
