#include "app/gui/sketch_view.h"

#include "app/gui/view_registry.h"
#include "widgets/models/sketch_tree_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

using models::SketchTreeModel;

namespace {
    // Names elided in the middle: a sketch's rules differ at their end ("#1", "#2"); the other columns'
    // text at their start.
    class NameElidedInTheMiddle : public QStyledItemDelegate {
    public:
        using QStyledItemDelegate::QStyledItemDelegate;

    protected:
        void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
        {
            QStyledItemDelegate::initStyleOption(option, index);
            if (index.column() == SketchTreeModel::NameColumn)
                option->textElideMode = Qt::ElideMiddle;
            // What the constraints remove: greyed and struck out (the Constraints column and the tooltip say why).
            if (index.data(SketchTreeModel::RemovedRole).toBool()) {
                option->font.setStrikeOut(index.column() != SketchTreeModel::ConstraintColumn);
                option->palette.setBrush(QPalette::Text, option->palette.brush(QPalette::Disabled, QPalette::Text));
            }
        }
    };
} // namespace

SketchView::SketchView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_sessions(context.sessions)
    , m_model(new SketchTreeModel(this))
    , m_taskBox(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_tree(new QTreeView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto* taskLabel = new QLabel(tr("Task"), this);
    taskLabel->setBuddy(m_taskBox);
    m_taskBox->setObjectName(QStringLiteral("SketchesTask"));
    m_taskBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_taskBox->setToolTip(tr("Show all the session's tasks, or one"));
    m_status->setObjectName(QStringLiteral("SketchesStatus"));
    bar->addWidget(taskLabel);
    bar->addWidget(m_taskBox);
    bar->addWidget(m_status, 1);
    layout->addLayout(bar);

    m_tree->setObjectName(QStringLiteral("Sketches"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setItemDelegate(new NameElidedInTheMiddle(m_tree));
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->setColumnWidth(SketchTreeModel::NameColumn, 300);
    m_tree->setColumnWidth(SketchTreeModel::CostColumn, 80);
    m_tree->setColumnWidth(SketchTreeModel::GflopsColumn, 70);
    m_tree->setColumnWidth(SketchTreeModel::StatusColumn, 190);
    m_tree->setColumnWidth(SketchTreeModel::ConstraintColumn, 330);
    m_tree->setColumnHidden(SketchTreeModel::ConstraintColumn, true); // shown while a task has constraints
    m_tree->setColumnWidth(SketchTreeModel::TilesColumn, 260);
    m_tree->setColumnWidth(SketchTreeModel::ComputeAtColumn, 200);
    m_tree->setColumnWidth(SketchTreeModel::AnnotationsColumn, 260);
    layout->addWidget(m_tree, 1);

    connect(m_model, &SketchTreeModel::modelReset, this, [this] { m_reset = true; });
    connect(m_model, &SketchTreeModel::treeUpdated, this, [this] {
        onTreeUpdated(m_reset);
        m_reset = false;
    });
    connect(m_model, &SketchTreeModel::errorOccurred, this, [this] { updateStatus(); });
    connect(m_model, &SketchTreeModel::marksUpdated, this, [this] {
        const auto& tasks = m_model->marks().tasks;
        m_tree->setColumnHidden(SketchTreeModel::ConstraintColumn,
            std::none_of(tasks.begin(), tasks.end(), [](const models::TaskMarks& t) { return t.constrained; }));
        updateStatus();
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_taskBox, &QComboBox::currentIndexChanged, this, [this] { onTaskBoxChanged(); });
    connect(&m_sessions, &widgets::SessionHub::currentChanged, this, [this] {
        m_model->setSnapshot(m_sessions.current());
        updateConstraints();
    });
    // A change of constraints posted, and the session's answer (a refused one no longer counts).
    connect(&m_sessions, &widgets::SessionHub::commandPosted, this, [this] { updateConstraints(); });
    connect(&m_sessions, &widgets::SessionHub::commandDone, this, [this] { updateConstraints(); });
    connect(&m_selection, &widgets::SelectionContext::recordChanged, this, [this] { followRecord(); });
    connect(&m_selection, &widgets::SelectionContext::taskChanged, this, [this] { followTask(); });
    m_model->setSnapshot(m_sessions.current());
    updateConstraints();
    updateStatus();
}

void SketchView::updateConstraints()
{
    const auto snapshot = m_sessions.current();
    std::vector<search::Constraints> constraints;
    if (snapshot) {
        constraints = snapshot->steering.constraints;
        constraints.resize(snapshot->tasks.size());
        // The live session's: what the Steering dock posted and the session has not applied yet counts already.
        if (snapshot == m_sessions.live())
            for (size_t t = 0; t < constraints.size(); ++t)
                if (auto posted = m_sessions.postedConstraints(static_cast<int>(t)))
                    constraints[t] = std::move(*posted);
    }
    m_model->setConstraints(std::move(constraints));
}

void SketchView::onTreeUpdated(bool reset)
{
    if (reset) {
        // The task box lists the new session's tasks; the one shown before stays when it is still there.
        const QString shown = m_taskBox->currentIndex() > 0 ? m_taskBox->currentText() : QString();
        const QSignalBlocker blocker(m_taskBox);
        m_taskBox->clear();
        m_taskBox->addItem(tr("All tasks"), -1);
        for (int t = 0; t < m_model->rowCount(); ++t)
            m_taskBox->addItem(m_model->index(t, 0).data().toString(), t);
        m_taskBox->setCurrentIndex(std::max(0, m_taskBox->findText(shown)));
        onTaskBoxChanged();
        // Tasks open, and in each the sketch that holds its best state.
        for (int t = 0; t < m_model->rowCount(); ++t) {
            const QModelIndex task = m_model->index(t, 0);
            m_tree->expand(task);
            QModelIndex bestGroup;
            double bestCost = 0.0;
            for (int g = 0; g < m_model->rowCount(task); ++g) {
                const QModelIndex group = m_model->index(g, 0, task);
                const auto* best = m_model->groupAt(group)->best();
                if (best && (!bestGroup.isValid() || best->cost < bestCost)) {
                    bestGroup = group;
                    bestCost = best->cost;
                }
            }
            if (bestGroup.isValid())
                m_tree->expand(bestGroup);
        }
        // The sketch rows are there from the start: fit their rules (the states' rows are shorter),
        // up to a width that leaves the other columns in sight in a dock (the tooltip has the whole text).
        m_tree->resizeColumnToContents(SketchTreeModel::NameColumn);
        m_tree->setColumnWidth(
            SketchTreeModel::NameColumn, std::min(m_tree->columnWidth(SketchTreeModel::NameColumn), 440));
        followRecord();
    } else if (!m_tree->currentIndex().isValid()) {
        followRecord(); // the selected record may have just arrived
    }
    updateStatus();
}

void SketchView::updateStatus()
{
    if (!m_model->error().isEmpty()) {
        m_status->setText(tr("Cannot read the session: %1").arg(m_model->error()));
        return;
    }
    if (!m_sessions.current()) {
        m_status->setText(tr("No session: start or open one to see its sketches."));
        return;
    }
    int other = 0;
    for (int t = 0; t < m_model->rowCount(); ++t) {
        const QModelIndex task = m_model->index(t, 0);
        for (int g = 0; g < m_model->rowCount(task); ++g)
            if (const auto* group = m_model->groupAt(m_model->index(g, 0, task)); group && group->index < 0)
                other += static_cast<int>(group->states.size());
    }
    QString text = tr("%n measured state(s)", nullptr, m_model->trials());
    if (other > 0)
        text += tr(", %n matching no sketch", nullptr, other);
    // The constrained tasks shown (one, or all): their sketches allowed, and the measured states that break them.
    const ts::models::ConstraintMarks& marks = m_model->marks();
    const int shown = m_taskBox->currentData().toInt();
    int allowed = 0;
    int total = 0;
    int broken = 0;
    bool constrained = false;
    for (size_t t = 0; t < marks.tasks.size(); ++t)
        if (marks.tasks[t].constrained && (shown < 0 || shown == static_cast<int>(t))) {
            constrained = true;
            allowed += marks.tasks[t].allowed();
            total += marks.tasks[t].total();
            broken += marks.tasks[t].brokenStates;
        }
    if (constrained) {
        text += tr(" · constraints: %1 of %2 sketches allowed").arg(allowed).arg(total);
        if (broken > 0)
            text += tr(", %n measured state(s) break them", nullptr, broken);
    }
    m_status->setText(text);
}

void SketchView::onTaskBoxChanged()
{
    const int task = m_taskBox->currentData().toInt();
    m_tree->setRootIndex(task >= 0 ? m_model->taskIndex(task) : QModelIndex());
    updateStatus(); // its counts are of the tasks shown
}

void SketchView::onCurrentChanged(const QModelIndex& current)
{
    if (m_following || !current.isValid())
        return;
    const auto task = m_model->taskAt(current);
    if (!task)
        return;
    switch (m_model->kindAt(current)) {
    case SketchTreeModel::StateRow:
        if (const auto state = m_model->measuredAt(current); state && state->state)
            m_selection.selectMeasured(task, state->state, state->recordId);
        break;
    case SketchTreeModel::SketchRow:
        if (const auto* group = m_model->groupAt(current); group && group->state) {
            if (m_selection.task() != task)
                m_selection.selectTask(nullptr, task);
            m_selection.selectState(group->state);
        }
        break;
    case SketchTreeModel::TaskRow:
        if (m_selection.task() != task)
            m_selection.selectTask(nullptr, task);
        break;
    }
}

void SketchView::followRecord()
{
    const auto recordId = m_selection.recordId();
    if (!recordId)
        return;
    const QModelIndex row = m_model->indexOfRecord(*recordId);
    if (!row.isValid() || row == m_tree->currentIndex())
        return;
    m_following = true;
    m_tree->setCurrentIndex(row);
    m_tree->scrollTo(row);
    m_following = false;
}

void SketchView::followTask()
{
    // One task shown: show the task selected elsewhere when it is one of the session's.
    if (m_taskBox->currentIndex() <= 0 || !m_selection.task())
        return;
    for (int t = 0; t < m_model->rowCount(); ++t)
        if (m_model->taskAt(m_model->index(t, 0)) == m_selection.task()) {
            m_taskBox->setCurrentIndex(m_taskBox->findData(t));
            return;
        }
}

} // namespace ts::app
