#include "app/gui/network_run_view.h"

#include "app/gui/view_registry.h"
#include "core/engine/tune_origin.h"
#include "core/session/network_run_job.h"
#include "widgets/network_run_plot.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace ts::app {

namespace {
    QString ms(double seconds) { return QString::number(seconds * 1e3, 'f', 2); }
} // namespace

NetworkRunView::NetworkRunView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_hub(context.sessions)
    , m_runAction(new QAction(tr("Run &network"), this))
    , m_compare(new QCheckBox(tr("beside LibTorch"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_plot(new widgets::NetworkRunPlot(this))
    , m_job(this)
{
    m_runAction->setObjectName(QStringLiteral("runNetwork"));
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(tr("Run the shown session's network whole from the workspace's best records: every "
                               "kernel built and checked, whole runs timed, beside Ansor's estimate"));
    m_compare->setToolTip(tr("Also run the network in LibTorch on the same weights and input, and compare"));
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* run = new QToolButton(this);
    run->setDefaultAction(m_runAction);
    auto* top = new QHBoxLayout;
    top->addWidget(run);
    top->addWidget(m_compare);
    top->addWidget(m_progress, 1);
    top->addWidget(m_cancel);
    top->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_plot, 1);
    addAction(m_runAction);

    connect(m_runAction, &QAction::triggered, this, [this] { runNetwork(); });
    connect(m_cancel, &QPushButton::clicked, this, &NetworkRunView::cancel);
    connect(&m_hub, &widgets::SessionHub::currentChanged, this, [this] {
        updateActions();
        showRun();
    });
    connect(&m_hub, &widgets::SessionHub::liveStateChanged, this, &NetworkRunView::updateActions);
    connect(&m_hub, &widgets::SessionHub::networkRunChanged, this, &NetworkRunView::showRun);
    updateActions();
    showRun();
}

void NetworkRunView::updateActions()
{
    const auto current = m_hub.current();
    const bool network = current && !current->network.empty();
    const bool measuring = m_hub.isLive() && !m_hub.isPaused();
    m_runAction->setEnabled(network && !measuring && !m_job.isRunning());
}

void NetworkRunView::runNetwork(int repeat)
{
    const auto current = m_hub.current();
    if (!current || current->network.empty() || m_job.isRunning())
        return;
    auto origin = engine::TuneOrigin::fromJson(current->origin);
    session::NetworkRunRequest request;
    request.network = current->network;
    if (origin) {
        request.batch = origin->batch;
        request.layout = origin->layout;
    }
    request.workspace = m_hub.workspace().toStdString();
    request.repeat = repeat;
    request.compareLibTorch = m_compare->isChecked();
    const std::string title = current->title;
    m_progress->setValue(0);
    m_progress->setFormat(tr("building…"));
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_summary->setText(tr("Running %1 from the workspace's best records…").arg(QString::fromStdString(title)));
    m_job.start([request](session::JobContext& ctx) { return session::runNetworkInChild(request, ctx); },
        [this, title](Expected<runtime::NetworkRun> run) {
            m_progress->setVisible(false);
            m_cancel->setVisible(false);
            updateActions();
            if (!run) {
                const QString error = QString::fromStdString(run.error().message);
                m_summary->setText(tr("The run of %1 failed: %2").arg(QString::fromStdString(title), error));
                Q_EMIT finished(error);
                return;
            }
            m_hub.setNetworkRun(title, std::make_shared<const runtime::NetworkRun>(std::move(*run)));
            Q_EMIT finished(QString());
        },
        [this](const session::JobProgress& progress) {
            m_progress->setValue(static_cast<int>(progress.fraction * 100));
            m_progress->setFormat(QString::fromStdString(progress.message).left(60));
        });
    updateActions();
}

void NetworkRunView::cancel()
{
    if (!m_job.isRunning())
        return;
    m_job.cancel();
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_summary->setText(tr("The network run was cancelled."));
    updateActions();
    Q_EMIT finished(tr("cancelled"));
}

void NetworkRunView::showRun()
{
    if (m_job.isRunning())
        return;
    const auto current = m_hub.current();
    const auto run = current ? m_hub.networkRun(*current) : nullptr;
    m_plot->setRun(run ? std::optional<runtime::NetworkRun>(*run) : std::nullopt);
    if (!current || current->network.empty()) {
        m_summary->setText(tr("Show a network's session to run the network whole from its best records."));
        return;
    }
    if (!run) {
        m_summary->setText(tr("%1 has not been run whole in this window yet: Run network builds every kernel from "
                              "the workspace's best records, checks it and times whole runs.")
                               .arg(QString::fromStdString(current->title)));
        return;
    }
    QString text = tr("<b>%1 ms</b> measured (median of %2 runs, p90 %3 ms) on %4, %5 kernels, all checked against "
                      "the reference evaluator")
                       .arg(ms(run->medianSeconds))
                       .arg(run->runSeconds.size())
                       .arg(ms(run->p90Seconds))
                       .arg(QString::fromStdString(run->cpu))
                       .arg(run->kernels);
    if (run->allEstimated())
        text += tr("; Ansor's estimate %1 ms, measured / estimate <b>%2</b>")
                    .arg(ms(run->estimateSeconds))
                    .arg(run->medianSeconds / run->estimateSeconds, 0, 'f', 2);
    else if (run->estimatedTasks > 0)
        text += tr("; Ansor's estimate %1 ms for the %2 of %3 tasks tuned, which measured %4 ms of it (%5x); the "
                   "others ran their default schedule")
                    .arg(ms(run->estimateSeconds))
                    .arg(run->estimatedTasks)
                    .arg(run->tasks.size())
                    .arg(ms(run->estimatedTasksMeasuredSeconds()))
                    .arg(run->estimatedTasksMeasuredSeconds() / run->estimateSeconds, 0, 'f', 2);
    else
        text += tr("; no task has a record on this machine, so every kernel ran its default schedule");
    if (run->library)
        text += tr("<br>%1: %2 ms, outputs %3; TuneScope is <b>%4x</b> its speed")
                    .arg(QString::fromStdString(run->library->what).toHtmlEscaped())
                    .arg(ms(run->library->medianSeconds))
                    .arg(run->library->outputError <= 1.0 ? tr("equal") : tr("DIFFERENT"))
                    .arg(run->library->medianSeconds / run->medianSeconds, 0, 'f', 2);
    m_summary->setText(text + QStringLiteral("."));
}

} // namespace ts::app
