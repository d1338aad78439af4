#include "app/gui/steering_view.h"

#include "app/gui/constraint_dialog.h"
#include "app/gui/view_registry.h"
#include "widgets/models/constraint_edit.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

namespace {
    enum TaskColumn { TaskName, Constraints, Seeds, Manual, InPopulation, TaskColumnCount };

    QToolButton* buttonFor(QAction* action, QWidget* parent)
    {
        auto* button = new QToolButton(parent);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        return button;
    }

    // A column: its title above its content and, under that, rows of buttons.
    QWidget* column(
        QLabel* title, QWidget* content, std::initializer_list<std::initializer_list<QAction*>> rows, QWidget* parent)
    {
        auto* box = new QWidget(parent);
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(2, 2, 2, 2);
        layout->setSpacing(2);
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        layout->addWidget(title);
        layout->addWidget(content, 1);
        for (const auto& actions : rows) {
            auto* buttons = new QHBoxLayout;
            buttons->setSpacing(2);
            for (QAction* action : actions)
                buttons->addWidget(buttonFor(action, box));
            buttons->addStretch(1);
            layout->addLayout(buttons);
        }
        return box;
    }
} // namespace

SteeringView::SteeringView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_context(context)
    , m_history(new QListWidget(this))
    , m_tasks(new QTableWidget(0, TaskColumnCount, this))
    , m_constraints(new QListWidget(this))
    , m_constraintsTitle(new QLabel(this))
    , m_status(new QLabel(this))
    , m_undo(new QAction(tr("&Undo steering"), this))
    , m_redo(new QAction(tr("&Redo steering"), this))
    , m_addConstraint(new QAction(tr("Add constraint…"), this))
    , m_removeConstraint(new QAction(tr("Remove"), this))
    , m_clearConstraints(new QAction(tr("Clear"), this))
    , m_saveConstraints(new QAction(tr("Save constraints…"), this))
    , m_loadConstraints(new QAction(tr("Load constraints…"), this))
{
    // Undo and redo are the window's too: the main window puts the actions that ask for it in its Edit menu.
    m_undo->setObjectName(QStringLiteral("undoSteering"));
    m_undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    m_undo->setToolTip(tr("Make the previous steering entry the one in effect (a manual record stays in the store)"));
    m_undo->setProperty(kMenuProperty, QStringLiteral("edit"));
    m_redo->setObjectName(QStringLiteral("redoSteering"));
    m_redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    m_redo->setToolTip(tr("Apply the undone steering entry again"));
    m_redo->setProperty(kMenuProperty, QStringLiteral("edit"));
    m_undo->setIconText(tr("Undo")); // the dock's buttons; the menu says what is undone
    m_redo->setIconText(tr("Redo"));
    addAction(m_undo);
    addAction(m_redo);
    m_addConstraint->setToolTip(tr("Bound a split factor, the unroll limit, the vector length or the parallel "
                                   "extent, or forbid or require a sketch rule, for the selected task"));
    m_removeConstraint->setToolTip(tr("Take the selected constraint off the task"));
    m_clearConstraints->setToolTip(tr("Take every constraint off the task"));
    m_saveConstraints->setToolTip(tr("Write every task's constraints to a file that tunescope-cli tune "
                                     "--constraints and Load constraints… read"));
    m_loadConstraints->setToolTip(tr("Set the constraints of the tasks a constraints file names"));

    m_history->setObjectName(QStringLiteral("steeringHistory"));
    m_history->setSelectionMode(QAbstractItemView::NoSelection);
    m_history->setFocusPolicy(Qt::NoFocus);
    m_history->setWordWrap(true); // a constraint's entry is long; the dock is narrow
    m_history->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_tasks->setObjectName(QStringLiteral("steeringTasks"));
    m_tasks->setHorizontalHeaderLabels(
        { tr("Task"), tr("Constraints"), tr("Seeds"), tr("Manual"), tr("In population") });
    m_tasks->horizontalHeaderItem(Manual)->setToolTip(tr("The session's manual records of the task (undone ones too)"));
    m_tasks->horizontalHeaderItem(InPopulation)
        ->setToolTip(tr("Manual states in the task's population now (undo takes them out; their records stay)"));
    m_tasks->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tasks->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tasks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tasks->verticalHeader()->hide();
    m_tasks->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tasks->horizontalHeader()->setSectionResizeMode(TaskName, QHeaderView::Stretch);
    m_constraints->setObjectName(QStringLiteral("steeringConstraints"));
    m_constraints->setWordWrap(true);
    m_status->setWordWrap(true);

    // History on the left; on the right the tasks above the selected one's constraints.
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(column(new QLabel(tr("History")), m_history, { { m_undo, m_redo } }, splitter));
    auto* right = new QSplitter(Qt::Vertical, splitter);
    right->addWidget(column(new QLabel(tr("Tasks")), m_tasks, {}, right));
    right->addWidget(column(m_constraintsTitle, m_constraints,
        { { m_addConstraint, m_removeConstraint, m_clearConstraints }, { m_saveConstraints, m_loadConstraints } },
        right));
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 2);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);

    widgets::SessionHub& hub = m_context.sessions;
    connect(m_undo, &QAction::triggered, this, [this] {
        if (auto id = m_context.sessions.post(engine::UndoSteering {}))
            m_pending[*id] = Pending { tr("undo"), std::nullopt, {} };
        updateActions();
    });
    connect(m_redo, &QAction::triggered, this, [this] {
        if (auto id = m_context.sessions.post(engine::RedoSteering {}))
            m_pending[*id] = Pending { tr("redo"), std::nullopt, {} };
        updateActions();
    });
    connect(m_addConstraint, &QAction::triggered, this, [this] { openConstraintDialog(); });
    connect(m_removeConstraint, &QAction::triggered, this, [this] {
        if (const int row = m_constraints->currentRow(); row >= 0 && m_task >= 0)
            setConstraints(m_task, models::withoutConstraint(constraintsOf(m_task), row));
    });
    connect(m_clearConstraints, &QAction::triggered, this, [this] {
        if (m_task >= 0)
            setConstraints(m_task, {});
    });
    connect(m_saveConstraints, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the constraints"), QString(), tr("Constraints (*.json);;All files (*)"));
        if (!path.isEmpty())
            saveConstraints(path);
    });
    connect(m_loadConstraints, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Load constraints"), QString(), tr("Constraints (*.json);;All files (*)"));
        if (!path.isEmpty())
            loadConstraints(path);
    });
    connect(m_constraints, &QListWidget::currentRowChanged, this, &SteeringView::updateActions);
    connect(m_tasks, &QTableWidget::currentCellChanged, this, &SteeringView::onTaskRowChanged);
    connect(&hub, &widgets::SessionHub::currentChanged, this, &SteeringView::onSessionChanged);
    connect(&hub, &widgets::SessionHub::liveUpdated, this, &SteeringView::onSessionChanged);
    connect(&hub, &widgets::SessionHub::liveStateChanged, this, &SteeringView::onSessionChanged);
    connect(&hub, &widgets::SessionHub::commandDone, this, &SteeringView::onCommandDone);
    connect(&hub, &widgets::SessionHub::liveFinished, this, [this] {
        m_pending.clear(); // the session answered every command it had before it ended
        updateActions();
    });
    connect(&m_context.selection, &widgets::SelectionContext::taskChanged, this, &SteeringView::onTaskSelected);
    onSessionChanged();
}

SteeringView::~SteeringView() = default;

QString SteeringView::statusText() const { return m_status->text(); }

bool SteeringView::steerable() const
{
    const widgets::SessionHub& hub = m_context.sessions;
    return m_snapshot && hub.isLive() && m_snapshot == hub.live() && m_snapshot->sessionId > 0
        && !m_snapshot->steering.history.empty() && !m_snapshot->finished();
}

void SteeringView::onSessionChanged()
{
    widgets::SessionHub& hub = m_context.sessions;
    auto snapshot = hub.isLive() && hub.live() ? hub.live() : hub.current();
    if (snapshot != m_snapshot) {
        const bool otherTasks = !m_snapshot || !snapshot || m_snapshot->sessionId != snapshot->sessionId
            || m_snapshot->tasks.size() != snapshot->tasks.size();
        m_snapshot = std::move(snapshot);
        if (otherTasks)
            m_task = -1;
        updateTasks();
        if (otherTasks)
            onTaskSelected();
        updateHistory();
        updateConstraints();
    }
    updateActions();
}

int SteeringView::indexOf(const std::shared_ptr<const graph::Task>& task) const
{
    if (!task || !m_snapshot)
        return -1;
    for (size_t i = 0; i < m_snapshot->tasks.size(); ++i)
        if (m_snapshot->tasks[i].task == task)
            return static_cast<int>(i);
    for (size_t i = 0; i < m_snapshot->tasks.size(); ++i)
        if (m_snapshot->tasks[i].task && m_snapshot->tasks[i].task->dag.workloadKey() == task->dag.workloadKey())
            return static_cast<int>(i);
    return -1;
}

void SteeringView::onTaskSelected()
{
    const int index = indexOf(m_context.selection.task());
    if (index >= 0)
        m_task = index;
    else if (m_task < 0 && m_snapshot && !m_snapshot->tasks.empty())
        m_task = 0; // a task elsewhere than this session: keep showing one of the session's
    if (m_tasks->currentRow() != m_task) {
        m_followingSelection = true;
        m_tasks->setCurrentCell(m_task, 0);
        m_followingSelection = false;
    }
    updateConstraints();
    updateActions();
}

void SteeringView::onTaskRowChanged()
{
    const int row = m_tasks->currentRow();
    if (row < 0 || !m_snapshot || row >= static_cast<int>(m_snapshot->tasks.size()))
        return;
    m_task = row;
    updateConstraints();
    updateActions();
    if (m_followingSelection)
        return;
    widgets::SelectionContext& selection = m_context.selection;
    const auto& task = m_snapshot->tasks[static_cast<size_t>(row)].task;
    if (!task || indexOf(selection.task()) == row)
        return;
    // The network stays selected when the task is one of its (a session of that network).
    const bool sameNetwork
        = selection.network() && !m_snapshot->network.empty() && selection.network()->name == m_snapshot->network;
    selection.selectTask(sameNetwork ? selection.network() : nullptr, task);
}

void SteeringView::updateHistory()
{
    const models::SteeringInfo* steering = m_snapshot ? &m_snapshot->steering : nullptr;
    // Snapshots come ten times a second; the history changes with a command.
    const std::vector<std::string> history = steering ? steering->history : std::vector<std::string> {};
    const int position = steering ? steering->position : -1;
    if (history == m_historyShown && position == m_positionShown)
        return;
    m_historyShown = history;
    m_positionShown = position;
    const int count = static_cast<int>(history.size());
    while (m_history->count() > count)
        delete m_history->takeItem(m_history->count() - 1);
    for (int i = 0; i < count; ++i) {
        if (i >= m_history->count())
            m_history->addItem(new QListWidgetItem);
        QListWidgetItem* item = m_history->item(i);
        const QString label = QString::fromStdString(history[static_cast<size_t>(i)]);
        const bool current = i == position;
        const bool undone = i > position;
        item->setText(undone ? tr("%1. %2 — undone").arg(i).arg(label) : tr("%1. %2").arg(i).arg(label));
        QFont font = m_history->font();
        font.setBold(current);
        item->setFont(font);
        item->setForeground(undone ? palette().brush(QPalette::Disabled, QPalette::Text) : palette().text());
        item->setBackground(current ? palette().brush(QPalette::Highlight).color().lighter(175) : QBrush());
        item->setToolTip(current ? tr("In effect now")
                : undone         ? tr("Undone: Redo applies it again; a new command drops it")
                                 : QString());
    }
    if (count > 0)
        m_history->scrollToItem(m_history->item(position));
}

void SteeringView::updateTasks()
{
    const int rows = m_snapshot ? static_cast<int>(m_snapshot->tasks.size()) : 0;
    m_followingSelection = true; // rows come and go: not the person's choice
    m_tasks->setRowCount(rows);
    m_followingSelection = false;
    if (!m_snapshot)
        return;
    const models::SteeringInfo& steering = m_snapshot->steering;
    std::vector<int> manual(static_cast<size_t>(rows), 0); // one pass over the trials, not one per task
    for (const models::TrialPoint& trial : m_snapshot->trials)
        if (trial.manual && trial.task >= 0 && trial.task < rows)
            ++manual[static_cast<size_t>(trial.task)];
    auto set = [this](int row, int column, const QString& text) {
        QTableWidgetItem* item = m_tasks->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            if (column != TaskName)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_tasks->setItem(row, column, item);
        }
        if (item->text() != text)
            item->setText(text);
    };
    for (int row = 0; row < rows; ++row) {
        const auto t = static_cast<size_t>(row);
        set(row, TaskName, tr("%1: %2").arg(row).arg(QString::fromStdString(m_snapshot->tasks[t].status.name)));
        set(row, Constraints,
            QString::number(t < steering.constraints.size() ? steering.constraints[t].describe().size() : 0));
        set(row, Seeds, QString::number(t < steering.seeds.size() ? steering.seeds[t] : 0));
        set(row, Manual, QString::number(manual[t]));
        // A stored session does not say which manual states are in its populations.
        set(row, InPopulation,
            t < steering.manualInPopulation.size() ? QString::number(steering.manualInPopulation[t])
                                                   : QStringLiteral("–"));
    }
}

search::Constraints SteeringView::constraintsOf(int task) const
{
    for (auto it = m_pending.rbegin(); it != m_pending.rend(); ++it)
        if (it->second.task == task)
            return it->second.constraints;
    if (!m_snapshot || task < 0 || task >= static_cast<int>(m_snapshot->steering.constraints.size()))
        return {};
    return m_snapshot->steering.constraints[static_cast<size_t>(task)];
}

void SteeringView::updateConstraints()
{
    const bool shown = m_snapshot && m_task >= 0 && m_task < static_cast<int>(m_snapshot->tasks.size());
    const bool waiting = std::any_of(
        m_pending.begin(), m_pending.end(), [this](const auto& pending) { return pending.second.task == m_task; });
    m_constraintsTitle->setText(!shown ? tr("Constraints")
            : waiting                  ? tr("Constraints of task %1 (%2), waiting for the session")
                            .arg(m_task)
                            .arg(QString::fromStdString(m_snapshot->tasks[static_cast<size_t>(m_task)].status.name))
                      : tr("Constraints of task %1 (%2)")
                            .arg(m_task)
                            .arg(QString::fromStdString(m_snapshot->tasks[static_cast<size_t>(m_task)].status.name)));
    QStringList lines;
    if (shown)
        for (const std::string& line : constraintsOf(m_task).describe())
            lines << QString::fromStdString(line);
    QStringList listed;
    for (int i = 0; i < m_constraints->count(); ++i)
        listed << m_constraints->item(i)->text();
    if (listed == lines)
        return; // the person's current row stays
    m_constraints->clear();
    m_constraints->addItems(lines);
    if (lines.isEmpty() && shown) {
        auto* none = new QListWidgetItem(tr("(none: the search may propose any state)"));
        none->setFlags(Qt::NoItemFlags);
        m_constraints->addItem(none);
    }
}

void SteeringView::updateActions()
{
    const bool live = steerable();
    const models::SteeringInfo* steering = m_snapshot ? &m_snapshot->steering : nullptr;
    const bool hasDag = m_snapshot && m_task >= 0 && m_task < static_cast<int>(m_snapshot->tasks.size())
        && m_snapshot->tasks[static_cast<size_t>(m_task)].task;
    const bool constrained = m_task >= 0 && !constraintsOf(m_task).empty();
    m_undo->setEnabled(live && steering->canUndo());
    m_redo->setEnabled(live && steering->canRedo());
    m_addConstraint->setEnabled(live && hasDag);
    m_removeConstraint->setEnabled(live && constrained && m_constraints->currentRow() >= 0
        && (m_constraints->currentItem()->flags() & Qt::ItemIsEnabled));
    m_clearConstraints->setEnabled(live && constrained);
    m_loadConstraints->setEnabled(live);
    m_saveConstraints->setEnabled(steering
        && std::any_of(steering->constraints.begin(), steering->constraints.end(),
            [](const search::Constraints& c) { return !c.empty(); }));

    QString text;
    if (!m_pending.empty()) {
        QStringList waiting;
        for (const auto& [id, pending] : m_pending)
            waiting << pending.what;
        text = m_context.sessions.isPaused()
            ? tr("Applying: %1").arg(waiting.join(QStringLiteral("; ")))
            : tr("Waiting for the batch in flight to end: %1").arg(waiting.join(QStringLiteral("; ")));
    } else if (!m_lastResult.isEmpty() && live) {
        text = m_lastResult;
    } else if (live) {
        text = tr("Session %1 runs: what you change here applies between two batches, at once while it is paused.")
                   .arg(m_snapshot->sessionId);
    } else if (m_snapshot && m_snapshot->sessionId > 0) {
        text = tr("Session %1 is not running: its steering as stored. Resume it (Sessions) or start one to steer.")
                   .arg(m_snapshot->sessionId);
    } else {
        text = tr("No session: start one (Session > New session…) to steer it.");
    }
    setStatus(text);
}

void SteeringView::setStatus(const QString& text)
{
    if (m_status->text() != text)
        m_status->setText(text);
}

void SteeringView::onCommandDone(qint64 id, const QString& what, const QString& error, qint64 recordId)
{
    m_pending.erase(id);
    if (!error.isEmpty())
        m_lastResult = tr("Refused: %1: %2").arg(what, error);
    else if (recordId > 0)
        m_lastResult = tr("Done: %1 (record %2)").arg(what).arg(recordId);
    else
        m_lastResult = tr("Done: %1").arg(what);
    updateConstraints();
    updateActions();
}

ConstraintDialog* SteeringView::openConstraintDialog()
{
    if (!m_addConstraint->isEnabled())
        return nullptr;
    const int task = m_task;
    const models::SessionTask& shown = m_snapshot->tasks[static_cast<size_t>(task)];
    const int64_t sessionId = m_snapshot->sessionId;
    auto* dialog = new ConstraintDialog(
        tr("task %1 (%2)").arg(task).arg(QString::fromStdString(shown.status.name)), shown.task->dag, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, task, sessionId] {
        auto added = dialog->constraint();
        if (!added) // accept() checked it: the DAG has not changed since
            return;
        if (!m_snapshot || m_snapshot->sessionId != sessionId) {
            m_lastResult = tr("The constraint was not added: another session is shown now.");
            updateActions();
            return;
        }
        setConstraints(task, models::withConstraint(constraintsOf(task), *added));
    });
    dialog->open();
    return dialog;
}

bool SteeringView::setConstraints(int task, search::Constraints constraints)
{
    engine::SetConstraints command { task, constraints };
    const QString what = QString::fromStdString(engine::describe(command));
    auto id = m_context.sessions.post(std::move(command));
    if (!id) {
        m_lastResult = tr("Refused: %1: %2").arg(what, QString::fromStdString(id.error().message));
        updateActions();
        return false;
    }
    m_pending[*id] = Pending { what, task, std::move(constraints) };
    updateConstraints();
    updateActions();
    return true;
}

bool SteeringView::saveConstraints(const QString& path)
{
    if (!m_snapshot)
        return false;
    std::vector<search::TaskIdentity> tasks;
    std::vector<search::Constraints> constraints;
    for (size_t t = 0; t < m_snapshot->tasks.size(); ++t) {
        const models::SessionTask& task = m_snapshot->tasks[t];
        tasks.push_back(search::TaskIdentity { task.status.name, task.task ? task.task->dag.workloadKey() : "" });
        constraints.push_back(constraintsOf(static_cast<int>(t)));
    }
    const std::string text = search::constraintsFile(tasks, constraints);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size())) {
        m_lastResult = tr("Cannot write %1: %2").arg(path, file.errorString());
        updateActions();
        return false;
    }
    m_lastResult = tr("Constraints saved to %1").arg(path);
    updateActions();
    return true;
}

bool SteeringView::loadConstraints(const QString& path)
{
    if (!steerable())
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_lastResult = tr("Cannot read %1: %2").arg(path, file.errorString());
        updateActions();
        return false;
    }
    const QByteArray text = file.readAll();
    std::vector<search::TaskIdentity> tasks;
    std::vector<const ir::ComputeDAG*> dags;
    for (size_t t = 0; t < m_snapshot->tasks.size(); ++t) {
        const models::SessionTask& task = m_snapshot->tasks[t];
        if (!task.task) {
            m_lastResult = tr("Cannot load constraints: task %1's DAG cannot be rebuilt.").arg(t);
            updateActions();
            return false;
        }
        tasks.push_back(search::TaskIdentity { task.status.name, task.task->dag.workloadKey() });
        dags.push_back(&task.task->dag);
    }
    auto loaded = search::constraintsForTasks(text.toStdString(), tasks, dags);
    if (!loaded) {
        m_lastResult = tr("Cannot load %1: %2").arg(path, QString::fromStdString(loaded.error().message));
        updateActions();
        return false;
    }
    int changed = 0;
    for (size_t t = 0; t < loaded->size(); ++t) {
        search::Constraints& c = (*loaded)[t];
        if (c.empty() || c == constraintsOf(static_cast<int>(t)))
            continue;
        if (!setConstraints(static_cast<int>(t), std::move(c)))
            return false;
        ++changed;
    }
    if (changed == 0) {
        m_lastResult = tr("%1 changes no task's constraints.").arg(path);
        updateActions();
    }
    return true;
}

} // namespace ts::app
