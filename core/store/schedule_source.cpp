#include "core/store/schedule_source.h"

#include "core/graph/model_zoo.h"
#include "core/graph/workload_registry.h"
#include "core/schedule/step_json.h"
#include "core/search/autotvm/template.h"
#include "core/store/network_match.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <fstream>
#include <limits>
#include <sstream>

namespace ts::store {

namespace {

    Expected<std::string> readFile(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return makeError(ErrorKind::Io, "cannot open " + path);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // Line ref.line (1-based) of the file, split as the importer splits it (on '\n'; a last line without
    // one counts). Lines before it are skipped without being kept, and the line itself is bounded, so a
    // huge file costs bounded memory.
    Expected<std::string> readLine(const RecordRef& ref)
    {
        const std::string where = ref.path + ":" + std::to_string(ref.line) + ": ";
        std::ifstream in(ref.path, std::ios::binary);
        if (!in)
            return makeError(ErrorKind::Io, "cannot open " + ref.path);
        if (ref.line < 1)
            return makeError(ErrorKind::InvalidArgument, where + "no such line (lines count from 1)");
        auto pastTheEnd = [&](int64_t lines) {
            return makeError(ErrorKind::InvalidArgument,
                where + "no such line (the file has " + std::to_string(lines) + " line" + (lines == 1 ? "" : "s")
                    + ")");
        };
        for (int64_t n = 1; n < ref.line; ++n) {
            in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
            if (in.eof())
                return pastTheEnd(in.gcount() > 0 ? n : n - 1);
        }
        std::string line;
        char c = 0;
        if (!in.get(c))
            return pastTheEnd(ref.line - 1);
        while (c != '\n') {
            if (line.size() == kMaxLogLineBytes)
                return makeError(ErrorKind::Parse,
                    where + "the line is over the " + std::to_string(kMaxLogLineBytes) + "-byte limit of a record");
            line.push_back(c);
            if (!in.get(c))
                break;
        }
        return line;
    }

    // An AutoTVM record: its template (by TVM's task name) rebuilds the workload from the task's args, decodes the
    // config's entity in the template's space and instantiates it: the config's program (the task's DAG, or
    // TVM's packed NCHW[x]c compute) and its steps.
    Expected<ResolvedSchedule> selectAutotvmRecord(const std::string& spec, LogRecord record)
    {
        const std::string where = spec + ": ";
        const autotvm::Template* t = autotvm::findTemplate(record.taskName);
        if (t == nullptr)
            return makeError(ErrorKind::Unsupported,
                where + "an AutoTVM record of template '" + record.taskName + "', which TuneScope does not have ("
                    + join(autotvm::templates(), ", ", [](const autotvm::Template& x) { return x.name; }) + ")");
        auto dag = autotvm::dagFromTaskArgs(record.taskName, record.autoTvmArgs);
        if (!dag)
            return makeError(dag.error().kind, where + dag.error().message);
        auto space = t->space(*dag);
        if (!space)
            return makeError(space.error().kind, where + space.error().message);
        auto config = space->parseConfig(record.steps);
        if (!config)
            return makeError(config.error().kind, where + "its config: " + config.error().message);
        auto instance = autotvm::instantiate(*t, *dag, *space, config->index);
        if (!instance)
            return makeError(instance.error().kind, where + instance.error().message);
        ResolvedSchedule out;
        // The entity decides, as TVM's ApplyHistoryBest reads it: an older TVM enumerated some spaces in another
        // order (tophub's x86 log, TVM 0.7: tile_ow without the "verbose" policy), so its index may differ.
        out.title = t->name + " config " + std::to_string(config->index) + " from " + spec;
        if (config->loggedIndex && *config->loggedIndex != config->index)
            out.title += " (the log's index " + std::to_string(*config->loggedIndex) + ", from an older space)";
        out.name = t->name;
        out.dag = std::move(instance->dag); // the template's program (its packed layout, for NCHWc)
        out.steps = std::move(instance->steps);
        out.record = std::move(record);
        return out;
    }

    // The DAG and, for a record, its steps; resolveSchedule replays them.
    Expected<ResolvedSchedule> selectSource(const NetworkTaskRef& ref)
    {
        TS_TRY(graph::TaskSet tasks, loadNetworkTasks(ref.network));
        TS_TRY(const graph::Task* task, findTask(tasks, ref.task, ref.taskLabel));
        ResolvedSchedule out;
        out.title = ref.network.name + " task " + std::to_string(ref.task) + " (" + task->name + ")";
        out.name = task->name;
        out.dag = task->dag;
        out.task = *task;
        return out;
    }

    Expected<ResolvedSchedule> selectSource(const WorkloadRef& ref)
    {
        TS_TRY(graph::WorkloadKey key, graph::parseWorkloadSpec(ref.spec));
        TS_TRY(ir::ComputeDAG dag, graph::buildWorkload(key));
        ResolvedSchedule out;
        out.title = ref.spec;
        out.name = key.name;
        out.dag = std::move(dag);
        return out;
    }

    Expected<ResolvedSchedule> selectSource(const RecordRef& ref)
    {
        const std::string spec = ref.path + ":" + std::to_string(ref.line);
        const std::string where = spec + ": ";
        TS_TRY(std::string line, readLine(ref));
        auto parsed = parseLogLine(line);
        if (!parsed)
            return makeError(ErrorKind::Parse, where + "not an auto_scheduler record: " + parsed.error().message);
        if (!*parsed)
            return makeError(ErrorKind::Parse, where + "not an auto_scheduler record (a comment or blank line)");
        LogRecord record = std::move(**parsed);
        if (record.kind == RecordKind::AutoTvm)
            return selectAutotvmRecord(spec, std::move(record));
        auto key = graph::parseWorkloadKey(record.workloadKey);
        if (!key)
            return makeError(key.error().kind, where + key.error().message);
        auto steps = sched::parseSteps(record.steps);
        TS_ASSERT(steps) << where << "parseLogLine accepted steps that parseSteps rejects: " << steps.error().message;
        ResolvedSchedule out;
        auto hashKey = parseDagHashKey(record.workloadKey);
        if (!hashKey)
            return makeError(hashKey.error().kind, where + hashKey.error().message);
        if (*hashKey) {
            // TVM's DAG hash: the model-zoo task its shapes and steps match (network_match.h).
            TS_TRY(NetworkMatch match, NetworkMatcher().match(**hashKey, *steps));
            if (match.outcome != NetworkMatch::Outcome::Matched)
                return makeError(ErrorKind::NotFound,
                    where + "unknown workload '" + key->name + "' ("
                        + ((*hashKey)->own() ? "TuneScope's own DAG hash" : "a TVM DAG hash") + "): " + match.reason
                        + (match.detail.empty() ? "" : " (" + match.detail + ")"));
            out.title = match.task->task.name + " (" + match.task->label() + ") from " + spec;
            out.name = match.task->task.name;
            out.dag = match.task->task.dag;
            out.task = match.task->task;
        } else {
            auto dag = graph::buildWorkload(*key);
            if (!dag)
                return makeError(dag.error().kind, where + dag.error().message);
            out.title = key->name + " from " + spec;
            out.name = key->name;
            out.dag = std::move(dag).value();
        }
        out.steps = std::move(steps).value();
        out.record = std::move(record);
        return out;
    }

} // namespace

Expected<graph::TaskSet> loadNetworkTasks(const NetworkRef& network)
{
    TS_TRY(graph::Graph g, graph::buildNetwork(network.name, network.batch, network.layout));
    return graph::extractTasks(g);
}

Expected<const graph::Task*> findTask(const graph::TaskSet& tasks, int64_t id, std::string_view label)
{
    const auto count = static_cast<int64_t>(tasks.tasks.size());
    if (id < 0 || id >= count)
        return makeError(ErrorKind::InvalidArgument,
            std::string(label) + " " + std::to_string(id) + " is out of range: " + tasks.network + " has "
                + std::to_string(count) + " tasks" + (count > 0 ? " (0.." + std::to_string(count - 1) + ")" : ""));
    return &tasks.tasks[static_cast<size_t>(id)];
}

Expected<ResolvedSchedule> resolveSchedule(const ScheduleSource& source)
{
    TS_TRY(ResolvedSchedule out, std::visit([](const auto& ref) { return selectSource(ref); }, source.what));
    // A replay error names where the steps came from.
    std::string origin;
    if (source.stepsFile) {
        TS_TRY(std::string text, readFile(*source.stepsFile));
        auto steps = sched::parseSteps(text);
        if (!steps)
            return makeError(ErrorKind::Parse, *source.stepsFile + ": " + steps.error().message);
        out.steps = std::move(steps).value();
        origin = *source.stepsFile + ": ";
    } else if (const auto* record = std::get_if<RecordRef>(&source.what)) {
        origin = record->path + ":" + std::to_string(record->line) + ": ";
    }
    auto state = sched::State::replay(out.dag, out.steps);
    if (!state)
        return makeError(state.error().kind, origin + state.error().message);
    out.state = std::move(state).value();
    out.flops = out.dag.flopCount();
    return out;
}

Expected<sched::State> replayStored(
    const ir::ComputeDAG& taskDag, const std::vector<sched::Step>& steps, std::string_view extra)
{
    TS_TRY(const ir::ComputeDAG dag, autotvm::recordDag(taskDag, extra));
    return sched::State::replay(dag, steps);
}

Expected<sched::State> replayStored(const ir::ComputeDAG& taskDag, std::string_view stepsJson, std::string_view extra)
{
    TS_TRY(const std::vector<sched::Step> steps, sched::parseSteps(stepsJson));
    return replayStored(taskDag, steps, extra);
}

} // namespace ts::store
