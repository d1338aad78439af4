#include "app/gui/race_view.h"

#include "core/engine/tune_origin.h"
#include "core/graph/op_tasks.h"
#include "core/schedule/state.h"
#include "core/search/task_policy.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/support/strings.h"
#include "widgets/plot_style.h"
#include "widgets/qcustomplot_shim.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

namespace {
    const QColor kLaneColors[2] = { QColor(31, 119, 180), QColor(214, 39, 40) };
    constexpr int kReplayMs = 10000; // a stored race plays back in ten seconds
    constexpr int kTickMs = 50;

    QString gflopsText(double g) { return QString::number(g, 'f', 1); }

    // The New race dialog: the task (the selected one, or an operator and its shape), two policies, the budget.
    class RaceDialog : public QDialog {
    public:
        RaceDialog(std::shared_ptr<const graph::Task> selected, QWidget* parent)
            : QDialog(parent)
            , m_selected(std::move(selected))
        {
            setWindowTitle(RaceView::tr("New race"));
            auto* form = new QFormLayout(this);
            m_useSelected = new QRadioButton(m_selected
                    ? RaceView::tr("Selected task: %1").arg(QString::fromStdString(m_selected->name))
                    : RaceView::tr("Selected task (none selected)"),
                this);
            m_useOp = new QRadioButton(RaceView::tr("Operator:"), this);
            m_useSelected->setEnabled(m_selected != nullptr);
            (m_selected ? m_useSelected : m_useOp)->setChecked(true);
            form->addRow(m_useSelected);
            m_op = new QComboBox(this);
            for (const graph::OperatorInfo& info : graph::operators())
                m_op->addItem(QString::fromStdString(info.name), QString::fromStdString(info.shapeValues));
            m_op->setCurrentText(QStringLiteral("dense"));
            m_shape = new QLineEdit(QStringLiteral("128,256,256"), this);
            auto* opRow = new QHBoxLayout;
            opRow->addWidget(m_op);
            opRow->addWidget(m_shape, 1);
            form->addRow(m_useOp, opRow);
            for (QComboBox** combo : { &m_first, &m_second }) {
                *combo = new QComboBox(this);
                for (const search::PolicyInfo& info : search::policies())
                    (*combo)->addItem(QString::fromUtf8(info.name), QString::fromUtf8(info.name));
            }
            m_first->setCurrentText(QStringLiteral("ansor"));
            m_second->setCurrentText(QStringLiteral("autotvm-xgb"));
            form->addRow(RaceView::tr("Policy 1:"), m_first);
            form->addRow(RaceView::tr("Policy 2:"), m_second);
            m_trials = new QSpinBox(this);
            m_trials->setRange(8, 100000);
            m_trials->setValue(256);
            form->addRow(RaceView::tr("Trials per policy:"), m_trials);
            m_perRound = new QSpinBox(this);
            m_perRound->setRange(1, 1024);
            m_perRound->setValue(64);
            form->addRow(RaceView::tr("Measures per round:"), m_perRound);
            m_seed = new QSpinBox(this);
            m_seed->setRange(0, 1 << 30);
            m_seed->setValue(1);
            form->addRow(RaceView::tr("Seed:"), m_seed);
            m_error = new QLabel(this);
            m_error->setWordWrap(true);
            m_error->setStyleSheet(QStringLiteral("color: #b00020"));
            form->addRow(m_error);
            auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
            buttons->button(QDialogButtonBox::Ok)->setText(RaceView::tr("Start race"));
            form->addRow(buttons);
            connect(buttons, &QDialogButtonBox::accepted, this, [this] { check(); });
            connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        }

        std::shared_ptr<const graph::Task> task;
        engine::RaceOptions options;

    private:
        void check()
        {
            std::shared_ptr<const graph::Task> t = m_selected;
            engine::TuneOrigin origin;
            if (m_useOp->isChecked()) {
                auto shape = graph::parseShapeValues(m_shape->text().remove(QLatin1Char(' ')).toStdString());
                if (!shape)
                    return fail(
                        RaceView::tr("Shape: %1 takes %2.").arg(m_op->currentText(), m_op->currentData().toString()));
                auto built = graph::operatorTask(m_op->currentText().toStdString(), *shape, ops::Layout::NCHW);
                if (!built)
                    return fail(QString::fromStdString(built.error().message));
                t = std::make_shared<const graph::Task>(std::move(built).value());
                origin.op = m_op->currentText().toStdString();
                origin.shape = m_shape->text().remove(QLatin1Char(' ')).toStdString();
            }
            if (!t)
                return fail(RaceView::tr("Select a task in the explorer, or give an operator and its shape."));
            options.policies.clear();
            for (QComboBox* combo : { m_first, m_second }) {
                const auto kind = search::policyKindFromString(combo->currentData().toString().toStdString());
                if (!kind)
                    return fail(QString::fromStdString(kind.error().message));
                if (auto supported = search::policySupports(*kind, t->dag); !supported)
                    return fail(RaceView::tr("%1: %2").arg(
                        combo->currentText(), QString::fromStdString(supported.error().message)));
                options.policies.push_back(*kind);
            }
            if (options.policies[0] == options.policies[1])
                return fail(RaceView::tr("Choose two different policies."));
            options.task = { t->name, t->dag, t->weight, join(t->fusedOps, ",") };
            options.trials = m_trials->value();
            options.measuresPerRound = m_perRound->value();
            options.seed = static_cast<uint64_t>(m_seed->value());
            if (!origin.op.empty())
                options.origin = origin.toJson();
            task = std::move(t);
            accept();
        }
        void fail(const QString& message) { m_error->setText(message); }

        std::shared_ptr<const graph::Task> m_selected;
        QRadioButton* m_useSelected = nullptr;
        QRadioButton* m_useOp = nullptr;
        QComboBox* m_op = nullptr;
        QLineEdit* m_shape = nullptr;
        QComboBox* m_first = nullptr;
        QComboBox* m_second = nullptr;
        QSpinBox* m_trials = nullptr;
        QSpinBox* m_perRound = nullptr;
        QSpinBox* m_seed = nullptr;
        QLabel* m_error = nullptr;
    };
} // namespace

RaceView::RaceView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_context(context)
    , m_bestJob(this)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    auto* newButton = new QPushButton(tr("New race…"), this);
    m_cancel = new QPushButton(tr("Cancel race"), this);
    m_cancel->setEnabled(false);
    m_stored = new QComboBox(this);
    m_stored->setPlaceholderText(tr("Stored races"));
    m_stored->setMinimumContentsLength(28);
    auto* replay = new QPushButton(tr("Replay"), this);
    m_play = new QPushButton(tr("Pause"), this);
    m_play->setEnabled(false);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setEnabled(false);
    bar->addWidget(newButton);
    bar->addWidget(m_cancel);
    bar->addSpacing(12);
    bar->addWidget(m_stored, 1);
    bar->addWidget(replay);
    bar->addWidget(m_play);
    bar->addWidget(m_slider, 1);
    layout->addLayout(bar);
    m_title = new QLabel(tr("No race yet: start one (New race…) or replay a stored one."), this);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    auto* body = new QHBoxLayout;
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(360, 220);
    m_plot->xAxis->setLabel(tr("Trials"));
    m_plot->yAxis->setLabel(tr("Best GFLOP/s"));
    m_plot->legend->setVisible(false); // until a race names its lanes
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    for (int lane = 0; lane < 2; ++lane) {
        QCPGraph* graph = m_plot->addGraph();
        graph->setPen(QPen(kLaneColors[lane], 2));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->removeFromLegend(); // in the legend once a race names its lane
        graph->setName(QString());
    }
    body->addWidget(m_plot, 3);
    auto* side = new QVBoxLayout;
    for (int lane = 0; lane < 2; ++lane) {
        m_lanes[lane] = new QLabel(this);
        m_lanes[lane]->setWordWrap(true);
        m_lanes[lane]->setTextFormat(Qt::RichText);
        m_lanes[lane]->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_best[lane] = new QPushButton(tr("Show best program"), this);
        m_best[lane]->setEnabled(false);
        side->addWidget(m_lanes[lane]);
        side->addWidget(m_best[lane], 0, Qt::AlignLeft);
        connect(m_best[lane], &QPushButton::clicked, this, [this, lane] { showBest(lane); });
    }
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    side->addWidget(m_summary);
    side->addStretch(1);
    body->addLayout(side, 2);
    layout->addLayout(body, 1);

    m_timer = new QTimer(this);
    m_timer->setInterval(kTickMs);
    connect(m_timer, &QTimer::timeout, this, [this] { step(); });
    connect(newButton, &QPushButton::clicked, this, [this] { newRace(); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_runner.cancel();
        m_cancel->setEnabled(false);
    });
    connect(replay, &QPushButton::clicked, this, [this] { replaySelected(); });
    connect(m_play, &QPushButton::clicked, this, [this] {
        if (m_timer->isActive()) {
            m_timer->stop();
            m_play->setText(tr("Play"));
        } else {
            if (m_position >= m_slider->maximum())
                m_position = 0;
            m_timer->start();
            m_play->setText(tr("Pause"));
        }
    });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (value == m_position)
            return;
        m_position = value;
        redraw();
    });
    connect(&m_runner, &widgets::RaceRunner::updated, this, [this] { showSnapshot(m_runner.current()); });
    connect(&m_runner, &widgets::RaceRunner::finished, this, [this](const QString&) {
        m_cancel->setEnabled(false);
        m_runner.listRaces(m_context.sessions.workspace());
    });
    connect(&m_runner, &widgets::RaceRunner::racesListed, this, [this](const std::vector<engine::RaceInfo>& races) {
        const QString current = m_stored->currentData().toString();
        m_stored->clear();
        for (const engine::RaceInfo& r : races)
            m_stored->addItem(
                QStringLiteral("%1 — %2 (%3)")
                    .arg(QString::fromStdString(r.taskName), QString::fromStdString(join(r.policies, " vs ")),
                        QString::fromStdString(r.status)),
                QString::fromStdString(r.id));
        const int keep = m_stored->findData(current);
        m_stored->setCurrentIndex(keep >= 0 ? keep : (m_stored->count() > 0 ? 0 : -1));
    });
    connect(
        &m_runner, &widgets::RaceRunner::raceLoaded, this, [this](std::shared_ptr<const widgets::RaceSnapshot> race) {
            m_replaying = true;
            m_position = 0;
            showSnapshot(std::move(race));
            m_play->setEnabled(true);
            m_play->setText(tr("Pause"));
            m_timer->start();
        });
    connect(&m_runner, &widgets::RaceRunner::errorOccurred, this,
        [this](const QString& message) { m_title->setText(tr("Race: %1").arg(message)); });
    connect(&m_context.sessions, &widgets::SessionHub::workspaceChanged, this,
        [this] { m_runner.listRaces(m_context.sessions.workspace()); });
    // A workspace that did not exist when it was opened (the demo's, on a first start) exists once its sessions are
    // listed: list its races again then.
    connect(&m_context.sessions, &widgets::SessionHub::sessionsChanged, this, [this] {
        if (!m_runner.running())
            m_runner.listRaces(m_context.sessions.workspace());
    });
    if (!m_context.sessions.workspace().isEmpty())
        m_runner.listRaces(m_context.sessions.workspace());
}

bool RaceView::startRace(std::shared_ptr<const graph::Task> task, engine::RaceOptions options)
{
    if (options.workspace.empty())
        options.workspace = m_context.sessions.workspace().toStdString();
    m_timer->stop();
    m_replaying = false;
    m_play->setEnabled(false);
    m_slider->setEnabled(false);
    if (!m_runner.start(std::move(options), std::move(task)))
        return false;
    m_cancel->setEnabled(true);
    m_title->setText(tr("Starting the race…"));
    return true;
}

void RaceView::newRace()
{
    RaceDialog dialog(m_context.selection.task(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    startRace(dialog.task, dialog.options);
}

void RaceView::replaySelected()
{
    if (m_stored->currentIndex() < 0 || m_runner.running())
        return;
    m_runner.loadRace(m_context.sessions.workspace(), m_stored->currentData().toString());
}

void RaceView::step()
{
    const int last = m_slider->maximum();
    const int perTick = std::max(1, last * kTickMs / kReplayMs);
    m_position = std::min(last, m_position + perTick);
    redraw();
    if (m_position >= last) {
        m_timer->stop();
        m_play->setText(tr("Play"));
    }
}

void RaceView::showSnapshot(std::shared_ptr<const widgets::RaceSnapshot> snapshot)
{
    m_shown = std::move(snapshot);
    if (!m_shown)
        return;
    int longest = 0;
    for (const engine::RaceLane& lane : m_shown->result.lanes)
        longest = std::max(longest, static_cast<int>(lane.bestGflops.size()));
    m_slider->setRange(0, std::max(longest, m_shown->result.trials));
    m_slider->setEnabled(m_replaying);
    if (!m_replaying)
        m_position = longest;
    redraw();
}

QString RaceView::explain(search::PolicyKind policy, const std::string& phase)
{
    const bool autotvm = search::isAutotvm(policy);
    if (phase == "done")
        return tr("Done.");
    if (phase.empty())
        return tr("Waiting for its turn: rounds alternate, so that each measures alone.");
    if (phase == "measure")
        return autotvm ? tr("Measuring configs of the template: each is compiled and timed; its GFLOP/s goes back to "
                            "the tuner.")
                       : tr("Measuring the programs the evolutionary search ranked best (and a few random ones).");
    if (phase == "model")
        return tr("Updating the cost model with the measured programs.");
    switch (policy) {
    case search::PolicyKind::Ansor:
        return tr("Searching: random tile sizes and annotations of the sketches, evolved over generations and "
                  "ranked by the cost model; nobody wrote this search space by hand.");
    case search::PolicyKind::Random:
        return tr("Searching: drawing random programs from the sketches (no model).");
    case search::PolicyKind::AutotvmXgb:
        return tr("Searching: simulated annealing walks the template's configs under the XGBoost model, "
                  "refit every 64 measurements; the plan's last 5% are random configs.");
    case search::PolicyKind::AutotvmGa:
        return tr("Searching: a new generation of configs from roulette selection, single-point crossover and "
                  "mutation of knob values.");
    case search::PolicyKind::AutotvmRandom:
        return tr("Searching: drawing configs of the template uniformly, never the same twice.");
    case search::PolicyKind::AutotvmGrid:
        return tr("Searching: taking the template's configs in index order.");
    }
    return {};
}

QString RaceView::laneText(int lane) const { return m_lanes[lane]->text(); }
QString RaceView::summaryText() const { return m_summary->text(); }

void RaceView::redraw()
{
    if (!m_shown)
        return;
    const engine::RaceResult& race = m_shown->result;
    {
        const QSignalBlocker quiet(m_slider);
        m_slider->setValue(m_position);
    }
    if (!m_shown->error.empty())
        m_title->setText(tr("The race failed: %1").arg(QString::fromStdString(m_shown->error)));
    else
        m_title->setText(tr("<b>%1</b>: %2 trials per policy, seed %3 — %4")
                             .arg(QString::fromStdString(race.taskName))
                             .arg(race.trials)
                             .arg(race.seed)
                             .arg(m_shown->live    ? tr("racing")
                                     : m_replaying ? tr("replay from the workspace")
                                                   : tr("finished")));
    for (int lane = 0; lane < 2; ++lane) {
        QCPGraph* graph = m_plot->graph(lane);
        graph->data()->clear();
        if (lane >= static_cast<int>(race.lanes.size())) {
            graph->setName(QString());
            graph->removeFromLegend();
            m_lanes[lane]->clear();
            m_best[lane]->setEnabled(false);
            continue;
        }
        const engine::RaceLane& l = race.lanes[static_cast<size_t>(lane)];
        const int shown = std::min(m_position, static_cast<int>(l.bestGflops.size()));
        QVector<double> xs, ys;
        for (int i = 0; i < shown; ++i) {
            xs.push_back(i + 1);
            ys.push_back(l.bestGflops[static_cast<size_t>(i)]);
        }
        graph->setData(xs, ys, true);
        graph->setName(QString::fromUtf8(search::toString(l.policy)));
        graph->addToLegend();
        const double best = shown > 0 ? l.bestGflops[static_cast<size_t>(shown - 1)] : 0.0;
        const std::string phase = m_replaying
            ? (shown < static_cast<int>(l.bestGflops.size()) ? "measure" : "done")
            : (lane < static_cast<int>(m_shown->phases.size()) ? m_shown->phases[static_cast<size_t>(lane)] : "");
        m_lanes[lane]->setText(
            tr("<span style='color:%1'><b>%2</b></span> — %3<br>%4 trials, best <b>%5</b> GFLOP/s, "
               "%6 failed<br><i>%7</i><br><small>%8</small>")
                .arg(kLaneColors[lane].name(), QString::fromUtf8(search::toString(l.policy)),
                    QString::fromStdString(l.space.text))
                .arg(shown)
                .arg(gflopsText(best))
                .arg(l.errors)
                .arg(explain(l.policy, phase), QString::fromStdString(l.description).toHtmlEscaped()));
        m_best[lane]->setEnabled(l.bestRecordId > 0 && m_shown->task != nullptr && !m_shown->live);
    }
    QString summary;
    if (race.lanes.size() == 2
        && m_position >= static_cast<int>(std::max(race.lanes[0].bestGflops.size(), race.lanes[1].bestGflops.size()))) {
        for (int a = 0; a < 2; ++a) {
            const engine::RaceLane& me = race.lanes[static_cast<size_t>(a)];
            const engine::RaceLane& other = race.lanes[static_cast<size_t>(1 - a)];
            const auto reached = me.trialsToReach(other.best());
            summary += tr("%1 reached %2's best (%3 GFLOP/s): %4<br>")
                           .arg(QString::fromUtf8(search::toString(me.policy)),
                               QString::fromUtf8(search::toString(other.policy)), gflopsText(other.best()),
                               reached ? tr("after %1 trials").arg(*reached) : tr("not within the budget"));
        }
    }
    m_summary->setText(summary);
    m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);
    m_plot->rescaleAxes();
    m_plot->xAxis->setRangeLower(0);
    m_plot->yAxis->setRangeLower(0);
    m_plot->yAxis->setRangeUpper(std::max(1.0, m_plot->yAxis->range().upper * 1.08));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RaceView::showBest(int lane)
{
    if (!m_shown || !m_shown->task || lane >= static_cast<int>(m_shown->result.lanes.size()))
        return;
    const int64_t recordId = m_shown->result.lanes[static_cast<size_t>(lane)].bestRecordId;
    m_bestJob.start(
        [path = m_context.sessions.workspace().toStdString(), task = m_shown->task, recordId](
            session::JobContext&) -> Expected<std::shared_ptr<const sched::State>> {
            store::OpenOptions options;
            options.readOnly = true;
            TS_TRY(store::Store store, store::Store::open(path, options));
            TS_TRY(std::vector<store::Record> page, store.recordPage({}, recordId - 1, 1));
            if (page.empty() || page.front().id != recordId)
                return makeError(
                    ErrorKind::NotFound, "record " + std::to_string(recordId) + " is not in the workspace");
            TS_TRY(sched::State state, store::replayStored(task->dag, page.front().steps, page.front().extra));
            return std::make_shared<const sched::State>(std::move(state));
        },
        [this, task = m_shown->task, recordId](Expected<std::shared_ptr<const sched::State>> state) {
            if (!state) {
                m_title->setText(tr("Cannot show the program: %1").arg(QString::fromStdString(state.error().message)));
                return;
            }
            m_context.selection.selectMeasured(task, *state, recordId);
        });
}

} // namespace ts::app
