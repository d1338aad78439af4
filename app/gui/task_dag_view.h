// TaskDagView: the central view, the compute DAG of the selected task (widgets::DagView, laid out off the
// GUI thread). With no task selected it asks for one.
#pragma once

#include "widgets/dag_view.h"

namespace ts::widgets {
class SelectionContext;
} // namespace ts::widgets

namespace ts::app {

class TaskDagView : public widgets::DagView {
    Q_OBJECT
public:
    explicit TaskDagView(widgets::SelectionContext& selection, QWidget* parent = nullptr);

private:
    void onTaskChanged();

    widgets::SelectionContext& m_selection;
};

} // namespace ts::app
