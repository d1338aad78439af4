// The importer's link phase (importer.h): each workload becomes a task, linked to a DAG TuneScope rebuilds or
// kept foreign, and each record is replayed on its task's DAG to say whether it is training data.
#include "core/graph/workload_registry.h"
#include "core/schedule/step_json.h"
#include "core/store/importer.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

namespace ts::store {

namespace {

    using Json = nlohmann::json;

    constexpr size_t kNamesPerNote = 3; // foreign tasks named in a grouped note
    // Why a linked task's AutoTVM records are not training data yet.
    constexpr const char* kAutoTvmConfigs = "AutoTVM configs do not replay as steps (templates come later)";
    constexpr const char* kNoReplay = "the steps do not replay on the task's DAG";

    void replaceAll(std::string& text, const std::string& what, const std::string& with)
    {
        if (what.empty())
            return;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
            text.replace(at, what.size(), with);
    }

    // A reason with the task's own texts taken out, so that tasks refused for the same reason share it.
    // The workload registry quotes long texts clipped to 77 characters and "...".
    std::string genericReason(std::string reason, const LogRecord& r)
    {
        auto clipped = [](const std::string& text) { return text.size() > 80 ? text.substr(0, 77) + "..." : text; };
        for (const std::string* text : { &r.workloadKey, &r.autoTvmArgs }) {
            replaceAll(reason, clipped(*text), "<key>");
            replaceAll(reason, *text, "<key>");
        }
        replaceAll(reason, clipped(r.taskName), "<name>");
        replaceAll(reason, r.taskName, "<name>");
        return reason;
    }

    Json extraOf(const LogRecord& r)
    {
        Json extra = Json::object();
        extra["v"] = r.version;
        if (r.kind == RecordKind::Ansor) {
            if (r.layoutRewriteOption != 0)
                extra["layout_rewrite_option"] = r.layoutRewriteOption;
            if (!r.inputNames.empty())
                extra["input_names"] = r.inputNames;
        } else {
            if (!r.tvmVersion.empty())
                extra["tvm_version"] = r.tvmVersion;
            if (!r.autoTvmWorkload.empty())
                extra["workload"] = r.autoTvmWorkload;
        }
        return extra;
    }

    std::string lineOf(int64_t number) { return "line " + std::to_string(number) + ": "; }

} // namespace

Expected<Importer::Task*> Importer::taskOf(const LogRecord& r, int64_t number)
{
    auto [it, isNew] = m_tasks.try_emplace({ static_cast<int>(r.kind), r.workloadKey });
    Task& task = it->second;
    if (!isNew)
        return &task;
    TaskInfo info;
    info.kind = r.kind;
    info.key = r.workloadKey;
    info.name = r.taskName;
    std::string whyNot;
    auto key = r.kind == RecordKind::Ansor ? graph::parseWorkloadKey(r.workloadKey)
                                           : graph::parseAutoTvmTask(r.taskName, r.autoTvmArgs);
    if (!key) {
        whyNot = key.error().message;
    } else if (r.kind == RecordKind::Ansor && isDagHashKey(r.workloadKey)) {
        // A DAG hash (TVM's, or TuneScope's own) says nothing to a person; the first tensor's shape tells tasks
        // apart.
        info.name = "dag " + r.taskName.substr(0, 8);
        if (!key->args.empty() && !key->args[0].values.empty())
            info.name += " " + join(key->args[0].values, "x");
        TS_CHECK(matchDagHash(r, number, info, task));
    } else {
        auto built = graph::buildWorkload(*key);
        if (built) {
            info.rebuildable = true;
            info.dagText = built->toString();
            info.flops = built->flopCount();
            task.dag = std::move(built).value();
        } else {
            whyNot = built.error().message;
        }
    }
    TS_TRY(task.id, m_store.addTask(info));
    task.linked = info.rebuildable;
    if (!whyNot.empty()) {
        noteForeign(r, info.name, whyNot);
        task.notData = dataReason(genericReason(whyNot, r), lineOf(number) + whyNot);
    }
    return &task;
}

Expected<void> Importer::matchDagHash(const LogRecord& r, int64_t number, TaskInfo& info, Task& task)
{
    ++m_report.hashTasks;
    auto key = parseDagHashKey(r.workloadKey);
    if (!key) {
        task.notData = dataReason("the DAG-hash key's shapes are malformed", lineOf(number) + key.error().message);
        return {};
    }
    TS_ASSERT(key->has_value()) << r.workloadKey << " has a DAG hash but parseDagHashKey does not see it";
    auto steps = sched::parseSteps(r.steps);
    TS_ASSERT(steps) << "parseLogLine accepted steps that parseSteps rejects: " << steps.error().message;
    TS_TRY(NetworkMatch match, m_matcher.match(**key, *steps));
    if (match.outcome != NetworkMatch::Outcome::Matched) {
        const std::string dag = "dag " + r.taskName.substr(0, 8);
        task.notData
            = dataReason(match.reason, lineOf(number) + dag + (match.detail.empty() ? "" : ": " + match.detail));
        return {};
    }
    const graph::Task& zoo = match.task->task;
    info.name = zoo.name + " (" + match.task->label() + ")";
    info.rebuildable = true;
    info.dagText = zoo.dag.toString();
    info.flops = zoo.dag.flopCount();
    task.dag = zoo.dag;
    ++m_report.matchedTasks;
    return {};
}

int Importer::dataReason(const std::string& reason, const std::string& example)
{
    auto [it, isNew] = m_dataReasonOf.try_emplace(reason, m_dataReasons.size());
    if (isNew)
        m_dataReasons.push_back(DataReason { reason, 0, 0, example });
    return static_cast<int>(it->second);
}

void Importer::noteForeign(const LogRecord& r, const std::string& name, const std::string& whyNot)
{
    std::string reason = genericReason(whyNot, r);
    auto [it, isNew] = m_foreignGroupOf.try_emplace(reason, m_foreign.size());
    if (isNew)
        m_foreign.push_back({ std::move(reason), whyNot, 0, {} });
    ForeignGroup& group = m_foreign[it->second];
    ++group.count;
    if (group.names.size() < kNamesPerNote)
        group.names.push_back(name);
}

Expected<void> Importer::link(const LogRecord& r, int64_t number)
{
    TS_TRY(Task * task, taskOf(r, number));
    Outcome outcome { task->linked, task->notData, task->id };
    if (task->linked && r.kind == RecordKind::AutoTvm) {
        outcome.notData = dataReason(kAutoTvmConfigs, lineOf(number) + r.taskName);
    } else if (task->linked) {
        // Every record is replayed: one whose steps do not apply is counted, and the first of a task noted.
        auto steps = sched::parseSteps(r.steps);
        auto state = steps ? replayAndInferBound(*task->dag, *steps) : Expected<sched::State>(steps.error());
        if (!state) {
            outcome.notData = dataReason(kNoReplay, lineOf(number) + state.error().message);
            if (!task->replayNoted)
                m_replayNotes.push_back(r.taskName + ": " + lineOf(number)
                    + "the steps do not replay on TuneScope's DAG: " + state.error().message);
            task->replayNoted = true;
        }
    }
    Record record;
    record.taskId = task->id;
    TS_TRY(record.deviceId, deviceOf(r));
    record.sourceId = m_source.id;
    record.sourceLine = number;
    record.kind = r.kind;
    record.steps = r.steps;
    record.stepCount = r.stepCount;
    record.result = r.result;
    record.extra = extraOf(r).dump();
    record.fingerprint = fingerprint(r);
    m_batch.push_back(std::move(record));
    m_batchOutcomes.push_back(outcome);
    return {};
}

} // namespace ts::store
