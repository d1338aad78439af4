// PredictionView: how well the session's cost model predicts what is measured. A scatter of predicted score
// against measured GFLOP/s over the last N rounds (widgets/prediction_scatter.h), and per round a row of
// its ranking metrics (pairwise accuracy, Spearman's rho) with its failed and random picks counted; below,
// the selected record's predicted score and its rank in its batch. Follows the hub's shown session; a click
// on a point selects its record.
//
// A session with shadow models (TuneOptions::shadowModels) adds a third column: one line per model over the rounds
// (widgets/shadow_metrics_plot.h; pairwise accuracy, or Spearman's rho), the session's model drawn distinctly,
// and a table of each model's means (engine::summarize), so that a user sees which model would have chosen better
// on this search's own candidates. Without shadow lines that column is hidden.
#pragma once

#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace ts::widgets {
class PredictionScatter;
class RecordSelector;
class SelectionContext;
class SessionHub;
class ShadowMetricsPlot;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class PredictionView : public QWidget {
    Q_OBJECT
public:
    explicit PredictionView(ViewContext& context, QWidget* parent = nullptr);

    widgets::PredictionScatter* scatter() const { return m_scatter; }
    QSpinBox* roundsBox() const { return m_rounds; }
    QTableWidget* metricsTable() const { return m_table; }
    QLabel* recordLabel() const { return m_record; }
    // The shadow models' column: shown when the session has shadow lines.
    QWidget* shadowPanel() const { return m_shadowPanel; }
    widgets::ShadowMetricsPlot* shadowPlot() const { return m_shadowPlot; }
    QComboBox* shadowMetricBox() const { return m_shadowMetric; } // pairwise accuracy (0) or Spearman (1)
    QTableWidget* shadowTable() const { return m_shadowTable; } // one row per model: rounds, mean pairwise, mean rho
    // What a click on a point does: selects the record (of task `task` of the shown session).
    bool activatePoint(int64_t recordId, int task);

private:
    void refresh();
    void refreshShadows();
    void showSelectedRecord();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_hub;
    widgets::RecordSelector* m_selector;
    QSpinBox* m_rounds;
    widgets::PredictionScatter* m_scatter;
    QTableWidget* m_table;
    QLabel* m_record;
    QWidget* m_shadowPanel;
    QComboBox* m_shadowMetric;
    widgets::ShadowMetricsPlot* m_shadowPlot;
    QTableWidget* m_shadowTable;
};

} // namespace ts::app
