// Bringing one TVM log file into a workspace. An Importer runs its phases in order, in one transaction:
//
//   detectFormat  the file's first bytes (file_format.h): a compressed file, an SQLite database or a
//                 MetaSchedule database is refused in one line that says what it is, before any line is read
//   readLines     line by line in bounded memory (auto_scheduler and AutoTVM records may be mixed); cancel
//                 and progress are checked every few thousand lines
//   parse         a malformed line is kept with its line number and reason (grouped by reason for people),
//                 and the rest of the file still imports
//   link          each distinct workload becomes a task (importer_link.cpp); one TuneScope can rebuild is
//                 linked to its compute DAG: a registered workload (workload_registry.h), or the model-zoo
//                 task a TVM DAG-hash key matches (network_match.h); any other is kept as a foreign task,
//                 noted once per reason with a count. Every auto_scheduler record of a linked task is
//                 replayed on its DAG: those that replay are training data, the others are counted by
//                 reason (ImportReport::notData), as are the records of foreign tasks
//   writeBatch    records go to the store in batches; one already stored (same content, by fingerprint)
//                 counts as a duplicate, so importing a file twice adds nothing; the linked and foreign
//                 counts are of the records added
//   summarize     the sources row and the commit; a file that adds nothing leaves the store as it was, and
//                 cancelling rolls the whole file back
#pragma once

#include "core/ir/compute_dag.h"
#include "core/store/file_format.h"
#include "core/store/import_report.h"
#include "core/store/network_match.h"
#include "core/store/store.h"
#include "core/store/tvm_log.h"

#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace ts::store {

struct ImportOptions {
    const std::atomic<bool>* cancel = nullptr;
    // Called every few thousand lines and at the end with bytes read and the file's size.
    std::function<void(int64_t done, int64_t total)> progress;
    // Malformed lines kept one by one in ImportReport::issues, and distinct reasons kept in issueGroups.
    size_t maxIssuesKept = 1000;
};

class Importer {
public:
    Importer(Store& store, std::string path, ImportOptions options = {});

    // Imports the file; call it once. An error for a file that cannot be read or is not a log TuneScope
    // imports (the message says what it is); otherwise a report, which says whether anything was added.
    // The transaction is over when it returns: committed when something was added, else rolled back.
    Expected<ImportReport> run();

private:
    // What a workload became in the store, and whether its records can be replayed.
    struct Task {
        int64_t id = 0;
        bool linked = false;
        std::optional<ir::ComputeDAG> dag;
        bool replayNoted = false; // a record that does not replay was noted
        int notData = -1; // a foreign task: why its records are not training data (index in m_dataReasons)
    };
    // What one record of the batch is, once added.
    struct Outcome {
        bool linked = false;
        int notData = -1; // -1: training data (when linked)
        int64_t taskId = 0;
    };
    // Foreign tasks that share a reason.
    struct ForeignGroup {
        std::string reason; // with the task's own name taken out
        std::string firstReason; // as the first task gave it
        int64_t count = 0;
        std::vector<std::string> names; // the first few
    };

    Expected<void> openFile();
    Expected<void> detectFormat();
    Expected<void> readLines();
    std::optional<LogRecord> parse(int64_t number, const std::string& text, bool tooLong, int64_t length);
    Expected<void> link(const LogRecord& r, int64_t number);
    Expected<Task*> taskOf(const LogRecord& r, int64_t number);
    Expected<void> matchDagHash(const LogRecord& r, int64_t number, TaskInfo& info, Task& task);
    int dataReason(const std::string& reason, const std::string& example);
    Expected<int64_t> deviceOf(const LogRecord& r);
    Expected<void> writeBatch();
    Expected<void> summarize();
    void malformed(int64_t line, std::string reason);
    void noteForeign(const LogRecord& r, const std::string& name, const std::string& whyNot);
    bool cancelRequested() const { return m_options.cancel && m_options.cancel->load(); }

    Store& m_store;
    std::string m_path;
    ImportOptions m_options;
    std::ifstream m_in;
    int64_t m_size = 0;
    FileSniff m_sniff;
    std::optional<Transaction> m_transaction;
    SourceInfo m_source;
    ImportReport m_report;
    std::map<std::pair<int, std::string>, Task> m_tasks; // (kind, workload key)
    std::map<std::string, int64_t> m_devices; // target + host + params -> id
    std::vector<Record> m_batch;
    std::vector<Outcome> m_batchOutcomes; // per record of m_batch
    NetworkMatcher m_matcher;
    std::vector<DataReason> m_dataReasons; // counted as records are added; kept in the report when any is
    std::unordered_map<std::string, size_t> m_dataReasonOf;
    std::set<std::pair<int, int64_t>> m_dataReasonTasks; // (reason, task id)
    std::unordered_map<std::string, size_t> m_issueGroupOf; // reason -> index in m_report.issueGroups
    std::vector<ForeignGroup> m_foreign;
    std::unordered_map<std::string, size_t> m_foreignGroupOf;
    std::vector<std::string> m_replayNotes;
    bool m_ran = false;
    bool m_sawAnsor = false;
    bool m_sawAutoTvm = false;
    uint64_t m_contentHash = 0;
};

// Importer(store, path, options).run().
Expected<ImportReport> importLog(Store& store, const std::string& path, const ImportOptions& options = {});

} // namespace ts::store
