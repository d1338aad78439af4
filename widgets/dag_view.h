// DagView: a zoomable, pannable picture of a task's ComputeDAG.
//
// Each op is one DagNodeItem (placeholders in a soft colour, compute ops with their shape, reducer and
// Ansor's analysis flags), laid out top to bottom by Graphviz dot; edges are the splines dot computes.
// Mouse wheel zooms around the cursor, dragging pans, and fitAll() shows the whole DAG.
#pragma once

#include "core/ir/compute_dag.h"

#include <QGraphicsObject>
#include <QGraphicsView>

namespace ts::widgets {

class DagNodeItem : public QGraphicsObject {
    Q_OBJECT
public:
    DagNodeItem(int stage, QString title, QString detail, QString flags, bool placeholder);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    int stage() const { return m_stage; }
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
};

class DagView : public QGraphicsView {
    Q_OBJECT
public:
    explicit DagView(QWidget* parent = nullptr);

    // Replaces the scene's contents with `dag`. Returns false (and shows the reason) if layout fails.
    bool setDag(const ir::ComputeDAG& dag, const QString& title);
    void clearDag(const QString& message);
    // Node items currently in the scene, in stage order.
    QList<DagNodeItem*> nodeItems() const { return m_nodes; }
    double zoom() const { return transform().m11(); }

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void fitAll();

protected:
    void wheelEvent(QWheelEvent* event) override;

private:
    void scaleBy(double factor);
    QGraphicsScene* m_scene;
    QList<DagNodeItem*> m_nodes;
};

} // namespace ts::widgets
