// tunescope-cli: the workbench's engine from a shell.
//   networks                       list the built-in networks
//   tasks --network N [--batch B] [--layout NCHW|NHWC]
//   dag --network N --task ID [--format text|dot|json]
//   lower   (--network N --task ID | --workload W | --record FILE:LINE) [--steps FILE] [--target T] [--llvm]
//           [--cuda] [--asm] [--passes]
//   measure (same selection) [--number N] [--repeat N] [--min-repeat-ms MS] [--threads N] [--timeout S]
//           [--target T]
//   sketches (--network N --task ID | --op OP --shape S) [--samples K] [--seed S]
//                                              Ansor's sketches of a task and random annotations of each
//   best (--network N [--task ID] | --op OP --shape S) [--workspace PATH]
//                                              the best schedule stored for each task on this machine
//   tune (--network N [--tasks IDS] | --op OP --shape S) --trials T [--measures-per-round B]
//        [--policy ansor|random|autotvm-xgb|autotvm-ga|autotvm-random|autotvm-grid] [--model M] [--seed S]
//        [--threads K] [--early-stopping N] [--workspace PATH]
//                                              Ansor's or AutoTVM's search, measured here, resumable
//   sweep (--network N --task ID | --op OP --shape S) [--record ID|best | --steps FILE] (--list | --param K
//         [--values V,V] [--models M,M] [--json FILE]) [--workspace PATH]
//                                              measure every legal value of one split length or unroll limit
//   race (--network N --task ID | --op OP --shape S) --trials T [--policies P,P] [--seed S] | --list | --replay ID
//                                              policies on one task, rounds in turn; replayed from the store
//   import FILE... [--workspace PATH]          TVM logs into the workspace
//   export --out FILE [--task IDS] [--device ID] [--session ID] [--ok-only] [--workspace PATH]
//   machine [--remeasure] [--threads N]        FMA peak, triad bandwidth, caches (measured once per workspace)
//   stats [--check] [--workspace PATH]         per task: records, failures, best cost and GFLOP/s, device
//   --version                                  prints "tunescope-cli <version>"
// Every failure prints "tunescope-cli: <reason>" and exits non-zero; bad input never crashes it.
// This file parses the command line and dispatches; the commands live in commands_*.cpp (see commands.h).
#include "app/cli/commands.h"
#include "core/cost/neural_models.h"
#include "core/graph/op_tasks.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <algorithm>
#include <iostream>

namespace ts::cli {

int fail(const std::string& message, int code)
{
    std::cerr << "tunescope-cli: " << message << "\n";
    return code;
}

const OptionSpec kNetworkOption { "network", "NAME", "network name (see 'tunescope-cli networks')" };
const OptionSpec kOnnxOption { "onnx", "FILE", "an ONNX model instead of a built-in network (opsets 6-17)" };
const OptionSpec kBatchOption { "batch", "N", "batch size, 1..4096 (default 1)" };
const OptionSpec kLayoutOption { "layout", "NCHW|NHWC", "data layout of CNNs (default NCHW)" };
const OptionSpec kHelpOption { "help", "", "show this help" };
// From graph::operators(), so that a new operator shows here by itself.
const OptionSpec kOpOption { "op", "OP",
    "one operator instead of a network: "
        + join(graph::operators(), ", ", [](const graph::OperatorInfo& i) { return i.name; }) };
const OptionSpec kShapeOption { "shape", "S",
    "the operator's shape values: " + join(graph::operators(), "; ", [](const graph::OperatorInfo& i) {
        return i.name + " " + i.shapeValues;
    }) + " (pad may be 0)" };

} // namespace ts::cli

namespace {

using namespace ts::cli;

std::vector<Command> commands()
{
    std::vector<Command> all;
    for (std::vector<Command> group : { graphCommands(), scheduleCommands(), tuneCommands(), sweepCommands(),
             raceCommands(), machineCommands(), runCommands(), storeCommands(), datasetCommands() })
        all.insert(all.end(), std::make_move_iterator(group.begin()), std::make_move_iterator(group.end()));
    return all;
}

std::string mainHelp()
{
    std::string out = "tunescope-cli - tune tensor programs from the command line\n\nUsage: tunescope-cli COMMAND "
                      "[OPTIONS]\n\nCommands:\n";
    size_t width = 0; // the longest name and two spaces: "import-results" was cut to "import-resul"
    for (const Command& c : commands())
        width = std::max(width, c.name.size() + 4);
    for (const Command& c : commands()) {
        std::string name = "  " + c.name;
        name.resize(width, ' ');
        out += name + c.summary + "\n";
    }
    out += "\nRun 'tunescope-cli COMMAND --help' for a command's options.\n";
    return out + "'tunescope-cli --version' prints the version.\n";
}

int dispatch(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return fail("no command given\n" + mainHelp(), kExitUsage);
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << mainHelp();
        return 0;
    }
    if (args[0] == "--version") {
        std::cout << "tunescope-cli " TUNESCOPE_VERSION "\n";
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
                      << optionsHelp(command.options);
            return 0;
        }
        if (!command.takesFiles && !parsed->positional().empty())
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
        ts::cost::registerNeuralModels();
        return dispatch(argc, argv);
    } catch (const ts::InternalError& e) {
        return fail(std::string("internal error, please report: ") + e.what());
    } catch (const std::exception& e) {
        return fail(std::string("unexpected error: ") + e.what());
    }
}
