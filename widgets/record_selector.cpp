#include "widgets/record_selector.h"

#include "core/schedule/state.h"
#include "widgets/models/record_state.h"
#include "widgets/selection_context.h"

namespace ts::widgets {

RecordSelector::RecordSelector(SelectionContext& selection, QObject* parent)
    : QObject(parent)
    , m_selection(selection)
    , m_job(this)
{
}

RecordSelector::~RecordSelector() = default;

bool RecordSelector::select(std::shared_ptr<const models::SessionSnapshot> snapshot, int task, int64_t recordId)
{
    if (!snapshot || task < 0 || task >= static_cast<int>(snapshot->tasks.size()))
        return false;
    const models::SessionTask& t = snapshot->tasks[static_cast<size_t>(task)];
    if (!t.task)
        return false;
    models::RecordQuery query;
    query.workspace = snapshot->workspace;
    if (snapshot->sessionId > 0)
        query.sessionId = snapshot->sessionId;
    query.storeTaskId = t.storeTaskId;
    query.recordId = recordId;
    std::shared_ptr<const graph::Task> graphTask = t.task;
    m_job.start([query = std::move(query), graphTask](
                    session::JobContext&) { return models::loadRecordState(query, graphTask->dag); },
        [this, graphTask, recordId](Expected<std::shared_ptr<const sched::State>> state) {
            m_selection.selectMeasured(graphTask, state ? *state : nullptr, recordId);
            Q_EMIT selected(recordId, state ? QString() : QString::fromStdString(state.error().message));
        });
    return true;
}

} // namespace ts::widgets
