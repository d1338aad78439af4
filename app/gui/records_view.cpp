#include "app/gui/records_view.h"

#include "app/gui/view_registry.h"
#include "core/engine/repro_export.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "widgets/models/records_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ts::app {

namespace {
    // The live session's new records are fetched at most this often.
    constexpr int kLiveRefreshMs = 500;
} // namespace

RecordsView::RecordsView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_context(context)
    , m_model(new models::RecordsModel(this))
    , m_proxy(new models::RecordsFilterModel(this))
    , m_filter(new QLineEdit(this))
    , m_failuresOnly(new QCheckBox(tr("Failures only"), this))
    , m_session(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_table(new QTableView(this))
    , m_export(new QAction(tr("Export repro…"), this))
    , m_measureManual(new QAction(tr("Measure again as manual"), this))
    , m_seed(new QAction(tr("Add to search (seed)"), this))
    , m_liveRefresh(new QTimer(this))
    , m_exportJob(this)
{
    m_proxy->setSourceModel(m_model);
    m_filter->setPlaceholderText(tr("Filter by task, status or message"));
    m_filter->setClearButtonEnabled(true);
    m_session->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_session->setToolTip(tr("Show the records of all sessions or of one"));
    m_failuresOnly->setToolTip(tr("Show only the records whose measurement failed"));

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(models::RecordsModel::IdColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const int widths[] = { 6, 18, 7, 9, 8, 13, 30, 9, 9, 19 }; // in digits, as the columns are ordered
    for (int c = 0; c < models::RecordsModel::ColumnCount; ++c)
        m_table->setColumnWidth(c, (widths[c] + 2) * digit);

    m_export->setEnabled(false);
    m_export->setToolTip(tr("Write the selected record's steps, TVM log line, loop IR and a re-measure script to a "
                            "folder"));
    addAction(m_export);
    // Steering, from the table's context menu only (not the window's View menu: they need a row).
    m_measureManual->setObjectName(QStringLiteral("measureAsManual"));
    m_seed->setObjectName(QStringLiteral("seedRecord"));
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        updateSteeringActions();
        QMenu menu(this);
        menu.setToolTipsVisible(true); // a disabled entry says why
        menu.addAction(m_measureManual);
        menu.addAction(m_seed);
        menu.addSeparator();
        menu.addAction(m_export);
        menu.exec(m_table->viewport()->mapToGlobal(at));
    });
    connect(m_measureManual, &QAction::triggered, this, [this] { steerWithSelected(false); });
    connect(m_seed, &QAction::triggered, this, [this] { steerWithSelected(true); });

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter, 2);
    bar->addWidget(m_failuresOnly);
    bar->addWidget(m_session);
    bar->addWidget(m_status, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    m_liveRefresh->setSingleShot(true);
    m_liveRefresh->setInterval(kLiveRefreshMs);
    connect(m_liveRefresh, &QTimer::timeout, m_model, &models::RecordsModel::appendNew);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &models::RecordsFilterModel::setText);
    connect(m_filter, &QLineEdit::textChanged, this, &RecordsView::updateStatus);
    connect(m_failuresOnly, &QCheckBox::toggled, m_model, &models::RecordsModel::setFailuresOnly);
    connect(m_session, &QComboBox::currentIndexChanged, this, &RecordsView::onSessionPicked);
    connect(m_model, &models::RecordsModel::pageLoaded, this, [this] {
        m_loadError.clear(); // a workspace that was not there yet (a session creates it) reads now
        updateStatus();
        followRecord();
    });
    connect(m_model, &models::RecordsModel::modelReset, this, &RecordsView::updateStatus);
    connect(m_model, &models::RecordsModel::errorOccurred, this, [this](const QString& message) {
        m_loadError = message;
        updateStatus();
    });
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RecordsView::onCurrentRowChanged);
    connect(m_export, &QAction::triggered, this, &RecordsView::onExportTriggered);

    using widgets::SessionHub;
    SessionHub& hub = m_context.sessions;
    connect(&hub, &SessionHub::workspaceChanged, this, &RecordsView::onWorkspaceChanged);
    connect(&hub, &SessionHub::sessionsChanged, this, &RecordsView::onSessionsChanged);
    connect(&hub, &SessionHub::currentChanged, this, &RecordsView::onHubUpdated);
    connect(&hub, &SessionHub::liveFinished, m_model, &models::RecordsModel::appendNew);
    connect(&hub, &SessionHub::recordsStored, m_model, &models::RecordsModel::appendNew); // a sweep's points
    connect(&hub, &SessionHub::liveStateChanged, this, &RecordsView::updateSteeringActions);
    connect(&hub, &SessionHub::liveUpdated, this, &RecordsView::updateSteeringActions);
    connect(&hub, &SessionHub::commandDone, this,
        [this](qint64 id, const QString& what, const QString& error, qint64 record) {
            if (m_steering.erase(id) == 0)
                return; // another view's command
            m_note = !error.isEmpty() ? tr("Refused: %1: %2").arg(what, error)
                : record > 0          ? tr("Done: %1 (record %2)").arg(what).arg(record)
                                      : tr("Done: %1").arg(what);
            updateStatus();
        });
    connect(&hub, &SessionHub::snapshotReady, this, [this](qint64) {
        if (m_pendingRecord)
            selectRecord(*m_pendingRecord);
    });
    connect(&m_context.selection, &widgets::SelectionContext::recordChanged, this, &RecordsView::followRecord);

    onSessionsChanged();
    onWorkspaceChanged();
    updateSteeringActions();
}

RecordsView::~RecordsView() = default;

void RecordsView::onWorkspaceChanged()
{
    m_note.clear();
    m_model->setWorkspace(m_context.sessions.workspace());
}

void RecordsView::onSessionsChanged()
{
    const QVariant picked = m_session->currentData();
    QSignalBlocker block(m_session);
    m_session->clear();
    m_session->addItem(tr("All sessions"), QVariant::fromValue<qint64>(-1));
    for (const store::SessionInfo& s : m_context.sessions.sessions()) {
        const QString started = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(s.startedAt))
                                    .toLocalTime()
                                    .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        m_session->addItem(tr("Session %1 (%2, %3)").arg(s.id).arg(QString::fromStdString(s.policy), started),
            QVariant::fromValue<qint64>(s.id));
    }
    const int index = picked.isValid() ? m_session->findData(picked) : 0;
    m_session->setCurrentIndex(index < 0 ? 0 : index);
    if (index < 0) // the picked session is gone
        onSessionPicked();
}

void RecordsView::onSessionPicked()
{
    const qint64 id = m_session->currentData().toLongLong();
    m_model->setSession(id > 0 ? std::optional<int64_t>(id) : std::nullopt);
}

void RecordsView::onHubUpdated()
{
    // A live session's snapshot: its new records are in the store. Throttled; rows are appended.
    if (m_context.sessions.isLive() && !m_liveRefresh->isActive())
        m_liveRefresh->start();
}

void RecordsView::onCurrentRowChanged()
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const auto* record = current.isValid() ? m_model->rowAt(current.row()) : nullptr;
    m_export->setEnabled(record != nullptr);
    updateSteeringActions();
    if (!record || m_following)
        return;
    selectRecord(record->id);
}

void RecordsView::selectRecord(int64_t recordId)
{
    m_pendingRecord.reset();
    const auto rowIndex = m_model->rowOfRecord(recordId);
    if (!rowIndex)
        return;
    const models::RecordRow& row = *m_model->rowAt(*rowIndex);
    if (!row.sessionId) {
        m_note = tr("Record %1 was imported: its task is not rebuilt here.").arg(recordId);
        updateStatus();
        return;
    }
    widgets::SessionHub& hub = m_context.sessions;
    auto snapshot = hub.current();
    if (!snapshot || snapshot->sessionId != *row.sessionId)
        snapshot = hub.snapshot(*row.sessionId);
    if (!snapshot) { // loading: snapshotReady comes back here
        m_pendingRecord = recordId;
        return;
    }
    std::shared_ptr<const graph::Task> task;
    if (const models::TrialPoint* trial = snapshot->findRecord(recordId)) {
        task = snapshot->tasks.at(static_cast<size_t>(trial->task)).task;
    } else {
        // A record the snapshot has not seen (stored after it): its task by the store's task row or key.
        const std::string key = m_model->taskKey(row.taskId);
        for (const models::SessionTask& t : snapshot->tasks)
            if (t.task && (t.storeTaskId == row.taskId || t.task->dag.workloadKey() == key))
                task = t.task;
    }
    if (!task) {
        m_note = tr("The task of record %1 cannot be rebuilt.").arg(recordId);
        updateStatus();
        return;
    }
    // Replaying one record takes microseconds to a millisecond: done here.
    auto state = sched::State::replayJson(task->dag, row.steps);
    if (!state) {
        m_note = tr("Record %1 does not replay: %2").arg(recordId).arg(QString::fromStdString(state.error().message));
        updateStatus();
        return;
    }
    m_note.clear();
    updateStatus();
    m_context.selection.selectMeasured(task, std::make_shared<const sched::State>(std::move(state).value()), recordId);
}

void RecordsView::followRecord()
{
    const std::optional<int64_t> id = m_context.selection.recordId();
    if (!id)
        return;
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    if (current.isValid() && m_model->rowAt(current.row())->id == *id)
        return;
    const auto row = m_model->rowOfRecord(*id);
    if (!row)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(*row, 0));
    if (!index.isValid())
        return; // filtered out
    m_following = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    m_following = false;
}

void RecordsView::updateStatus()
{
    const int64_t total = m_model->totalCount();
    const int loaded = m_model->rowCount();
    QString text;
    if (m_model->workspace().isEmpty())
        text = tr("No workspace");
    else if (total < 0)
        text = tr("Loading records…");
    else if (loaded < total)
        text = tr("%L1 records, %L2 loaded").arg(total).arg(loaded);
    else
        text = tr("%L1 records").arg(total);
    if (!m_filter->text().isEmpty())
        text += tr(", %L1 shown").arg(m_proxy->rowCount());
    for (const QString* note : { &m_loadError, &m_note })
        if (!note->isEmpty())
            text += QStringLiteral(" · ") + *note;
    m_status->setText(text);
}

void RecordsView::onExportTriggered()
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const auto* row = current.isValid() ? m_model->rowAt(current.row()) : nullptr;
    if (!row)
        return;
    const QString parent = QFileDialog::getExistingDirectory(this, tr("Export repro of record %1 into").arg(row->id));
    if (parent.isEmpty())
        return;
    exportRepro(row->id, QDir(parent).filePath(QStringLiteral("repro-record-%1").arg(row->id)));
}

void RecordsView::exportRepro(int64_t recordId, const QString& dir)
{
    const std::string workspace = m_model->workspace().toStdString();
    const std::string target = dir.toStdString();
    m_exportJob.start(
        [workspace, target, recordId](session::JobContext&) -> Expected<engine::ReproExport> {
            store::OpenOptions options;
            options.readOnly = true;
            TS_TRY(store::Store store, store::Store::open(workspace, options));
            return engine::exportRepro(store, recordId, target);
        },
        [this, dir, recordId](Expected<engine::ReproExport> exported) {
            if (!exported) {
                m_note = tr("Export failed: %1").arg(QString::fromStdString(exported.error().message));
                updateStatus();
                Q_EMIT reproExported(dir, QString::fromStdString(exported.error().message));
                return;
            }
            m_note = exported->notes.empty() ? tr("Repro of record %1 written to %2").arg(recordId).arg(dir)
                                             : tr("Repro of record %1 written to %2 (%3)")
                                                   .arg(recordId)
                                                   .arg(dir, QString::fromStdString(exported->notes.front()));
            updateStatus();
            Q_EMIT reproExported(dir, QString());
        });
}

int RecordsView::liveTaskOfSelected(QString& why) const
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const models::RecordRow* row = current.isValid() ? m_model->rowAt(current.row()) : nullptr;
    const widgets::SessionHub& hub = m_context.sessions;
    const auto live = hub.isLive() ? hub.live() : nullptr;
    if (!row) {
        why = tr("Select a record first.");
        return -1;
    }
    if (!live || live->finished()) {
        why = tr("No session is running: start or resume one that tunes this record's task.");
        return -1;
    }
    // The same workload is the same task, whichever session measured the record.
    const std::string key = m_model->taskKey(row->taskId);
    for (size_t t = 0; t < live->tasks.size() && !key.empty(); ++t)
        if (live->tasks[t].task && live->tasks[t].task->dag.workloadKey() == key)
            return static_cast<int>(t);
    why = tr("Record %1's task (%2) is not one of the running session's tasks.")
              .arg(row->id)
              .arg(m_model->taskName(row->taskId));
    return -1;
}

void RecordsView::updateSteeringActions()
{
    QString why;
    const bool steerable = liveTaskOfSelected(why) >= 0;
    m_measureManual->setEnabled(steerable);
    m_seed->setEnabled(steerable);
    m_measureManual->setToolTip(steerable ? tr("Measure this record's state again now, in the running session, "
                                               "as a manual record (its own marker in the views)")
                                          : why);
    m_seed->setToolTip(
        steerable ? tr("Put this record's state into the initial population of every later round of its task") : why);
}

void RecordsView::steerWithSelected(bool seed)
{
    QString why;
    const int task = liveTaskOfSelected(why);
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const models::RecordRow* row = current.isValid() ? m_model->rowAt(current.row()) : nullptr;
    if (task < 0 || !row) {
        m_note = why;
        updateStatus();
        return;
    }
    auto steps = sched::parseSteps(row->steps);
    if (!steps) {
        m_note
            = tr("Record %1's steps do not read: %2").arg(row->id).arg(QString::fromStdString(steps.error().message));
        updateStatus();
        return;
    }
    // The session checks that they replay on its task, and says so in its answer (commandDone).
    auto posted = seed ? m_context.sessions.post(engine::SeedStates { task, { std::move(steps).value() } })
                       : m_context.sessions.post(engine::MeasureState { task, std::move(steps).value() });
    if (posted)
        m_steering.insert(*posted);
    m_note = posted ? (seed ? tr("Record %1 sent to the session as a seed…").arg(row->id)
                            : tr("Record %1 sent to the session to measure…").arg(row->id))
                    : tr("Refused: %1").arg(QString::fromStdString(posted.error().message));
    updateStatus();
}

} // namespace ts::app
