// TVM's tuning logs, one JSON record a line, read and written exactly.
//
// auto_scheduler (src/auto_scheduler/measure_record.cc), versions v0.2 .. v0.6:
//   {"i": [[key, target, hardware_params, target_host, layout_rewrite_option, task_input_names],
//          [[], steps]],
//    "r": [costs, error_no, all_cost, timestamp], "v": "v0.6"}
//   The task has 2 (v0.2), 3 (v0.3, v0.4), 5 (v0.5) or 6 (v0.6) fields.
// AutoTVM (python/tvm/autotvm/record.py):
//   v0.1 {"i": [target, task_name, args, kwargs, workload, config], "r": [...], "v": 0.1}
//   v0.2 {"input": [target, task_name, args, kwargs], "config": {...}, "result": [...], "version": 0.2,
//         "tvm_version": "0.10.0"}
//   config is {"index", "code_hash", "entity"} (older logs: {"i", "c", "e", "t"}).
// Lines that start with '#' or a space are comments, as TVM's reader has it; blank lines are skipped too.
//
// parseLogLine checks every field (types, ranges, step codes) and says which one was wrong. The parsed
// record is normalized (absent optional fields take TVM's defaults), so writing it out and reading it back
// gives the same record.
#pragma once

#include "core/store/records.h"
#include "core/support/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::store {

// The longest line parseLogLine accepts; a longer one is malformed (real records are a few KB).
constexpr size_t kMaxLogLineBytes = 1 << 20;

struct LogRecord {
    RecordKind kind = RecordKind::Ansor;
    std::string version; // as written: "v0.3", "0.2"
    // The task.
    std::string workloadKey; // auto_scheduler: the key text; AutoTVM: [task name, args, kwargs] as JSON
    std::string taskName; // AutoTVM template name, or the auto_scheduler key's first element
    std::string target;
    std::string targetHost; // "" when none
    std::optional<HardwareParams> hardwareParams; // absent in v0.2 logs
    int layoutRewriteOption = 0; // auto_scheduler: 0 NO_REWRITE (the default), 1, 2
    std::vector<std::string> inputNames; // auto_scheduler v0.6
    std::string autoTvmArgs = "[]"; // AutoTVM: JSON of the task arguments
    std::string autoTvmKwargs = "{}";
    std::string autoTvmWorkload; // AutoTVM v0.1: JSON of its "workload" field ("" when absent)
    std::string tvmVersion; // AutoTVM v0.2
    // The schedule: auto_scheduler steps, or the AutoTVM config, as compact TVM-style JSON.
    std::string steps;
    int stepCount = 0;
    // The result ("r"): costs, error_no, all_cost, timestamp; no message.
    record::MeasureResult result;

    bool operator==(const LogRecord&) const = default;
};

// Parses one line. std::nullopt for a comment or blank line; an error naming the field for a malformed one.
Expected<std::optional<LogRecord>> parseLogLine(std::string_view line);

// auto_scheduler v0.6, as TVM writes it. A record without hardware params keeps TVM's two-field task.
std::string formatAnsorLine(const LogRecord& record);
// AutoTVM v0.2, as TVM writes it.
std::string formatAutoTvmLine(const LogRecord& record);
// Either, by kind.
std::string formatLogLine(const LogRecord& record);

// An AutoTVM task as LogRecord::workloadKey holds it, the JSON text [task name, [args...], {kwargs}], split
// back into its parts, each spelled exactly as parseLogLine spells them (LogRecord::autoTvmArgs, ...).
struct AutoTvmTaskKey {
    std::string name;
    std::string args;
    std::string kwargs;
};
Expected<AutoTvmTaskKey> parseAutoTvmKey(std::string_view key);

// JSON text re-written as Python's json.dumps writes it (", " and ": " separators), as TVM's AutoTVM logs
// spell their args and configs.
Expected<std::string> pythonJsonText(std::string_view json);

// A stable 64-bit fingerprint of a record's content (not of how its line was spelled).
int64_t fingerprint(const LogRecord& record);

// Numbers as TVM's C++ writer prints them: the shortest text that reads back to the same double, in %g
// style ("0.0044742", "4.54041e-06", "1e+10").
std::string formatTvmDouble(double value);

} // namespace ts::store
