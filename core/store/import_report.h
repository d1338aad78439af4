// What importing one file did: its counts, its malformed lines (one by one, and grouped by reason), notes
// about its tasks, what of it is training data (records whose steps replay on a DAG TuneScope rebuilt, and
// why the others are not, by reason), and the lines a person reads (the one-line summary, the grouped
// reasons, the training-data lines).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ts::store {

struct ImportIssue {
    int64_t line = 0; // 1-based; 0 for a note about the file or a task
    std::string reason;
};

// The malformed lines that share one reason: how many, and which, as runs of consecutive line numbers.
struct IssueGroup {
    static constexpr size_t kMaxRanges = 6;

    std::string reason;
    int64_t count = 0;
    std::vector<std::pair<int64_t, int64_t>> ranges; // first and last line of each run; the first kMaxRanges
    bool moreRanges = false; // lines past the kept runs

    // Lines must come in increasing order.
    void add(int64_t line);
    // "1-292", "3, 7, 9-12, ..."
    std::string lineList() const;
};

// Added records that are not training data for one reason: how many, of how many tasks, and the first.
struct DataReason {
    std::string reason; // without the particulars of a task: "no model-zoo task has the key's tensor shapes"
    int64_t records = 0;
    int64_t tasks = 0;
    std::string example; // the first record's: "line 2: dag 2d10de66: [1, 56, 56, 64], [1, 1, 64, 64], ..."
};

struct ImportReport {
    std::string path; // as given
    std::string format; // "auto_scheduler", "autotvm", "mixed", or "" when the file has no records
    int64_t bytes = 0;
    int64_t lines = 0;
    int64_t comments = 0; // comment and blank lines
    int64_t records = 0; // well-formed records read
    int64_t added = 0; // of those, new to the store
    int64_t duplicates = 0; // already stored
    int64_t malformed = 0;
    int64_t linked = 0; // added records whose workload TuneScope rebuilt
    int64_t foreign = 0; // added records of workloads it cannot rebuild
    int64_t tasks = 0; // distinct workloads in the file
    int64_t hashTasks = 0; // of those, keyed by TVM's DAG hash (network_match.h)
    int64_t matchedTasks = 0; // of those, matched to a model-zoo task, so rebuildable
    int64_t replayed = 0; // added records whose steps replay on their task's rebuilt DAG: training data
    std::vector<DataReason> notData; // the other added records, by reason, in order of first appearance
    bool binary = false; // the file's first bytes are not text
    std::vector<ImportIssue> issues; // malformed lines, one by one (the first ImportOptions::maxIssuesKept)
    std::vector<IssueGroup> issueGroups; // malformed lines by reason, in order of first appearance
    // About tasks: foreign ones grouped by reason with counts; steps that do not replay.
    std::vector<std::string> notes;
    std::optional<int64_t> sourceId; // the sources row, when anything was added
    bool cancelled = false;

    // Nothing was added because of errors: the file has lines, some rejected, and none is a record.
    bool failed() const;
    // One line: "logs/matmul.json: 1 record added (1 linked to rebuildable tasks, 0 foreign), 1 task, 1 comment
    // line"; for a failed file, what it is: "junk.bin: binary data, not a TVM log (2 lines, none a record)".
    std::string summary() const;
    // The malformed lines for a person, at most `maxLines` of them (the last then says how many more): a
    // reason met once as "PATH:LINE: reason", a repeated one as "PATH: 292 lines: reason (lines 1-292)".
    // None for binary data, whose lines' reasons say nothing more than the summary.
    std::vector<std::string> issueLines(size_t maxLines) const;
    // What is training data: "PATH: training data: 6 of 24 records replay (24 tasks, 6 of 24 DAG-hash tasks
    // matched to model-zoo tasks)", then one line per reason the others are not: "PATH:   18 records (18
    // tasks): no model-zoo task has the key's tensor shapes (first: line 2: dag 2d10de66: [1, 56, ...])".
    // None when nothing was added.
    std::vector<std::string> dataLines() const;
};

} // namespace ts::store
