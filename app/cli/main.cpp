// tunescope-cli: the workbench's engine from a shell.
//   networks                       list the built-in networks
//   tasks --network N [--batch B] [--layout NCHW|NHWC]
//   dag --network N --task ID [--format text|dot|json]
//   lower   (--network N --task ID | --workload W | --record FILE:LINE) [--steps FILE] [--llvm] [--passes]
//   measure (same selection) [--number N] [--repeat N] [--min-repeat-ms MS] [--threads N] [--timeout S]
//   import FILE... [--workspace PATH]          TVM logs into the workspace
//   export --out FILE [--task IDS] [--device ID] [--session ID] [--ok-only] [--workspace PATH]
//   stats [--check] [--workspace PATH]         per task: records, failures, best cost and GFLOP/s, device
// Every failure prints "tunescope-cli: <reason>" and exits non-zero; bad input never crashes it.
#include "app/cli/arguments.h"
#include "core/codegen/codegen.h"
#include "core/graph/model_zoo.h"
#include "core/graph/task_report.h"
#include "core/graph/workload_registry.h"
#include "core/ir/dag_export.h"
#include "core/lower/lower.h"
#include "core/measure/measurer.h"
#include "core/schedule/step_json.h"
#include "core/schedule/step_printer.h"
#include "core/store/log_import.h"
#include "core/store/store.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

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
    bool takesFiles = false; // positional arguments allowed
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

// What lower and measure work on: a network task, a named workload, or the workload of a TVM record, and
// the steps to replay (none: the default schedule).
struct Scheduled {
    std::string title;
    ir::ComputeDAG dag;
    std::vector<sched::Step> steps;
};

Expected<std::string> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, "cannot open " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Expected<Scheduled> loadScheduled(const Arguments& args)
{
    Scheduled out;
    std::optional<ir::ComputeDAG> dag;
    if (args.has("record")) {
        // FILE:LINE, LINE 1-based, a line of a TVM auto_scheduler log.
        const std::string spec = args.value("record");
        const size_t colon = spec.rfind(':');
        if (colon == std::string::npos)
            return makeError(ErrorKind::InvalidArgument, "--record wants FILE:LINE, got '" + spec + "'");
        const std::string path = spec.substr(0, colon);
        TS_TRY(int64_t lineNumber, parseInt(spec.substr(colon + 1), "--record line"));
        TS_TRY(std::string text, readFile(path));
        std::istringstream lines(text);
        std::string line;
        for (int64_t n = 1; std::getline(lines, line); ++n)
            if (n == lineNumber)
                break;
            else
                line.clear();
        if (line.empty())
            return makeError(
                ErrorKind::InvalidArgument, path + ":" + std::to_string(lineNumber) + ": no such line (or empty)");
        const std::string where = path + ":" + std::to_string(lineNumber) + ": ";
        const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.is_object() || !record.contains("i") || !record["i"].is_array()
            || record["i"].size() < 2 || !record["i"][0].is_array() || record["i"][0].empty()
            || !record["i"][0][0].is_string() || !record["i"][1].is_array() || record["i"][1].size() < 2)
            return makeError(
                ErrorKind::Parse, where + "not an auto_scheduler record {\"i\": [[key, ...], [[], steps]], ...}");
        TS_TRY(graph::WorkloadKey key, graph::parseWorkloadKey(record["i"][0][0].get<std::string>()));
        auto built = graph::buildWorkload(key);
        if (!built)
            return makeError(built.error().kind, where + built.error().message);
        dag = std::move(built).value();
        auto steps = sched::stepsFromJson(record["i"][1][1]);
        if (!steps)
            return makeError(ErrorKind::Parse, where + steps.error().message);
        out.steps = std::move(steps).value();
        out.title = key.name + " from " + spec;
    } else if (args.has("workload")) {
        TS_TRY(graph::WorkloadKey key, graph::parseWorkloadSpec(args.value("workload")));
        TS_TRY(ir::ComputeDAG built, graph::buildWorkload(key));
        dag = std::move(built);
        out.title = args.value("workload");
    } else {
        TS_TRY(graph::TaskSet tasks, loadTasks(args, nullptr));
        if (!args.has("task"))
            return makeError(ErrorKind::InvalidArgument, "--task is required with --network");
        TS_TRY(int64_t id, args.intValue("task", 0));
        if (id < 0 || id >= static_cast<int64_t>(tasks.tasks.size()))
            return makeError(ErrorKind::InvalidArgument,
                "--task " + std::to_string(id) + " is out of range: " + args.value("network") + " has "
                    + std::to_string(tasks.tasks.size()) + " tasks");
        const graph::Task& task = tasks.tasks[static_cast<size_t>(id)];
        dag = task.dag;
        out.title = args.value("network") + " task " + std::to_string(id) + " (" + task.name + ")";
    }
    out.dag = std::move(*dag);
    if (args.has("steps")) {
        TS_TRY(std::string text, readFile(args.value("steps")));
        auto steps = sched::parseSteps(text);
        if (!steps)
            return makeError(ErrorKind::Parse, args.value("steps") + ": " + steps.error().message);
        out.steps = std::move(steps).value();
    }
    return out;
}

// The selection and its steps, replayed.
Expected<std::pair<Scheduled, sched::State>> loadState(const Arguments& args)
{
    TS_TRY(Scheduled scheduled, loadScheduled(args));
    TS_TRY(sched::State state, sched::State::replay(scheduled.dag, scheduled.steps));
    return std::pair { std::move(scheduled), std::move(state) };
}

int runLower(const Arguments& args)
{
    auto loaded = loadState(args);
    if (!loaded)
        return fail(loaded.error().message);
    auto& [scheduled, state] = *loaded;
    auto bound = lower::inferBound(state);
    if (!bound)
        return fail(bound.error().message);
    std::cout << "# " << scheduled.title << ", " << scheduled.steps.size() << " steps\n";
    std::cout << "\n# steps\n" << sched::printStepsAsCalls(scheduled.dag, scheduled.steps);
    std::cout << "\n# state\n" << bound->toString();
    lower::LowerOptions options;
    if (args.has("passes"))
        options.onPass = [](const std::string& pass, const lower::LoweredFunc& f) {
            std::cout << "\n# after " << pass << "\n" << lower::toString(f);
        };
    auto func = lower::lower(state, options);
    if (!func)
        return fail(func.error().message);
    if (!args.has("passes"))
        std::cout << "\n# loop IR\n" << lower::toString(*func);
    if (args.has("llvm")) {
        auto ir = codegen::emitLlvmIr(*func, true);
        if (!ir)
            return fail(ir.error().message);
        std::cout << "\n# LLVM IR (optimized for " << codegen::hostCpuName() << ")\n" << *ir;
    }
    return 0;
}

int runMeasure(const Arguments& args)
{
    auto loaded = loadState(args);
    if (!loaded)
        return fail(loaded.error().message);
    auto& [scheduled, state] = *loaded;
    measure::MeasureOptions options;
    auto number = args.intValue("number", options.timing.number);
    auto repeat = args.intValue("repeat", options.timing.repeat);
    auto minRepeat = args.intValue("min-repeat-ms", options.timing.minRepeatMs);
    auto threads = args.intValue("threads", 0);
    auto timeout = args.intValue("timeout", options.runTimeoutMs / 1000);
    for (const auto* v : { &number, &repeat, &minRepeat, &threads, &timeout })
        if (!*v)
            return fail(v->error().message);
    if (*number < 1 || *repeat < 1 || *minRepeat < 0 || *threads < 0 || *timeout < 1 || *number > 1'000'000
        || *repeat > 1000 || *timeout > 3600)
        return fail("--number and --repeat must be >= 1, --min-repeat-ms and --threads >= 0, --timeout 1..3600 s");
    options.timing.number = static_cast<int>(*number);
    options.timing.repeat = static_cast<int>(*repeat);
    options.timing.minRepeatMs = static_cast<int>(*minRepeat);
    options.kernelThreads = static_cast<int>(*threads);
    options.runTimeoutMs = static_cast<int>(*timeout * 1000);
    measure::Measurer measurer(options);
    const measure::MeasureResult r = measurer.measure(scheduled.dag, { state })[0];
    std::cout << scheduled.title << ", " << scheduled.steps.size() << " steps, "
              << formatFixed(scheduled.dag.flopCount() / 1e9, 3) << " GFLOP\n";
    std::cout << "status:   " << static_cast<int>(r.status) << " (" << measure::toString(r.status) << ")\n";
    if (!r.ok()) {
        std::cout << "message:  " << r.message << "\n";
        return kExitFailure;
    }
    std::cout << "cost:     " << formatFixed(r.meanCost() * 1e3, 4) << " ms ("
              << join(r.costs, ", ", [](double c) { return formatFixed(c * 1e3, 4); }) << ")\n";
    std::cout << "GFLOP/s:  " << formatFixed(scheduled.dag.flopCount() / r.meanCost() / 1e9, 1) << "\n";
    std::cout << "checked:  outputs match the reference evaluator\n";
    std::cout << "all cost: " << formatFixed(r.allCost, 3) << " s (build + run)\n";
    return 0;
}

const OptionSpec kWorkspaceOption { "workspace", "PATH",
    "the workspace database (default " + store::Store::defaultWorkspacePath() + ")" };

Expected<store::Store> openWorkspace(const Arguments& args, bool readOnly)
{
    store::OpenOptions options;
    options.readOnly = readOnly;
    return store::Store::open(args.value("workspace", store::Store::defaultWorkspacePath()), options);
}

int runImport(const Arguments& args)
{
    if (args.positional().empty())
        return fail(
            "import needs at least one log file\nusage: tunescope-cli import FILE... [--workspace PATH]", kExitUsage);
    auto workspace = openWorkspace(args, false);
    if (!workspace)
        return fail(workspace.error().message);
    constexpr size_t kIssuesShown = 20;
    int status = 0;
    for (const std::string& file : args.positional()) {
        auto report = store::importLog(*workspace, file);
        if (!report) {
            std::cerr << "tunescope-cli: " << report.error().message << "\n";
            status = kExitFailure;
            continue;
        }
        std::cout << report->summary() << "\n";
        for (size_t i = 0; i < report->issues.size() && i < kIssuesShown; ++i)
            std::cerr << file << ":" << report->issues[i].line << ": " << report->issues[i].reason << "\n";
        if (report->malformed > static_cast<int64_t>(kIssuesShown))
            std::cerr << file << ": ... and " << report->malformed - static_cast<int64_t>(kIssuesShown)
                      << " more malformed lines\n";
        for (const std::string& note : report->notes)
            std::cout << "  note: " << note << "\n";
    }
    return status;
}

// "3" or "1,2,5" -> ids.
Expected<std::vector<int64_t>> parseIds(const std::string& text, const std::string& what)
{
    std::vector<int64_t> ids;
    for (const std::string& part : split(text, ',')) {
        TS_TRY(int64_t id, parseInt(part, what));
        ids.push_back(id);
    }
    return ids;
}

int runExport(const Arguments& args)
{
    if (!args.has("out"))
        return fail("--out FILE is required");
    auto workspace = openWorkspace(args, true);
    if (!workspace)
        return fail(workspace.error().message);
    store::RecordFilter filter;
    filter.okOnly = args.has("ok-only");
    if (args.has("task")) {
        auto ids = parseIds(args.value("task"), "--task");
        if (!ids)
            return fail(ids.error().message);
        filter.taskIds = *ids;
        auto tasks = workspace->tasks();
        if (!tasks)
            return fail(tasks.error().message);
        for (int64_t id : filter.taskIds)
            if (std::none_of(tasks->begin(), tasks->end(), [&](const store::TaskInfo& t) { return t.id == id; }))
                return fail("--task " + std::to_string(id) + ": no such task in " + workspace->path()
                    + " (see 'tunescope-cli stats')");
    }
    for (const char* name : { "device", "session" }) {
        if (!args.has(name))
            continue;
        auto id = args.intValue(name, 0);
        if (!id)
            return fail(id.error().message);
        (std::string(name) == "device" ? filter.deviceId : filter.sessionId) = *id;
    }
    // Written next to the target and renamed into place, so a failed export leaves no half file.
    const std::string out = args.value("out");
    const std::string partial = out + ".partial";
    int64_t written = 0;
    {
        std::ofstream file(partial, std::ios::binary | std::ios::trunc);
        if (!file)
            return fail("cannot write " + partial);
        auto exported = store::exportLog(*workspace, filter, file);
        if (!exported) {
            std::filesystem::remove(partial);
            return fail(exported.error().message);
        }
        written = *exported;
        file.close();
        if (!file) {
            std::filesystem::remove(partial);
            return fail("writing " + partial + " failed");
        }
    }
    std::error_code ec;
    std::filesystem::rename(partial, out, ec);
    if (ec)
        return fail("cannot move " + partial + " to " + out + ": " + ec.message());
    std::cout << "exported " << written << " record" << (written == 1 ? "" : "s") << " to " << out << "\n";
    return 0;
}

int runStats(const Arguments& args)
{
    auto workspace = openWorkspace(args, true);
    if (!workspace)
        return fail(workspace.error().message);
    if (args.has("check")) {
        auto verified = workspace->verify();
        if (!verified)
            return fail(verified.error().message);
        std::cout << workspace->path() << ": integrity check ok\n";
    }
    auto tasks = workspace->tasks();
    auto devices = workspace->devices();
    auto summaries = workspace->bestPerTask();
    auto sources = workspace->sources();
    for (const Error* e : { tasks ? nullptr : &tasks.error(), devices ? nullptr : &devices.error(),
             summaries ? nullptr : &summaries.error(), sources ? nullptr : &sources.error() })
        if (e)
            return fail(e->message);
    std::map<int64_t, const store::TaskInfo*> taskById;
    std::map<int64_t, const store::Device*> deviceById;
    for (const store::TaskInfo& t : *tasks)
        taskById[t.id] = &t;
    for (const store::Device& d : *devices)
        deviceById[d.id] = &d;
    int64_t records = 0;
    int64_t failures = 0;
    for (const store::TaskSummary& s : *summaries) {
        records += s.records;
        failures += s.failures;
    }
    std::cout << "workspace " << workspace->path() << " (schema " << workspace->schemaVersion() << "): " << records
              << " records, " << failures << " failed, " << tasks->size() << " tasks, " << devices->size()
              << " devices, " << sources->size() << " imported files\n\n";
    auto pad = [](std::string text, size_t width) { // always at least one space after
        if (text.size() >= width)
            text = text.substr(0, width - 4) + "...";
        text.resize(width, ' ');
        return text;
    };
    std::cout << pad("task", 6) << pad("workload", 40) << pad("device", 16) << pad("records", 9) << pad("failed", 8)
              << pad("best ms", 12) << "GFLOP/s\n";
    for (const store::TaskSummary& s : *summaries) {
        const store::TaskInfo& task = *taskById.at(s.taskId);
        const std::string best = s.bestCost ? formatFixed(*s.bestCost * 1e3, 4) : "-";
        const std::string gflops = s.bestCost && task.flops > 0 ? formatFixed(task.flops / *s.bestCost / 1e9, 1) : "-";
        std::cout << pad(std::to_string(task.id), 6) << pad(task.name + (task.rebuildable ? "" : " (foreign)"), 40)
                  << pad(deviceById.at(s.deviceId)->name, 16) << pad(std::to_string(s.records), 9)
                  << pad(std::to_string(s.failures), 8) << pad(best, 12) << gflops << "\n";
    }
    return 0;
}

std::vector<OptionSpec> scheduleOptions(std::vector<OptionSpec> extra)
{
    std::vector<OptionSpec> options
        = { kNetworkOption, kBatchOption, kLayoutOption, { "task", "ID", "task id from 'tunescope-cli tasks'" },
              { "workload", "NAME:ARGS", "a registered workload instead, e.g. matmul_add:1024,1024,1024" },
              { "record", "FILE:LINE", "a TVM auto_scheduler log line: its workload and steps" },
              { "steps", "FILE", "a JSON list of steps to replay, as in TVM records (default: none)" } };
    options.insert(options.end(), extra.begin(), extra.end());
    options.push_back(kHelpOption);
    return options;
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
        { "lower", "replay a schedule and print the state, the loop IR and optionally LLVM IR",
            "tunescope-cli lower (--network NAME --task ID | --workload W | --record FILE:LINE) [--steps FILE] "
            "[--llvm] "
            "[--passes]",
            scheduleOptions({ { "llvm", "", "also print the optimized LLVM IR" },
                { "passes", "", "print the loop IR after every lowering pass" } }),
            runLower },
        { "measure", "compile a schedule, run it in tunescope-runner, check it and print its cost",
            "tunescope-cli measure (--network NAME --task ID | --workload W | --record FILE:LINE) [--steps FILE] "
            "[--number N] [--repeat N] [--min-repeat-ms MS] [--threads N] [--timeout S]",
            scheduleOptions(
                { { "number", "N", "runs per measurement (default 3)" }, { "repeat", "N", "measurements (default 1)" },
                    { "min-repeat-ms", "MS", "grow number until a measurement lasts this long (default 100)" },
                    { "threads", "N", "threads of parallel loops (default: all cores)" },
                    { "timeout", "S", "seconds before a run is killed (default 10)" } }),
            runMeasure },
        { "import", "import TVM auto_scheduler / AutoTVM logs into the workspace",
            "tunescope-cli import FILE... [--workspace PATH]", { kWorkspaceOption, kHelpOption }, runImport, true },
        { "export", "export records as TVM logs (auto_scheduler v0.6, AutoTVM v0.2)",
            "tunescope-cli export --out FILE [--task ID[,ID...]] [--device ID] [--session ID] [--ok-only] "
            "[--workspace PATH]",
            { { "out", "FILE", "the log file to write" },
                { "task", "IDS", "only these tasks (ids from 'tunescope-cli stats')" },
                { "device", "ID", "only this device" }, { "session", "ID", "only this tuning session" },
                { "ok-only", "", "only successful measurements" }, kWorkspaceOption, kHelpOption },
            runExport },
        { "stats", "per task: records, failures, best cost and GFLOP/s, device",
            "tunescope-cli stats [--check] [--workspace PATH]",
            { { "check", "", "also run SQLite's integrity check" }, kWorkspaceOption, kHelpOption }, runStats },
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
        return run(argc, argv);
    } catch (const ts::InternalError& e) {
        return fail(std::string("internal error, please report: ") + e.what());
    } catch (const std::exception& e) {
        return fail(std::string("unexpected error: ") + e.what());
    }
}
