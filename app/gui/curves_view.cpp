#include "app/gui/curves_view.h"

#include "app/gui/view_registry.h"
#include "widgets/record_selector.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/tuning_curve_plot.h"

#include <QAction>
#include <QMenu>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace ts::app {

CurvesView::CurvesView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_hub(context.sessions)
    , m_plot(new widgets::TuningCurvePlot(this))
    , m_selector(new widgets::RecordSelector(context.selection, this))
    , m_wallTime(new QAction(tr("Against wall time"), this))
    , m_compare(new QAction(tr("Compare with…"), this))
    , m_compareMenu(new QMenu(this))
{
    m_wallTime->setCheckable(true);
    m_wallTime->setToolTip(tr("Tuning curves against wall time instead of trials"));
    connect(m_wallTime, &QAction::toggled, this, [this](bool on) {
        m_plot->setXAxis(on ? widgets::TuningCurvePlot::XAxis::WallTime : widgets::TuningCurvePlot::XAxis::Trials);
    });
    m_compare->setToolTip(tr("Overlay other sessions of the workspace on the tuning curves"));
    m_compare->setMenu(m_compareMenu);
    connect(m_compareMenu, &QMenu::aboutToShow, this, &CurvesView::fillCompareMenu);
    addAction(m_wallTime);
    addAction(m_compare);

    auto* toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->setIconSize(QSize(12, 12));
    toolbar->addAction(m_wallTime);
    toolbar->addAction(m_compare);
    if (auto* button = qobject_cast<QToolButton*>(toolbar->widgetForAction(m_compare)))
        button->setPopupMode(QToolButton::InstantPopup);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_plot, 1);

    connect(&m_hub, &widgets::SessionHub::currentChanged, this, &CurvesView::onCurrentChanged);
    connect(&m_hub, &widgets::SessionHub::snapshotReady, this, [this](qint64 id) {
        if (m_compared.contains(id))
            updateOverlays();
    });
    connect(m_plot, &widgets::TuningCurvePlot::pointClicked, this,
        [this](qint64 sessionId, int task, qint64 recordId) { activatePoint(sessionId, task, recordId); });
    connect(&m_selection, &widgets::SelectionContext::recordChanged, this,
        [this] { m_plot->setHighlightedRecord(m_selection.recordId()); });
    connect(&m_hub, &widgets::SessionHub::networkRunChanged, this, &CurvesView::updateMeasuredLatency);
    onCurrentChanged();
}

void CurvesView::onCurrentChanged()
{
    m_plot->setSession(m_hub.current());
    m_plot->setHighlightedRecord(m_selection.recordId());
    updateMeasuredLatency();
}

void CurvesView::updateMeasuredLatency()
{
    const auto current = m_hub.current();
    const auto run = current ? m_hub.networkRun(*current) : nullptr;
    const std::optional<double> ms
        = run && run->medianSeconds > 0 ? std::optional<double>(run->medianSeconds * 1e3) : std::nullopt;
    if (ms == m_plot->measuredLatency())
        return;
    QString label;
    if (run)
        label = run->allEstimated() ? tr("measured %1 ms (Run network; estimate %2 ms)")
                                          .arg(run->medianSeconds * 1e3, 0, 'f', 2)
                                          .arg(run->estimateSeconds * 1e3, 0, 'f', 2)
                                    : tr("measured %1 ms (Run network; %2 of %3 tasks tuned)")
                                          .arg(run->medianSeconds * 1e3, 0, 'f', 2)
                                          .arg(run->estimatedTasks)
                                          .arg(run->tasks.size());
    m_plot->setMeasuredLatency(ms, label);
}

void CurvesView::compareWith(int64_t sessionId, bool on)
{
    if (on == m_compared.contains(sessionId))
        return;
    if (on)
        m_compared.append(sessionId);
    else
        m_compared.removeAll(sessionId);
    updateOverlays();
}

void CurvesView::updateOverlays()
{
    std::vector<std::shared_ptr<const models::SessionSnapshot>> overlays;
    for (int64_t id : std::as_const(m_compared))
        if (auto snapshot = m_hub.snapshot(id)) // else loading: snapshotReady follows
            overlays.push_back(std::move(snapshot));
    m_plot->setOverlays(std::move(overlays));
}

void CurvesView::fillCompareMenu()
{
    m_compareMenu->clear();
    const auto current = m_hub.current();
    for (const store::SessionInfo& info : m_hub.sessions()) {
        if (current && info.id == current->sessionId)
            continue;
        const QString text = tr("#%1 %2 + %3, seed %4 (%5)")
                                 .arg(info.id)
                                 .arg(QString::fromStdString(info.policy), QString::fromStdString(info.costModel))
                                 .arg(info.seed)
                                 .arg(QString::fromStdString(info.status));
        QAction* entry = m_compareMenu->addAction(text);
        entry->setCheckable(true);
        entry->setChecked(m_compared.contains(info.id));
        const int64_t id = info.id;
        connect(entry, &QAction::toggled, this, [this, id](bool on) { compareWith(id, on); });
    }
    if (m_compareMenu->isEmpty())
        m_compareMenu->addAction(tr("No other session in this workspace"))->setEnabled(false);
}

bool CurvesView::activatePoint(int64_t sessionId, int task, int64_t recordId)
{
    auto current = m_hub.current();
    if (current && current->sessionId == sessionId)
        return m_selector->select(current, task, recordId);
    if (m_compared.contains(sessionId))
        if (auto snapshot = m_hub.snapshot(sessionId))
            return m_selector->select(snapshot, task, recordId);
    return false;
}

} // namespace ts::app
