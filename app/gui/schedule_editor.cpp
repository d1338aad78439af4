#include "app/gui/schedule_editor.h"

#include "core/engine/tuning_session.h"
#include "core/schedule/state.h"
#include "widgets/code_highlighter.h"
#include "widgets/models/schedule_edit.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

#include <numeric>

namespace ts::app {

using widgets::CodeHighlighter;

namespace {
    // A new text that keeps the reader's place: an edit usually changes a few lines of a long loop IR.
    void setTextKeepingPlace(QPlainTextEdit* edit, const QString& text)
    {
        if (edit->toPlainText() == text)
            return;
        const int vertical = edit->verticalScrollBar()->value();
        const int horizontal = edit->horizontalScrollBar()->value();
        edit->setPlainText(text);
        edit->verticalScrollBar()->setValue(vertical);
        edit->horizontalScrollBar()->setValue(horizontal);
    }

    // A byte offset of the UTF-8 text as a character position of the QString.
    int charPosition(const QByteArray& utf8, int byteOffset)
    {
        return static_cast<int>(QString::fromUtf8(utf8.left(byteOffset)).size());
    }

    // The largest divisor of `extent` up to 16 (a vector's or a register tile's length), for the split dialog.
    int defaultFactor(int64_t extent)
    {
        for (int f = 16; f > 1; --f)
            if (extent > f && extent % f == 0)
                return f;
        return 1;
    }
} // namespace

ScheduleEditor::ScheduleEditor(widgets::SessionHub& sessions, QWidget* parent)
    : QWidget(parent)
    , m_sessions(sessions)
    , m_job(this)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(4);
    auto* top = new QHBoxLayout;
    m_copy = new QPushButton(tr("Edit a Copy of the Selection"), this);
    m_copy->setToolTip(tr("Open the selected state's steps (a record, a sketch's sample, the best) in this editor"));
    m_origin = new QLabel(this);
    m_origin->setWordWrap(true);
    m_measure = new QPushButton(tr("Measure"), this);
    m_addToSearch = new QPushButton(tr("Add to Search"), this);
    top->addWidget(m_copy);
    top->addWidget(m_origin, 1);
    top->addWidget(m_measure);
    top->addWidget(m_addToSearch);
    layout->addLayout(top);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_text = new QPlainTextEdit(left);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Select a state (a record, a sketch's sample, the best) and use Edit a Copy: its "
                                  "steps appear here as TVM JSON, one step per line, to edit."));
    new CodeHighlighter(m_text->document(), CodeHighlighter::Language::StepJson);
    m_error = new QLabel(left);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #a50e0e;"));
    m_error->hide();
    leftLayout->addWidget(m_text, 1);
    leftLayout->addWidget(m_error);

    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_score = new QLabel(right);
    m_score->setWordWrap(true);
    m_score->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_panes = new QTabWidget(right);
    m_panes->setDocumentMode(true);
    m_loopNest = widgets::makeCodeListing(right, CodeHighlighter::Language::LoopIr);
    m_loopNest->setContextMenuPolicy(Qt::CustomContextMenu);
    m_loopNest->setToolTip(tr("Right-click a loop to split, vectorize, parallelize or unroll it, or to compute "
                              "another stage at it"));
    m_loopIr = widgets::makeCodeListing(right, CodeHighlighter::Language::LoopIr);
    m_calls = widgets::makeCodeListing(right, CodeHighlighter::Language::Plain);
    m_panes->addTab(m_loopNest, tr("Loop nest"));
    m_panes->addTab(m_loopIr, tr("Loop IR"));
    m_panes->addTab(m_calls, tr("As calls"));
    rightLayout->addWidget(m_score);
    rightLayout->addWidget(m_panes, 1);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    m_command = new QLabel(this);
    m_command->setWordWrap(true);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_command);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &ScheduleEditor::startReplay);
    connect(m_text, &QPlainTextEdit::textChanged, this, &ScheduleEditor::scheduleReplay);
    connect(m_loopNest, &QWidget::customContextMenuRequested, this, &ScheduleEditor::showLoopMenu);
    connect(m_measure, &QPushButton::clicked, this, &ScheduleEditor::measure);
    connect(m_addToSearch, &QPushButton::clicked, this, &ScheduleEditor::addToSearch);
    using widgets::SessionHub;
    connect(&m_sessions, &SessionHub::liveStateChanged, this, &ScheduleEditor::updateButtons);
    connect(&m_sessions, &SessionHub::liveUpdated, this, &ScheduleEditor::updateButtons);
    connect(&m_sessions, &SessionHub::liveFinished, this, &ScheduleEditor::updateButtons);
    connect(&m_sessions, &SessionHub::commandDone, this, &ScheduleEditor::onCommandDone);
    // The model that scores changes with the shown session, and once it ends (its final model is saved).
    connect(&m_sessions, &SessionHub::currentChanged, this, [this] {
        if (m_task && scoreKey() != m_scoreKey && !m_debounce->isActive())
            startReplay();
    });
    updateButtons();
}

ScheduleEditor::~ScheduleEditor() = default;

void ScheduleEditor::open(std::shared_ptr<const graph::Task> task, const sched::State& state,
    std::optional<int64_t> recordId, const QString& origin)
{
    m_task = std::move(task);
    m_recordId = recordId;
    m_shown.reset();
    m_last.reset();
    m_origin->setText(tr("A copy of %1. Edits replay as you type; the original is unchanged.").arg(origin));
    m_command->clear();
    for (QPlainTextEdit* pane : { m_loopNest, m_loopIr, m_calls })
        pane->setPlainText(tr("computing…"));
    m_score->clear();
    m_text->setPlainText(QString::fromStdString(models::editText(state.steps())));
    m_debounce->stop();
    startReplay();
}

QString ScheduleEditor::stepsText() const { return m_text->toPlainText(); }

QString ScheduleEditor::paneText(Pane pane) const
{
    switch (pane) {
    case Pane::LoopNest:
        return m_loopNest->toPlainText();
    case Pane::LoopIr:
        return m_loopIr->toPlainText();
    case Pane::Calls:
        return m_calls->toPlainText();
    }
    return {};
}

void ScheduleEditor::showPane(Pane pane) { m_panes->setCurrentIndex(static_cast<int>(pane)); }

QString ScheduleEditor::scoreText() const { return m_score->text(); }

QString ScheduleEditor::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

QList<int> ScheduleEditor::markedLines() const
{
    QList<int> lines;
    for (const QTextEdit::ExtraSelection& selection : m_text->extraSelections())
        if (selection.format.property(QTextFormat::FullWidthSelection).toBool())
            lines.append(selection.cursor.blockNumber());
    return lines;
}

bool ScheduleEditor::isPending() const { return m_debounce->isActive() || m_job.isRunning(); }

std::shared_ptr<const sched::State> ScheduleEditor::shownState() const { return m_shown ? m_shown->state : nullptr; }

bool ScheduleEditor::isCurrent() const { return m_shown && m_shown == m_last && !isPending() && !m_textChanged; }

QString ScheduleEditor::commandText() const { return m_command->text(); }

void ScheduleEditor::scheduleReplay()
{
    if (!m_task)
        return;
    m_textChanged = true;
    m_debounce->start();
    updateButtons();
}

void ScheduleEditor::startReplay()
{
    if (!m_task)
        return;
    m_textChanged = false;
    models::EditRequest request;
    request.task = m_task;
    request.text = m_text->toPlainText().toStdString();
    request.recordId = m_recordId;
    request.workspace = m_sessions.workspace().toStdString();
    m_scoreKey = scoreKey();
    // The shown session's model scores, as in the Code view's Loop IR tab.
    if (const auto session = m_sessions.current()) {
        request.scoreSource.workspace
            = session->workspace.empty() ? m_sessions.workspace().toStdString() : session->workspace;
        request.scoreSource.sessionId = session->sessionId;
        request.scoreSource.sessionModel = session->model;
    }
    m_job.start(
        [request = std::move(request)](session::JobContext& context) -> Expected<models::EditOutcome> {
            return models::replayEdit(request, context.stopToken());
        },
        [this](Expected<models::EditOutcome> outcome) {
            if (!outcome) { // an internal error of the job: say so where a replay error would be
                m_error->setText(tr("Could not replay: %1").arg(QString::fromStdString(outcome.error().message)));
                m_error->show();
                updateButtons();
                Q_EMIT replayed();
                return;
            }
            applyOutcome(std::make_shared<const models::EditOutcome>(std::move(*outcome)));
        });
    updateButtons();
}

void ScheduleEditor::applyOutcome(std::shared_ptr<const models::EditOutcome> outcome)
{
    m_last = std::move(outcome);
    const models::EditOutcome& o = *m_last;
    if (!o.replays()) {
        showError();
        updateButtons();
        Q_EMIT replayed();
        return;
    }
    m_shown = m_last;
    m_error->clear();
    m_error->hide();
    m_text->setExtraSelections({});
    setTextKeepingPlace(m_loopNest, QString::fromStdString(o.loopNest.text));
    setTextKeepingPlace(m_loopIr,
        o.loopIr.error.empty() ? QString::fromStdString(o.loopIrScored)
                               : tr("No loop IR: %1").arg(QString::fromStdString(o.loopIr.error)));
    setTextKeepingPlace(m_calls, QString::fromStdString(o.calls));

    const models::StageScores& s = o.scores;
    const int stages = static_cast<int>(s.stages.size());
    const double sum = std::accumulate(s.stages.begin(), s.stages.end(), 0.0,
        [](double total, const models::StageScore& one) { return total + one.value; });
    QString score;
    if (s.model.empty())
        score = tr("No score: %1").arg(QString::fromStdString(s.note));
    else if (s.higherIsBetter)
        score = tr("Score of the %1 model (%2): %3, the sum over %4 stages (higher is better).")
                    .arg(QString::fromStdString(s.model), QString::fromStdString(s.origin))
                    .arg(sum, 0, 'g', 5)
                    .arg(stages);
    else
        score = tr("Estimated time of the %1 model (%2): %3 µs, the sum over %4 stages.")
                    .arg(QString::fromStdString(s.model), QString::fromStdString(s.origin))
                    .arg(sum, 0, 'g', 5)
                    .arg(stages);
    if (!s.model.empty() && !s.note.empty())
        score += QLatin1Char(' ') + tr("(Not the session's own model: %1.)").arg(QString::fromStdString(s.note));
    m_score->setText(score);
    updateButtons();
    Q_EMIT replayed();
}

void ScheduleEditor::showError()
{
    const models::EditError& e = *m_last->error;
    const QString reason = QString::fromStdString(e.message);
    QString text;
    if (e.step < 0)
        text = tr("Line %1: %2").arg(e.line + 1).arg(reason);
    else if (e.field < 0)
        text = tr("Step %1 (line %2): %3").arg(e.step).arg(e.line + 1).arg(reason);
    else
        text = tr("Step %1 (line %2), field %3 (%4): %5")
                   .arg(e.step)
                   .arg(e.line + 1)
                   .arg(e.field)
                   .arg(QString::fromStdString(e.fieldName), reason);
    text += QLatin1Char('\n') + tr("The panes show the last steps that replayed.");
    m_error->setText(text);
    m_error->show();

    // The step's line, and the offending field in it, in the text the job read (the editor's, unless typed since).
    QList<QTextEdit::ExtraSelection> marks;
    QTextDocument* document = m_text->document();
    QTextEdit::ExtraSelection line;
    line.format.setBackground(QColor(0xfc, 0xe8, 0xe6));
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    line.cursor = QTextCursor(document->findBlockByNumber(std::min(e.line, document->blockCount() - 1)));
    marks.append(line);
    const QByteArray utf8 = QByteArray::fromStdString(m_last->text);
    const int start = charPosition(utf8, e.span.start);
    const int end = charPosition(utf8, e.span.start + e.span.length);
    const int last = document->characterCount() - 1;
    if (end > start && end <= last) {
        QTextEdit::ExtraSelection field;
        field.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        field.format.setUnderlineColor(QColor(0xd9, 0x30, 0x25));
        field.format.setBackground(QColor(0xf8, 0xc6, 0xc0));
        field.cursor = QTextCursor(document);
        field.cursor.setPosition(start);
        field.cursor.setPosition(end, QTextCursor::KeepAnchor);
        marks.append(field);
    }
    m_text->setExtraSelections(marks);
}

QString ScheduleEditor::scoreKey() const
{
    const auto session = m_sessions.current();
    return session ? QStringLiteral("%1/%2/%3")
                         .arg(session->sessionId)
                         .arg(QString::fromStdString(session->model))
                         .arg(session->finished())
                   : QString();
}

int ScheduleEditor::liveTaskIndex() const
{
    const auto live = m_sessions.live();
    if (!m_task || !live || live->finished())
        return -1;
    for (size_t i = 0; i < live->tasks.size(); ++i) {
        const auto& task = live->tasks[i].task;
        if (task && (task == m_task || task->dag.workloadKey() == m_task->dag.workloadKey()))
            return static_cast<int>(i);
    }
    return -1;
}

void ScheduleEditor::updateButtons()
{
    QString why;
    if (!m_task)
        why = tr("Open a state in the editor first (Edit a Copy).");
    else if (!m_sessions.isLive())
        why = tr("No tuning session is running: start one to measure this state in it or seed its search.");
    else if (liveTaskIndex() < 0)
        why = tr("The running session does not tune this task.");
    else if (!isCurrent())
        why = tr("The steps in the editor have not replayed (yet).");
    m_measure->setEnabled(why.isEmpty());
    m_addToSearch->setEnabled(why.isEmpty());
    m_measure->setToolTip(why.isEmpty()
            ? tr("Measure these steps now in the running session (between two batches), stored as a manual record")
            : why);
    m_addToSearch->setToolTip(
        why.isEmpty() ? tr("Put these steps into the task's initial population in every later round") : why);
}

void ScheduleEditor::measure()
{
    const int task = liveTaskIndex();
    if (task < 0 || !isCurrent())
        return;
    const auto posted = m_sessions.post(engine::MeasureState { task, m_shown->state->steps() });
    if (!posted) {
        m_command->setText(tr("Not measured: %1").arg(QString::fromStdString(posted.error().message)));
        return;
    }
    m_pendingCommand = *posted;
    m_command->setText(tr("Measuring: the session measures these steps between two batches…"));
}

void ScheduleEditor::addToSearch()
{
    const int task = liveTaskIndex();
    if (task < 0 || !isCurrent())
        return;
    const auto posted = m_sessions.post(engine::SeedStates { task, { m_shown->state->steps() } });
    if (!posted) {
        m_command->setText(tr("Not added: %1").arg(QString::fromStdString(posted.error().message)));
        return;
    }
    m_pendingCommand = *posted;
    m_command->setText(tr("Adding to the search: the session takes it between two batches…"));
}

void ScheduleEditor::onCommandDone(qint64 id, const QString& what, const QString& error, qint64 recordId)
{
    if (id != m_pendingCommand)
        return;
    m_pendingCommand = 0;
    if (!error.isEmpty())
        m_command->setText(tr("Refused (%1): %2").arg(what, error));
    else if (recordId > 0)
        m_command->setText(tr("Measured: record %1 (%2).").arg(recordId).arg(what));
    else
        m_command->setText(tr("Done: %1.").arg(what));
}

void ScheduleEditor::insertStep(const std::string& stepText, int position)
{
    const QByteArray utf8 = m_text->toPlainText().toUtf8();
    QTextCursor cursor(m_text->document());
    cursor.setPosition(charPosition(utf8, position));
    cursor.insertText(QString::fromStdString(stepText)); // one edit: the editor's undo takes it back
    m_text->setTextCursor(cursor);
    m_debounce->stop(); // what the menu wrote replays at once
    startReplay();
}

std::unique_ptr<QMenu> ScheduleEditor::loopMenu(int line)
{
    auto menu = std::make_unique<QMenu>(this);
    const models::LoopNestListing* nest = m_shown ? &m_shown->loopNest : nullptr;
    if (!nest || line < 0 || line >= static_cast<int>(nest->lines.size()) || nest->lines[size_t(line)].iter < 0) {
        menu->addAction(tr("Right-click a loop to split, annotate or compute a stage at it"))->setEnabled(false);
        return menu;
    }
    const bool current = isCurrent();
    if (!current)
        menu->addAction(tr("The steps in the editor have not replayed: fix or wait for them first"))->setEnabled(false);
    const models::LoopNestLine at = nest->lines[size_t(line)];
    const sched::State& state = *m_shown->state;
    const sched::Stage& stage = state.stage(at.stage);
    const sched::Iterator& iter = stage.iters[size_t(at.iter)];
    menu->addSection(
        tr("Loop %1 of %2").arg(QString::fromStdString(iter.name), QString::fromStdString(stage.op->name())));

    QAction* split = menu->addAction(tr("Split by…"), this, [this, line] {
        const models::LoopNestLine loop = m_shown->loopNest.lines[size_t(line)];
        const int64_t extent
            = m_shown->loopNest.shown->stage(loop.stage).iters[size_t(loop.iter)].extent; // bound inference's
        bool ok = false;
        const int factor = QInputDialog::getInt(this, tr("Split a Loop"),
            extent > 0 ? tr("Length of the inner loop (the loop has %1 iterations):").arg(extent)
                       : tr("Length of the inner loop:"),
            defaultFactor(extent), 1, extent > 0 ? static_cast<int>(std::min<int64_t>(extent, 1 << 30)) : 1 << 30, 1,
            &ok);
        if (ok)
            splitLoop(line, factor);
    });
    split->setEnabled(current);
    const bool free = iter.annotation == sched::Annotation::None;
    struct Kind {
        QString text;
        sched::Annotation annotation;
    };
    for (const Kind& kind : { Kind { tr("Vectorize"), sched::Annotation::Vectorize },
             Kind { tr("Parallel"), sched::Annotation::Parallel }, Kind { tr("Unroll"), sched::Annotation::Unroll } }) {
        QAction* action = menu->addAction(kind.text, this,
            [this, line, annotation = static_cast<int>(kind.annotation)] { annotateLoop(line, annotation); });
        action->setEnabled(current && free
            && (kind.annotation != sched::Annotation::Parallel || iter.kind == sched::IteratorKind::Spatial));
        if (!free)
            action->setToolTip(
                tr("The loop is already annotated %1").arg(QString::fromLatin1(sched::toString(iter.annotation))));
    }

    // Another stage computed at this loop: not a placeholder or inlined stage, not one this loop is inside of.
    QMenu* computeAt = menu->addMenu(tr("Compute at This Loop"));
    std::vector<int> enclosing;
    for (int s = at.stage; s >= 0;) {
        enclosing.push_back(s);
        const sched::Stage& t = state.stage(s);
        s = t.computeAt == sched::ComputeAtKind::Iter ? t.attachStage : -1;
    }
    for (int s = 0; s < state.numStages(); ++s) {
        const sched::Stage& other = state.stage(s);
        if (other.isPlaceholder() || other.computeAt == sched::ComputeAtKind::Inlined
            || std::find(enclosing.begin(), enclosing.end(), s) != enclosing.end()
            || (other.computeAt == sched::ComputeAtKind::Iter && other.attachStage == at.stage
                && other.attachIter == at.iter))
            continue;
        computeAt->addAction(tr("Compute %1 Here").arg(QString::fromStdString(other.op->name())), this,
            [this, line, s] { computeAtLoop(line, s); });
    }
    computeAt->setEnabled(current && !computeAt->isEmpty());
    return menu;
}

void ScheduleEditor::showLoopMenu(const QPoint& position)
{
    const int line = m_loopNest->cursorForPosition(position).blockNumber();
    const auto menu = loopMenu(line);
    menu->exec(m_loopNest->viewport()->mapToGlobal(position));
}

void ScheduleEditor::splitLoop(int line, int64_t factor)
{
    if (!isCurrent())
        return;
    const models::LoopNestLine at = m_shown->loopNest.lines.at(size_t(line));
    const int64_t known = m_shown->state->stage(at.stage).iters.at(size_t(at.iter)).extent;
    const int64_t inferred = m_shown->loopNest.shown->stage(at.stage).iters.at(size_t(at.iter)).extent;
    sched::SplitStep step;
    step.stageId = at.stage;
    step.iterId = at.iter;
    // The extent the iterator has when the step applies (bound inference's after a compute_at, as TVM records it).
    if (known > 0)
        step.extent = known;
    else if (inferred > 0)
        step.extent = inferred;
    step.lengths = { factor };
    step.innerToOuter = true;
    const auto insertion = models::appendStepText(m_text->toPlainText().toStdString(), step);
    insertStep(insertion.text, insertion.position);
}

void ScheduleEditor::annotateLoop(int line, int annotation)
{
    if (!isCurrent())
        return;
    const models::LoopNestLine at = m_shown->loopNest.lines.at(size_t(line));
    const sched::AnnotationStep step { at.stage, at.iter, static_cast<sched::Annotation>(annotation) };
    const auto insertion = models::appendStepText(m_text->toPlainText().toStdString(), step);
    insertStep(insertion.text, insertion.position);
}

void ScheduleEditor::computeAtLoop(int line, int stage)
{
    if (!isCurrent())
        return;
    const models::LoopNestLine at = m_shown->loopNest.lines.at(size_t(line));
    const sched::ComputeAtStep step { stage, at.stage, at.iter };
    const auto insertion = models::appendStepText(m_text->toPlainText().toStdString(), step);
    insertStep(insertion.text, insertion.position);
}

} // namespace ts::app
