// PredictionView: how well the session's cost model predicts what is measured. A scatter of predicted score
// against measured GFLOP/s over the last N rounds (widgets/prediction_scatter.h), and per round a row of
// its ranking metrics (pairwise accuracy, Spearman's rho) with its failed and random picks counted; below,
// the selected record's predicted score and its rank in its batch. Follows the hub's shown session; a click
// on a point selects its record.
#pragma once

#include <QWidget>

#include <cstdint>

class QLabel;
class QSpinBox;
class QTableWidget;

namespace ts::widgets {
class PredictionScatter;
class RecordSelector;
class SelectionContext;
class SessionHub;
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
    // What a click on a point does: selects the record (of task `task` of the shown session).
    bool activatePoint(int64_t recordId, int task);

private:
    void refresh();
    void showSelectedRecord();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_hub;
    widgets::RecordSelector* m_selector;
    QSpinBox* m_rounds;
    widgets::PredictionScatter* m_scatter;
    QTableWidget* m_table;
    QLabel* m_record;
};

} // namespace ts::app
