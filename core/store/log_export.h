// Writing stored records back out as TVM logs, as TVM would read them: auto_scheduler records as v0.6
// lines, AutoTVM records as v0.2 lines. A v0.6 log imported and exported comes back byte for byte.
#pragma once

#include "core/store/store.h"
#include "core/store/tvm_log.h"

#include <map>
#include <ostream>

namespace ts::store {

// A stored record as a log record again, with its task and device. Built from the stored fields alone:
// the AutoTVM task's args and kwargs come from the task key, the rest from the record's extra fields.
Expected<LogRecord> toLogRecord(const Record& record, const TaskInfo& task, const Device& device);
// Writes the records matching `filter`, in trial order, one line each. Returns the number written. `keys`
// (task id -> workload key) replaces the stored keys of TuneScope's own tasks with keys a reader can rebuild
// them from (session/export_keys.h); a task not in it is written with its stored key.
Expected<int64_t> exportLog(
    Store& store, const RecordFilter& filter, std::ostream& out, const std::map<int64_t, std::string>& keys = {});

} // namespace ts::store
