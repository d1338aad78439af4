// Bringing TVM logs into a workspace and writing them back out.
//
// importLog reads a file line by line (auto_scheduler and AutoTVM records may be mixed), in one transaction:
// - a malformed line is reported with its line number and reason, and the rest of the file still imports;
// - a record already in the store (same content, by fingerprint) is counted as a duplicate and skipped, so
//   importing the same file twice adds nothing;
// - each distinct workload becomes a task; one TuneScope can rebuild (workload_registry.h) is linked to its
//   compute DAG so its records can be replayed and measured again, any other is kept as a foreign task;
// - cancelling (the flag) rolls the whole file back.
// exportLog writes records back as TVM would read them: auto_scheduler v0.6, AutoTVM v0.2.
#pragma once

#include "core/store/store.h"
#include "core/store/tvm_log.h"

#include <atomic>
#include <functional>
#include <ostream>

namespace ts::store {

struct ImportIssue {
    int64_t line = 0; // 1-based; 0 for a note about the file or a task
    std::string reason;
};

struct ImportOptions {
    const std::atomic<bool>* cancel = nullptr;
    // Called every few thousand lines and at the end with bytes read and the file's size.
    std::function<void(int64_t done, int64_t total)> progress;
    size_t maxIssuesKept = 1000;
};

struct ImportReport {
    std::string path;
    std::string format; // "auto_scheduler", "autotvm", "mixed", or "" when the file has no records
    int64_t bytes = 0;
    int64_t lines = 0;
    int64_t comments = 0; // comment and blank lines
    int64_t records = 0; // well-formed records read
    int64_t added = 0; // of those, new to the store
    int64_t duplicates = 0; // already stored
    int64_t malformed = 0;
    int64_t linked = 0; // records whose workload TuneScope rebuilt
    int64_t foreign = 0;
    int64_t tasks = 0; // distinct workloads in the file
    std::vector<ImportIssue> issues; // malformed lines (the first maxIssuesKept) and notes
    std::vector<std::string> notes; // about tasks: not rebuildable with a reason, steps that do not replay
    std::optional<int64_t> sourceId; // the sources row, when anything was added
    bool cancelled = false;

    // "matmul.json: 1 record added (1 linked to a rebuildable task), 1 comment line"
    std::string summary() const;
};

Expected<ImportReport> importLog(Store& store, const std::string& path, const ImportOptions& options = {});

// A stored record as a log record again, with its task and device.
Expected<LogRecord> toLogRecord(const Record& record, const TaskInfo& task, const Device& device);
// Writes the records matching `filter`, in trial order, one line each. Returns the number written.
Expected<int64_t> exportLog(Store& store, const RecordFilter& filter, std::ostream& out);

} // namespace ts::store
