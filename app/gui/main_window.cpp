#include "app/gui/main_window.h"

#include "app/gui/explorer_view.h"
#include "app/gui/session_dialog.h"
#include "app/gui/settings_keys.h"
#include "app/gui/view_registry.h"
#include "core/cost/cost_model.h"
#include "core/store/database.h"
#include "core/support/assert.h"
#include "widgets/dag_view.h"
#include "widgets/models/network_task_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
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
    , m_context(std::make_unique<ViewContext>(ViewContext { *m_selection, *m_sessions }))
{
    setWindowTitle(tr("TuneScope"));
    setObjectName(QStringLiteral("MainWindow"));
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_sessionMenu = menuBar()->addMenu(tr("&Session"));
    createViews();
    createActions();
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_phase = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMinimumWidth(220);
    m_progress->setMaximumWidth(320);
    m_progress->setTextVisible(true);
    statusBar()->addPermanentWidget(m_phase);
    statusBar()->addPermanentWidget(m_progress);
    m_progress->hide();
    createSessionActions();
    m_askClose = [this] {
        return QMessageBox::question(this, tr("A tuning session is running"),
                   tr("Stop the session after the batch in flight and close? Everything measured so far is kept in "
                      "the workspace, and the session can be resumed later."),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
            == QMessageBox::Yes;
    };
    connect(m_selection, &widgets::SelectionContext::taskChanged, this, &MainWindow::onTaskChanged);
    connect(explorerView(), &ExplorerView::ready, this, &MainWindow::explorerReady);
    restoreSettings();
}

MainWindow::~MainWindow()
{
    // The views first, while the context, the selection and the hub they refer to still exist.
    qDeleteAll(findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly));
    delete centralWidget();
}

void MainWindow::createViews()
{
    // Across an area: each dock's width (sides) or height (bottom). Along it: the shares of the docks that
    // stand one after the other in it (tabbed docks share their tab host's place).
    QList<QDockWidget*> acrossDocks[2];
    QList<int> acrossSizes[2];
    QHash<int, QList<QDockWidget*>> alongDocks;
    QHash<int, QList<int>> alongShares;
    QList<QAction*> dockToggles;
    for (const ViewInfo& info : viewRegistry()) {
        const QString id = QString::fromLatin1(info.id);
        const QString title = QCoreApplication::translate("ts::app::MainWindow", info.title);
        if (info.area == ViewArea::Central) {
            TS_ASSERT(!centralWidget()) << "two central views: " << info.id;
            QWidget* view = info.create(*m_context, this);
            view->setObjectName(id);
            setCentralWidget(view);
            m_views.insert(id, view);
            continue;
        }
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(id);
        QWidget* view = info.create(*m_context, dock);
        dock->setWidget(view);
        addDockWidget(dockArea(info.area), dock);
        m_views.insert(id, view);
        dockToggles.append(dock->toggleViewAction());
        auto* host = info.tabWith ? findChild<QDockWidget*>(QString::fromLatin1(info.tabWith)) : nullptr;
        TS_ASSERT(!info.tabWith || host) << info.id << " is tabbed with " << info.tabWith << ", built later or never";
        if (host) {
            tabifyDockWidget(host, dock);
            dock->raise(); // the later view is the one shown first
            continue;
        }
        const bool bottom = info.area == ViewArea::Bottom;
        acrossDocks[bottom].append(dock);
        acrossSizes[bottom].append(info.initialSize);
        alongDocks[static_cast<int>(info.area)].append(dock);
        alongShares[static_cast<int>(info.area)].append(info.share * 1000); // more than fits: scaled to the shares
    }
    resizeDocks(acrossDocks[0], acrossSizes[0], Qt::Horizontal);
    resizeDocks(acrossDocks[1], acrossSizes[1], Qt::Vertical);
    for (auto it = alongDocks.begin(); it != alongDocks.end(); ++it)
        resizeDocks(it.value(), alongShares.value(it.key()),
            it.key() == static_cast<int>(ViewArea::Bottom) ? Qt::Horizontal : Qt::Vertical);
    TS_ASSERT(centralWidget()) << "the view registry has no central view";
    m_viewMenu->addActions(dockToggles);
    m_viewMenu->addSeparator();
    centralWidget()->setFocus(); // not the first dock's first field
}

void MainWindow::createActions()
{
    QAction* open = m_fileMenu->addAction(tr("&Open workspace…"), this, [this] {
        if (m_sessions->isLive()) {
            statusBar()->showMessage(
                tr("A session is running in this workspace: cancel it before opening another."), 8000);
            return;
        }
        const QString path
            = QFileDialog::getSaveFileName(this, tr("Open or create a workspace"), m_sessions->workspace(),
                tr("TuneScope workspaces (*.tunescope);;All files (*)"), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty())
            openWorkspace(path);
    });
    open->setShortcut(QKeySequence::Open);
    // A team's workspace on a PostgreSQL server (docs/workers.md); the password comes from ~/.pgpass or PGPASSFILE.
    QAction* openServer = m_fileMenu->addAction(tr("Open &server workspace…"), this, [this] {
        if (m_sessions->isLive()) {
            statusBar()->showMessage(
                tr("A session is running in this workspace: cancel it before opening another."), 8000);
            return;
        }
        bool ok = false;
        const QString url = QInputDialog::getText(this, tr("Open a server workspace"),
            tr("PostgreSQL URL (the password from ~/.pgpass or PGPASSFILE, never stored here):"), QLineEdit::Normal,
            QStringLiteral("postgresql://%1@localhost/tuning").arg(qEnvironmentVariable("USER")), &ok)
                                .trimmed();
        if (!ok || url.isEmpty())
            return;
        if (!store::isPostgresUrl(url.toStdString())) {
            statusBar()->showMessage(tr("Not a PostgreSQL URL: %1").arg(url), 8000);
            return;
        }
        openWorkspace(url);
    });
    openServer->setObjectName(QStringLiteral("openServerWorkspace"));
    m_fileMenu->addAction(tr("Open &model (ONNX)…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open an ONNX model"), QString(), tr("ONNX models (*.onnx);;All files (*)"));
        if (!path.isEmpty())
            openModel(path);
    });
    m_fileMenu->addSeparator();
    QAction* quit = m_fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    // Each view's own commands, in registry order; those that edit (undo, redo) in the Edit menu.
    auto* toolbar = addToolBar(tr("View"));
    toolbar->setObjectName(QStringLiteral("ViewToolBar"));
    for (const ViewInfo& info : viewRegistry())
        for (QAction* action : m_views.value(QString::fromLatin1(info.id))->actions()) {
            if (action->property(kMenuProperty).toString() == QLatin1String("edit")) {
                m_editMenu->addAction(action);
                continue;
            }
            toolbar->addAction(action);
            m_viewMenu->addAction(action);
        }
    m_editMenu->setEnabled(!m_editMenu->isEmpty());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About TuneScope"), this, [this] {
        QMessageBox::about(this, tr("About TuneScope"),
            tr("TuneScope %1\nA workbench for tuning tensor programs.").arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createSessionActions()
{
    auto* toolbar = addToolBar(tr("Session"));
    toolbar->setObjectName(QStringLiteral("SessionToolBar"));
    auto add = [&](const QString& name, const QString& text, const QKeySequence& key, auto slot) {
        QAction* action = m_sessionMenu->addAction(text, this, slot);
        action->setObjectName(name);
        action->setShortcut(key);
        toolbar->addAction(action);
        m_sessionActions.insert(name, action);
        return action;
    };
    add(QStringLiteral("newSession"), tr("&New session…"), QKeySequence(Qt::CTRL | Qt::Key_N),
        [this] { newSession(); });
    add(QStringLiteral("pauseSession"), tr("&Pause"), QKeySequence(Qt::Key_F7), [this] { m_sessions->pause(); });
    add(QStringLiteral("resumeSession"), tr("&Resume"), QKeySequence(Qt::Key_F8), [this] { m_sessions->resumeLive(); });
    add(QStringLiteral("cancelSession"), tr("&Cancel after this batch"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
        [this] { m_sessions->cancel(); });
    // Views' commands that belong to the session (the Network run view's Run network) are in this menu too.
    m_sessionMenu->addSeparator();
    for (QWidget* view : std::as_const(m_views))
        for (QAction* action : view->actions())
            if (action->objectName() == QStringLiteral("runNetwork"))
                m_sessionMenu->addAction(action);
    // The live session's cost model; choosing another retrains it on the session's records and switches.
    toolbar->addSeparator();
    auto* modelLabel = new QLabel(tr(" Model: "), this);
    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("sessionModel"));
    m_model->setToolTip(tr("The running session's cost model. Choose another to switch: it learns from every "
                           "record of the session's tasks, then ranks the following rounds."));
    for (const cost::CostModelKind& k : cost::costModelKinds()) {
        m_model->addItem(QString::fromStdString(k.kind), QString::fromStdString(k.kind));
        m_model->setItemData(m_model->count() - 1, QString::fromStdString(k.description), Qt::ToolTipRole);
    }
    modelLabel->setBuddy(m_model);
    toolbar->addWidget(modelLabel);
    toolbar->addWidget(m_model);
    connect(m_model, &QComboBox::activated, this, [this](int index) {
        const QString kind = m_model->itemData(index).toString();
        const auto live = m_sessions->live();
        if (live && QString::fromStdString(live->model) != kind && m_sessions->switchModel(kind)) {
            m_requestedModel = kind;
            statusBar()->showMessage(tr("Switching the cost model to %1 before the next round…").arg(kind), 10000);
        } else if (live && QString::fromStdString(live->model) == kind && !m_requestedModel.isEmpty()) {
            m_sessions->switchModel(kind); // back to the one it has: the switch asked for is dropped
            m_requestedModel.clear();
        }
        updateModelBox();
    });
    connect(m_sessions, &widgets::SessionHub::modelSwitched, this,
        [this](const QString& from, const QString& to, const QString& error) {
            statusBar()->showMessage(error.isEmpty()
                    ? tr("The session now ranks with %1 (was %2).").arg(to, from)
                    : tr("The session keeps %1: switching to %2 failed: %3").arg(from, to, error),
                15000);
            if (m_requestedModel == to)
                m_requestedModel.clear();
            updateModelBox();
        });
    connect(m_sessions, &widgets::SessionHub::liveStateChanged, this, &MainWindow::updateSessionActions);
    connect(m_sessions, &widgets::SessionHub::currentChanged, this, &MainWindow::updateProgress);
    connect(m_sessions, &widgets::SessionHub::liveFinished, this, &MainWindow::onLiveFinished);
    connect(m_sessions, &widgets::SessionHub::errorOccurred, this,
        [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(m_sessions, &widgets::SessionHub::noticed, this,
        [this](const QString& message) { statusBar()->showMessage(message, 20000); });
    // What a steering command (Steering dock, Records' context menu) came to.
    connect(m_sessions, &widgets::SessionHub::commandDone, this,
        [this](qint64, const QString& what, const QString& error, qint64 recordId) {
            statusBar()->showMessage(!error.isEmpty() ? tr("Steering refused: %1: %2").arg(what, error)
                    : recordId > 0                    ? tr("Steering done: %1 (record %2)").arg(what).arg(recordId)
                                                      : tr("Steering done: %1").arg(what),
                15000);
        });
    updateSessionActions();
}

QAction* MainWindow::sessionAction(const QString& name) const { return m_sessionActions.value(name); }

void MainWindow::updateSessionActions()
{
    const bool live = m_sessions->isLive();
    const bool paused = m_sessions->isPaused();
    m_sessionActions.value(QStringLiteral("newSession"))->setEnabled(!live);
    m_sessionActions.value(QStringLiteral("pauseSession"))->setEnabled(live && !paused);
    m_sessionActions.value(QStringLiteral("resumeSession"))->setEnabled(live && paused);
    m_sessionActions.value(QStringLiteral("cancelSession"))->setEnabled(live);
    updateProgress();
}

void MainWindow::updateModelBox()
{
    // Only Ansor's search ranks with the session's model. A switch asked for shows until the session made it.
    // Without a live session it names the shown session's model, disabled.
    const auto live = m_sessions->isLive() ? m_sessions->live() : nullptr;
    m_model->setEnabled(live && live->policy == "ansor" && !live->finished());
    if (!live)
        m_requestedModel.clear();
    const auto current = live ? live : m_sessions->current();
    const QString shown = !m_requestedModel.isEmpty() ? m_requestedModel
        : current                                     ? QString::fromStdString(current->model)
                                                      : QString();
    if (m_model->currentData().toString() != shown || shown.isEmpty())
        m_model->setCurrentIndex(m_model->findData(shown)); // -1 (empty) for none or a kind not registered
}

void MainWindow::updateProgress()
{
    updateModelBox();
    const auto live = m_sessions->live();
    if (!m_sessions->isLive() || !live) {
        m_progress->hide();
        m_phase->clear();
        return;
    }
    const int total = std::max(1, live->budget - live->restoredTrials);
    m_progress->setRange(0, total);
    m_progress->setValue(std::min(total, live->trialsDone));
    m_progress->setFormat(tr("%1 of %2 trials").arg(live->trialsDone).arg(total));
    m_progress->show();
    QString phase;
    if (live->state == "paused" || live->state == "cancelling" || live->state == "starting")
        phase = live->state == "paused"   ? tr("paused")
            : live->state == "cancelling" ? tr("cancelling after the batch in flight…")
                                          : tr("starting: restoring the workspace…");
    else if (live->phase == "measure" && live->batch.total > 0)
        phase = tr("measuring %1: built %2, measured %3 of %4")
                    .arg(QString::fromStdString(live->tasks.at(static_cast<size_t>(live->batch.task)).status.name))
                    .arg(live->batch.built)
                    .arg(live->batch.done)
                    .arg(live->batch.total);
    else if (live->phase == "search" && live->phaseTask >= 0)
        phase = tr("searching %1")
                    .arg(QString::fromStdString(live->tasks.at(static_cast<size_t>(live->phaseTask)).status.name));
    else if (live->phase == "model")
        phase = tr("updating the cost model");
    else if (live->phase == "switch model")
        phase = tr("training the new cost model on the session's records");
    else if (live->phase == "re-measure")
        phase = tr("re-measuring the best candidates");
    else
        phase = tr("running");
    const double eta = live->etaSeconds();
    if (eta >= 0.0)
        phase += tr(" — ETA %1")
                     .arg(eta < 90 ? tr("%1 s").arg(static_cast<int>(eta)) : tr("%1 min").arg(eta / 60.0, 0, 'f', 1));
    m_phase->setText(phase);
}

QString MainWindow::statusText() const { return m_phase->text(); }

void MainWindow::onLiveFinished(qint64 sessionId, const QString& status, const QString& message)
{
    statusBar()->showMessage(message.isEmpty() ? tr("Session %1 %2.").arg(sessionId).arg(status)
                                               : tr("Session %1 %2: %3").arg(sessionId).arg(status, message),
        15000);
    updateSessionActions();
    if (m_closeWhenFinished)
        close();
}

void MainWindow::openWorkspace(const QString& path)
{
    m_sessions->openWorkspace(path);
    // A server's URL is remembered and shown without its password.
    const bool server = store::isPostgresUrl(path.toStdString());
    const QString shown = server ? QString::fromStdString(store::redactedUrl(path.toStdString())) : path;
    QSettings().setValue(settings::kWorkspace, shown);
    setWindowTitle(tr("TuneScope — %1").arg(server ? shown : QFileInfo(path).fileName()));
}

void MainWindow::openModel(const QString& path)
{
    // Imported off the GUI thread with the rest of the catalog; the explorer shows it when it is ready, or its
    // error (an unsupported node, named) in the tooltip of its row.
    taskModel()->addModel(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Importing %1…").arg(QFileInfo(path).fileName()), 5000);
}

void MainWindow::newSession()
{
    if (m_sessions->isLive())
        return;
    SessionDialog dialog(this);
    dialog.addNetworks(taskModel()->models());
    if (const auto& task = m_selection->task(); task && m_selection->network())
        dialog.setTask(m_selection->networkName(), taskModel()->batch(),
            QString::fromLatin1(ops::toString(taskModel()->layout()).data()), task->id);
    dialog.setWorkspace(m_sessions->workspace());
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (dialog.workspace() != m_sessions->workspace())
        openWorkspace(dialog.workspace());
    m_sessions->start(dialog.origin(), dialog.options());
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
    m_status->setText(tr("%1task %2: %3 ops, %4 GFLOP, weight %5, key %6")
                          .arg(network.isEmpty() ? QString() : network + QStringLiteral(", "))
                          .arg(task->id)
                          .arg(task->dag.numOps())
                          .arg(task->flops / 1e9, 0, 'f', 4)
                          .arg(task->weight)
                          .arg(QString::fromStdString(task->dag.workloadKey())));
    if (network.isEmpty())
        return; // a session's task outside the explorer's catalog: nothing to reopen next time
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
    if (m_sessions->isLive()) {
        // Close once the batch in flight is stored: nothing measured is lost.
        if (!m_closeWhenFinished && !m_askClose()) {
            event->ignore();
            return;
        }
        m_closeWhenFinished = true;
        m_sessions->cancel();
        statusBar()->showMessage(tr("Closing after the batch in flight…"));
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(settings::kWindowGeometry, saveGeometry());
    settings.setValue(settings::kWindowState, saveState());
    event->accept();
}

} // namespace ts::app
