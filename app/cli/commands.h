// The CLI's commands, one group per file, and what the groups share: how a failure is printed, the
// command record, the common options. Private to tunescope-cli.
//
// How to add a command: write `int runX(const Arguments&)` in the group's .cpp (or a new commands_*.cpp
// listed in app/CMakeLists.txt), add its Command to that group's list, and add a contract test to
// tests/cli/CMakeLists.txt. main.cpp shows the groups in the order graphCommands, scheduleCommands,
// tuneCommands, storeCommands, datasetCommands.
#pragma once

#include "app/cli/arguments.h"
#include "core/measure/machine_profile.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/support/error.h"

#include <functional>
#include <string>
#include <vector>

namespace ts::cli {

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;
constexpr int kExitInterrupted = 130; // 128 + SIGINT, as shells report it

// Prints "tunescope-cli: <message>" on stderr and returns code.
int fail(const std::string& message, int code = kExitFailure);

struct Command {
    std::string name;
    std::string summary;
    std::string usage;
    std::vector<OptionSpec> options;
    std::function<int(const Arguments&)> run;
    bool takesFiles = false; // positional arguments allowed
};

extern const OptionSpec kNetworkOption;
extern const OptionSpec kOnnxOption;
extern const OptionSpec kBatchOption;
extern const OptionSpec kLayoutOption;
extern const OptionSpec kHelpOption;
// --op and --shape: one operator instead of a network's task (task_selection.h).
extern const OptionSpec kOpOption;
extern const OptionSpec kShapeOption;
extern const OptionSpec kWorkspaceOption;

// --layout: NCHW (the default) or NHWC.
Expected<ops::Layout> layoutOption(const Arguments& args);

// --network (required), --batch and --layout, checked for form; the network itself is checked when it is
// built (store::loadNetworkTasks).
// The network of --network NAME or --onnx FILE (whose name is then the file's absolute path).
Expected<store::NetworkRef> networkRef(const Arguments& args);
bool hasNetwork(const Arguments& args);

// "3" or "1,2,5" -> ids; `what` names the option in errors.
Expected<std::vector<int64_t>> parseIds(const std::string& text, const std::string& what);

// --workspace (or the default workspace), opened.
Expected<store::Store> openWorkspace(const Arguments& args, bool readOnly);

// networks, tasks, dag (commands_graph.cpp).
std::vector<Command> graphCommands();
// lower, measure (commands_schedule.cpp).
std::vector<Command> scheduleCommands();
// sketches, best, tune (commands_tune.cpp).
std::vector<Command> tuneCommands();
// sweep (commands_sweep.cpp).
std::vector<Command> sweepCommands();
// race (commands_race.cpp).
std::vector<Command> raceCommands();
// machine (commands_machine.cpp).
std::vector<Command> machineCommands();
// A kernel of `dag` (`flops` per run, as the caller counts them) running `seconds` per run on `threads` threads against
// the machine profile: its share of the FMA peak and of its roofline point, as `best` and `measure` print it after
// "roof:".
std::string roofText(
    const measure::MachineProfile& profile, const ir::ComputeDAG& dag, double flops, double seconds, int threads);
// run (commands_run.cpp).
std::vector<Command> runCommands();
// import, export, stats (commands_store.cpp).
std::vector<Command> storeCommands();
// collect, train, eval (commands_dataset.cpp).
std::vector<Command> datasetCommands();

} // namespace ts::cli
