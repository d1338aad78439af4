#include "app/gui/prediction_view.h"

#include "app/gui/view_registry.h"
#include "widgets/models/prediction_rounds.h"
#include "widgets/prediction_scatter.h"
#include "widgets/qcustomplot_shim.h"
#include "widgets/record_selector.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/shadow_metrics_plot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

namespace {
    enum Column { RoundColumn, TaskColumn, PointsColumn, RandomColumn, FailedColumn, PairwiseColumn, SpearmanColumn };
    enum ShadowColumn { ModelColumn, RoundsColumn, MeanPairwiseColumn, MeanSpearmanColumn };

    QTableWidgetItem* numberItem(const QString& text)
    {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    }

    // A line of the model's colour and marker, for its row in the means table.
    QIcon seriesIcon(const QCPGraph* graph)
    {
        QPixmap pixmap(22, 12);
        pixmap.fill(Qt::transparent);
        QCPPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(graph->pen());
        painter.drawLine(QLineF(1, 6, 21, 6));
        graph->scatterStyle().applyTo(&painter, graph->pen());
        graph->scatterStyle().drawShape(&painter, 11, 6);
        return QIcon(pixmap);
    }
} // namespace

PredictionView::PredictionView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_selection(context.selection)
    , m_hub(context.sessions)
    , m_selector(new widgets::RecordSelector(context.selection, this))
    , m_rounds(new QSpinBox(this))
    , m_scatter(new widgets::PredictionScatter(this))
    , m_table(new QTableWidget(0, 7, this))
    , m_record(new QLabel(this))
    , m_shadowPanel(new QWidget(this))
    , m_shadowMetric(new QComboBox(m_shadowPanel))
    , m_shadowPlot(new widgets::ShadowMetricsPlot(m_shadowPanel))
    , m_shadowTable(new QTableWidget(0, 4, m_shadowPanel))
{
    m_rounds->setRange(1, 1000);
    m_rounds->setValue(5);
    m_rounds->setToolTip(tr("How many of the latest rounds the scatter shows"));
    auto* roundsLabel = new QLabel(tr("Last &rounds:"), this);
    roundsLabel->setBuddy(m_rounds);

    m_table->setHorizontalHeaderLabels(
        { tr("Round"), tr("Task"), tr("Points"), tr("Random"), tr("Failed"), tr("Pairwise"), tr("Spearman") });
    m_table->horizontalHeaderItem(PointsColumn)->setToolTip(tr("Successful trials with a predicted score"));
    m_table->horizontalHeaderItem(PairwiseColumn)
        ->setToolTip(tr("The fraction of pairs of trials the model orders as they measured (0.5: chance)"));
    m_table->horizontalHeaderItem(SpearmanColumn)
        ->setToolTip(tr("Rank correlation of predicted score and measured GFLOP/s (1: the same order)"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(TaskColumn, QHeaderView::Stretch);
    m_record->setWordWrap(true);
    m_record->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // The shadow models' column.
    m_shadowMetric->addItem(tr("Pairwise accuracy"));
    m_shadowMetric->addItem(tr("Spearman's rho"));
    m_shadowMetric->setToolTip(tr("What the lines show per round: the fraction of candidate pairs a model put in "
                                  "the measured order (0.5: chance), or its rank correlation with the measured "
                                  "throughput (0: none)"));
    auto* metricLabel = new QLabel(tr("&Metric:"), m_shadowPanel);
    metricLabel->setBuddy(m_shadowMetric);
    auto* shadowTitle = new QLabel(tr("<b>Shadow models</b>"), m_shadowPanel);
    shadowTitle->setToolTip(tr("Extra cost models chosen for the session: each learns from the same records as the "
                               "session's model and scores every round's candidates, without steering the search"));
    m_shadowTable->setHorizontalHeaderLabels({ tr("Model"), tr("Rounds"), tr("Mean pairwise"), tr("Mean Spearman") });
    m_shadowTable->horizontalHeaderItem(RoundsColumn)
        ->setToolTip(tr("Rounds in the means: those with metrics and two or more successful measurements"));
    m_shadowTable->verticalHeader()->hide();
    m_shadowTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shadowTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_shadowTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_shadowTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_shadowTable->horizontalHeader()->setSectionResizeMode(ModelColumn, QHeaderView::Stretch);
    auto* shadowControls = new QHBoxLayout;
    shadowControls->addWidget(shadowTitle);
    shadowControls->addStretch(1);
    shadowControls->addWidget(metricLabel);
    shadowControls->addWidget(m_shadowMetric);
    auto* shadowLayout = new QVBoxLayout(m_shadowPanel);
    shadowLayout->setContentsMargins(0, 0, 0, 0);
    shadowLayout->addLayout(shadowControls);
    shadowLayout->addWidget(m_shadowPlot, 1);
    shadowLayout->addWidget(m_shadowTable);
    m_shadowPanel->hide();

    auto* controls = new QHBoxLayout;
    controls->addWidget(roundsLabel);
    controls->addWidget(m_rounds);
    controls->addStretch(1);
    auto* side = new QVBoxLayout;
    side->addLayout(controls);
    side->addWidget(m_table, 1);
    side->addWidget(m_record);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(m_scatter, 1);
    layout->addLayout(side, 1);
    layout->addWidget(m_shadowPanel, 1);

    connect(&m_hub, &widgets::SessionHub::currentChanged, this, &PredictionView::refresh);
    connect(m_rounds, &QSpinBox::valueChanged, this, &PredictionView::refresh);
    connect(m_shadowMetric, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_shadowPlot->setMetric(index == 1 ? widgets::ShadowMetricsPlot::Metric::Spearman
                                           : widgets::ShadowMetricsPlot::Metric::PairwiseAccuracy);
    });
    connect(m_scatter, &widgets::PredictionScatter::pointClicked, this,
        [this](qint64 recordId, int task) { activatePoint(recordId, task); });
    connect(&m_selection, &widgets::SelectionContext::recordChanged, this, &PredictionView::showSelectedRecord);
    refresh();
}

void PredictionView::refresh()
{
    refreshShadows();
    const auto snapshot = m_hub.current();
    if (!snapshot) {
        m_scatter->setRounds(models::SessionSnapshot {}, {});
        m_table->setRowCount(0);
        showSelectedRecord();
        return;
    }
    const std::vector<models::PredictionRound> rounds = models::predictionRounds(*snapshot, m_rounds->value());
    m_scatter->setRounds(*snapshot, rounds);
    m_table->setRowCount(static_cast<int>(rounds.size()));
    for (size_t i = 0; i < rounds.size(); ++i) {
        const models::PredictionRound& r = rounds[rounds.size() - 1 - i]; // newest first
        const int row = static_cast<int>(i);
        const QString task = r.task < static_cast<int>(snapshot->tasks.size())
            ? QString::fromStdString(snapshot->tasks[static_cast<size_t>(r.task)].status.name)
            : QString();
        const bool ranked = r.points.size() >= 2;
        m_table->setItem(row, RoundColumn, numberItem(QString::number(r.round)));
        m_table->setItem(row, TaskColumn, new QTableWidgetItem(tr("%1: %2").arg(r.task).arg(task)));
        m_table->setItem(row, PointsColumn, numberItem(QString::number(r.points.size())));
        m_table->setItem(row, RandomColumn, numberItem(QString::number(r.randomPicks)));
        m_table->setItem(row, FailedColumn, numberItem(QString::number(r.failed)));
        m_table->setItem(row, PairwiseColumn,
            numberItem(ranked ? QString::number(r.pairwiseAccuracy, 'f', 3) : QStringLiteral("–")));
        m_table->setItem(
            row, SpearmanColumn, numberItem(ranked ? QString::number(r.spearman, 'f', 3) : QStringLiteral("–")));
    }
    showSelectedRecord();
}

void PredictionView::refreshShadows()
{
    const auto snapshot = m_hub.current();
    if (!snapshot || snapshot->shadows.empty()) {
        m_shadowPanel->hide();
        m_shadowPlot->setLines({});
        m_shadowTable->setRowCount(0);
        return;
    }
    m_shadowPanel->show();
    m_shadowPlot->setLines(snapshot->shadows);
    // One row per model, in the plot's order (both: the order the models first appear in the lines).
    const std::vector<engine::ShadowSummary> summary = engine::summarize(snapshot->shadows);
    const auto& series = m_shadowPlot->series();
    double bestPairwise = -2.0, bestSpearman = -2.0;
    for (const engine::ShadowSummary& m : summary)
        if (m.rounds > 0) {
            bestPairwise = std::max(bestPairwise, m.meanPairwiseAccuracy);
            bestSpearman = std::max(bestSpearman, m.meanSpearman);
        }
    m_shadowTable->setRowCount(static_cast<int>(summary.size()));
    for (size_t i = 0; i < summary.size(); ++i) {
        const engine::ShadowSummary& m = summary[i];
        const int row = static_cast<int>(i);
        const QString kind = QString::fromStdString(m.kind);
        QString name = m.session ? tr("%1 (session)").arg(kind) : kind;
        if (!m.error.empty())
            name = tr("%1 (failed)").arg(name);
        auto* model = new QTableWidgetItem(name);
        if (i < series.size())
            model->setIcon(seriesIcon(series[i].graph));
        model->setToolTip(m.error.empty()
                ? (m.session ? tr("The session's model: its scores ranked the candidates")
                             : tr("A shadow model: it scored the candidates, without steering"))
                : QString::fromStdString(m.error));
        m_shadowTable->setItem(row, ModelColumn, model);
        m_shadowTable->setItem(row, RoundsColumn, numberItem(QString::number(m.rounds)));
        auto mean = [&](double value, double best) {
            QTableWidgetItem* item = numberItem(m.rounds > 0 ? QString::number(value, 'f', 3) : QStringLiteral("–"));
            if (m.rounds > 0 && value == best) { // the model that would have chosen best
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            return item;
        };
        m_shadowTable->setItem(row, MeanPairwiseColumn, mean(m.meanPairwiseAccuracy, bestPairwise));
        m_shadowTable->setItem(row, MeanSpearmanColumn, mean(m.meanSpearman, bestSpearman));
    }
    // As tall as its rows: a few models, no scrolling.
    m_shadowTable->resizeRowsToContents();
    int height = m_shadowTable->horizontalHeader()->sizeHint().height() + 2 * m_shadowTable->frameWidth();
    for (int row = 0; row < m_shadowTable->rowCount(); ++row)
        height += m_shadowTable->rowHeight(row);
    m_shadowTable->setFixedHeight(height);
}

void PredictionView::showSelectedRecord()
{
    m_scatter->setHighlightedRecord(m_selection.recordId());
    const auto snapshot = m_hub.current();
    const auto id = m_selection.recordId();
    const models::TrialPoint* t = snapshot && id ? snapshot->findRecord(*id) : nullptr;
    if (!t) {
        m_record->setText(
            id ? tr("Record %1 is not in the shown session.").arg(*id) : tr("Click a point to select its record."));
        return;
    }
    int batchSize = 0;
    for (const models::RoundInfo& r : snapshot->rounds)
        if (r.round == t->round)
            batchSize = r.measured;
    QString text = tr("Record %1, round %2:").arg(t->recordId).arg(t->round) + QLatin1Char(' ');
    text += t->predicted ? tr("predicted score %1").arg(*t->predicted, 0, 'g', 4) : tr("no predicted score");
    if (t->batchRank >= 0)
        text += QStringLiteral(", ") + tr("rank %1 of %2 in its batch").arg(t->batchRank + 1).arg(batchSize);
    if (t->random)
        text += QStringLiteral(", ") + tr("a random pick");
    text += QStringLiteral("; ")
        + (t->ok() ? tr("measured %1 GFLOP/s").arg(t->gflops, 0, 'f', 2)
                   : tr("failed: %1").arg(QString::fromStdString(t->message)));
    m_record->setText(text);
}

bool PredictionView::activatePoint(int64_t recordId, int task)
{
    return m_selector->select(m_hub.current(), task, recordId);
}

} // namespace ts::app
