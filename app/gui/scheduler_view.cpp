#include "app/gui/scheduler_view.h"

#include "app/gui/view_registry.h"
#include "widgets/models/scheduler_model.h"
#include "widgets/plot_style.h"
#include "widgets/record_selector.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ts::app {

SchedulerView::SchedulerView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_hub(context.sessions)
    , m_selector(new widgets::RecordSelector(context.selection, this))
    , m_model(new models::SchedulerModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_chart(new QCustomPlot(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(models::SchedulerModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the tasks' own order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    // Two bars per task, both in percent: its share of this session's trials and of the latency estimate.
    widgets::plotstyle::styleAxisRect(m_chart->axisRect());
    QCPAxis* tasks = m_chart->yAxis;
    QCPAxis* percent = m_chart->xAxis;
    tasks->setRangeReversed(true); // task 0 on top, as in the table
    tasks->setTickLength(0, 0);
    tasks->grid()->setVisible(false);
    percent->setLabel(tr("Share (%)"));
    percent->setRange(0, 100);
    m_trialBars = new QCPBars(tasks, percent);
    m_trialBars->setName(tr("trials spent"));
    m_trialBars->setPen(Qt::NoPen);
    m_trialBars->setBrush(widgets::plotstyle::seriesColour(0));
    m_shareBars = new QCPBars(tasks, percent);
    m_shareBars->setName(tr("weighted latency"));
    m_shareBars->setPen(Qt::NoPen);
    m_shareBars->setBrush(widgets::plotstyle::seriesColour(1));
    auto* group = new QCPBarsGroup(m_chart);
    m_trialBars->setBarsGroup(group);
    m_shareBars->setBarsGroup(group);
    m_trialBars->setWidth(0.38);
    m_shareBars->setWidth(0.38);
    // The legend under the chart, its two entries side by side.
    m_chart->legend->setVisible(true);
    widgets::plotstyle::styleLegend(m_chart->legend);
    m_chart->legend->setBorderPen(Qt::NoPen);
    m_chart->axisRect()->insetLayout()->take(m_chart->legend);
    m_chart->plotLayout()->addElement(1, 0, m_chart->legend);
    m_chart->plotLayout()->setRowStretchFactor(1, 0.001);
    m_chart->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_chart->setMinimumWidth(280);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 560, 340 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(&m_hub, &widgets::SessionHub::currentChanged, this, &SchedulerView::onCurrentChanged);
    connect(m_table, &QTableView::clicked, this,
        [this](const QModelIndex& index) { activateTask(m_proxy->mapToSource(index).row()); });
    connect(&m_selection, &widgets::SelectionContext::taskChanged, this, &SchedulerView::followSelection);
    onCurrentChanged();
}

void SchedulerView::onCurrentChanged()
{
    m_model->setSnapshot(m_hub.current());
    updateChart();
    followSelection();
}

void SchedulerView::updateChart()
{
    const auto& snapshot = m_model->snapshot();
    const int n = snapshot ? static_cast<int>(snapshot->tasks.size()) : 0;
    if (n != m_chartTasks) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (int i = 0; i < n; ++i)
            ticker->addTick(i, tr("%1: %2").arg(i).arg(QString::fromStdString(snapshot->tasks[size_t(i)].status.name)));
        m_chart->yAxis->setTicker(ticker);
        m_chart->yAxis->setRange(-0.6, std::max(n, 1) - 0.4);
        m_chartTasks = n;
    }
    QVector<double> keys, trials, shares;
    double maxValue = 10.0;
    for (int i = 0; i < n; ++i) {
        const models::SessionTask& t = snapshot->tasks[size_t(i)];
        keys.push_back(i);
        const double trialShare = snapshot->trialsDone > 0 ? 100.0 * t.sessionTrials / snapshot->trialsDone : 0.0;
        const double share = std::max(0.0, models::SchedulerModel::latencyShare(*snapshot, i));
        trials.push_back(trialShare);
        shares.push_back(share);
        maxValue = std::max({ maxValue, trialShare, share });
    }
    m_trialBars->setData(keys, trials, true);
    m_shareBars->setData(keys, shares, true);
    m_chart->xAxis->setRange(0, std::min(100.0, maxValue * 1.1));
    m_chart->replot(QCustomPlot::rpQueuedReplot);
}

void SchedulerView::activateTask(int task)
{
    const auto snapshot = m_model->snapshot();
    const models::SessionTask* t = m_model->taskAt(task);
    if (!t || !t->task)
        return;
    // Its best record with its state when it has one (the selector loads the state); else the task alone.
    if (!t->curve.empty() && m_selector->select(snapshot, task, t->curve.back().recordId))
        return;
    m_selection.selectTask(nullptr, t->task);
}

void SchedulerView::followSelection()
{
    const auto& selected = m_selection.task();
    const auto& snapshot = m_model->snapshot();
    if (!selected || !snapshot)
        return;
    for (size_t i = 0; i < snapshot->tasks.size(); ++i) {
        const auto& t = snapshot->tasks[i].task;
        if (t && (t == selected || t->dag.workloadKey() == selected->dag.workloadKey())) {
            const QModelIndex row = m_proxy->mapFromSource(m_model->index(static_cast<int>(i), 0));
            if (m_table->currentIndex().row() != row.row())
                m_table->setCurrentIndex(row);
            return;
        }
    }
}

} // namespace ts::app
