// TaskDetailsView: the details dock, the selected item as text. A task shows its DAG listing with Ansor's
// analysis per op (and the selected schedule state's loop nest below it); a network shows its task table,
// or why its tasks could not be extracted.
#pragma once

#include <QPlainTextEdit>

namespace ts::widgets {
class SelectionContext;
} // namespace ts::widgets

namespace ts::app {

class TaskDetailsView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit TaskDetailsView(widgets::SelectionContext& selection, QWidget* parent = nullptr);

private:
    void refresh();

    widgets::SelectionContext& m_selection;
};

} // namespace ts::app
