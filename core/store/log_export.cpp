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
    const Json key = Json::parse(task.key, nullptr, false);
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

Expected<int64_t> exportLog(Store& store, const RecordFilter& filter, std::ostream& out)
{
    TS_TRY(std::vector<TaskInfo> taskList, store.tasks());
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
