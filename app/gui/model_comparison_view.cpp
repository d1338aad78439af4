#include "app/gui/model_comparison_view.h"

#include "app/gui/view_registry.h"
#include "core/cost/cost_model.h"
#include "core/store/dataset.h"
#include "core/store/store.h"
#include "core/support/strings.h"
#include "widgets/model_scatter.h"
#include "widgets/session_hub.h"

#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ts::app {

namespace {
    struct Request {
        std::string dataset;
        std::vector<std::string> kinds;
        std::vector<std::string> holdout;
        int searchTasks = 0;
        int searchTrials = 48;
    };

    Expected<ModelComparisonData> run(const Request& request, session::JobContext& ctx)
    {
        TS_TRY(store::Store store, store::Store::open(request.dataset, { true }));
        TS_TRY(store::Dataset dataset, store::loadDataset(store));
        TS_CHECK(engine::attachSessionDags(store, dataset)); // a workspace of tuning sessions is a dataset too
        TS_TRY(auto targets, engine::deviceTargets(store));
        store::DatasetSplit split;
        if (request.holdout.empty()) {
            TS_TRY(split, store::splitByTime(dataset, 0.3));
        } else {
            TS_TRY(split, store::splitByNetworks(dataset, request.holdout));
        }
        std::vector<size_t> train = split.train;
        train.insert(train.end(), split.validation.begin(), split.validation.end());
        std::sort(train.begin(), train.end());
        engine::CompareOptions options;
        options.kinds = request.kinds;
        const double models = static_cast<double>(std::max<size_t>(1, request.kinds.size()));
        size_t index = 0;
        std::string current;
        options.progress = [&](const std::string& kind, double fraction, double) {
            if (kind != current) {
                index += current.empty() ? 0 : 1;
                current = kind;
            }
            const double share = request.searchTasks > 0 ? 0.5 : 1.0; // training's part of a model's time
            ctx.reportProgress((static_cast<double>(index) + share * fraction) / models, "training " + kind);
            return !ctx.stopRequested();
        };
        options.searchTasks = request.searchTasks;
        options.searchTrials = request.searchTrials;
        options.searchMeasuresPerRound = std::min(16, request.searchTrials);
        options.searchDirectory = QDir::tempPath().toStdString();
        options.searchProgress = [&](const std::string& kind, int trials, int budget) {
            ctx.reportProgress((static_cast<double>(index) + 0.5 + 0.5 * trials / std::max(1, budget)) / models,
                "searching with " + kind);
            return !ctx.stopRequested();
        };
        TS_TRY(engine::ComparisonResult result, engine::compareModels(dataset, train, split.test, targets, options));
        ModelComparisonData data;
        for (size_t r : result.records)
            data.labels.push_back(dataset.records[r].label);
        std::string held;
        for (const std::string& n : request.holdout)
            held += (held.empty() ? "" : ", ") + n;
        data.description = QObject::tr("%1 training and %2 test programs of %3; test: %4")
                               .arg(result.trainSamples)
                               .arg(static_cast<qlonglong>(result.records.size()))
                               .arg(QFileInfo(QString::fromStdString(request.dataset)).fileName())
                               .arg(held.empty() ? QObject::tr("the last 30% of each task's records")
                                                 : QObject::tr("held-out %1").arg(QString::fromStdString(held)));
        data.result = std::move(result);
        return data;
    }

    std::string trimmed(const std::string& text)
    {
        const size_t begin = text.find_first_not_of(" \t");
        const size_t end = text.find_last_not_of(" \t");
        return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
    }

    QStringList headers()
    {
        return { QObject::tr("model"), QObject::tr("top-1"), QObject::tr("top-5"), QObject::tr("pairwise"),
            QObject::tr("RMSE"), QObject::tr("peak@1"), QObject::tr("train s"), QObject::tr("programs/s"),
            QObject::tr("size KB") };
    }
} // namespace

ModelComparisonView::ModelComparisonView(ViewContext& context, QWidget* parent)
    : QWidget(parent)
    , m_hub(context.sessions)
    , m_models(new QLineEdit(this))
    , m_dataset(new QLineEdit(this))
    , m_holdout(new QLineEdit(this))
    , m_searchTasks(new QSpinBox(this))
    , m_searchTrials(new QSpinBox(this))
    , m_compare(new QPushButton(tr("Compare"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_table(new QTableWidget(0, static_cast<int>(headers().size()), this))
    , m_scatterRow(new QHBoxLayout)
    , m_searchPlot(new widgets::ModelSearchPlot(this))
    , m_job(this)
{
    // The kinds the registry has, in its order, minus the ones that learn nothing and the ablations.
    QStringList kinds;
    for (const cost::CostModelKind& k : cost::costModelKinds())
        if (k.kind != "random" && k.kind != "analytical" && k.kind.find("-mse") == std::string::npos
            && k.kind.find("-nomask") == std::string::npos && k.kind != "mtl-tlp")
            kinds << QString::fromStdString(k.kind);
    m_models->setText(kinds.join(QLatin1Char(',')));
    m_models->setToolTip(tr("Cost model kinds, comma-separated (tunescope-cli compare-models --models)"));
    m_dataset->setPlaceholderText(tr("the open workspace"));
    m_dataset->setToolTip(tr("A workspace holding a dataset ('tunescope-cli collect' makes one)"));
    m_holdout->setPlaceholderText(tr("none: the last 30% of each task's records"));
    m_holdout->setToolTip(tr("Networks whose tasks are the test set, e.g. resnet-50,mobilenet-v2,bert-base"));
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_status->setWordWrap(true);
    m_table->setHorizontalHeaderLabels(headers());
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_searchTasks->setRange(0, 20);
    m_searchTasks->setSpecialValueText(tr("no search"));
    m_searchTasks->setSuffix(tr(" tasks"));
    m_searchTasks->setToolTip(tr("Then let each trained model guide an Ansor session on this many test tasks"));
    m_searchTrials->setRange(4, 2000);
    m_searchTrials->setValue(48);
    m_searchTrials->setSuffix(tr(" trials each"));
    m_searchPlot->setVisible(false);
    auto* search = new QHBoxLayout;
    search->addWidget(m_searchTasks);
    search->addWidget(m_searchTrials);
    search->addStretch(1);
    auto* form = new QFormLayout;
    form->addRow(tr("Models"), m_models);
    form->addRow(tr("Dataset"), m_dataset);
    form->addRow(tr("Hold out"), m_holdout);
    form->addRow(tr("Search"), search);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_progress);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_compare);
    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addLayout(buttons);
    left->addWidget(m_table, 1);
    auto* scatterHolder = new QWidget(this);
    scatterHolder->setLayout(m_scatterRow);
    m_scatterRow->setContentsMargins(0, 0, 0, 0);
    m_scatterRow->addWidget(m_searchPlot, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(left, 2);
    layout->addWidget(scatterHolder, 3);

    connect(m_compare, &QPushButton::clicked, this, &ModelComparisonView::compare);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_job.cancel();
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
        m_compare->setEnabled(true);
        m_status->setText(tr("Cancelled."));
        Q_EMIT compared(tr("cancelled"));
    });
}

void ModelComparisonView::compare()
{
    Request request;
    request.dataset
        = (m_dataset->text().trimmed().isEmpty() ? m_hub.workspace() : m_dataset->text().trimmed()).toStdString();
    for (const std::string& kind : split(m_models->text().toStdString(), ','))
        if (!trimmed(kind).empty())
            request.kinds.push_back(trimmed(kind));
    for (const std::string& net : split(m_holdout->text().toStdString(), ','))
        if (!trimmed(net).empty())
            request.holdout.push_back(trimmed(net));
    request.searchTasks = m_searchTasks->value();
    request.searchTrials = m_searchTrials->value();
    if (request.dataset.empty() || request.kinds.empty()) {
        m_status->setText(request.dataset.empty() ? tr("No workspace is open; name a dataset.") : tr("Name a model."));
        Q_EMIT compared(m_status->text());
        return;
    }
    m_compare->setEnabled(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_status->setText(tr("Loading the dataset..."));
    m_job.start([request](session::JobContext& ctx) { return run(request, ctx); },
        [this](Expected<ModelComparisonData> data) {
            m_progress->setVisible(false);
            m_cancel->setVisible(false);
            m_compare->setEnabled(true);
            if (!data) {
                m_status->setText(tr("The comparison failed: %1").arg(QString::fromStdString(data.error().message)));
                Q_EMIT compared(m_status->text());
                return;
            }
            showComparison(*data);
            Q_EMIT compared(QString());
        },
        [this](session::JobProgress progress) {
            m_progress->setValue(static_cast<int>(std::lround(progress.fraction * 100)));
            m_status->setText(QString::fromStdString(progress.message));
        });
}

void ModelComparisonView::showComparison(const ModelComparisonData& data)
{
    const auto& models = data.result.models;
    m_status->setText(data.description);
    m_table->setRowCount(static_cast<int>(models.size()));
    for (QWidget* w : m_scatters)
        delete w;
    m_scatters.clear();
    auto number = [](double v, int decimals) {
        return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
    };
    for (int row = 0; row < static_cast<int>(models.size()); ++row) {
        const engine::ModelComparison& m = models[static_cast<size_t>(row)];
        const store::MetricValues& v = m.metrics.mean;
        const QStringList cells = m.error.empty()
            ? QStringList { QString::fromStdString(m.kind), number(engine::meanNetworkScore(m.metrics, 0), 3),
                  number(engine::meanNetworkScore(m.metrics, 1), 3), number(v.pairwiseAccuracy, 3), number(v.rmse, 3),
                  number(v.peakScore.empty() ? 0.0 : v.peakScore[0], 3), number(m.trainSeconds, 1),
                  number(m.programsPerSecond, 0), number(static_cast<double>(m.bytes) / 1024.0, 0) }
            : QStringList { QString::fromStdString(m.kind), tr("failed: %1").arg(QString::fromStdString(m.error)) };
        for (int c = 0; c < m_table->columnCount(); ++c) {
            auto* item = new QTableWidgetItem(c < cells.size() ? cells[c] : QString());
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c, item);
        }
        if (!m.error.empty())
            continue;
        auto* scatter = new widgets::ModelScatter(this);
        scatter->setData(tr("%1 (pairwise %2)").arg(QString::fromStdString(m.kind)).arg(v.pairwiseAccuracy, 0, 'f', 3),
            data.labels, m.predictions);
        m_scatterRow->insertWidget(static_cast<int>(m_scatters.size()), scatter, 1);
        m_scatters.push_back(scatter);
    }
    std::vector<widgets::ModelSearchPlot::Curve> curves;
    int budget = 0;
    for (const engine::ModelComparison& m : models)
        if (m.search && m.search->error.empty()) {
            curves.push_back({ QString::fromStdString(m.kind), m.search->curve });
            budget = std::max(budget, m_searchTrials->value() * static_cast<int>(m.search->tasks.size()));
        }
    m_searchPlot->setCurves(curves, budget);
    m_searchPlot->setVisible(!curves.empty());
}

} // namespace ts::app
