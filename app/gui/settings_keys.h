// Every QSettings key the workbench reads or writes, in one place. The keys are the user's saved state:
// renaming one silently loses what was saved under it, so add keys, never rename them.
#pragma once

#include <QLatin1StringView>

namespace ts::app::settings {

inline constexpr QLatin1StringView kWindowGeometry { "window/geometry" }; // QMainWindow::saveGeometry()
inline constexpr QLatin1StringView kWindowState { "window/state" }; // docks and toolbars, QMainWindow::saveState()
inline constexpr QLatin1StringView kExplorerNetwork { "explorer/network" }; // name of the last selected network
inline constexpr QLatin1StringView kExplorerTask { "explorer/task" }; // id of the last selected task in it
inline constexpr QLatin1StringView kWorkspace { "workspace/path" }; // the workspace opened last
inline constexpr QLatin1StringView kSessionDialogGroup { "sessionDialog" }; // the last values of "New tuning session"

} // namespace ts::app::settings
