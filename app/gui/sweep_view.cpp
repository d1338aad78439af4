#include "app/gui/sweep_view.h"

#include "app/gui/view_registry.h"
#include "core/cost/cost_model.h"
#include "core/engine/tuning_session.h"
#include "core/graph/task_extraction.h"
#include "core/schedule/state.h"
#include "core/store/store.h"
#include "widgets/models/code_listing.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/sweep_plot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

namespace {
    // Checked in the model list at first: the learned model Ansor ranks with, and the roofline estimate.
    const QStringList kDefaultModels { QStringLiteral("xgb"), QStringLiteral("analytical") };

    QLabel* makeNote(QWidget* parent)
    {
        auto* label = new QLabel(parent);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    }

    QString valuesText(const std::vector<int64_t>& values)
    {
        QStringList texts;
        for (int64_t v : values)
            texts.append(QString::number(v));
        return texts.join(QStringLiteral(", "));
    }
} // namespace

SweepView::SweepView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_sessions(context.sessions)
    , m_listJob(this)
    , m_job(
          this, &SweepView::fold,
          [this](std::shared_ptr<const Progress> progress) { showProgress(std::move(progress)); },
          [this](Expected<void> outcome) { onSweepEnded(std::move(outcome)); })
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    m_title = makeNote(this);
    layout->addWidget(m_title);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Parameter:"), this));
    m_parameter = new QComboBox(this);
    m_parameter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_parameter->setMinimumContentsLength(40);
    m_parameter->setToolTip(tr("A split length or the unroll limit of the selected state; its legal values are "
                               "measured with the rest of the state fixed"));
    bar->addWidget(m_parameter, 1);
    m_sweep = new QPushButton(tr("Sweep"), this);
    m_sweep->setToolTip(tr("Measure every legal value of the parameter on this machine (in the runner process) and "
                           "score it with the checked cost models; the points are stored in the workspace"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop the measurement in flight; the values measured so far are kept"));
    m_progress = new QProgressBar(this);
    m_progress->setMinimumWidth(160);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());
    m_progress->setVisible(false); // while a sweep runs
    bar->addWidget(m_sweep);
    bar->addWidget(m_cancel);
    bar->addWidget(m_progress);
    layout->addLayout(bar);

    auto* body = new QHBoxLayout;
    auto* side = new QVBoxLayout;
    auto* modelsLabel = new QLabel(tr("Predict with:"), this);
    modelsLabel->setToolTip(tr("Each model first learns from the task's records in the workspace (those measured with "
                               "the same layout rewrite); scores are its own scale, not GFLOP/s"));
    side->addWidget(modelsLabel);
    m_models = new QListWidget(this);
    m_models->setObjectName(QStringLiteral("sweepModelList"));
    for (const cost::CostModelKind& k : cost::costModelKinds()) {
        const QString kind = QString::fromStdString(k.kind);
        auto* item = new QListWidgetItem(kind, m_models);
        item->setData(Qt::UserRole, kind);
        item->setToolTip(QString::fromStdString(k.description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(kDefaultModels.contains(kind) ? Qt::Checked : Qt::Unchecked);
    }
    m_models->setMaximumWidth(150);
    m_models->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    side->addWidget(m_models, 1);
    body->addLayout(side);
    auto* plotColumn = new QVBoxLayout;
    m_plotTitle = makeNote(this);
    QFont bold = m_plotTitle->font();
    bold.setBold(true);
    m_plotTitle->setFont(bold);
    plotColumn->addWidget(m_plotTitle);
    m_plot = new widgets::SweepPlot(this);
    m_plot->setMinimumSize(360, 150);
    plotColumn->addWidget(m_plot, 1);
    body->addLayout(plotColumn, 1);
    layout->addLayout(body, 1);
    m_status = makeNote(this);
    layout->addWidget(m_status);

    connect(m_sweep, &QPushButton::clicked, this, [this] { startSweep(m_parameter->currentIndex()); });
    connect(m_cancel, &QPushButton::clicked, this, &SweepView::cancelSweep);
    connect(m_plot, &widgets::SweepPlot::pointClicked, this, [this](qint64 value) { selectPoint(value); });
    connect(m_parameter, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && index < static_cast<int>(m_parameters.size()))
            m_chosen = m_parameters[static_cast<size_t>(index)].parameter;
        updateButtons();
    });
    using widgets::SelectionContext;
    connect(&m_selection, &SelectionContext::taskChanged, this, &SweepView::onSelectionChanged);
    connect(&m_selection, &SelectionContext::stateChanged, this, &SweepView::onSelectionChanged);
    connect(&m_selection, &SelectionContext::recordChanged, this, &SweepView::onSelectionChanged);
    m_plotTitle->setText(tr("No sweep yet."));
    listParameters();
}

SweepView::~SweepView() = default;

QStringList SweepView::checkedModels() const
{
    QStringList kinds;
    for (int i = 0; i < m_models->count(); ++i)
        if (m_models->item(i)->checkState() == Qt::Checked)
            kinds.append(m_models->item(i)->data(Qt::UserRole).toString());
    return kinds;
}

void SweepView::setCheckedModels(const QStringList& kinds)
{
    for (int i = 0; i < m_models->count(); ++i) {
        QListWidgetItem* item = m_models->item(i);
        item->setCheckState(kinds.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
}

QString SweepView::titleText() const { return m_title->text(); }

QString SweepView::statusText() const { return m_status->text(); }

void SweepView::onSelectionChanged()
{
    if (m_selection.task() == m_task && m_selection.state() == m_state && m_selection.recordId() == m_recordId)
        return;
    listParameters();
}

void SweepView::listParameters()
{
    m_task = m_selection.task();
    m_state = m_selection.state();
    m_recordId = m_selection.state() ? m_selection.recordId() : std::nullopt;
    m_parameters.clear();
    m_parameter->clear();
    if (!m_task || !m_state) {
        m_listJob.cancel();
        m_listing = false;
        m_title->setText(
            tr("Select a schedule state (a record, a trial, a sketch's state) to sweep one of its parameters."));
        updateButtons();
        Q_EMIT parametersReady();
        return;
    }
    m_listing = true;
    m_title->setText(tr("%1: listing the parameters…").arg(QString::fromStdString(m_task->name)));
    updateButtons();
    m_listJob.start(
        [task = m_task, state = m_state, record = m_recordId, workspace = m_sessions.workspace().toStdString(),
            network = m_selection.network() != nullptr](session::JobContext&) -> Expected<Sweepable> {
            Sweepable out;
            TS_TRY(out.parameters, engine::sweepableParameters(task->dag, *state));
            out.layoutRewrite
                = engine::defaultLayoutRewrite(search::PolicyKind::Ansor, network, target::Target::host());
            if (record && !workspace.empty()) {
                if (auto measured = models::recordLowering(workspace, *record)) {
                    if (measured->target.isGpu())
                        return makeError(ErrorKind::InvalidArgument,
                            "record " + std::to_string(*record) + " was measured on a GPU ("
                                + store::deviceOf(measured->target).name
                                + "); a sweep measures on this machine's CPU: select a CPU record or a state");
                    out.layoutRewrite = measured->layoutRewrite;
                }
            }
            return out;
        },
        [this](Expected<Sweepable> sweepable) { applyParameters(std::move(sweepable)); });
}

void SweepView::applyParameters(Expected<Sweepable> sweepable)
{
    m_listing = false;
    const QString name = QString::fromStdString(m_task->name);
    const QString what
        = m_recordId ? tr("%1, record %2").arg(name).arg(*m_recordId) : tr("%1, selected state").arg(name);
    if (!sweepable) {
        m_title->setText(tr("%1: cannot sweep: %2").arg(what, QString::fromStdString(sweepable.error().message)));
        updateButtons();
        Q_EMIT parametersReady();
        return;
    }
    m_parameters = std::move(sweepable->parameters);
    m_layoutRewrite = sweepable->layoutRewrite;
    {
        const QSignalBlocker block(m_parameter); // keeps the parameter chosen last
        for (const engine::SweepableParameter& p : m_parameters) {
            m_parameter->addItem(tr("%1 — %n value(s)", nullptr, static_cast<int>(p.candidates.size()))
                                     .arg(QString::fromStdString(p.description)));
            m_parameter->setItemData(m_parameter->count() - 1,
                tr("Candidate values: %1 (those whose state replays are measured)").arg(valuesText(p.candidates)),
                Qt::ToolTipRole);
        }
        // The parameter chosen last, when this state has it too (a sibling of the state swept, a point of the sweep).
        for (size_t i = 0; i < m_parameters.size(); ++i)
            if (m_chosen && m_parameters[i].parameter == *m_chosen)
                m_parameter->setCurrentIndex(static_cast<int>(i));
    }
    const QString machine = QString::fromStdString(store::deviceOf(target::Target::host()).name);
    if (m_parameters.empty())
        m_title->setText(tr("%1: nothing to sweep (no split with all its lengths chosen, no unroll limit).").arg(what));
    else
        m_title->setText(tr("%1: %n parameter(s). Sweeps measure on this machine (%2), layout rewrite %3.", nullptr,
            static_cast<int>(m_parameters.size()))
                             .arg(what, machine)
                             .arg(m_layoutRewrite));
    updateButtons();
    Q_EMIT parametersReady();
}

void SweepView::updateButtons()
{
    const bool running = m_job.isRunning();
    const int index = m_parameter->currentIndex();
    m_sweep->setEnabled(!running && !m_listing && index >= 0 && index < static_cast<int>(m_parameters.size()));
    m_cancel->setEnabled(running && !m_job.cancelRequested());
    m_models->setEnabled(!running);
}

session::Publish SweepView::fold(Progress& progress, const Event& event)
{
    if (!event.phase.empty()) {
        progress.phase = event.phase;
        return session::Publish::Now;
    }
    progress.done = event.done;
    progress.total = event.total;
    return event.done == event.total ? session::Publish::Now : session::Publish::WhenDue;
}

bool SweepView::startSweep(int index)
{
    if (m_job.isRunning() || m_listing || !m_task || !m_state || index < 0
        || index >= static_cast<int>(m_parameters.size()))
        return false;
    const engine::SweepableParameter& chosen = m_parameters[static_cast<size_t>(index)];
    engine::SweepOptions options;
    options.measure = m_measure;
    options.measure.target = target::Target::host();
    options.measure.layoutRewrite = m_layoutRewrite;
    options.flops = m_task->flops;
    options.taskName = m_task->name;
    options.workspace = m_sessions.workspace().toStdString();
    std::vector<std::string> kinds;
    for (const QString& kind : checkedModels())
        kinds.push_back(kind.toStdString());

    const QString name = QString::fromStdString(m_task->name);
    m_sweptWhat = tr("%1 of %2")
                      .arg(QString::fromStdString(chosen.description),
                          m_recordId ? tr("%1 record %2").arg(name).arg(*m_recordId) : name);
    m_plotTitle->setText(tr("Sweeping %1").arg(m_sweptWhat));
    m_sweptTask = m_task;
    m_plot->setResult(nullptr);
    m_status->clear();
    m_progress->setRange(0, 0); // busy until the first measurement
    m_progress->setFormat(QString());
    m_progress->setVisible(true);

    const bool started = m_job.start(Progress {},
        [task = m_task, state = m_state, parameter = chosen.parameter, kinds = std::move(kinds),
            options = std::move(options)](SweepJob::Context& context) {
            engine::SweepOptions sweepOptions = options;
            // The models learn from the workspace's records of the task first (read only; a workspace that does not
            // exist yet has nothing to teach).
            std::optional<store::Store> workspace;
            if (!kinds.empty() && !sweepOptions.workspace.empty()) {
                store::OpenOptions readOnly;
                readOnly.readOnly = true;
                auto opened = store::Store::open(sweepOptions.workspace, readOnly);
                if (opened)
                    workspace = std::move(opened).value();
                else if (opened.error().kind != ErrorKind::NotFound) {
                    context.update([&](Progress& p) { p.error = opened.error().message; }, session::Publish::Skip);
                    return;
                }
            }
            std::vector<std::unique_ptr<cost::CostModel>> models;
            std::vector<ModelNote> notes;
            for (const std::string& kind : kinds) {
                if (context.stopRequested())
                    break; // the sweep below returns at once, with no points
                context.fold(Event { "learn " + kind });
                auto model
                    = engine::sweepModel(kind, workspace ? &*workspace : nullptr, task->dag, sweepOptions.measure);
                if (!model) {
                    context.update([&](Progress& p) { p.error = model.error().message; }, session::Publish::Skip);
                    return;
                }
                const cost::CostModel& m = **model;
                notes.push_back({ kind, m.trainedOn(), m.warmingUp() });
                sweepOptions.models.push_back({ kind, model->get() });
                models.push_back(std::move(model).value());
            }
            workspace.reset(); // the sweep opens it again to store the points
            context.update(
                [&](Progress& p) {
                    p.notes = notes;
                    p.phase = "measure";
                },
                session::Publish::Now);
            sweepOptions.progress = [&context](int done, int total) {
                context.fold(Event { {}, done, total });
                return !context.stopRequested();
            };
            sweepOptions.stop = context.stopToken();
            auto result = engine::sweep(task->dag, *state, parameter, sweepOptions);
            context.update(
                [&](Progress& p) {
                    p.phase.clear();
                    if (result)
                        p.result = std::make_shared<const engine::SweepResult>(std::move(result).value());
                    else
                        p.error = result.error().message;
                },
                session::Publish::Skip); // the job publishes its end
        });
    updateButtons();
    return started;
}

void SweepView::cancelSweep()
{
    if (!m_job.isRunning())
        return;
    m_job.cancel();
    m_status->setText(tr("Cancelling: the value being measured is stopped; those measured are kept…"));
    updateButtons();
}

void SweepView::showProgress(std::shared_ptr<const Progress> progress)
{
    if (!progress || !m_job.isRunning())
        return;
    if (progress->phase.rfind("learn ", 0) == 0) {
        m_progress->setRange(0, 0);
        m_status->setText(
            tr("%1 is learning from the task's records…").arg(QString::fromStdString(progress->phase.substr(6))));
    } else if (progress->total > 0) {
        m_progress->setRange(0, progress->total);
        m_progress->setValue(progress->done);
        m_progress->setFormat(tr("%1 of %2 measured").arg(progress->done).arg(progress->total));
        if (!m_job.cancelRequested())
            m_status->setText(tr("Measuring on this machine, one value at a time in the runner…"));
    }
}

void SweepView::onSweepEnded(Expected<void> outcome)
{
    const std::shared_ptr<const Progress> last = m_job.snapshot();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());
    m_progress->setVisible(false);
    updateButtons();
    const std::string error = !outcome ? outcome.error().message : last ? last->error : std::string();
    if (!error.empty() || !last || !last->result) {
        m_plotTitle->setText(tr("Sweep failed: %1").arg(m_sweptWhat));
        m_status->setText(tr("The sweep failed: %1").arg(QString::fromStdString(error)));
        Q_EMIT sweepFinished();
        return;
    }
    const engine::SweepResult& r = *last->result;
    m_plot->setResult(last->result);
    m_plotTitle->setText(tr("Swept %1").arg(m_sweptWhat));
    const int measured = static_cast<int>(r.points.size());
    QString status = r.cancelled ? tr("Cancelled: %1 of %2 values measured (kept).").arg(measured).arg(r.total)
                                 : tr("%1 of %2 values measured.").arg(measured).arg(r.total);
    const engine::SweepPoint* best = nullptr;
    int failed = 0;
    for (const engine::SweepPoint& p : r.points) {
        if (!p.result.ok())
            ++failed;
        else if (!best || p.gflops > best->gflops)
            best = &p;
    }
    if (best)
        status += QLatin1Char(' ') + tr("Fastest: %1 at %2 GFLOP/s.").arg(best->value).arg(best->gflops, 0, 'f', 1);
    for (const engine::SweepPoint& p : r.points)
        if (p.current && p.result.ok())
            status
                += QLatin1Char(' ') + tr("The state's own value %1: %2 GFLOP/s.").arg(p.value).arg(p.gflops, 0, 'f', 1);
    if (failed > 0)
        status += QLatin1Char(' ') + tr("%n failed (hover the crosses for why).", nullptr, failed);
    int64_t first = 0;
    int64_t lastId = 0;
    for (const engine::SweepPoint& p : r.points)
        if (p.recordId > 0) {
            first = first == 0 ? p.recordId : std::min(first, p.recordId);
            lastId = std::max(lastId, p.recordId);
        }
    if (first > 0)
        status += QLatin1Char(' ')
            + (first == lastId ? tr("Stored as record %1.").arg(first)
                               : tr("Stored as records %1–%2.").arg(first).arg(lastId));
    if (!last->notes.empty()) {
        QStringList notes;
        for (const ModelNote& note : last->notes) {
            const QString kind = QString::fromStdString(note.kind);
            notes.append(note.warmingUp ? tr("%1 had nothing to learn from (random scores)").arg(kind)
                    : note.trainedOn > 0
                    ? tr("%1 learned from %n record(s) of the task", nullptr, static_cast<int>(note.trainedOn))
                          .arg(kind)
                    : kind);
        }
        status += QLatin1Char(' ') + tr("Models: %1.").arg(notes.join(QStringLiteral("; ")));
    }
    m_status->setText(status);
    if (first > 0)
        m_sessions.announceRecords();
    Q_EMIT sweepFinished();
}

bool SweepView::selectPoint(int64_t value)
{
    const std::shared_ptr<const engine::SweepResult>& result = m_plot->result();
    if (!result || !m_sweptTask)
        return false;
    const auto point = std::find_if(result->points.begin(), result->points.end(),
        [value](const engine::SweepPoint& p) { return p.value == value; });
    if (point == result->points.end() || point->recordId <= 0)
        return false;
    // A replay of a state that replayed in the sweep: a few steps, quick on the GUI thread (as the code view's).
    auto state = sched::State::replayJson(m_sweptTask->dag, point->steps);
    if (!state) {
        m_status->setText(
            tr("Cannot select record %1: %2").arg(point->recordId).arg(QString::fromStdString(state.error().message)));
        return false;
    }
    m_selection.selectMeasured(
        m_sweptTask, std::make_shared<const sched::State>(std::move(state).value()), point->recordId);
    return true;
}

} // namespace ts::app
