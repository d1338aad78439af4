// What a file handed to the importer is, told from its first bytes, so that a file TuneScope cannot import
// is named in one line instead of being rejected line by line.
//
// - Compressed files and archives by their magic numbers: gzip (1f 8b), zip, xz, bzip2, zstd.
// - SQLite databases ("SQLite format 3"), TuneScope workspaces among them (application_id "TSdb").
// - MetaSchedule's JSON database (TVM src/meta_schedule/database/json_database.cc), two files of one JSON
//   list a line, written without spaces:
//     workloads        ["<structural hash, decimal>", "<base64 of the IRModule's JSON>"]
//     tuning records   [<workload index>, [<trace>, <run_secs or null>, <target or null>, <args_info or null>]]
//                      where the trace is [[instructions...], [decisions...]].
// - Anything else is text to read as a TVM log (TextLog); `binary` says whether its first bytes hold NUL
//   or many control bytes, which the report uses when no line of it turns out to be a record.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ts::store {

enum class FileFormat {
    TextLog, // a TVM log, or text to try as one
    Empty,
    Gzip,
    Zip,
    Xz,
    Bzip2,
    Zstd,
    Sqlite,
    Workspace, // an SQLite database that is a TuneScope workspace
    MetaScheduleWorkloads,
    MetaScheduleTuningRecords,
};

struct FileSniff {
    FileFormat format = FileFormat::TextLog;
    bool binary = false;
};

// Reads the first bytes of `path` (up to kMaxLogLineBytes) and tells what the file is.
Expected<FileSniff> sniffFile(const std::string& path);
// The same, from a file's first bytes; `complete` is true when `head` is the whole file.
FileSniff sniffHead(std::string_view head, bool complete);

// Lines that are not empty, in the whole file (the entries of a MetaSchedule database).
Expected<int64_t> countNonEmptyLines(const std::string& path);

} // namespace ts::store
