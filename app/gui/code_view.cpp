#include "app/gui/code_view.h"

#include "app/gui/schedule_editor.h"
#include "app/gui/view_registry.h"
#include "core/graph/task_extraction.h"
#include "core/schedule/state.h"
#include "widgets/code_highlighter.h"
#include "widgets/models/code_listing.h"
#include "widgets/models/line_diff.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QButtonGroup>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSlider>
#include <QTabWidget>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

using widgets::CodeHighlighter;

struct CodeView::Pinned {
    std::shared_ptr<const graph::Task> task;
    std::shared_ptr<const sched::State> state;
    QString title;
    QString steps; // the calls, unnumbered
    QString loopIr; // or lowering's error
    bool loopIrReady = false;
};

namespace {
    QLabel* makeNote(QWidget* parent)
    {
        auto* label = new QLabel(parent);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    }

    QString listingText(const models::Listing& listing, const QString& what)
    {
        return listing.error.empty() ? QString::fromStdString(listing.text)
                                     : CodeView::tr("No %1: %2").arg(what, QString::fromStdString(listing.error));
    }

    // A loop IR for the diff: the text, or the error in its place (two states that do not lower diff by reason).
    QString loopIrOrError(const models::Listing& listing)
    {
        return listing.error.empty() ? QString::fromStdString(listing.text)
                                     : QStringLiteral("error: ") + QString::fromStdString(listing.error);
    }
} // namespace

CodeView::CodeView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_sessions(context.sessions)
    , m_job(this)
    , m_pinJob(this)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    m_title = makeNote(this);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    layout->addWidget(m_tabs, 1);

    m_steps = widgets::makeCodeListing(this, CodeHighlighter::Language::Plain);
    m_loopNest = widgets::makeCodeListing(this, CodeHighlighter::Language::LoopIr);
    m_llvmIr = widgets::makeCodeListing(this, CodeHighlighter::Language::LlvmIr);
    m_assembly = widgets::makeCodeListing(this, CodeHighlighter::Language::Assembly);
    m_tabs->addTab(m_steps, tr("Steps"));
    m_tabs->addTab(m_loopNest, tr("Loop nest"));
    m_tabs->addTab(buildLoopIrTab(), tr("Loop IR"));
    m_tabs->addTab(m_llvmIr, tr("LLVM IR"));
    m_tabs->addTab(m_assembly, tr("Assembly"));
    m_tabs->addTab(buildStepTab(), tr("Step through"));
    m_tabs->addTab(buildDiffTab(), tr("Diff"));
    m_editor = new ScheduleEditor(context.sessions, this);
    m_tabs->addTab(m_editor, tr("Edit"));

    m_pinAction = new QAction(tr("&Pin for Diff"), this);
    m_pinAction->setToolTip(tr("Keep the selected schedule state to compare other states with (Code view, Diff tab)"));
    connect(m_pinAction, &QAction::triggered, this, &CodeView::pinSelected);
    m_unpinAction = new QAction(tr("Clear Diff Pin"), this);
    connect(m_unpinAction, &QAction::triggered, this, &CodeView::unpin);
    m_editAction = new QAction(tr("&Edit a Copy"), this);
    m_editAction->setToolTip(tr("Edit a copy of the selected schedule state's steps (Code view, Edit tab): the loop "
                                "nest, loop IR and model score follow as you type"));
    connect(m_editAction, &QAction::triggered, this, &CodeView::editSelected);
    connect(m_editor->copyButton(), &QAbstractButton::clicked, this, &CodeView::editSelected);
    addActions({ m_pinAction, m_unpinAction, m_editAction });

    using widgets::SelectionContext;
    connect(&m_selection, &SelectionContext::taskChanged, this, &CodeView::onSelectionChanged);
    connect(&m_selection, &SelectionContext::stateChanged, this, &CodeView::onSelectionChanged);
    connect(&m_selection, &SelectionContext::recordChanged, this, &CodeView::onRecordChanged);
    connect(&m_sessions, &widgets::SessionHub::currentChanged, this, &CodeView::onSessionChanged);
    start();
}

CodeView::~CodeView() = default;

QWidget* CodeView::buildLoopIrTab()
{
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 2, 0, 0);
    m_scoreLabel = makeNote(page);
    m_loopIr = widgets::makeCodeListing(page, CodeHighlighter::Language::LoopIr);
    layout->addWidget(m_scoreLabel);
    layout->addWidget(m_loopIr, 1);
    return page;
}

QWidget* CodeView::buildStepTab()
{
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 2, 0, 0);
    auto* row = new QHBoxLayout;
    m_back = new QToolButton(page);
    m_back->setArrowType(Qt::LeftArrow);
    m_back->setText(tr("Back"));
    m_back->setToolTip(tr("Undo the last step shown"));
    m_back->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_forward = new QToolButton(page);
    m_forward->setArrowType(Qt::RightArrow);
    m_forward->setText(tr("Forward"));
    m_forward->setToolTip(tr("Apply the next step"));
    m_forward->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_stepSlider = new QSlider(Qt::Horizontal, page);
    m_stepSlider->setPageStep(1);
    m_stepSlider->setTickPosition(QSlider::TicksBelow);
    m_stepPosition = new QLabel(page);
    row->addWidget(m_back);
    row->addWidget(m_stepSlider, 1);
    row->addWidget(m_forward);
    row->addWidget(m_stepPosition);
    layout->addLayout(row);
    m_stepCall = makeNote(page);
    m_stepCall->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_stepCall);
    m_stepText = widgets::makeCodeListing(page, CodeHighlighter::Language::LoopIr);
    layout->addWidget(m_stepText, 1);
    connect(m_back, &QToolButton::clicked, this, [this] { showStep(currentStep() - 1); });
    connect(m_forward, &QToolButton::clicked, this, [this] { showStep(currentStep() + 1); });
    connect(m_stepSlider, &QSlider::valueChanged, this, &CodeView::showStep);
    return page;
}

QWidget* CodeView::buildDiffTab()
{
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 2, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Compare:"), page));
    m_diffSteps = new QRadioButton(tr("Steps"), page);
    m_diffLoopIr = new QRadioButton(tr("Loop IR"), page);
    m_diffLoopIr->setChecked(true);
    auto* group = new QButtonGroup(page);
    group->addButton(m_diffSteps);
    group->addButton(m_diffLoopIr);
    row->addWidget(m_diffSteps);
    row->addWidget(m_diffLoopIr);
    row->addStretch(1);
    layout->addLayout(row);
    m_diffLabel = makeNote(page);
    layout->addWidget(m_diffLabel);
    m_diffText = widgets::makeCodeListing(page, CodeHighlighter::Language::Diff);
    layout->addWidget(m_diffText, 1);
    connect(m_diffSteps, &QRadioButton::toggled, this, [this] { updateDiff(); });
    return page;
}

QString CodeView::text(Tab tab) const
{
    switch (tab) {
    case Tab::Steps:
        return m_steps->toPlainText();
    case Tab::LoopNest:
        return m_loopNest->toPlainText();
    case Tab::LoopIr:
        return m_loopIr->toPlainText();
    case Tab::LlvmIr:
        return m_llvmIr->toPlainText();
    case Tab::Assembly:
        return m_assembly->toPlainText();
    case Tab::Step:
        return m_stepText->toPlainText();
    case Tab::Diff:
        return m_diffText->toPlainText();
    case Tab::Edit:
        return m_editor->stepsText();
    }
    return {};
}

void CodeView::showTab(Tab tab) { m_tabs->setCurrentIndex(static_cast<int>(tab)); }

bool CodeView::isComputing() const { return m_job.isRunning(); }

QString CodeView::scoreLabel() const { return m_scoreLabel->text(); }

void CodeView::onSelectionChanged()
{
    if (m_selection.task() == m_task && m_selection.state() == m_state)
        return;
    start();
}

// A measured record is selected after its state: list it again for the target of its device (a record of
// a GPU shows CUDA C and PTX).
void CodeView::onRecordChanged()
{
    updateTitle();
    if (m_selection.recordId() && m_selection.recordId() != m_recordId && m_selection.state() == m_state && m_state)
        start();
}

void CodeView::onSessionChanged()
{
    // The model that scores changes with the shown session, and once it ends (its final model is saved).
    const auto session = m_sessions.current();
    const QString key = session ? QStringLiteral("%1/%2/%3")
                                      .arg(session->sessionId)
                                      .arg(QString::fromStdString(session->model))
                                      .arg(session->finished())
                                : QString();
    if (key != m_scoreKey && m_state)
        start();
}

QString CodeView::stepsText(bool numbered) const
{
    if (!m_task || !m_state)
        return {};
    const auto calls = models::stepCallLines(m_task->dag, m_state->steps());
    QString text;
    for (size_t i = 0; i < calls.size(); ++i) {
        if (numbered)
            text += QStringLiteral("%1  ").arg(i + 1, 3);
        text += QString::fromStdString(calls[i]) + QLatin1Char('\n');
    }
    return text;
}

void CodeView::updateTitle()
{
    if (!m_task) {
        m_title->setText(tr("Select a task, then a schedule state (a trial, a record, a sketch) to see its code."));
        return;
    }
    if (!m_state) {
        m_title->setText(tr("%1: select a schedule state (a trial, a record, a sketch) to see its code.")
                             .arg(QString::fromStdString(m_task->name)));
        return;
    }
    const int steps = static_cast<int>(m_state->steps().size());
    const QString name = QString::fromStdString(m_task->name);
    QString title = steps == 1 ? tr("%1: a schedule of one step").arg(name)
                               : tr("%1: a schedule of %2 steps").arg(name).arg(steps);
    if (const auto record = m_selection.recordId(); record && m_selection.state() == m_state)
        title += tr(", record %1").arg(*record);
    m_title->setText(title);
}

void CodeView::showPlaceholders(const QString& text)
{
    for (QPlainTextEdit* edit : { m_loopNest, m_loopIr, m_llvmIr, m_assembly, m_stepText })
        edit->setPlainText(text);
    m_scoreLabel->setText(text);
    m_stepCall->clear();
    m_stepPosition->clear();
    m_stepSlider->setEnabled(false);
    m_back->setEnabled(false);
    m_forward->setEnabled(false);
    m_stepText->setExtraSelections({});
}

void CodeView::start()
{
    m_task = m_selection.task();
    m_state = m_selection.state();
    m_listing.reset();
    const auto session = m_sessions.current();
    m_scoreKey = session ? QStringLiteral("%1/%2/%3")
                               .arg(session->sessionId)
                               .arg(QString::fromStdString(session->model))
                               .arg(session->finished())
                         : QString();
    updateTitle();
    m_pinAction->setEnabled(m_state != nullptr);
    m_editAction->setEnabled(m_state != nullptr);
    m_editor->copyButton()->setEnabled(m_state != nullptr);
    m_unpinAction->setEnabled(m_pin != nullptr);
    if (!m_task || !m_state) {
        m_job.cancel();
        m_steps->setPlainText(QString());
        showPlaceholders(QString());
        updateDiff();
        return;
    }
    // The steps print at once (a replay); the rest lowers and compiles on a worker.
    const QString steps = stepsText(true);
    m_steps->setPlainText(steps.isEmpty() ? tr("(no steps: the default schedule)") : steps);
    showPlaceholders(tr("computing…"));
    updateDiff();

    models::CodeRequest request;
    request.task = m_task;
    request.state = m_state;
    m_recordId = m_selection.recordId();
    request.recordId = m_recordId;
    request.workspace = m_sessions.workspace().toStdString();
    if (session) {
        request.scoreSource.workspace
            = session->workspace.empty() ? m_sessions.workspace().toStdString() : session->workspace;
        request.scoreSource.sessionId = session->sessionId;
        request.scoreSource.sessionModel = session->model;
    }
    m_job.start(
        [request = std::move(request)](session::JobContext& context) -> Expected<models::CodeListing> {
            return models::buildCodeListing(request, context.stopToken());
        },
        [this](Expected<models::CodeListing> listing) {
            if (!listing) {
                showPlaceholders(tr("Failed: %1").arg(QString::fromStdString(listing.error().message)));
                return;
            }
            applyListing(std::make_shared<const models::CodeListing>(std::move(*listing)));
        });
}

void CodeView::applyListing(std::shared_ptr<const models::CodeListing> listing)
{
    m_listing = std::move(listing);
    const models::CodeListing& l = *m_listing;
    m_loopNest->setPlainText(listingText(l.loopNest, tr("loop nest")));
    m_loopIr->setPlainText(
        l.loopIr.error.empty() ? QString::fromStdString(l.loopIrScored) : listingText(l.loopIr, tr("loop IR")));
    // A CUDA target's code is CUDA C and PTX in the same two tabs.
    m_tabs->setTabText(m_tabs->indexOf(m_llvmIr), l.gpu ? tr("CUDA C") : tr("LLVM IR"));
    m_tabs->setTabText(m_tabs->indexOf(m_assembly), l.gpu ? tr("PTX") : tr("Assembly"));
    m_llvmIr->setPlainText(listingText(l.llvmIr, l.gpu ? tr("CUDA C") : tr("LLVM IR")));
    m_assembly->setPlainText(listingText(l.assembly, l.gpu ? tr("PTX") : tr("assembly")));

    const models::StageScores& s = l.scores;
    QString scores;
    if (s.model.empty())
        scores = tr("No per-stage scores: %1").arg(QString::fromStdString(s.note));
    else if (s.higherIsBetter)
        scores = tr("Per-stage scores (higher is better) of the %1 model, %2.")
                     .arg(QString::fromStdString(s.model), QString::fromStdString(s.origin));
    else
        scores = tr("Per-stage estimated time in µs of the %1 model, %2.")
                     .arg(QString::fromStdString(s.model), QString::fromStdString(s.origin));
    if (!s.model.empty() && !s.note.empty())
        scores += QLatin1Char(' ') + tr("(Not the session's own model: %1.)").arg(QString::fromStdString(s.note));
    m_scoreLabel->setText(scores);

    const int last = static_cast<int>(l.frames.size()) - 1;
    m_stepSlider->blockSignals(true);
    m_stepSlider->setRange(0, std::max(0, last));
    m_stepSlider->setValue(std::max(0, last));
    m_stepSlider->blockSignals(false);
    m_stepSlider->setEnabled(last > 0);
    showStep(std::max(0, last));
    updateDiff();
    Q_EMIT listingReady();
}

int CodeView::stepCount() const { return m_listing ? static_cast<int>(m_listing->frames.size()) - 1 : -1; }

int CodeView::currentStep() const { return m_stepSlider->value(); }

void CodeView::showStep(int step)
{
    if (!m_listing || m_listing->frames.empty())
        return;
    const int last = static_cast<int>(m_listing->frames.size()) - 1;
    step = std::clamp(step, 0, last);
    if (m_stepSlider->value() != step) {
        m_stepSlider->blockSignals(true);
        m_stepSlider->setValue(step);
        m_stepSlider->blockSignals(false);
    }
    const models::StepFrame& frame = m_listing->frames[static_cast<size_t>(step)];
    m_stepPosition->setText(step == 0 || !frame.error.empty()
            ? tr("%1 / %2").arg(step).arg(last)
            : tr("%1 / %2   +%3 −%4 lines").arg(step).arg(last).arg(frame.changed.size()).arg(frame.removed));
    m_stepPosition->setToolTip(tr("Lines the step added (highlighted) and removed"));
    m_stepCall->setText(step == 0 ? tr("The initial state: one loop nest per op, no step applied yet.")
                                  : tr("Step %1: %2").arg(step).arg(QString::fromStdString(frame.call)));
    QList<QTextEdit::ExtraSelection> changed;
    if (!frame.error.empty()) {
        m_stepText->setPlainText(
            tr("This prefix of the steps does not replay: %1").arg(QString::fromStdString(frame.error)));
    } else {
        m_stepText->setPlainText(QString::fromStdString(frame.loopNest));
        if (step > 0) {
            for (int line : frame.changed) {
                QTextEdit::ExtraSelection selection;
                selection.format.setBackground(QColor(0xff, 0xf1, 0xb8));
                selection.format.setProperty(QTextFormat::FullWidthSelection, true);
                selection.cursor = QTextCursor(m_stepText->document()->findBlockByNumber(line));
                changed.append(selection);
            }
        }
    }
    m_stepText->setExtraSelections(changed);
    m_back->setEnabled(step > 0);
    m_forward->setEnabled(step < last);
}

QString CodeView::stepCall() const { return m_stepCall->text(); }

QString CodeView::stepSummary() const { return m_stepPosition->text(); }

QList<int> CodeView::highlightedLines() const
{
    QList<int> lines;
    for (const QTextEdit::ExtraSelection& selection : m_stepText->extraSelections())
        lines.append(selection.cursor.blockNumber());
    return lines;
}

void CodeView::pinSelected()
{
    if (!m_task || !m_state)
        return;
    m_pin = std::make_unique<Pinned>();
    m_pin->task = m_task;
    m_pin->state = m_state;
    m_pin->title = m_title->text();
    m_pin->steps = stepsText(false);
    m_unpinAction->setEnabled(true);
    if (m_listing) { // the selected state's loop IR is here already
        m_pin->loopIr = loopIrOrError(m_listing->loopIr);
        m_pin->loopIrReady = true;
        m_pinJob.cancel();
        updateDiff();
        Q_EMIT pinReady();
        return;
    }
    updateDiff();
    m_pinJob.start(
        [state = m_state](session::JobContext&) -> Expected<models::Listing> {
            return models::loopIrText(*state, target::Target::host());
        },
        [this](Expected<models::Listing> listing) {
            if (!m_pin)
                return;
            m_pin->loopIr = loopIrOrError(listing ? *listing : models::Listing { {}, listing.error().message });
            m_pin->loopIrReady = true;
            updateDiff();
            Q_EMIT pinReady();
        });
}

// The copy is the editor's own: later selections do not change it, and it changes nothing that was selected.
void CodeView::editSelected()
{
    if (!m_task || !m_state)
        return;
    m_editor->open(
        m_task, *m_state, m_selection.state() == m_state ? m_selection.recordId() : std::nullopt, m_title->text());
    showTab(Tab::Edit);
    m_editor->textEdit()->setFocus();
}

void CodeView::unpin()
{
    m_pinJob.cancel();
    m_pin.reset();
    m_unpinAction->setEnabled(false);
    updateDiff();
}

void CodeView::setDiffOf(DiffOf of) { (of == DiffOf::Steps ? m_diffSteps : m_diffLoopIr)->setChecked(true); }

void CodeView::updateDiff()
{
    m_diff.clear();
    if (!m_pin) {
        m_diffLabel->setText(tr("No state is pinned: select a state, use Pin for Diff, then select another state."));
        m_diffText->clear();
        return;
    }
    if (!m_state) {
        m_diffLabel->setText(tr("Pinned: %1. Select a state to compare with it.").arg(m_pin->title));
        m_diffText->clear();
        return;
    }
    const bool steps = m_diffSteps->isChecked();
    QString before;
    QString after;
    if (steps) {
        before = m_pin->steps;
        after = stepsText(false);
    } else {
        if (!m_pin->loopIrReady || !m_listing) {
            m_diffLabel->setText(tr("Pinned: %1.").arg(m_pin->title));
            m_diffText->setPlainText(tr("computing…"));
            return;
        }
        before = m_pin->loopIr;
        after = loopIrOrError(m_listing->loopIr);
    }
    m_diff
        = QString::fromStdString(models::unifiedDiff(before.toStdString(), after.toStdString(), "pinned", "selected"));
    const QString what = steps ? tr("steps") : tr("loop IR");
    if (m_diff.isEmpty()) {
        m_diffLabel->setText(tr("Pinned: %1. The selected state has the same %2.").arg(m_pin->title, what));
        m_diffText->setPlainText(tr("No differences."));
    } else {
        m_diffLabel->setText(tr("The %1 of the pinned state (−, %2) and of the selected one (+, %3).")
                                 .arg(what, m_pin->title, m_title->text()));
        m_diffText->setPlainText(m_diff);
    }
}

} // namespace ts::app
