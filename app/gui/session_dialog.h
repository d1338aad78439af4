// "New tuning session": what to tune (a network with batch, layout and some of its tasks, or one operator
// with its shape), how (policy, cost model, target, trial budget, measures per round, seed, threads; shadow models,
// Ansor only) and how to measure (number, repeat, min_repeat_ms, cache flush, layout rewrite, build and run
// timeouts), and the workspace. The dialog only collects and checks values; SessionHub::start runs them. The last
// values are kept in QSettings.
#pragma once

#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QRadioButton;
class QSpinBox;

namespace ts::app {

class SessionDialog : public QDialog {
    Q_OBJECT
public:
    explicit SessionDialog(QWidget* parent = nullptr);
    // ONNX models opened in the workbench, by path, after the built-in networks.
    void addNetworks(const QStringList& names);

    // Fills the "what" fields from a selection: a network's task, or nothing.
    void setTask(const QString& network, int64_t batch, const QString& layout, int taskId);
    void setWorkspace(const QString& path);

    // The values as entered; call after exec() == Accepted (accept() refuses invalid ones).
    engine::TuneOrigin origin() const;
    engine::TuneOptions options() const;
    QString workspace() const;
    // What is wrong with the values, or empty.
    QString validate() const;

    void accept() override;

private:
    void updateEnabled();
    void restoreValues();
    void saveValues() const;
    // The target as entered: this machine's CPU, or the TVM target string parsed.
    Expected<target::Target> target() const;

    QRadioButton* m_byNetwork;
    QRadioButton* m_byOperator;
    QComboBox* m_network;
    QSpinBox* m_batch;
    QComboBox* m_layout;
    QLineEdit* m_taskIds;
    QComboBox* m_op;
    QLineEdit* m_shape;
    QComboBox* m_policy;
    QComboBox* m_model;
    // Shadow models: one checkable item per registered cost-model kind (cost::costModelKinds()); Ansor only.
    QListWidget* m_shadows;
    QComboBox* m_target; // editable: this CPU (item 0), a CUDA target, or any TVM target string
    QSpinBox* m_trials;
    QSpinBox* m_perRound;
    QSpinBox* m_seed;
    QSpinBox* m_threads;
    QSpinBox* m_number;
    QSpinBox* m_repeat;
    QSpinBox* m_minRepeatMs;
    QCheckBox* m_flushCache;
    QCheckBox* m_analyticalWarmup;
    QComboBox* m_layoutRewrite; // Ansor's layout_rewrite_option, 0..2 as its item data; -1: as TVM
    QDoubleSpinBox* m_buildTimeout;
    QDoubleSpinBox* m_runTimeout;
    QLineEdit* m_exchange; // GPU targets: the folder batches go through to a GPU elsewhere; empty: this machine's
    QLineEdit* m_workspace;
    QComboBox* m_measureOn; // this machine, or the workers of a PostgreSQL workspace
    QLabel* m_error;
    QDialogButtonBox* m_buttons;
};

} // namespace ts::app
