#include "core/engine/repro_export.h"

#include "core/engine/export_keys.h"
#include "core/engine/tune_origin.h"
#include "core/graph/workload_registry.h"
#include "core/lower/lower.h"
#include "core/lower/stmt.h"
#include "core/record/measure_status.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/search/autotvm/template.h"
#include "core/store/log_export.h"
#include "core/store/schedule_source.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>

namespace ts::engine {

namespace {

    using Json = nlohmann::json;

    Expected<void> writeFile(const std::filesystem::path& path, const std::string& text)
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
        out.close();
        if (!out)
            return makeError(ErrorKind::Io, path.string() + ": cannot be written");
        return {};
    }

    // The record's task, rebuilt: its DAG, and how the CLI names it.
    struct RebuiltTask {
        ir::ComputeDAG dag;
        std::string title;
        std::vector<std::string> measureArgs; // without --steps
        std::string key; // the workload key it is exported under (export_keys.h)
    };

    // A session's task, from its origin: the task whose workload key is the stored task's key.
    Expected<RebuiltTask> fromOrigin(const std::string& originJson, const store::TaskInfo& taskRow)
    {
        TS_TRY(TuneOrigin origin, TuneOrigin::fromJson(originJson));
        TS_TRY(std::vector<graph::Task> tasks, buildTasks(origin));
        for (const graph::Task& task : tasks) {
            if (task.dag.workloadKey() != taskRow.key)
                continue;
            RebuiltTask out;
            out.dag = task.dag;
            out.key = exportKey(origin, task);
            if (origin.op.empty()) {
                out.title = origin.network + " task " + std::to_string(task.id) + " (" + task.name + ")";
                out.measureArgs = { "--network", origin.network, "--batch", std::to_string(origin.batch), "--layout",
                    origin.layout, "--task", std::to_string(task.id) };
                return out;
            }
            out.title = origin.title();
            // An operator is named by the CLI as the registered workload it is exported as.
            if (auto key = graph::parseWorkloadKey(out.key))
                out.measureArgs = { "--workload", key->name + ":" + origin.shape };
            return out;
        }
        return makeError(ErrorKind::NotFound,
            "the session's origin (" + origin.title() + ") no longer builds the task '" + taskRow.name + "'");
    }

    std::string quoted(const std::string& arg)
    {
        if (!arg.empty()
            && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=")
                == std::string::npos)
            return arg;
        std::string out = "'";
        for (char c : arg)
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    }

    std::string resultLine(const store::Record& record)
    {
        const record::MeasureResult& r = record.result;
        if (r.ok())
            return "measured " + formatFixed(r.meanCost() * 1e6, 2) + " us (mean of " + std::to_string(r.costs.size())
                + ")";
        return std::string("failed: ") + record::toString(r.status) + (r.message.empty() ? "" : " (" + r.message + ")");
    }

} // namespace

Expected<ReproExport> exportRepro(store::Store& store, int64_t recordId, const std::string& dir)
{
    TS_TRY(std::vector<store::Record> page, store.recordPage({}, recordId - 1, 1));
    if (page.empty() || page[0].id != recordId)
        return makeError(ErrorKind::NotFound, "record " + std::to_string(recordId) + " is not in " + store.path());
    const store::Record record = std::move(page[0]);
    TS_TRY(std::vector<store::TaskInfo> tasks, store.tasks());
    TS_TRY(std::vector<store::Device> devices, store.devices());
    const store::TaskInfo* task = nullptr;
    const store::Device* device = nullptr;
    for (const store::TaskInfo& t : tasks)
        if (t.id == record.taskId)
            task = &t;
    for (const store::Device& d : devices)
        if (d.id == record.deviceId)
            device = &d;
    TS_ASSERT(task && device) << "record " << recordId << " names a task or device the store does not hold";
    if (record.kind != store::RecordKind::Ansor)
        return makeError(ErrorKind::Unsupported,
            "record " + std::to_string(recordId)
                + " is an AutoTVM record; only auto_scheduler records export as a repro");
    TS_TRY(std::vector<sched::Step> steps, sched::parseSteps(record.steps));

    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return makeError(ErrorKind::Io, dir + ": cannot create the folder: " + ec.message());
    const fs::path root(dir);
    ReproExport out;
    out.dir = dir;

    // The task: from the session's origin, else (an imported record) from its TVM key, as the CLI reads it.
    std::optional<RebuiltTask> rebuilt;
    std::string rebuildError;
    store::TaskInfo keyed = *task; // the task row record.json is written with
    if (record.sessionId) {
        std::string originJson;
        TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
        for (const store::SessionInfo& s : sessions) {
            const Json settings = Json::parse(s.settings, nullptr, false);
            if (s.id == *record.sessionId && settings.is_object() && settings.contains("origin"))
                originJson = settings["origin"].dump();
        }
        if (originJson.empty()) {
            rebuildError = "session " + std::to_string(*record.sessionId) + " did not record what it tuned";
        } else if (auto found = fromOrigin(originJson, *task)) {
            rebuilt = std::move(found).value();
            out.title = rebuilt->title + ", record " + std::to_string(recordId);
            keyed.key = rebuilt->key;
        } else {
            rebuildError = found.error().message;
        }
    }
    // A task no session names keeps TuneScope's own key, a hash, not JSON: TVM's form of it is ["<hash>"].
    const Json parsedKey = Json::parse(keyed.key, nullptr, false);
    const bool ownHashKey = !parsedKey.is_array();
    if (ownHashKey)
        keyed.key = Json::array({ keyed.key }).dump();

    // steps.json
    TS_CHECK(writeFile(root / "steps.json", Json::parse(record.steps).dump() + "\n"));
    out.files.push_back("steps.json");

    // record.json
    bool haveLogLine = false;
    if (auto line = store::toLogRecord(record, keyed, *device)) {
        TS_CHECK(writeFile(root / "record.json", store::formatLogLine(*line) + "\n"));
        out.files.push_back("record.json");
        haveLogLine = true;
        if (ownHashKey)
            out.notes.push_back(
                "record.json's workload key is TuneScope's hash of the task's DAG alone, without shapes: TVM "
                "cannot read it, and `tunescope-cli measure --record` finds it only among the model zoo's tasks at "
                "batch 1.");
    } else {
        out.notes.push_back("record.json was not written: " + line.error().message);
    }

    // An imported record: its log line names the workload as the CLI reads it.
    if (!record.sessionId && haveLogLine && !ownHashKey) {
        store::ScheduleSource source;
        source.what = store::RecordRef { (root / "record.json").string(), 1 };
        if (auto resolved = store::resolveSchedule(source)) {
            rebuilt = RebuiltTask { resolved->dag, resolved->title, { "--record", "record.json:1" }, keyed.key };
            out.title = resolved->name + ", record " + std::to_string(recordId);
        } else {
            rebuildError = resolved.error().message;
        }
    } else if (!record.sessionId && rebuildError.empty()) {
        rebuildError = "an imported record whose workload key TuneScope cannot rebuild";
    }
    if (out.title.empty())
        out.title = task->name + ", record " + std::to_string(recordId);
    if (!rebuilt)
        out.notes.push_back("the task could not be rebuilt: " + rebuildError);

    // loop_ir.c: the steps replayed and lowered for the record's device.
    std::string ir = "// " + out.title + ", " + std::to_string(steps.size()) + " steps\n";
    if (rebuilt) {
        auto target = store::targetOf(*device);
        target::Target t = target ? *target : target::Target::host();
        if (t.cores < 0)
            t.cores = target::Target::host().cores;
        ir += "// target: " + target::toString(t) + "\n";
        auto state = sched::State::replay(rebuilt->dag, steps);
        // A session's AutoTVM config with a program of its own (TVM's packed NCHW[x]c) replays on that program.
        if (!state)
            if (auto dag = autotvm::recordDag(rebuilt->dag, record.extra))
                if (auto onProgram = sched::State::replay(*dag, steps))
                    state = std::move(onProgram);
        lower::LowerOptions options;
        options.target = t;
        auto func = state ? lower::lower(*state, options) : Expected<lower::LoweredFunc>(state.error());
        if (func) {
            ir += "\n" + lower::toString(*func);
        } else {
            ir += "// does not lower: " + func.error().message + "\n";
            out.notes.push_back("the steps do not lower: " + func.error().message);
        }
    } else {
        ir += "// no loop IR: the task could not be rebuilt (" + rebuildError + ")\n";
    }
    TS_CHECK(writeFile(root / "loop_ir.c", ir));
    out.files.push_back("loop_ir.c");

    // measure.sh
    std::string script = "#!/bin/sh\n# Re-measures " + out.title
        + " on this machine.\n"
          "# TUNESCOPE_CLI names the tunescope-cli to run (default: the one on PATH).\n"
          "cd \"$(dirname \"$0\")\" || exit 1\n";
    if (rebuilt && !rebuilt->measureArgs.empty()) {
        out.measureArgs = rebuilt->measureArgs;
        if (rebuilt->measureArgs.front() != "--record")
            out.measureArgs.insert(out.measureArgs.end(), { "--steps", "steps.json" });
        script += "exec \"${TUNESCOPE_CLI:-tunescope-cli}\" measure "
            + join(out.measureArgs, " ", [](const std::string& a) { return quoted(a); }) + " \"$@\"\n";
    } else {
        const std::string why = rebuilt ? "no tunescope-cli source names this task (" + rebuilt->title + ")"
                                        : "the task could not be rebuilt";
        out.notes.push_back("measure.sh cannot re-measure it: " + why + ".");
        script += "echo " + quoted("cannot re-measure: " + why) + " >&2\nexit 1\n";
    }
    TS_CHECK(writeFile(root / "measure.sh", script));
    fs::permissions(root / "measure.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
        fs::perm_options::add, ec);
    out.files.push_back("measure.sh");

    // README.md
    std::string readme = "# Repro: " + out.title + "\n\n";
    readme += "Task " + task->name + " (" + formatFixed(task->flops / 1e9, 4) + " GFLOP), device " + device->name + " ("
        + device->target + ").\n";
    readme += "Record " + std::to_string(recordId)
        + (record.sessionId ? " of session " + std::to_string(*record.sessionId) : std::string(" (imported)")) + ", "
        + std::to_string(steps.size()) + " steps, " + resultLine(record) + ".\n\n";
    readme += "- steps.json: the step list (TVM's JSON step encoding)\n";
    if (haveLogLine)
        readme += "- record.json: the record as a TVM auto_scheduler log line\n";
    readme += "- loop_ir.c: the loop IR the steps lower to\n";
    readme += "- measure.sh: re-measures it with tunescope-cli"
        + (out.measureArgs.empty() ? std::string(" (not possible here, see below)")
                                   : ": tunescope-cli measure " + join(out.measureArgs, " "))
        + "\n";
    if (!out.notes.empty()) {
        readme += "\nNotes:\n";
        for (const std::string& note : out.notes)
            readme += "- " + note + "\n";
    }
    TS_CHECK(writeFile(root / "README.md", readme));
    out.files.push_back("README.md");
    return out;
}

} // namespace ts::engine
