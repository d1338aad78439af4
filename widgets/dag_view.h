// DagView: a zoomable, pannable picture of a task's ComputeDAG.
//
// Each op is one DagNodeItem (placeholders in a soft colour, compute ops with their shape, reducer and
// Ansor's analysis flags), laid out top to bottom by Graphviz dot; edges are the splines dot computes.
// The boxes are measured on the GUI thread, the dot layout runs as a session job on a worker thread, and
// the scene is replaced when the layout arrives (layoutFinished); until then the previous picture stays.
// A newer setDag() or clearDag() drops a layout still in flight. Mouse wheel zooms around the cursor,
// dragging pans; the view's actions (zoom in, zoom out, fit) are on it (QWidget::actions()).
//
// Stage marks (setStageMarks): what a schedule does to each op (widgets/models/stage_marks.h) shows as small
// coloured badges on the node's lower edge ("tile", "cache", "parallel", ...; an inlined op gets a dashed
// outline too), with a legend of the marks in use above the DAG. Marks survive a layout in flight and are
// reset by setDag() and clearDag().
#pragma once

#include "core/ir/compute_dag.h"
#include "core/session/job_tracker.h"
#include "widgets/dag_layout.h"
#include "widgets/models/stage_marks.h"

#include <QGraphicsObject>
#include <QGraphicsView>

#include <memory>
#include <vector>

namespace ts::widgets {

class DagNodeItem : public QGraphicsObject {
    Q_OBJECT
public:
    DagNodeItem(int stage, QString title, QString detail, QString flags, bool placeholder);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    int stage() const { return m_stage; }
    models::StageMarkSet marks() const { return m_marks; }
    void setMarks(models::StageMarkSet marks);
    QSizeF preferredSize() const { return m_size; }
    void setSize(QSizeF size)
    {
        prepareGeometryChange();
        m_size = size;
    }

private:
    int m_stage;
    QString m_title;
    QString m_detail;
    QString m_flags;
    bool m_placeholder;
    QSizeF m_size;
    models::StageMarkSet m_marks = 0;
};

class DagView : public QGraphicsView {
    Q_OBJECT
public:
    explicit DagView(QWidget* parent = nullptr);
    ~DagView() override;

    // Starts laying out `dag`; the scene shows it once layoutFinished(true) is emitted. If the layout
    // fails, the view shows the reason and layoutFinished(false) is emitted.
    void setDag(const ir::ComputeDAG& dag, const QString& title);
    // Shows `message` instead of a DAG at once; a layout in flight is dropped.
    void clearDag(const QString& message);
    // A layout is on its way.
    bool isLayingOut() const { return m_layoutJob.isRunning(); }
    // Node items currently in the scene, in stage order.
    QList<DagNodeItem*> nodeItems() const { return m_nodes; }
    // The caption of the DAG in the scene, or the message shown instead of one.
    QString title() const { return m_title; }
    double zoom() const { return transform().m11(); }
    // One mark set per op of the DAG (an empty vector clears the marks); a size that does not match the
    // DAG's ops is ignored.
    void setStageMarks(std::vector<models::StageMarkSet> marks);
    const std::vector<models::StageMarkSet>& stageMarks() const { return m_marks; }
    // The colour of a mark's badge (and of its legend entry).
    static QColor markColour(models::StageMark mark);
    // The mark's name as the badges and the legend print it (translated).
    static QString markLabel(models::StageMark mark);

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void fitAll();

Q_SIGNALS:
    void layoutFinished(bool ok);

protected:
    void wheelEvent(QWheelEvent* event) override;

private:
    void createActions();
    void showLayout(const LayoutResult& layout);
    void scaleBy(double factor);
    void applyMarks(); // to the nodes in the scene, and the legend

    QGraphicsScene* m_scene;
    QGraphicsItem* m_legend = nullptr; // owned by the scene
    double m_captionRight = 0.0;
    double m_captionTop = 0.0;
    std::vector<models::StageMarkSet> m_marks;
    QList<DagNodeItem*> m_nodes;
    QString m_title;
    // The items and caption of the DAG being laid out: they belong to the tracker's current job.
    std::vector<std::unique_ptr<DagNodeItem>> m_pendingNodes;
    QString m_pendingTitle;
    session::JobTracker m_layoutJob;
};

} // namespace ts::widgets
