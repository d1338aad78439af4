#include "app/gui/main_window.h"

#include "core/graph/task_report.h"
#include "widgets/dag_view.h"
#include "widgets/network_task_model.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace ts::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new widgets::NetworkTaskModel(this))
    , m_dagView(new widgets::DagView(this))
{
    setWindowTitle(tr("TuneScope"));
    setObjectName(QStringLiteral("MainWindow"));
    setCentralWidget(m_dagView);
    m_dagView->clearDag(tr("Select a task in the explorer to see its compute DAG."));
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    createDocks();
    createActions();
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    auto* explorerDock = new QDockWidget(tr("Explorer"), this);
    explorerDock->setObjectName(QStringLiteral("ExplorerDock"));
    auto* panel = new QWidget(explorerDock);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* form = new QFormLayout;
    m_batch = new QSpinBox(panel);
    m_batch->setRange(1, 4096);
    m_batch->setValue(1);
    m_layout = new QComboBox(panel);
    m_layout->addItem(QStringLiteral("NCHW"));
    m_layout->addItem(QStringLiteral("NHWC"));
    form->addRow(tr("Batch"), m_batch);
    form->addRow(tr("Layout"), m_layout);
    layout->addLayout(form);
    m_explorer = new QTreeView(panel);
    m_explorer->setObjectName(QStringLiteral("Explorer"));
    m_explorer->setModel(m_model);
    m_explorer->setUniformRowHeights(true);
    m_explorer->setAlternatingRowColors(true);
    m_explorer->header()->setSectionResizeMode(widgets::NetworkTaskModel::NameColumn, QHeaderView::Stretch);
    m_explorer->header()->setSectionResizeMode(widgets::NetworkTaskModel::GflopColumn, QHeaderView::ResizeToContents);
    m_explorer->header()->setSectionResizeMode(widgets::NetworkTaskModel::WeightColumn, QHeaderView::ResizeToContents);
    m_explorer->header()->setStretchLastSection(false);
    layout->addWidget(m_explorer);
    explorerDock->setWidget(panel);
    addDockWidget(Qt::LeftDockWidgetArea, explorerDock);

    auto* detailsDock = new QDockWidget(tr("Task details"), this);
    detailsDock->setObjectName(QStringLiteral("DetailsDock"));
    m_details = new QPlainTextEdit(detailsDock);
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_details->setFont(mono);
    detailsDock->setWidget(m_details);
    addDockWidget(Qt::BottomDockWidgetArea, detailsDock);
    resizeDocks({ explorerDock }, { 430 }, Qt::Horizontal);
    resizeDocks({ detailsDock }, { 170 }, Qt::Vertical);

    connect(m_explorer->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_batch, &QSpinBox::editingFinished, this, [this] { onConfigurationChanged(); });
    connect(m_layout, &QComboBox::currentIndexChanged, this, [this] { onConfigurationChanged(); });

    m_viewMenu->addAction(explorerDock->toggleViewAction());
    m_viewMenu->addAction(detailsDock->toggleViewAction());
    m_viewMenu->addSeparator();
}

void MainWindow::createActions()
{
    QAction* quit = m_fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* toolbar = addToolBar(tr("View"));
    toolbar->setObjectName(QStringLiteral("ViewToolBar"));
    QAction* zoomIn = new QAction(tr("Zoom &In"), this);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    connect(zoomIn, &QAction::triggered, m_dagView, &widgets::DagView::zoomIn);
    QAction* zoomOut = new QAction(tr("Zoom &Out"), this);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOut, &QAction::triggered, m_dagView, &widgets::DagView::zoomOut);
    QAction* fit = new QAction(tr("&Fit DAG"), this);
    fit->setShortcut(Qt::CTRL | Qt::Key_0);
    connect(fit, &QAction::triggered, m_dagView, &widgets::DagView::fitAll);
    for (QAction* action : { zoomIn, zoomOut, fit }) {
        toolbar->addAction(action);
        m_viewMenu->addAction(action);
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About TuneScope"), this, [this] {
        QMessageBox::about(this, tr("About TuneScope"),
            tr("TuneScope %1\nA workbench for tuning tensor programs.").arg(QApplication::applicationVersion()));
    });
}

void MainWindow::onConfigurationChanged()
{
    const ops::Layout layout = m_layout->currentIndex() == 0 ? ops::Layout::NCHW : ops::Layout::NHWC;
    const QString network = m_model->networkNameAt(m_explorer->currentIndex());
    const graph::Task* task = m_model->taskAt(m_explorer->currentIndex());
    const int taskId = task ? task->id : -1;
    m_model->setConfiguration(m_batch->value(), layout);
    if (!network.isEmpty() && taskId >= 0)
        selectTask(network, taskId);
    else
        m_dagView->clearDag(tr("Select a task in the explorer to see its compute DAG."));
}

bool MainWindow::selectTask(const QString& network, int taskId)
{
    const QModelIndex parent = m_model->networkIndex(network);
    if (!parent.isValid())
        return false;
    m_explorer->expand(parent);
    const QModelIndex task = m_model->index(taskId, 0, parent);
    if (!task.isValid())
        return false;
    m_explorer->setCurrentIndex(task);
    m_explorer->scrollTo(task);
    return true;
}

void MainWindow::onCurrentChanged(const QModelIndex& current)
{
    const graph::Task* task = m_model->taskAt(current);
    if (!task) {
        const QString error = m_model->errorAt(current);
        m_details->setPlainText(error);
        return;
    }
    const QString network = m_model->networkNameAt(current);
    m_dagView->setDag(
        task->dag, tr("%1 — task %2: %3").arg(network).arg(task->id).arg(QString::fromStdString(task->name)));
    m_details->setPlainText(QString::fromStdString(graph::formatTaskDag(*task)));
    m_status->setText(tr("%1, task %2: %3 ops, %4 GFLOP, weight %5, key %6")
                          .arg(network)
                          .arg(task->id)
                          .arg(task->dag.numOps())
                          .arg(task->flops / 1e9, 0, 'f', 4)
                          .arg(task->weight)
                          .arg(QString::fromStdString(task->dag.workloadKey())));
    QSettings settings;
    settings.setValue(QStringLiteral("explorer/network"), network);
    settings.setValue(QStringLiteral("explorer/task"), task->id);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

} // namespace ts::app
