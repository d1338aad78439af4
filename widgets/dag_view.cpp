#include "widgets/dag_view.h"

#include "core/ir/dag_export.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <QAction>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <cmath>

namespace ts::widgets {

namespace {
    const QColor kComputeFill(0xe8, 0xf0, 0xfe);
    const QColor kComputeBorder(0x1a, 0x56, 0xb0);
    const QColor kInputFill(0xf1, 0xf3, 0xf4);
    const QColor kInputBorder(0x80, 0x86, 0x8b);
    const QColor kEdge(0x5f, 0x63, 0x68);
    constexpr double kPadding = 8.0;

    QFont titleFont()
    {
        QFont f;
        f.setPointSizeF(10.0);
        f.setBold(true);
        return f;
    }
    QFont detailFont()
    {
        QFont f(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
        f.setPointSizeF(8.5);
        return f;
    }

    QString elide(const QString& text, int maxChars)
    {
        return text.size() <= maxChars ? text : text.left(maxChars - 1) + QChar(0x2026);
    }
} // namespace

DagNodeItem::DagNodeItem(int stage, QString title, QString detail, QString flags, bool placeholder)
    : m_stage(stage)
    , m_title(std::move(title))
    , m_detail(std::move(detail))
    , m_flags(std::move(flags))
    , m_placeholder(placeholder)
{
    const QFontMetricsF tm(titleFont());
    const QFontMetricsF dm(detailFont());
    double width = tm.horizontalAdvance(m_title);
    double height = tm.height();
    for (const QString& line : { m_detail, m_flags }) {
        if (line.isEmpty())
            continue;
        width = std::max(width, dm.horizontalAdvance(line));
        height += dm.height();
    }
    m_size = QSizeF(std::ceil(width + 2 * kPadding), std::ceil(height + 2 * kPadding));
    setToolTip(m_title + QLatin1Char('\n') + m_detail + QLatin1Char('\n') + m_flags);
    setFlag(ItemIsSelectable);
}

QRectF DagNodeItem::boundingRect() const
{
    return QRectF(-m_size.width() / 2 - 1, -m_size.height() / 2 - 1, m_size.width() + 2, m_size.height() + 2);
}

void DagNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF r(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height());
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(m_placeholder ? kInputBorder : kComputeBorder, isSelected() ? 2.5 : 1.2);
    painter->setPen(pen);
    painter->setBrush(m_placeholder ? kInputFill : kComputeFill);
    painter->drawRoundedRect(r, m_placeholder ? r.height() / 2 : 6, m_placeholder ? r.height() / 2 : 6);

    const QFontMetricsF tm(titleFont());
    const QFontMetricsF dm(detailFont());
    double y = r.top() + kPadding;
    painter->setFont(titleFont());
    painter->setPen(Qt::black);
    painter->drawText(QRectF(r.left(), y, r.width(), tm.height()), Qt::AlignHCenter, m_title);
    y += tm.height();
    painter->setFont(detailFont());
    if (!m_detail.isEmpty()) {
        painter->setPen(QColor(0x20, 0x21, 0x24));
        painter->drawText(QRectF(r.left(), y, r.width(), dm.height()), Qt::AlignHCenter, m_detail);
        y += dm.height();
    }
    if (!m_flags.isEmpty()) {
        painter->setPen(QColor(0x18, 0x80, 0x38));
        painter->drawText(QRectF(r.left(), y, r.width(), dm.height()), Qt::AlignHCenter, m_flags);
    }
}

DagView::DagView(QWidget* parent)
    : QGraphicsView(parent)
    , m_scene(new QGraphicsScene(this))
    , m_layoutJob(this)
{
    setScene(m_scene);
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setBackgroundBrush(Qt::white);
    createActions();
}

DagView::~DagView() = default;

void DagView::createActions()
{
    auto* zoomInAction = new QAction(tr("Zoom &In"), this);
    zoomInAction->setShortcut(QKeySequence::ZoomIn);
    connect(zoomInAction, &QAction::triggered, this, &DagView::zoomIn);
    auto* zoomOutAction = new QAction(tr("Zoom &Out"), this);
    zoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOutAction, &QAction::triggered, this, &DagView::zoomOut);
    auto* fitAction = new QAction(tr("&Fit DAG"), this);
    fitAction->setShortcut(Qt::CTRL | Qt::Key_0);
    connect(fitAction, &QAction::triggered, this, &DagView::fitAll);
    addActions({ zoomInAction, zoomOutAction, fitAction });
}

void DagView::clearDag(const QString& message)
{
    m_layoutJob.cancel();
    m_pendingNodes.clear();
    m_scene->clear();
    m_nodes.clear();
    m_title = message;
    if (!message.isEmpty()) {
        auto* text = m_scene->addSimpleText(message);
        text->setBrush(QColor(0x80, 0x86, 0x8b));
    }
    resetTransform();
}

void DagView::setDag(const ir::ComputeDAG& dag, const QString& title)
{
    m_pendingNodes.clear();
    m_pendingTitle = title;
    LayoutInput input;
    for (int i = 0; i < dag.numOps(); ++i) {
        const ir::Operation& op = dag.op(i);
        const QString shape
            = QStringLiteral("[") + QString::fromStdString(join(op.shape(), ", ")) + QStringLiteral("]");
        QString titleText = QString::number(i) + QStringLiteral(": ") + QString::fromStdString(op.name());
        QString detail;
        QString flags;
        if (op.isPlaceholder()) {
            detail = tr("input %1").arg(shape);
        } else {
            detail = elide(QString::fromStdString(op.toString()), 90);
            flags = QString::fromStdString(ir::analysisSummary(dag, i));
            if (flags == QLatin1String("-"))
                flags.clear();
            titleText += QStringLiteral("  ") + shape;
        }
        auto item = std::make_unique<DagNodeItem>(i, titleText, detail, flags, op.isPlaceholder());
        input.nodes.push_back({ item->preferredSize().width(), item->preferredSize().height() });
        m_pendingNodes.push_back(std::move(item));
        for (int producer : dag.producers(i))
            input.edges.push_back({ producer, i });
    }
    // Graphviz runs on a worker; the input is plain sizes and indices, copied into the job.
    m_layoutJob.start([input = std::move(input)](session::JobContext&) { return layoutGraph(input); },
        [this](Expected<LayoutResult> layout) {
            if (!layout) {
                clearDag(tr("Layout failed: %1").arg(QString::fromStdString(layout.error().message)));
                Q_EMIT layoutFinished(false);
                return;
            }
            showLayout(*layout);
            Q_EMIT layoutFinished(true);
        });
}

void DagView::showLayout(const LayoutResult& layout)
{
    TS_ASSERT(layout.centres.size() == m_pendingNodes.size()) << "a layout for another DAG reached the view";
    m_scene->clear();
    m_nodes.clear();
    for (size_t e = 0; e < layout.edges.size(); ++e) {
        const LayoutEdge& edge = layout.edges[e];
        if (edge.bezier.empty())
            continue;
        QPainterPath path(QPointF(edge.bezier[0].x, edge.bezier[0].y));
        for (size_t k = 1; k + 2 < edge.bezier.size(); k += 3)
            path.cubicTo(QPointF(edge.bezier[k].x, edge.bezier[k].y),
                QPointF(edge.bezier[k + 1].x, edge.bezier[k + 1].y),
                QPointF(edge.bezier[k + 2].x, edge.bezier[k + 2].y));
        QPointF end = path.currentPosition();
        QPointF tip = edge.hasArrow ? QPointF(edge.arrowTip.x, edge.arrowTip.y) : end;
        if (edge.hasArrow)
            path.lineTo(tip);
        auto* pathItem = m_scene->addPath(path, QPen(kEdge, 1.3));
        pathItem->setZValue(-1);
        // Arrowhead along the last segment.
        const QLineF back(tip, end == tip ? path.pointAtPercent(0.95) : end);
        if (back.length() > 0) {
            QLineF unit = back.unitVector();
            const QPointF d = (unit.p2() - unit.p1()) * 8.0;
            const QPointF n(-d.y() * 0.45, d.x() * 0.45);
            QPolygonF head({ tip, tip + d + n, tip + d - n });
            m_scene->addPolygon(head, QPen(kEdge), QBrush(kEdge))->setZValue(-1);
        }
    }
    for (size_t i = 0; i < m_pendingNodes.size(); ++i) {
        DagNodeItem* item = m_pendingNodes[i].release(); // the scene owns it now
        m_scene->addItem(item);
        item->setPos(layout.centres[i].x, layout.centres[i].y);
        m_nodes.append(item);
    }
    m_pendingNodes.clear();
    m_title = m_pendingTitle;
    auto* caption = m_scene->addSimpleText(m_title);
    QFont captionFont;
    captionFont.setPointSizeF(11);
    captionFont.setBold(true);
    caption->setFont(captionFont);
    caption->setPos(0, -caption->boundingRect().height() - 12);
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    fitAll();
}

void DagView::zoomIn() { scaleBy(1.25); }
void DagView::zoomOut() { scaleBy(0.8); }

void DagView::fitAll()
{
    if (m_scene->items().isEmpty())
        return;
    fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    // Never blow a small DAG up past its natural size.
    if (zoom() > 1.0)
        resetTransform();
}

void DagView::scaleBy(double factor)
{
    const double next = zoom() * factor;
    if (next < 0.05 || next > 8.0)
        return;
    scale(factor, factor);
}

void DagView::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    scaleBy(std::pow(1.0015, delta));
    event->accept();
}

} // namespace ts::widgets
