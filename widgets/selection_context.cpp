#include "widgets/selection_context.h"

#include "core/support/assert.h"

namespace ts::widgets {

SelectionContext::SelectionContext(QObject* parent)
    : QObject(parent)
{
}

QString SelectionContext::networkName() const
{
    return m_network ? QString::fromStdString(m_network->name) : QString();
}

void SelectionContext::selectNetwork(std::shared_ptr<const models::NetworkEntry> network)
{
    selectTask(std::move(network), nullptr);
}

void SelectionContext::selectTask(
    std::shared_ptr<const models::NetworkEntry> network, std::shared_ptr<const graph::Task> task)
{
    const bool networkChangedNow = network != m_network;
    const bool taskChangedNow = task != m_task;
    m_network = std::move(network);
    if (taskChangedNow) {
        m_task = std::move(task);
        selectState(nullptr);
    }
    if (networkChangedNow)
        Q_EMIT networkChanged();
    if (taskChangedNow)
        Q_EMIT taskChanged();
}

void SelectionContext::selectState(std::shared_ptr<const sched::State> state)
{
    TS_ASSERT(m_task || !state) << "a schedule state is selected for a task";
    if (state == m_state)
        return;
    m_state = std::move(state);
    selectRecord(std::nullopt);
    Q_EMIT stateChanged();
}

void SelectionContext::selectRecord(std::optional<int64_t> recordId)
{
    TS_ASSERT(m_task || !recordId) << "a record is selected for a task";
    if (recordId == m_recordId)
        return;
    m_recordId = recordId;
    Q_EMIT recordChanged();
}

void SelectionContext::selectMeasured(std::shared_ptr<const graph::Task> task,
    std::shared_ptr<const sched::State> state, int64_t recordId, std::shared_ptr<const models::NetworkEntry> network)
{
    if (task != m_task)
        selectTask(network ? std::move(network) : nullptr, std::move(task));
    if (state == m_state) {
        selectRecord(recordId);
        return;
    }
    // All at once: a view that reacts to the new state already sees its record (the code view lists it for
    // the record's device, once).
    TS_ASSERT(m_task || !state) << "a schedule state is selected for a task";
    m_state = std::move(state);
    const bool recordChangedNow = recordId != m_recordId;
    m_recordId = recordId;
    Q_EMIT stateChanged();
    if (recordChangedNow)
        Q_EMIT recordChanged();
}

void SelectionContext::clear() { selectTask(nullptr, nullptr); }

} // namespace ts::widgets
