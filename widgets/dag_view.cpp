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
#include <QStringList>
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

    // Stage-mark badges: small rounded pills with white text.
    constexpr double kBadgeGap = 3.0;
    QFont badgeFont()
    {
        QFont f;
        f.setPointSizeF(7.5);
        f.setBold(true);
        return f;
    }
    double badgeHeight() { return QFontMetricsF(badgeFont()).height() + 2.0; }
    double badgeWidth(const QString& text) { return QFontMetricsF(badgeFont()).horizontalAdvance(text) + 10.0; }
    void drawBadge(QPainter* painter, QPointF topLeft, const QString& text, const QColor& colour)
    {
        const QRectF r(topLeft, QSizeF(badgeWidth(text), badgeHeight()));
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        painter->drawRoundedRect(r, r.height() / 2, r.height() / 2);
        painter->setPen(Qt::white);
        painter->setFont(badgeFont());
        painter->drawText(r, Qt::AlignCenter, text);
    }
    QList<models::StageMark> marksIn(models::StageMarkSet set)
    {
        QList<models::StageMark> marks;
        for (models::StageMark mark : models::kStageMarks)
            if (models::hasMark(set, mark))
                marks.append(mark);
        return marks;
    }
    double badgesWidth(models::StageMarkSet set)
    {
        double width = 0.0;
        for (models::StageMark mark : marksIn(set))
            width += badgeWidth(DagView::markLabel(mark)) + kBadgeGap;
        return width > 0.0 ? width - kBadgeGap : 0.0;
    }

    // The legend above the DAG: a badge and nothing else per mark in use (the badge says its name).
    class MarkLegendItem : public QGraphicsItem {
    public:
        explicit MarkLegendItem(models::StageMarkSet used)
            : m_used(used)
        {
            m_title = DagView::tr("Schedule:");
            setToolTip(DagView::tr("What the selected schedule does to each op"));
        }
        QRectF boundingRect() const override
        {
            const double titleWidth = QFontMetricsF(badgeFont()).horizontalAdvance(m_title) + 6.0;
            return QRectF(0, 0, titleWidth + badgesWidth(m_used), badgeHeight());
        }
        void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override
        {
            painter->setRenderHint(QPainter::Antialiasing);
            painter->setFont(badgeFont());
            painter->setPen(QColor(0x5f, 0x63, 0x68));
            const double titleWidth = QFontMetricsF(badgeFont()).horizontalAdvance(m_title) + 6.0;
            painter->drawText(QRectF(0, 0, titleWidth, badgeHeight()), Qt::AlignVCenter | Qt::AlignLeft, m_title);
            double x = titleWidth;
            for (models::StageMark mark : marksIn(m_used)) {
                const QString label = DagView::markLabel(mark);
                drawBadge(painter, QPointF(x, 0), label, DagView::markColour(mark));
                x += badgeWidth(label) + kBadgeGap;
            }
        }

    private:
        models::StageMarkSet m_used;
        QString m_title;
    };
} // namespace

QColor DagView::markColour(models::StageMark mark)
{
    using models::StageMark;
    switch (mark) {
    case StageMark::Inlined:
        return QColor(0x80, 0x86, 0x8b);
    case StageMark::Tiled:
        return QColor(0x1a, 0x73, 0xe8);
    case StageMark::Cached:
        return QColor(0x93, 0x34, 0xe6);
    case StageMark::ComputeAt:
        return QColor(0x00, 0x7b, 0x83);
    case StageMark::Parallel:
        return QColor(0xe3, 0x74, 0x00);
    case StageMark::Vectorized:
        return QColor(0x18, 0x80, 0x38);
    case StageMark::Unrolled:
        return QColor(0xc5, 0x22, 0x1f);
    case StageMark::Rfactor:
        return QColor(0x8d, 0x6e, 0x00);
    }
    return Qt::black;
}

QString DagView::markLabel(models::StageMark mark)
{
    using models::StageMark;
    switch (mark) {
    case StageMark::Inlined:
        return tr("inline");
    case StageMark::Tiled:
        return tr("tile");
    case StageMark::Cached:
        return tr("cache");
    case StageMark::ComputeAt:
        return tr("compute_at");
    case StageMark::Parallel:
        return tr("parallel");
    case StageMark::Vectorized:
        return tr("vectorize");
    case StageMark::Unrolled:
        return tr("unroll");
    case StageMark::Rfactor:
        return tr("rfactor");
    }
    return {};
}

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
    QRectF r(-m_size.width() / 2 - 1, -m_size.height() / 2 - 1, m_size.width() + 2, m_size.height() + 2);
    if (m_marks != 0) {
        const double width = badgesWidth(m_marks);
        r |= QRectF(-width / 2 - 1, m_size.height() / 2 - badgeHeight() / 2 - 1, width + 2, badgeHeight() + 2);
    }
    return r;
}

void DagNodeItem::setMarks(models::StageMarkSet marks)
{
    if (marks == m_marks)
        return;
    prepareGeometryChange();
    m_marks = marks;
    QStringList names;
    for (models::StageMark mark : marksIn(marks))
        names.append(DagView::markLabel(mark));
    setToolTip(m_title + QLatin1Char('\n') + m_detail + QLatin1Char('\n') + m_flags
        + (names.isEmpty() ? QString()
                           : QLatin1Char('\n') + DagView::tr("schedule: %1").arg(names.join(QStringLiteral(", ")))));
    update();
}

void DagNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF r(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height());
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(m_placeholder ? kInputBorder : kComputeBorder, isSelected() ? 2.5 : 1.2);
    if (models::hasMark(m_marks, models::StageMark::Inlined))
        pen.setStyle(Qt::DashLine); // it has no loops of its own any more
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
    // The schedule's marks, centred on the lower edge.
    double x = -badgesWidth(m_marks) / 2;
    for (models::StageMark mark : marksIn(m_marks)) {
        const QString label = DagView::markLabel(mark);
        drawBadge(painter, QPointF(x, r.bottom() - badgeHeight() / 2), label, DagView::markColour(mark));
        x += badgeWidth(label) + kBadgeGap;
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
    m_legend = nullptr;
    m_marks.clear();
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
    m_marks.clear();
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
    m_legend = nullptr;
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
    m_captionRight = caption->sceneBoundingRect().right();
    m_captionTop = caption->sceneBoundingRect().top();
    applyMarks();
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    fitAll();
}

void DagView::setStageMarks(std::vector<models::StageMarkSet> marks)
{
    m_marks = std::move(marks);
    applyMarks();
    if (!m_nodes.isEmpty()) // keep the zoom; only grow the scene when a legend or badge pokes out
        m_scene->setSceneRect(m_scene->sceneRect() | m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
}

void DagView::applyMarks()
{
    const bool fits = m_marks.size() == static_cast<size_t>(m_nodes.size());
    models::StageMarkSet used = 0;
    for (DagNodeItem* node : m_nodes) {
        const models::StageMarkSet set = fits ? m_marks[static_cast<size_t>(node->stage())] : 0;
        node->setMarks(set);
        used |= set;
    }
    delete m_legend;
    m_legend = nullptr;
    if (used != 0) {
        m_legend = new MarkLegendItem(used);
        m_scene->addItem(m_legend);
        m_legend->setPos(m_captionRight + 24, m_captionTop + 2);
    }
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
