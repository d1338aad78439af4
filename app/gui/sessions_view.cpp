#include "app/gui/sessions_view.h"

#include "core/session/job_tracker.h"
#include "core/store/database.h"
#include "core/store/work_queue.h"
#include "widgets/models/sessions_model.h"
#include "widgets/models/workers_model.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QDateTime>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ts::app {

SessionsView::SessionsView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_context(context)
    , m_model(new models::SessionsModel(this))
    , m_table(new QTableView(this))
    , m_workspace(new QLabel(this))
    , m_trials(new QSpinBox(this))
    , m_workersModel(new models::WorkersModel(this))
    , m_workersBox(new QGroupBox(tr("Workers"), this))
    , m_workersTimer(new QTimer(this))
    , m_workersJob(std::make_unique<session::JobTracker>(this))
{
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_workspace->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_workspace->setWordWrap(true);

    m_resume = new QAction(tr("Resume session"), this);
    m_resume->setObjectName(QStringLiteral("resumeStoredSession"));
    m_resume->setToolTip(tr("Continue the selected session with its tasks and settings, up to the trial budget"));
    connect(m_resume, &QAction::triggered, this, &SessionsView::resumeSelected);
    m_showLive = new QAction(tr("Show live session"), this);
    connect(m_showLive, &QAction::triggered, this, [this] {
        if (const auto live = m_context.sessions.live())
            m_context.sessions.showSession(live->sessionId);
    });
    m_trials->setRange(0, 1000000);
    m_trials->setSpecialValueText(tr("its budget"));
    m_trials->setPrefix(tr("to "));
    m_trials->setSuffix(tr(" trials"));
    m_trials->setToolTip(tr("The budget when resuming (all sessions of the tasks together)"));

    auto* bar = new QHBoxLayout;
    for (QAction* action : { m_resume, m_showLive }) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        bar->addWidget(button);
    }
    bar->addWidget(m_trials);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_workspace);
    layout->addLayout(bar);

    // A server workspace's measurement workers (docs/workers.md): hidden on an SQLite file, which has none. The
    // sessions and the workers share the dock's height through a splitter; the workers keep room for three rows.
    auto* workersTable = new QTableView(m_workersBox);
    workersTable->setObjectName(QStringLiteral("workersTable"));
    workersTable->setModel(m_workersModel);
    workersTable->verticalHeader()->hide();
    workersTable->horizontalHeader()->setStretchLastSection(true);
    workersTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    workersTable->setSelectionMode(QAbstractItemView::NoSelection);
    workersTable->setMinimumHeight(workersTable->horizontalHeader()->sizeHint().height()
        + 3 * workersTable->verticalHeader()->defaultSectionSize() + 2 * workersTable->frameWidth());
    auto* workersLayout = new QVBoxLayout(m_workersBox);
    workersLayout->setContentsMargins(2, 2, 2, 2);
    workersLayout->addWidget(workersTable);
    m_workersBox->setToolTip(tr("tunescope-worker processes measuring this workspace's queue, on any machine"));
    m_workersBox->hide();
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_workersBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    m_workersTimer->setInterval(3000);
    connect(m_workersTimer, &QTimer::timeout, this, &SessionsView::refreshWorkers);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& row) {
        if (const int64_t id = m_model->sessionIdAt(row.row()); id > 0) {
            const auto current = m_context.sessions.current();
            if (!current || current->sessionId != id)
                m_context.sessions.showSession(id);
        }
        updateActions();
    });
    connect(&m_context.sessions, &widgets::SessionHub::sessionsChanged, this, &SessionsView::onSessionsChanged);
    connect(&m_context.sessions, &widgets::SessionHub::workspaceChanged, this, &SessionsView::onWorkspaceChanged);
    connect(&m_context.sessions, &widgets::SessionHub::liveStateChanged, this, &SessionsView::onLiveChanged);
    connect(&m_context.sessions, &widgets::SessionHub::currentChanged, this, &SessionsView::onLiveChanged);
    updateActions();
}

SessionsView::~SessionsView() = default;

void SessionsView::onWorkspaceChanged()
{
    const std::string workspace = m_context.sessions.workspace().toStdString();
    // A URL is shown without its password.
    m_workspace->setText(tr("Workspace: %1").arg(QString::fromStdString(store::redactedUrl(workspace))));
    const bool server = store::isPostgresUrl(workspace);
    m_workersBox->setVisible(server);
    m_workersModel->setWorkers({}, 0);
    m_workersQueue = std::make_shared<std::unique_ptr<store::WorkQueue>>();
    if (server) {
        refreshWorkers();
        m_workersTimer->start();
    } else {
        m_workersTimer->stop();
        m_workersJob->cancel();
    }
}

void SessionsView::refreshWorkers()
{
    const std::string workspace = m_context.sessions.workspace().toStdString();
    if (!store::isPostgresUrl(workspace) || m_workersJob->isRunning())
        return;
    if (!m_workersQueue)
        m_workersQueue = std::make_shared<std::unique_ptr<store::WorkQueue>>();
    m_workersJob->start(
        [workspace, queue = m_workersQueue](session::JobContext&) -> Expected<std::vector<store::WorkerInfo>> {
            if (!*queue) {
                TS_TRY(store::WorkQueue opened, store::WorkQueue::open(workspace));
                *queue = std::make_unique<store::WorkQueue>(std::move(opened));
            }
            auto workers = (*queue)->workers();
            if (!workers)
                queue->reset(); // the next refresh connects again
            return workers;
        },
        [this](Expected<std::vector<store::WorkerInfo>> workers) {
            const double now = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1e3;
            if (workers) {
                m_workersModel->setWorkers(std::move(workers).value(), now);
                m_workersBox->setTitle(tr("Workers (%1)").arg(m_workersModel->rowCount()));
            } else {
                m_workersBox->setTitle(tr("Workers: %1").arg(QString::fromStdString(workers.error().message)));
            }
        });
}

int64_t SessionsView::selectedSession() const { return m_model->sessionIdAt(m_table->currentIndex().row()); }

void SessionsView::resumeSelected()
{
    if (const int64_t id = selectedSession(); id > 0)
        m_context.sessions.resume(id, m_trials->value());
}

void SessionsView::onSessionsChanged()
{
    const int64_t selected = selectedSession();
    m_model->setSessions(m_context.sessions.sessions());
    onLiveChanged();
    const auto current = m_context.sessions.current();
    const int row = m_model->rowOf(selected > 0 ? selected : current ? current->sessionId : 0);
    if (row >= 0) {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->selectRow(row);
    } else if (!current && !m_context.sessions.isLive() && m_model->rowCount() > 0) {
        // The newest session, shown on opening a workspace; not while a session just started there has yet to
        // publish (it would stop following the live one).
        m_table->selectRow(0);
    }
    updateActions();
}

void SessionsView::onLiveChanged()
{
    const auto live = m_context.sessions.live();
    if (m_context.sessions.isLive() && live)
        m_model->setLive(live->sessionId, QString::fromStdString(live->state));
    else
        m_model->setLive(0, {});
    updateActions();
}

void SessionsView::updateActions()
{
    m_resume->setEnabled(!m_context.sessions.isLive() && selectedSession() > 0);
    const auto live = m_context.sessions.live();
    const auto current = m_context.sessions.current();
    m_showLive->setEnabled(m_context.sessions.isLive() && live && (!current || current->sessionId != live->sessionId));
}

} // namespace ts::app
