#include "core/store/importer.h"

#include "core/store/line_reader.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <chrono>
#include <cstring>
#include <filesystem>

namespace ts::store {

namespace {

    constexpr size_t kBatch = 2000; // records per addRecords call inside the file's transaction
    constexpr int64_t kProgressEvery = 4096; // lines

    double now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

    bool endsWith(const std::string& text, std::string_view suffix)
    {
        return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
    }

    // "gzip-compressed; decompress it first (gunzip logs/a.json.gz) and import logs/a.json".
    std::string compressed(const std::string& path, const char* what, const char* tool, std::string_view suffix)
    {
        std::string out = path + ": " + what + "; decompress it first (" + tool;
        if (endsWith(path, suffix))
            return out + " " + path + ") and import " + path.substr(0, path.size() - suffix.size());
        return out + ") and import the log inside";
    }

} // namespace

Importer::Importer(Store& store, std::string path, ImportOptions options)
    : m_store(store)
    , m_path(std::move(path))
    , m_options(std::move(options))
{
    m_report.path = m_path;
}

Expected<ImportReport> Importer::run()
{
    TS_ASSERT(!m_ran) << "Importer::run is called once per Importer";
    m_ran = true;
    auto phases = [&]() -> Expected<void> {
        TS_CHECK(openFile());
        TS_CHECK(detectFormat());
        if (m_sniff.format == FileFormat::Empty) {
            if (m_options.progress)
                m_options.progress(0, 0);
            return {};
        }
        TS_TRY(Transaction transaction, m_store.begin());
        m_transaction.emplace(std::move(transaction));
        std::error_code ec;
        m_source.path = std::filesystem::absolute(m_path, ec).string();
        m_source.importedAt = now();
        TS_TRY(m_source.id, m_store.saveSource(m_source)); // counts are filled in at the end
        TS_CHECK(readLines());
        if (m_report.cancelled)
            return {};
        return summarize();
    }();
    m_transaction.reset(); // rolls back unless summarize committed
    if (!phases)
        return phases.error();
    return m_report;
}

Expected<void> Importer::openFile()
{
    std::error_code ec;
    if (std::filesystem::is_directory(m_path, ec))
        return makeError(ErrorKind::Io, m_path + ": is a directory, not a log file");
    m_in.open(m_path, std::ios::binary);
    if (!m_in)
        return makeError(ErrorKind::Io, "cannot open " + m_path + ": " + std::strerror(errno));
    m_size = static_cast<int64_t>(std::filesystem::file_size(m_path, ec));
    return {};
}

Expected<void> Importer::detectFormat()
{
    TS_TRY(m_sniff, sniffFile(m_path));
    m_report.binary = m_sniff.binary;
    const std::string notSupported = "; not supported: TuneScope imports auto_scheduler and AutoTVM logs";
    switch (m_sniff.format) {
    case FileFormat::TextLog:
    case FileFormat::Empty:
        return {};
    case FileFormat::Gzip:
        return makeError(ErrorKind::Unsupported, compressed(m_path, "gzip-compressed", "gunzip", ".gz"));
    case FileFormat::Xz:
        return makeError(ErrorKind::Unsupported, compressed(m_path, "xz-compressed", "unxz", ".xz"));
    case FileFormat::Bzip2:
        return makeError(ErrorKind::Unsupported, compressed(m_path, "bzip2-compressed", "bunzip2", ".bz2"));
    case FileFormat::Zstd:
        return makeError(ErrorKind::Unsupported, compressed(m_path, "zstd-compressed", "unzstd", ".zst"));
    case FileFormat::Zip:
        return makeError(
            ErrorKind::Unsupported, m_path + ": a zip archive; extract it first (unzip) and import the logs inside");
    case FileFormat::Sqlite:
        return makeError(ErrorKind::Unsupported, m_path + ": an SQLite database, not a TVM log" + notSupported);
    case FileFormat::Workspace:
        return makeError(ErrorKind::Unsupported,
            m_path
                + ": a TuneScope workspace, not a TVM log; open it as a workspace (importing one workspace into "
                  "another is not supported)");
    case FileFormat::MetaScheduleWorkloads:
    case FileFormat::MetaScheduleTuningRecords: {
        TS_TRY(int64_t entries, countNonEmptyLines(m_path));
        const bool workloads = m_sniff.format == FileFormat::MetaScheduleWorkloads;
        return makeError(ErrorKind::Unsupported,
            m_path + ": a MetaSchedule " + (workloads ? "workload" : "tuning-record") + " database ("
                + std::to_string(entries) + " " + (workloads ? "workload" : "record") + (entries == 1 ? "" : "s") + ")"
                + notSupported);
    }
    }
    return {};
}

Expected<void> Importer::readLines()
{
    m_contentHash = fnv1a64("");
    detail::LineReader reader(m_in);
    detail::LineReader::Line line;
    while (reader.next(line)) {
        const int64_t number = ++m_report.lines;
        m_contentHash = fnv1a64(line.text, m_contentHash);
        m_contentHash = fnv1a64(std::to_string(line.length) + "\n", m_contentHash);
        if (number % kProgressEvery == 0) {
            if (cancelRequested()) {
                m_report.cancelled = true;
                return {};
            }
            if (m_options.progress)
                m_options.progress(reader.bytesRead(), m_size);
        }
        const std::optional<LogRecord> record = parse(number, line.text, line.tooLong, line.length);
        if (!record)
            continue;
        TS_CHECK(link(*record, number));
        if (m_batch.size() >= kBatch)
            TS_CHECK(writeBatch());
    }
    if (m_in.bad())
        return makeError(ErrorKind::Io, m_path + ": read error after line " + std::to_string(m_report.lines));
    TS_CHECK(writeBatch());
    if (cancelRequested()) {
        m_report.cancelled = true;
        return {};
    }
    m_report.bytes = reader.bytesRead();
    if (m_options.progress)
        m_options.progress(m_report.bytes, m_size);
    return {};
}

std::optional<LogRecord> Importer::parse(int64_t number, const std::string& text, bool tooLong, int64_t length)
{
    if (tooLong) {
        malformed(number,
            "the line is " + std::to_string(length) + " bytes, over the " + std::to_string(kMaxLogLineBytes)
                + "-byte limit of a record");
        return std::nullopt;
    }
    auto parsed = parseLogLine(text);
    if (!parsed) {
        malformed(number, parsed.error().message);
        return std::nullopt;
    }
    if (!*parsed) {
        ++m_report.comments;
        return std::nullopt;
    }
    ++m_report.records;
    ((*parsed)->kind == RecordKind::Ansor ? m_sawAnsor : m_sawAutoTvm) = true;
    return std::move(*parsed);
}

void Importer::malformed(int64_t line, std::string reason)
{
    ++m_report.malformed;
    auto [it, isNew] = m_issueGroupOf.try_emplace(reason, m_report.issueGroups.size());
    if (isNew) {
        if (m_report.issueGroups.size() >= m_options.maxIssuesKept)
            m_issueGroupOf.erase(it); // too many distinct reasons: counted in malformed only
        else
            m_report.issueGroups.push_back({ reason, 0, {}, false });
    }
    if (auto group = m_issueGroupOf.find(reason); group != m_issueGroupOf.end())
        m_report.issueGroups[group->second].add(line);
    if (m_report.issues.size() < m_options.maxIssuesKept)
        m_report.issues.push_back({ line, std::move(reason) });
}

Expected<int64_t> Importer::deviceOf(const LogRecord& r)
{
    const std::string key
        = r.target + '\x1f' + r.targetHost + '\x1f' + (r.hardwareParams ? join(*r.hardwareParams, ",") : std::string());
    if (auto it = m_devices.find(key); it != m_devices.end())
        return it->second;
    Device device;
    device.target = r.target;
    device.targetHost = r.targetHost;
    device.hardwareParams = r.hardwareParams;
    TS_TRY(int64_t id, m_store.addDevice(device));
    m_devices.emplace(key, id);
    return id;
}

Expected<void> Importer::writeBatch()
{
    if (m_batch.empty())
        return {};
    TS_TRY(int64_t added, m_store.addRecords(m_batch));
    m_report.added += added;
    m_report.duplicates += static_cast<int64_t>(m_batch.size()) - added;
    // addRecords leaves the id of a record it skipped at 0: the breakdowns count what was added.
    for (size_t i = 0; i < m_batch.size(); ++i) {
        if (m_batch[i].id == 0)
            continue;
        const Outcome& outcome = m_batchOutcomes[i];
        ++(outcome.linked ? m_report.linked : m_report.foreign);
        if (outcome.notData < 0) {
            ++m_report.replayed;
            continue;
        }
        DataReason& reason = m_dataReasons[static_cast<size_t>(outcome.notData)];
        ++reason.records;
        if (m_dataReasonTasks.emplace(outcome.notData, outcome.taskId).second)
            ++reason.tasks;
    }
    m_batch.clear();
    m_batchOutcomes.clear();
    return {};
}

Expected<void> Importer::summarize()
{
    m_report.tasks = static_cast<int64_t>(m_tasks.size());
    m_report.format = m_sawAnsor && m_sawAutoTvm ? "mixed"
        : m_sawAnsor                             ? "auto_scheduler"
        : m_sawAutoTvm                           ? "autotvm"
                                                 : "";
    for (const ForeignGroup& group : m_foreign) {
        if (group.count == 1) {
            m_report.notes.push_back(group.names.front() + ": kept as a foreign task: " + group.firstReason);
            continue;
        }
        std::string names = join(group.names, ", ");
        if (group.count > static_cast<int64_t>(group.names.size()))
            names += " and " + std::to_string(group.count - static_cast<int64_t>(group.names.size())) + " more";
        m_report.notes.push_back(
            std::to_string(group.count) + " tasks kept as foreign (" + names + "): " + group.reason);
    }
    m_report.notes.insert(m_report.notes.end(), m_replayNotes.begin(), m_replayNotes.end());
    for (const DataReason& reason : m_dataReasons)
        if (reason.records > 0)
            m_report.notData.push_back(reason);
    if (m_report.added == 0)
        return {}; // nothing new: the transaction rolls back, the store is as it was
    m_source.format = m_report.format;
    m_source.contentHash = static_cast<int64_t>(m_contentHash);
    m_source.bytes = m_report.bytes;
    m_source.lines = m_report.lines;
    m_source.comments = m_report.comments;
    m_source.records = m_report.added;
    m_source.duplicates = m_report.duplicates;
    m_source.malformed = m_report.malformed;
    TS_CHECK(m_store.saveSource(m_source));
    TS_CHECK(m_transaction->commit());
    m_transaction.reset();
    m_report.sourceId = m_source.id;
    return {};
}

Expected<ImportReport> importLog(Store& store, const std::string& path, const ImportOptions& options)
{
    return Importer(store, path, options).run();
}

} // namespace ts::store
