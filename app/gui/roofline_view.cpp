#include "app/gui/roofline_view.h"

#include "app/gui/view_registry.h"
#include "core/engine/machine.h"
#include "core/store/store.h"
#include "widgets/models/network_catalog.h"
#include "widgets/roofline_plot.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ts::app {

namespace {
    struct TaskInput {
        int id = 0;
        std::string key; // workload key
        double flops = 0;
        double bytes = 0;
        bool selected = false;
    };

    struct Loaded {
        std::optional<measure::MachineProfile> profile;
        std::vector<widgets::RooflinePlot::Point> points;
        int selectedRecords = 0;
    };

    Expected<Loaded> load(const std::string& workspace, const std::vector<TaskInput>& tasks, session::JobContext& ctx)
    {
        Loaded out;
        if (workspace.empty() || !QFileInfo::exists(QString::fromStdString(workspace)))
            return out;
        store::OpenOptions options;
        options.readOnly = true;
        TS_TRY(store::Store store, store::Store::open(workspace, options));
        TS_TRY(std::vector<store::Device> devices, store.devices());
        const std::optional<store::Device> device
            = engine::hostDevice(devices, store::deviceOf(target::Target::host()));
        if (!device)
            return out;
        out.profile = engine::storedProfile(*device);
        for (const TaskInput& task : tasks) {
            if (ctx.stopRequested())
                break;
            TS_TRY(std::optional<store::TaskInfo> row, store.findTask(task.key));
            if (!row)
                continue;
            TS_TRY(
                std::vector<store::Record> records, store.bestRecords(row->id, device->id, task.selected ? 2000 : 1));
            bool first = true;
            for (const store::Record& r : records) {
                const double cost = r.result.meanCost();
                if (!r.result.ok() || cost <= 0)
                    continue;
                out.points.push_back({ task.bytes > 0 ? task.flops / task.bytes : 0, task.flops / cost / 1e9, r.id,
                    task.id, task.selected, first, task.bytes });
                first = false;
                out.selectedRecords += task.selected ? 1 : 0;
            }
        }
        return out;
    }
} // namespace

RooflineView::RooflineView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_hub(context.sessions)
    , m_profileLabel(new QLabel(this))
    , m_measure(new QPushButton(tr("Measure machine"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_plot(new widgets::RooflinePlot(this))
    , m_summary(new QLabel(this))
    , m_throttle(new QTimer(this))
    , m_loadJob(this)
    , m_measureJob(this)
{
    m_profileLabel->setWordWrap(true);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_measure->setToolTip(tr("Measure this machine's FMA peak per thread count, its memory bandwidth (triad) "
                             "and caches, and keep them in the workspace"));
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    auto* top = new QHBoxLayout;
    top->addWidget(m_profileLabel, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);
    top->addWidget(m_measure);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_summary);

    m_throttle->setSingleShot(true);
    m_throttle->setInterval(1000);
    connect(m_throttle, &QTimer::timeout, this, &RooflineView::refresh);
    connect(m_measure, &QPushButton::clicked, this, [this] { measureMachine(); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_measureJob.cancel();
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
        m_measure->setEnabled(true);
        Q_EMIT machineMeasured(tr("cancelled"));
    });
    connect(&m_selection, &widgets::SelectionContext::taskChanged, this, &RooflineView::refresh);
    connect(&m_selection, &widgets::SelectionContext::networkChanged, this, &RooflineView::refresh);
    connect(&m_hub, &widgets::SessionHub::workspaceChanged, this, &RooflineView::refresh);
    connect(&m_hub, &widgets::SessionHub::currentChanged, this, &RooflineView::scheduleRefresh);
    connect(&m_hub, &widgets::SessionHub::liveFinished, this, &RooflineView::refresh);
    refresh();
}

void RooflineView::scheduleRefresh()
{
    if (!m_throttle->isActive())
        m_throttle->start();
}

void RooflineView::refresh()
{
    std::vector<TaskInput> tasks;
    const auto& network = m_selection.network();
    const auto& selected = m_selection.task();
    auto add = [&](const graph::Task& t, bool isSelected) {
        tasks.push_back({ static_cast<int>(t.id), t.dag.workloadKey(), t.flops,
            static_cast<double>(t.dag.bytesRead() + t.dag.bytesWritten()), isSelected });
    };
    if (network && network->tasks)
        for (const graph::Task& t : network->tasks->tasks)
            add(t, selected && t.dag.workloadKey() == selected->dag.workloadKey());
    if (selected && std::none_of(tasks.begin(), tasks.end(), [](const TaskInput& t) { return t.selected; }))
        add(*selected, true);
    const std::string workspace = m_hub.workspace().toStdString();
    const QString taskName = selected ? QString::fromStdString(selected->name) : QString();
    m_loadJob.start([workspace, tasks](session::JobContext& ctx) { return load(workspace, tasks, ctx); },
        [this, taskName, hasTask = selected != nullptr](Expected<Loaded> loaded) {
            if (!loaded) {
                m_summary->setText(
                    tr("Cannot read the workspace: %1").arg(QString::fromStdString(loaded.error().message)));
                Q_EMIT refreshed();
                return;
            }
            const std::optional<measure::MachineProfile>& profile = loaded->profile;
            if (profile) {
                const int threads = static_cast<int>(profile->peakGflops.size());
                // The bandwidths measured, innermost first: "L2 402.1, L3 95.0, DRAM 32.1 GB/s".
                QStringList bandwidths;
                if (profile->measures(measure::MemoryLevel::L2))
                    bandwidths << tr("L2 %1").arg(profile->bandwidth(measure::MemoryLevel::L2, threads), 0, 'f', 1);
                if (profile->measures(measure::MemoryLevel::L3))
                    bandwidths << tr("L3 %1").arg(profile->bandwidth(measure::MemoryLevel::L3, threads), 0, 'f', 1);
                bandwidths << tr("DRAM %1").arg(profile->bandwidth(threads), 0, 'f', 1);
                m_profileLabel->setText(tr("%1: FMA peak %2 GFLOP/s on %n thread(s); %3 GB/s; caches L1d %4 KiB, "
                                           "L2 %5 KiB, L3 %6 MiB",
                    nullptr, threads)
                                            .arg(QString::fromStdString(profile->cpu))
                                            .arg(profile->peak(threads), 0, 'f', 1)
                                            .arg(bandwidths.join(QStringLiteral(", ")))
                                            .arg(profile->l1dBytes / 1024)
                                            .arg(profile->l2Bytes / 1024)
                                            .arg(static_cast<double>(profile->l3Bytes) / (1024.0 * 1024.0), 0, 'f', 0));
                m_measure->setText(tr("Measure again"));
            } else {
                m_profileLabel->setText(tr("No machine profile in this workspace yet: measure this machine's limits "
                                           "to draw the roofs (about 10 s)."));
                m_measure->setText(tr("Measure machine"));
            }
            const widgets::RooflinePlot::Point* best = nullptr;
            for (const widgets::RooflinePlot::Point& p : loaded->points)
                if (p.selectedTask && p.best)
                    best = &p;
            if (!hasTask) {
                m_summary->setText(tr("Select a task to see its records against the roofs."));
            } else if (!best) {
                m_summary->setText(tr("%1 has no successful record on this machine yet.").arg(taskName));
            } else if (profile) {
                const measure::RooflinePoint p = measure::rooflineAt(
                    *profile, best->gflops, best->intensity, static_cast<int>(profile->peakGflops.size()), best->bytes);
                m_summary->setText(tr("%1: %n record(s); the best reaches %2 GFLOP/s at %3 FLOP/byte, %4% of its "
                                      "roof (%5) and %6% of the FMA peak.",
                    nullptr, loaded->selectedRecords)
                                       .arg(taskName)
                                       .arg(best->gflops, 0, 'f', 1)
                                       .arg(best->intensity, 0, 'f', 2)
                                       .arg(100 * p.ofRoof, 0, 'f', 1)
                                       .arg(p.memoryBound ? tr("memory-bound, its data in %1")
                                                                .arg(QString::fromLatin1(measure::toString(p.level)))
                                                          : tr("compute-bound"))
                                       .arg(100 * p.ofPeak, 0, 'f', 1));
            } else {
                m_summary->setText(tr(
                    "%1: %n record(s); the best reaches %2 GFLOP/s at %3 FLOP/byte.", nullptr, loaded->selectedRecords)
                                       .arg(taskName)
                                       .arg(best->gflops, 0, 'f', 1)
                                       .arg(best->intensity, 0, 'f', 2));
            }
            m_plot->setData(profile, std::move(loaded->points));
            Q_EMIT refreshed();
        });
}

void RooflineView::measureMachine(int maxThreads)
{
    const std::string workspace = m_hub.workspace().toStdString();
    if (workspace.empty()) {
        Q_EMIT machineMeasured(tr("no workspace is open"));
        return;
    }
    m_measure->setEnabled(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_measureJob.start(
        [workspace, maxThreads](session::JobContext& ctx) -> Expected<measure::MachineProfile> {
            TS_TRY(store::Store store, store::Store::open(workspace));
            measure::ProfileOptions options;
            options.maxThreads = maxThreads;
            options.progress = [&ctx](int done, int total) {
                ctx.reportProgress(static_cast<double>(done) / total, "measuring the machine");
                return !ctx.stopRequested();
            };
            return engine::workspaceProfile(store, options, true);
        },
        [this](Expected<measure::MachineProfile> profile) {
            m_progress->setVisible(false);
            m_cancel->setVisible(false);
            m_measure->setEnabled(true);
            if (!profile)
                m_profileLabel->setText(
                    tr("Measuring the machine failed: %1").arg(QString::fromStdString(profile.error().message)));
            Q_EMIT machineMeasured(profile ? QString() : QString::fromStdString(profile.error().message));
            if (profile)
                refresh();
        },
        [this](session::JobProgress progress) {
            m_progress->setValue(static_cast<int>(std::lround(progress.fraction * 100)));
        });
}

} // namespace ts::app
