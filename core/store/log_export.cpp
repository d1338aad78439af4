#include "core/store/log_export.h"

#include <nlohmann/json.hpp>

#include <map>

namespace ts::store {

Expected<LogRecord> toLogRecord(const Record& record, const TaskInfo& task, const Device& device)
{
    using Json = nlohmann::json;
    LogRecord r;
    r.kind = record.kind;
    r.workloadKey = task.key;
    r.target = device.target;
    r.targetHost = device.targetHost;
    r.hardwareParams = device.hardwareParams;
    r.steps = record.steps;
    r.stepCount = record.stepCount;
    r.result = record.result;
    const Json extra = Json::parse(record.extra, nullptr, false);
    // A record TuneScope's AutoTVM search measured: its steps replay here, its config is what TVM reads.
    if (r.kind == RecordKind::Ansor && extra.contains("autotvm") && extra["autotvm"].is_object()) {
        const Json& autotvm = extra["autotvm"];
        const auto damaged = [&](const std::string& what) {
            return makeError(
                ErrorKind::Io, "record " + std::to_string(record.id) + ": its AutoTVM " + what + " is damaged");
        };
        if (!autotvm.value("template", Json()).is_string() || !autotvm.value("args", Json()).is_array()
            || !autotvm.value("config", Json()).is_object())
            return damaged("template, args or config");
        const Json& config = autotvm["config"];
        if (!config.contains("index") || !config.contains("entity"))
            return damaged("config");
        r.kind = RecordKind::AutoTvm;
        r.version = "0.2";
        r.taskName = autotvm["template"].get<std::string>();
        TS_TRY(r.autoTvmArgs, pythonJsonText(autotvm["args"].dump()));
        r.autoTvmKwargs = "{}";
        r.workloadKey = Json::array({ r.taskName, autotvm["args"], Json::object() }).dump();
        // TVM's key order: index, code_hash, entity.
        TS_TRY(const std::string entity, pythonJsonText(config["entity"].dump()));
        r.steps = "{\"index\": " + std::to_string(config["index"].get<int64_t>())
            + ", \"code_hash\": null, \"entity\": " + entity + "}";
        r.stepCount = static_cast<int>(config["entity"].size());
        r.hardwareParams.reset();
        r.tvmVersion = "0.19.0"; // the TVM whose templates ours follow
        return r;
    }
    Json key = Json::parse(task.key, nullptr, false);
    // A DAG TuneScope tuned itself (an operator or a network task) is keyed by its hash alone; TVM's key
    // for a DAG-defined task starts with the DAG's hash, so the hash goes out as that key's first element
    // (exportLog's `keys` add the shapes, where a session says what the task is).
    if (isOwnTaskKey(task.key)) {
        key = Json::array({ task.key });
        r.workloadKey = key.dump();
    }
    if (extra.is_discarded() || !extra.is_object() || key.is_discarded() || !key.is_array() || key.empty()
        || !key[0].is_string())
        return makeError(
            ErrorKind::Io, "record " + std::to_string(record.id) + ": its stored task key or extra fields are damaged");
    r.taskName = key[0].get<std::string>();
    r.version = extra.value("v", std::string());
    if (r.kind == RecordKind::Ansor) {
        r.layoutRewriteOption = extra.value("layout_rewrite_option", 0);
        if (extra.contains("input_names"))
            r.inputNames = extra["input_names"].get<std::vector<std::string>>();
        return r;
    }
    auto autoTvm = parseAutoTvmKey(task.key);
    if (!autoTvm)
        return makeError(ErrorKind::Io, "record " + std::to_string(record.id) + ": " + autoTvm.error().message);
    r.autoTvmArgs = std::move(autoTvm->args);
    r.autoTvmKwargs = std::move(autoTvm->kwargs);
    r.tvmVersion = extra.value("tvm_version", std::string());
    r.autoTvmWorkload = extra.value("workload", std::string());
    return r;
}

Expected<int64_t> exportLog(
    Store& store, const RecordFilter& filter, std::ostream& out, const std::map<int64_t, std::string>& keys)
{
    TS_TRY(std::vector<TaskInfo> taskList, store.tasks());
    for (TaskInfo& t : taskList)
        if (auto it = keys.find(t.id); it != keys.end())
            t.key = it->second;
    TS_TRY(std::vector<Device> deviceList, store.devices());
    std::map<int64_t, const TaskInfo*> tasks;
    std::map<int64_t, const Device*> devices;
    for (const TaskInfo& t : taskList)
        tasks[t.id] = &t;
    for (const Device& d : deviceList)
        devices[d.id] = &d;
    int64_t written = 0;
    std::optional<Error> failure;
    TS_CHECK(store.forEachRecord(filter, [&](const Record& record) {
        auto r = toLogRecord(record, *tasks.at(record.taskId), *devices.at(record.deviceId));
        if (!r) {
            failure = r.error();
            return false;
        }
        out << formatLogLine(*r) << '\n';
        ++written;
        return static_cast<bool>(out);
    }));
    if (failure)
        return *failure;
    if (!out)
        return makeError(
            ErrorKind::Io, "writing the exported log failed after " + std::to_string(written) + " records");
    return written;
}

} // namespace ts::store
