// TaskDagView: the central view, the compute DAG of the selected task (widgets::DagView, laid out off the
// GUI thread). With no task selected it asks for one. With a schedule state selected, its nodes carry the
// state's stage marks (what the schedule inlines, tiles, caches, parallelizes: widgets/models/stage_marks.h).
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
    void onStateChanged();

    widgets::SelectionContext& m_selection;
};

} // namespace ts::app
