// SchedulerView: the gradient task scheduler at work. A table of the shown session's tasks (weight, trials
// spent, best latency and throughput, weighted share of the network's latency, the scheduler's last
// gradient, dead or not; widgets/models/scheduler_model.h) beside a bar chart that sets each task's share of
// this session's trials against its share of the estimated latency: a scheduler that spends its trials well
// gives the tasks that weigh most the most trials. A click on a row selects the task (with its best record
// when it has one); a task selected elsewhere is followed in the table.
#pragma once

#include <QWidget>

class QCPBars;
class QCustomPlot;
class QSortFilterProxyModel;
class QTableView;

namespace ts::models {
class SchedulerModel;
} // namespace ts::models

namespace ts::widgets {
class RecordSelector;
class SelectionContext;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class SchedulerView : public QWidget {
    Q_OBJECT
public:
    explicit SchedulerView(ViewContext& context, QWidget* parent = nullptr);

    models::SchedulerModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QCustomPlot* chart() const { return m_chart; }
    QCPBars* trialBars() const { return m_trialBars; }
    QCPBars* shareBars() const { return m_shareBars; }
    // What a click on a row does: selects the task `task` of the shown session (an index into its tasks).
    void activateTask(int task);

private:
    void onCurrentChanged();
    void updateChart();
    void followSelection();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_hub;
    widgets::RecordSelector* m_selector;
    models::SchedulerModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QCustomPlot* m_chart;
    QCPBars* m_trialBars;
    QCPBars* m_shareBars;
    int m_chartTasks = -1; // tasks on the chart's axis
};

} // namespace ts::app
