#include "app/gui/explorer_view.h"

#include "widgets/models/network_task_model.h"
#include "widgets/selection_context.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace ts::app {

using models::NetworkTaskModel;

ExplorerView::ExplorerView(widgets::SelectionContext& selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_model(new NetworkTaskModel(this))
    , m_batch(new QSpinBox(this))
    , m_layout(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_loading(new QLabel(tr("Loading networks…"), this))
    , m_tree(new QTreeView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* form = new QFormLayout;
    m_batch->setRange(1, 4096);
    m_batch->setValue(1);
    m_layout->addItem(QStringLiteral("NCHW"));
    m_layout->addItem(QStringLiteral("NHWC"));
    form->addRow(tr("Batch"), m_batch);
    form->addRow(tr("Layout"), m_layout);
    layout->addLayout(form);

    m_loading->setAlignment(Qt::AlignCenter);
    m_loading->setObjectName(QStringLiteral("ExplorerLoading"));
    m_tree->setObjectName(QStringLiteral("Explorer"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSectionResizeMode(NetworkTaskModel::NameColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(NetworkTaskModel::GflopColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(NetworkTaskModel::WeightColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    m_pages->addWidget(m_loading);
    m_pages->addWidget(m_tree);
    m_pages->setCurrentWidget(m_model->isLoading() ? static_cast<QWidget*>(m_loading) : m_tree);
    layout->addWidget(m_pages);

    connect(m_model, &NetworkTaskModel::loadingChanged, this, &ExplorerView::onLoadingChanged);
    connect(m_model, &NetworkTaskModel::modelReset, this, &ExplorerView::onModelReset);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_batch, &QSpinBox::editingFinished, this, [this] { onConfigurationChanged(); });
    connect(m_layout, &QComboBox::currentIndexChanged, this, [this] { onConfigurationChanged(); });
    connect(&m_selection, &widgets::SelectionContext::taskChanged, this, [this] { followSelection(); });
    connect(&m_selection, &widgets::SelectionContext::networkChanged, this, [this] { followSelection(); });
}

bool ExplorerView::isLoading() const { return m_model->isLoading(); }

void ExplorerView::onConfigurationChanged()
{
    const ops::Layout layout = m_layout->currentIndex() == 0 ? ops::Layout::NCHW : ops::Layout::NHWC;
    m_model->setConfiguration(m_batch->value(), layout);
}

void ExplorerView::onLoadingChanged(bool loading)
{
    m_pages->setCurrentWidget(loading ? static_cast<QWidget*>(m_loading) : m_tree);
    if (!loading)
        Q_EMIT ready();
}

void ExplorerView::onModelReset()
{
    // The reset left the tree without a current row, and the selection holds the old catalog's values:
    // select the same network and task in the new one, if it has them.
    if (!m_selection.network())
        return;
    const QString networkName = m_selection.networkName();
    const QModelIndex network = m_model->networkIndex(networkName);
    if (!network.isValid())
        m_selection.clear();
    else if (!m_selection.task())
        m_tree->setCurrentIndex(network);
    else if (!selectTask(networkName, m_selection.task()->id))
        m_selection.clear();
}

bool ExplorerView::selectTask(const QString& network, int taskId)
{
    const QModelIndex parent = m_model->networkIndex(network);
    if (!parent.isValid())
        return false;
    const QModelIndex task = m_model->index(taskId, 0, parent);
    if (!task.isValid())
        return false;
    m_tree->expand(parent);
    m_tree->setCurrentIndex(task);
    m_tree->scrollTo(task);
    return true;
}

void ExplorerView::onCurrentChanged(const QModelIndex& current)
{
    if (m_following)
        return; // the tree follows a selection made elsewhere: nothing to write back
    if (auto task = m_model->taskHandleAt(current))
        m_selection.selectTask(m_model->networkAt(current), std::move(task));
    else if (auto network = m_model->networkAt(current))
        m_selection.selectNetwork(std::move(network));
    else
        m_selection.clear();
}

void ExplorerView::followSelection()
{
    const QModelIndex current = m_tree->currentIndex();
    if (!m_selection.network()) {
        // A task outside the catalog (a single operator's, or a session's): the tree shows no row, and
        // clearing it must not clear the selection it follows.
        m_following = true;
        m_tree->selectionModel()->clear();
        m_following = false;
        return;
    }
    if (m_model->networkAt(current) == m_selection.network() && m_model->taskHandleAt(current) == m_selection.task())
        return; // the tree shows it already (or wrote it)
    const QModelIndex network = m_model->networkIndex(m_selection.networkName());
    if (!network.isValid() || m_model->networkAt(network) != m_selection.network())
        return; // not from the catalog shown (an older one, or nothing)
    if (!m_selection.task()) {
        m_tree->setCurrentIndex(network);
        return;
    }
    const QModelIndex task = m_model->index(m_selection.task()->id, 0, network);
    if (m_model->taskHandleAt(task) == m_selection.task()) {
        m_tree->expand(network);
        m_tree->setCurrentIndex(task);
        m_tree->scrollTo(task);
    }
}

} // namespace ts::app
