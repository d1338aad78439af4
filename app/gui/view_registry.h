// The workbench's views, in one list: the main window builds each entry, docks it (or makes it the
// central widget) and lists its actions; nothing else in the window knows the views one by one.
//
// A view is its own QWidget class, built from the ViewContext it observes: the SelectionContext (what is
// selected) and the SessionHub (the workspace's tuning sessions, live and stored). It reads what it shows
// from them, updates on their signals, and never calls another view.
//
// How to add a view:
//  1. Write the view as a QWidget subclass in app/gui/<name>_view.{h,cpp}, with a constructor
//     (ViewContext&, QWidget* parent) (or (widgets::SelectionContext&, QWidget*) when it shows no session). Drawing
//     code that is useful elsewhere goes in widgets/, item models in widgets/models/ (tested with
//     QAbstractItemModelTester).
//  2. Connect to the context's signals for the levels it shows (network, task, state, record; the hub's
//     currentChanged for the shown session); a view that selects something writes it to the context,
//     never to another view.
//  3. Work that takes longer than a frame (a layout, a query, a model fit) runs as a session::JobTracker
//     job owned by the view: inputs copied into the job, the newest result applied, stale ones dropped.
//  4. Put the view's own commands on it as QActions (QWidget::addAction): the main window adds them to
//     the View menu and the toolbar; an action whose kMenuProperty is "edit" goes to the Edit menu instead
//     (the Steering dock's Undo and Redo steering).
//  5. Add one entry to viewRegistry() in view_registry.cpp: a stable id (the dock's object name, saved
//     in the window state: never rename one), the title, the area and the factory. Settings it keeps
//     get their keys in settings_keys.h.
//  6. Refresh the translations (translations/README.md) and add a test that a selection in the context
//     reaches the view (tests/widgets/main_window_test.cpp).
#pragma once

#include <QtGlobal>

#include <functional>
#include <vector>

class QWidget;

namespace ts::widgets {
class SelectionContext;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

enum class ViewArea { Central, Left, Right, Bottom };

// A view's action with this property set to "edit" is listed in the window's Edit menu, not in View and the toolbar.
inline constexpr char kMenuProperty[] = "tunescopeMenu";

// What every view is built from; both outlive the views.
struct ViewContext {
    widgets::SelectionContext& selection;
    widgets::SessionHub& sessions;
};

struct ViewInfo {
    const char* id; // object name of the dock (or of the central view)
    const char* title; // marked with QT_TRANSLATE_NOOP in the "ts::app::MainWindow" context
    ViewArea area;
    int initialSize; // dock width (left, right) or height (bottom) in pixels; unused for the central view
    std::function<QWidget*(ViewContext& context, QWidget* parent)> create;
    // The dock's share of its area's length, relative to the other docks of the area (side docks stand one
    // above the other, bottom docks side by side).
    int share = 1;
    // The id of a dock of the same area, built earlier, that this one shares tabs with (null: its own place);
    // the later one is shown first.
    const char* tabWith = nullptr;
};

// In the order the window builds them. Exactly one view is Central.
const std::vector<ViewInfo>& viewRegistry();

} // namespace ts::app
