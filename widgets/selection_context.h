// SelectionContext: what the workbench is looking at, shared by every view.
//
// Four levels, outer to inner: the network, one of its tasks, a schedule state of that task, and a record
// of the store. A view reads the current values from here and updates on the signals; it never calls
// another view, so views can be added (app/gui/view_registry.h) without touching the others. Selecting
// at an outer level clears the inner ones (a new task clears the state and the record); a signal is
// emitted only when its level really changed, so a view that writes back what it was told causes no loop.
// Values are immutable snapshots shared by pointer: they stay valid while a view holds them, even after the
// model they came from has been rebuilt. GUI thread only.
#pragma once

#include "widgets/models/network_catalog.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <optional>

namespace ts::sched {
class State;
} // namespace ts::sched

namespace ts::widgets {

class SelectionContext : public QObject {
    Q_OBJECT
public:
    explicit SelectionContext(QObject* parent = nullptr);

    const std::shared_ptr<const models::NetworkEntry>& network() const { return m_network; }
    QString networkName() const;
    const std::shared_ptr<const graph::Task>& task() const { return m_task; }
    const std::shared_ptr<const sched::State>& state() const { return m_state; }
    std::optional<int64_t> recordId() const { return m_recordId; }

    // A network without a task (a network row); clears the task, state and record.
    void selectNetwork(std::shared_ptr<const models::NetworkEntry> network);
    // `task` must belong to `network` (null for a single operator's task); clears the state and record when
    // the task changes.
    void selectTask(std::shared_ptr<const models::NetworkEntry> network, std::shared_ptr<const graph::Task> task);
    // A schedule state of the current task (null: none); clears the record when it changes.
    void selectState(std::shared_ptr<const sched::State> state);
    // A record of the current task, by its store id.
    void selectRecord(std::optional<int64_t> recordId);
    // A measured record with its task and replayed state, all at once (a click on a tuning curve, a scatter
    // point or a records row). The network is kept when `task` is the current one; otherwise it becomes null
    // unless `network` names it. Each level's signal is emitted only if it changed.
    void selectMeasured(std::shared_ptr<const graph::Task> task, std::shared_ptr<const sched::State> state,
        int64_t recordId, std::shared_ptr<const models::NetworkEntry> network = nullptr);
    void clear();

Q_SIGNALS:
    void networkChanged();
    void taskChanged();
    void stateChanged();
    void recordChanged();

private:
    std::shared_ptr<const models::NetworkEntry> m_network;
    std::shared_ptr<const graph::Task> m_task;
    std::shared_ptr<const sched::State> m_state;
    std::optional<int64_t> m_recordId;
};

} // namespace ts::widgets
