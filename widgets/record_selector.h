// RecordSelector: selects a measured record of a session in the SelectionContext, with its schedule state.
//
// A click on a curve marker, a scatter point or a scheduler row names a record of a SessionSnapshot; the
// context wants the record's task, its replayed State and its id together (selectMeasured). Snapshots carry
// no steps, so the selector reads them from the session's workspace in a job (models::loadRecordState,
// read-only) and selects when the state arrives; a newer select() drops an older one still loading. A
// record whose state cannot be rebuilt (an AutoTVM record, a workspace gone) is still selected, without a
// state. GUI thread only.
#pragma once

#include "core/session/job_tracker.h"
#include "widgets/models/session_snapshot.h"

#include <QObject>

#include <memory>

namespace ts::widgets {

class SelectionContext;

class RecordSelector : public QObject {
    Q_OBJECT
public:
    explicit RecordSelector(SelectionContext& selection, QObject* parent = nullptr);
    ~RecordSelector() override;

    // Selects record `recordId` of task `task` (an index into snapshot->tasks). False (and nothing changes)
    // when the task has no DAG to replay on (a session whose tasks could not be rebuilt).
    bool select(std::shared_ptr<const models::SessionSnapshot> snapshot, int task, int64_t recordId);
    bool isLoading() const { return m_job.isRunning(); }

Q_SIGNALS:
    // The record was selected; `message` is empty, or says why it has no state.
    void selected(qint64 recordId, const QString& message);

private:
    SelectionContext& m_selection;
    session::JobTracker m_job;
};

} // namespace ts::widgets
