// A measured record's schedule state, read back from the workspace: the snapshots the views draw carry no
// steps (DESIGN: snapshots stay small), so a view that selects a record (a click on a curve or a scatter
// point) asks the store for its steps and replays them on the task's DAG. Opens its own read-only Store, so
// it runs in a job on any thread while the live session writes through another connection. Plain C++, no Qt.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/support/error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ts::sched {
class State;
} // namespace ts::sched

namespace ts::models {

struct RecordQuery {
    std::string workspace; // the workspace file
    std::optional<int64_t> sessionId; // looked for among this session's records first, then among all
    int64_t storeTaskId = 0; // narrows it to one task's (0: any)
    int64_t recordId = 0;
};

// The record's steps replayed on `dag`. Errors: the workspace cannot be opened, no such record (of the task
// named), steps that do not parse (an AutoTVM record) or do not replay on `dag`.
Expected<std::shared_ptr<const sched::State>> loadRecordState(const RecordQuery& query, const ir::ComputeDAG& dag);

} // namespace ts::models
