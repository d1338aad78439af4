#include "core/store/log_import.h"

#include "core/graph/workload_registry.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace ts::store {

namespace {

    using Json = nlohmann::json;

    constexpr size_t kBatch = 2000; // records per addRecords call inside the file's transaction
    constexpr int64_t kProgressEvery = 4096; // lines

    double now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

    // Reads lines in blocks, so that a file with a huge line (or no newline at all) costs bounded memory:
    // past kMaxLogLineBytes the line's text is dropped and only its length is kept.
    class LineReader {
    public:
        explicit LineReader(std::istream& in)
            : m_in(in)
        {
        }

        // False at the end of the file. `tooLong` is set when the line exceeded the limit.
        bool next(std::string& line, bool& tooLong, int64_t& length)
        {
            line.clear();
            tooLong = false;
            length = 0;
            for (;;) {
                if (m_pos == m_size) {
                    if (!m_in)
                        return length > 0;
                    m_in.read(m_buffer, sizeof(m_buffer));
                    m_size = static_cast<size_t>(m_in.gcount());
                    m_pos = 0;
                    m_bytes += static_cast<int64_t>(m_size);
                    if (m_size == 0)
                        return length > 0;
                }
                const char* start = m_buffer + m_pos;
                const auto* newline = static_cast<const char*>(std::memchr(start, '\n', m_size - m_pos));
                const size_t n = newline ? static_cast<size_t>(newline - start) : m_size - m_pos;
                length += static_cast<int64_t>(n);
                if (!tooLong && line.size() + n <= kMaxLogLineBytes)
                    line.append(start, n);
                else {
                    tooLong = true;
                    line.clear();
                }
                m_pos += n;
                if (newline) {
                    ++m_pos;
                    return true;
                }
            }
        }
        int64_t bytesRead() const { return m_bytes; }

    private:
        std::istream& m_in;
        char m_buffer[1 << 16];
        size_t m_pos = 0;
        size_t m_size = 0;
        int64_t m_bytes = 0;
    };

    bool isHash(const std::string& name)
    {
        return name.size() == 32 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
    }

    // What a workload becomes in the store, and whether its records can be replayed.
    struct Resolved {
        int64_t taskId = 0;
        bool linked = false;
        std::optional<ir::ComputeDAG> dag;
        bool replayChecked = false;
    };

    TaskInfo describeTask(const LogRecord& r, std::optional<ir::ComputeDAG>& dag, std::string& whyNot)
    {
        TaskInfo task;
        task.kind = r.kind;
        task.key = r.workloadKey;
        task.name = r.taskName;
        auto key = r.kind == RecordKind::Ansor ? graph::parseWorkloadKey(r.workloadKey)
                                               : graph::parseAutoTvmTask(r.taskName, r.autoTvmArgs);
        if (!key) {
            whyNot = key.error().message;
            return task;
        }
        if (isHash(r.taskName)) {
            // TVM's DAG hash says nothing to a person; the first tensor's shape tells tasks apart.
            task.name = "dag " + r.taskName.substr(0, 8);
            if (!key->args.empty() && !key->args[0].values.empty())
                task.name += " " + join(key->args[0].values, "x");
        }
        auto built = graph::buildWorkload(*key);
        if (!built) {
            if (built.error().kind != ErrorKind::NotFound || !isHash(r.taskName))
                whyNot = built.error().message;
            return task;
        }
        task.rebuildable = true;
        task.dagText = built->toString();
        task.flops = built->flopCount();
        dag = std::move(built).value();
        return task;
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

} // namespace

std::string ImportReport::summary() const
{
    const std::string name = std::filesystem::path(path).filename().string();
    if (cancelled)
        return name + ": cancelled, nothing imported";
    auto plural = [](int64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); };
    std::string out = name + ": " + plural(added, "record") + " added";
    if (added > 0)
        out += " (" + std::to_string(linked) + " linked to rebuildable tasks, " + std::to_string(foreign) + " foreign)";
    out += ", " + plural(tasks, "task");
    if (duplicates > 0)
        out += ", " + plural(duplicates, "duplicate") + " skipped";
    if (malformed > 0)
        out += ", " + plural(malformed, "malformed line");
    if (comments > 0)
        out += ", " + plural(comments, "comment line");
    return out;
}

Expected<ImportReport> importLog(Store& store, const std::string& path, const ImportOptions& options)
{
    ImportReport report;
    report.path = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return makeError(ErrorKind::Io, path + ": is a directory, not a log file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, "cannot open " + path + ": " + std::strerror(errno));
    const int64_t total = static_cast<int64_t>(std::filesystem::file_size(path, ec));

    TS_TRY(Transaction transaction, store.begin());
    SourceInfo source;
    source.path = std::filesystem::absolute(path, ec).string();
    source.importedAt = now();
    TS_TRY(source.id, store.saveSource(source)); // counts are filled in at the end
    const int64_t sourceId = source.id;

    std::map<std::pair<int, std::string>, Resolved> tasks;
    std::map<std::string, int64_t> devices; // target + host + params -> id
    std::vector<Record> batch;
    bool sawAnsor = false;
    bool sawAutoTvm = false;
    uint64_t contentHash = fnv1a64("");

    auto flush = [&]() -> Expected<void> {
        TS_TRY(int64_t added, store.addRecords(batch));
        report.added += added;
        report.duplicates += static_cast<int64_t>(batch.size()) - added;
        batch.clear();
        return {};
    };
    auto issue = [&](int64_t line, std::string reason) {
        if (report.issues.size() < options.maxIssuesKept)
            report.issues.push_back({ line, std::move(reason) });
    };

    LineReader reader(in);
    std::string line;
    bool tooLong = false;
    int64_t length = 0;
    while (reader.next(line, tooLong, length)) {
        const int64_t number = ++report.lines;
        contentHash = fnv1a64(line, contentHash);
        contentHash = fnv1a64(std::to_string(length) + "\n", contentHash);
        if (number % kProgressEvery == 0) {
            if (options.cancel && options.cancel->load()) {
                report.cancelled = true;
                return report; // the transaction rolls back
            }
            if (options.progress)
                options.progress(reader.bytesRead(), total);
        }
        if (tooLong) {
            ++report.malformed;
            issue(number,
                "the line is " + std::to_string(length) + " bytes, over the " + std::to_string(kMaxLogLineBytes)
                    + "-byte limit of a record");
            continue;
        }
        auto parsed = parseLogLine(line);
        if (!parsed) {
            ++report.malformed;
            issue(number, parsed.error().message);
            continue;
        }
        if (!*parsed) {
            ++report.comments;
            continue;
        }
        const LogRecord& r = **parsed;
        ++report.records;
        (r.kind == RecordKind::Ansor ? sawAnsor : sawAutoTvm) = true;

        auto [taskIt, newTask] = tasks.try_emplace({ static_cast<int>(r.kind), r.workloadKey });
        Resolved& resolved = taskIt->second;
        if (newTask) {
            std::string whyNot;
            const TaskInfo task = describeTask(r, resolved.dag, whyNot);
            TS_TRY(resolved.taskId, store.addTask(task));
            resolved.linked = task.rebuildable;
            if (!whyNot.empty())
                report.notes.push_back(task.name + ": kept as a foreign task: " + whyNot);
        }
        if (resolved.linked && r.kind == RecordKind::Ansor && !resolved.replayChecked) {
            // One record per task is replayed, so a workload whose stages differ from TVM's is noticed.
            resolved.replayChecked = true;
            auto steps = sched::parseSteps(r.steps);
            auto state = steps ? sched::State::replay(*resolved.dag, *steps) : Expected<sched::State>(steps.error());
            if (!state)
                report.notes.push_back(r.taskName + ": line " + std::to_string(number)
                    + ": the steps do not replay on TuneScope's DAG: " + state.error().message);
        }
        (resolved.linked ? report.linked : report.foreign) += 1;

        Device device;
        device.target = r.target;
        device.targetHost = r.targetHost;
        device.hardwareParams = r.hardwareParams;
        const std::string deviceKey = r.target + '\x1f' + r.targetHost + '\x1f'
            + (r.hardwareParams ? join(*r.hardwareParams, ",") : std::string());
        auto deviceIt = devices.find(deviceKey);
        if (deviceIt == devices.end()) {
            TS_TRY(int64_t id, store.addDevice(device));
            deviceIt = devices.emplace(deviceKey, id).first;
        }

        Record record;
        record.taskId = resolved.taskId;
        record.deviceId = deviceIt->second;
        record.sourceId = sourceId;
        record.sourceLine = number;
        record.kind = r.kind;
        record.steps = r.steps;
        record.stepCount = r.stepCount;
        record.result = r.result;
        record.extra = extraOf(r).dump();
        record.fingerprint = fingerprint(r);
        batch.push_back(std::move(record));
        if (batch.size() >= kBatch)
            TS_CHECK(flush());
    }
    if (in.bad())
        return makeError(ErrorKind::Io, path + ": read error after line " + std::to_string(report.lines));
    TS_CHECK(flush());
    if (options.cancel && options.cancel->load()) {
        report.cancelled = true;
        return report;
    }
    report.bytes = reader.bytesRead();
    report.tasks = static_cast<int64_t>(tasks.size());
    report.format = sawAnsor && sawAutoTvm ? "mixed" : sawAnsor ? "auto_scheduler" : sawAutoTvm ? "autotvm" : "";
    if (options.progress)
        options.progress(report.bytes, total);
    if (report.added == 0)
        return report; // nothing new: the transaction rolls back, the store is as it was
    source.format = report.format;
    source.contentHash = static_cast<int64_t>(contentHash);
    source.bytes = report.bytes;
    source.lines = report.lines;
    source.comments = report.comments;
    source.records = report.added;
    source.duplicates = report.duplicates;
    source.malformed = report.malformed;
    TS_CHECK(store.saveSource(source));
    TS_CHECK(transaction.commit());
    report.sourceId = sourceId;
    return report;
}

Expected<LogRecord> toLogRecord(const Record& record, const TaskInfo& task, const Device& device)
{
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
    } else {
        if (key.size() != 3)
            return makeError(ErrorKind::Io,
                "record " + std::to_string(record.id) + ": AutoTVM task key is not [name, args, kwargs]");
        // The key holds args and kwargs exactly as they were read.
        auto reparsed
            = parseLogLine("{\"input\": [" + Json(r.target).dump() + ", " + task.key.substr(1, task.key.size() - 2)
                + "], \"config\": " + record.steps + ", \"result\": [[], 0, 0, 0]}");
        if (!reparsed || !*reparsed)
            return makeError(
                ErrorKind::Io, "record " + std::to_string(record.id) + ": stored AutoTVM fields do not parse");
        r.autoTvmArgs = (*reparsed)->autoTvmArgs;
        r.autoTvmKwargs = (*reparsed)->autoTvmKwargs;
        r.tvmVersion = extra.value("tvm_version", std::string());
        r.autoTvmWorkload = extra.value("workload", std::string());
    }
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
