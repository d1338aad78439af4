// ConstraintDialog: the Steering dock's "Add constraint…": one constraint on one task's search (docs/steering.md).
//
// The kind (split factor, unroll limit, vector length, parallel extent, sketch rule) decides the rest. A split
// names a stage and a loop of the task's DAG, chosen from lists (the initial state's stages by op name and their
// loops by axis name, as the engine resolves them), and the part of the split (innermost tile, …); a hint lists the
// loop's divisors, the factors a split can pin. A bound is equals / min / max / in (a list). The constraint is
// checked against the DAG (search::checkConstraints) when OK is pressed: a wrong one keeps the dialog open and says
// why, so the session only ever receives constraints that fit. GUI thread.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/search/constraints.h"
#include "core/support/error.h"
#include "widgets/models/constraint_edit.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace ts::app {

class ConstraintDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kind { Split, Unroll, Vectorize, Parallel, Sketch };
    enum class BoundKind { Equals, Min, Max, In };

    // For task `taskName` with this DAG (copied: the dialog may outlive the snapshot it came from).
    ConstraintDialog(const QString& taskName, ir::ComputeDAG dag, QWidget* parent = nullptr);

    // The constraint as filled in, checked against the task's DAG; or what is wrong with it.
    Expected<search::Constraints> constraint() const;

    // What a person chooses, for tests and callers that know what they want (each as the combo boxes would).
    void setKind(Kind kind);
    // False when the task has no such stage or loop.
    bool setSplit(const QString& stage, const QString& loop, int part);
    void setBound(BoundKind kind, const QString& value);
    void setSketchRule(bool forbid, const QString& rule);
    QString errorText() const;

    void accept() override;

private:
    void onKindChanged();
    void onStageChanged();
    void updateHint();
    Expected<search::Bound> bound() const;

    ir::ComputeDAG m_dag;
    std::vector<models::SplitStage> m_stages;
    QComboBox* m_kind;
    QFormLayout* m_form;
    QWidget* m_splitRow; // stage, loop, part
    QWidget* m_boundRow; // all kinds but a sketch rule
    QWidget* m_sketchRow;
    QComboBox* m_stage;
    QComboBox* m_loop;
    QComboBox* m_part;
    QComboBox* m_boundKind;
    QLineEdit* m_value;
    QComboBox* m_ruleMode;
    QComboBox* m_rule;
    QLabel* m_hint;
    QLabel* m_error;
};

} // namespace ts::app
