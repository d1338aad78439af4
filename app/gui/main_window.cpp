#include "app/gui/main_window.h"

#include "app/gui/explorer_view.h"
#include "app/gui/settings_keys.h"
#include "app/gui/view_registry.h"
#include "core/support/assert.h"
#include "widgets/dag_view.h"
#include "widgets/models/network_task_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>

namespace ts::app {

namespace {
    Qt::DockWidgetArea dockArea(ViewArea area)
    {
        switch (area) {
        case ViewArea::Left:
            return Qt::LeftDockWidgetArea;
        case ViewArea::Right:
            return Qt::RightDockWidgetArea;
        case ViewArea::Bottom:
            return Qt::BottomDockWidgetArea;
        case ViewArea::Central:
            break;
        }
        TS_ASSERT(false) << "the central view is not docked";
        return Qt::NoDockWidgetArea;
    }
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_selection(new widgets::SelectionContext(this))
    , m_sessions(new widgets::SessionHub(this))
{
    setWindowTitle(tr("TuneScope"));
    setObjectName(QStringLiteral("MainWindow"));
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    createViews();
    createActions();
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    connect(m_selection, &widgets::SelectionContext::taskChanged, this, &MainWindow::onTaskChanged);
    connect(explorerView(), &ExplorerView::ready, this, &MainWindow::explorerReady);
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews()
{
    QList<QDockWidget*> sideDocks;
    QList<int> sideSizes;
    QList<QDockWidget*> bottomDocks;
    QList<int> bottomSizes;
    QList<QAction*> dockToggles;
    ViewContext context { *m_selection, *m_sessions };
    for (const ViewInfo& info : viewRegistry()) {
        const QString id = QString::fromLatin1(info.id);
        const QString title = QCoreApplication::translate("ts::app::MainWindow", info.title);
        if (info.area == ViewArea::Central) {
            TS_ASSERT(!centralWidget()) << "two central views: " << info.id;
            QWidget* view = info.create(context, this);
            view->setObjectName(id);
            setCentralWidget(view);
            m_views.insert(id, view);
            continue;
        }
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(id);
        QWidget* view = info.create(context, dock);
        dock->setWidget(view);
        addDockWidget(dockArea(info.area), dock);
        m_views.insert(id, view);
        dockToggles.append(dock->toggleViewAction());
        (info.area == ViewArea::Bottom ? bottomDocks : sideDocks).append(dock);
        (info.area == ViewArea::Bottom ? bottomSizes : sideSizes).append(info.initialSize);
    }
    TS_ASSERT(centralWidget()) << "the view registry has no central view";
    resizeDocks(sideDocks, sideSizes, Qt::Horizontal);
    resizeDocks(bottomDocks, bottomSizes, Qt::Vertical);
    m_viewMenu->addActions(dockToggles);
    m_viewMenu->addSeparator();
    centralWidget()->setFocus(); // not the first dock's first field
}

void MainWindow::createActions()
{
    QAction* quit = m_fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    // Each view's own commands, in registry order.
    auto* toolbar = addToolBar(tr("View"));
    toolbar->setObjectName(QStringLiteral("ViewToolBar"));
    for (const ViewInfo& info : viewRegistry()) {
        const QList<QAction*> actions = m_views.value(QString::fromLatin1(info.id))->actions();
        toolbar->addActions(actions);
        m_viewMenu->addActions(actions);
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About TuneScope"), this, [this] {
        QMessageBox::about(this, tr("About TuneScope"),
            tr("TuneScope %1\nA workbench for tuning tensor programs.").arg(QApplication::applicationVersion()));
    });
}

ExplorerView* MainWindow::explorerView() const
{
    auto* explorer = qobject_cast<ExplorerView*>(view(QStringLiteral("ExplorerDock")));
    TS_ASSERT(explorer) << "the view registry has no explorer";
    return explorer;
}

widgets::DagView* MainWindow::dagView() const
{
    return qobject_cast<widgets::DagView*>(view(QStringLiteral("DagView")));
}

QPlainTextEdit* MainWindow::detailsView() const
{
    return qobject_cast<QPlainTextEdit*>(view(QStringLiteral("DetailsDock")));
}

models::NetworkTaskModel* MainWindow::taskModel() const { return explorerView()->model(); }

QTreeView* MainWindow::explorer() const { return explorerView()->treeView(); }

bool MainWindow::isExplorerReady() const { return !explorerView()->isLoading(); }

bool MainWindow::selectTask(const QString& network, int taskId) { return explorerView()->selectTask(network, taskId); }

void MainWindow::onTaskChanged()
{
    const auto& task = m_selection->task();
    if (!task) {
        m_status->clear();
        return;
    }
    const QString network = m_selection->networkName();
    m_status->setText(tr("%1, task %2: %3 ops, %4 GFLOP, weight %5, key %6")
                          .arg(network)
                          .arg(task->id)
                          .arg(task->dag.numOps())
                          .arg(task->flops / 1e9, 0, 'f', 4)
                          .arg(task->weight)
                          .arg(QString::fromStdString(task->dag.workloadKey())));
    QSettings settings;
    settings.setValue(settings::kExplorerNetwork, network);
    settings.setValue(settings::kExplorerTask, task->id);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(settings::kWindowGeometry).toByteArray());
    restoreState(settings.value(settings::kWindowState).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(settings::kWindowGeometry, saveGeometry());
    settings.setValue(settings::kWindowState, saveState());
    event->accept();
}

} // namespace ts::app
