#include "widgets/models/record_state.h"

#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"

namespace ts::models {

Expected<std::shared_ptr<const sched::State>> loadRecordState(const RecordQuery& query, const ir::ComputeDAG& dag)
{
    store::OpenOptions options;
    options.readOnly = true;
    TS_TRY(store::Store store, store::Store::open(query.workspace, options));
    store::RecordFilter filter;
    filter.sessionId = query.sessionId;
    if (query.storeTaskId > 0)
        filter.taskIds = { query.storeTaskId };
    std::optional<std::string> steps;
    std::string extra;
    auto find = [&](const store::Record& r) {
        if (r.id != query.recordId)
            return r.id < query.recordId; // records come in id order: stop once past it
        steps = r.steps;
        extra = r.extra;
        return false;
    };
    TS_CHECK(store.forEachRecord(filter, find));
    if (!steps && filter.sessionId) { // a session's best can be an earlier session's record it resumed from
        filter.sessionId.reset();
        TS_CHECK(store.forEachRecord(filter, find));
    }
    if (!steps)
        return makeError(ErrorKind::NotFound, query.workspace + ": no record " + std::to_string(query.recordId));
    auto state = store::replayStored(dag, *steps, extra);
    if (!state)
        return makeError(state.error().kind, "record " + std::to_string(query.recordId) + ": " + state.error().message);
    return std::make_shared<const sched::State>(std::move(state).value());
}

} // namespace ts::models
