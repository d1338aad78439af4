// ModelComparisonView: cost models side by side on one dataset (what `tunescope-cli compare-models` prints).
// The user names the models, the dataset (a workspace; the open one by default) and the networks to hold out
// (TenSet's protocol; none: the last 30% of each task's records by time are the test set). "Compare" trains
// each model on the same training records with the same seed, on a worker thread with progress and Cancel
// (engine::compareModels), then shows one table row per model (top-1/top-5 network scores, pairwise accuracy,
// RMSE, peak@1, training time, programs per second, size) and one predicted-vs-measured scatter per model,
// side by side, on the same test records. With "Search" tasks set, each trained model then guides an Ansor
// session on that many test tasks (same seed and budget) and their search curves are overlaid.
#pragma once

#include "core/engine/model_training.h"
#include "core/session/job_tracker.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSpinBox;
class QPushButton;
class QTableWidget;

namespace ts::widgets {
class ModelScatter;
class ModelSearchPlot;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

// What a comparison shows: the result and, per scored test record, its label.
struct ModelComparisonData {
    engine::ComparisonResult result;
    std::vector<double> labels;
    QString description; // "9429 training and 13368 test programs of data.tunescope, held out: ..."
};

class ModelComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ModelComparisonView(ViewContext& context, QWidget* parent = nullptr);

    QLineEdit* modelsEdit() const { return m_models; }
    QLineEdit* datasetEdit() const { return m_dataset; }
    QLineEdit* holdoutEdit() const { return m_holdout; }
    QSpinBox* searchTasksBox() const { return m_searchTasks; }
    QSpinBox* searchTrialsBox() const { return m_searchTrials; }
    widgets::ModelSearchPlot* searchPlot() const { return m_searchPlot; }
    QPushButton* compareButton() const { return m_compare; }
    QPushButton* cancelButton() const { return m_cancel; }
    QTableWidget* table() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }
    std::vector<widgets::ModelScatter*> scatters() const { return m_scatters; }

    void compare();
    void showComparison(const ModelComparisonData& data);

Q_SIGNALS:
    void compared(const QString& error); // empty: shown; also after a cancel ("cancelled")

private:
    widgets::SessionHub& m_hub;
    QLineEdit* m_models;
    QLineEdit* m_dataset;
    QLineEdit* m_holdout;
    QSpinBox* m_searchTasks;
    QSpinBox* m_searchTrials;
    QPushButton* m_compare;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    QHBoxLayout* m_scatterRow;
    std::vector<widgets::ModelScatter*> m_scatters;
    widgets::ModelSearchPlot* m_searchPlot;
    session::JobTracker m_job;
};

} // namespace ts::app
