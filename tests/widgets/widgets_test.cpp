// Item model and DAG view: QAbstractItemModelTester on the explorer model, one scene item per DAG node.
#include "core/graph/model_zoo.h"
#include "widgets/dag_layout.h"
#include "widgets/dag_view.h"
#include "widgets/network_task_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace ts;

class WidgetsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelPassesTester()
    {
        widgets::NetworkTaskModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), int(graph::networks().size()));
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex network = model.index(row, 0);
            QVERIFY(model.hasChildren(network));
            QVERIFY(model.rowCount(network) > 0);
            QVERIFY(model.errorAt(network).isEmpty());
        }
        const QModelIndex resnet = model.networkIndex(QStringLiteral("resnet-18"));
        QCOMPARE(model.rowCount(resnet), 18);
        const graph::Task* task = model.taskAt(model.index(3, 0, resnet));
        QVERIFY(task);
        QCOMPARE(task->weight, 2);
        QCOMPARE(model.data(model.index(3, widgets::NetworkTaskModel::WeightColumn, resnet)).toInt(), 2);
        QCOMPARE(model.data(resnet.siblingAtColumn(widgets::NetworkTaskModel::WeightColumn)).toInt(), 23);
        QVERIFY(!model.taskAt(resnet));
    }

    void modelResetsOnConfiguration()
    {
        widgets::NetworkTaskModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setConfiguration(1, ops::Layout::NHWC);
        QCOMPARE(reset.count(), 1);
        // BERT has no image layout, so only the CNNs remain.
        QCOMPARE(model.rowCount(), 5);
        const QModelIndex resnet = model.networkIndex(QStringLiteral("resnet-18"));
        QVERIFY(QString::fromStdString(model.taskAt(model.index(0, 0, resnet))->name).endsWith(QLatin1String("nhwc")));
        model.setConfiguration(1, ops::Layout::NHWC);
        QCOMPARE(reset.count(), 1); // unchanged configuration: no reset
    }

    void layoutPlacesEveryNodeTopDown()
    {
        widgets::LayoutInput input;
        input.nodes = { { 80, 30 }, { 80, 30 }, { 80, 30 } };
        input.edges = { { 0, 2 }, { 1, 2 } };
        auto layout = widgets::layoutGraph(input);
        QVERIFY(layout);
        QCOMPARE(layout->centres.size(), size_t(3));
        QCOMPARE(layout->edges.size(), size_t(2));
        // Producers sit above their consumer (y grows downwards), side by side.
        QVERIFY(layout->centres[0].y < layout->centres[2].y);
        QVERIFY(layout->centres[1].y < layout->centres[2].y);
        QVERIFY(std::abs(layout->centres[0].x - layout->centres[1].x) >= 80);
        QVERIFY(layout->edges[0].bezier.size() >= 4);
        widgets::LayoutInput broken;
        broken.nodes = { { 10, 10 } };
        broken.edges = { { 0, 5 } };
        QVERIFY(!widgets::layoutGraph(broken));
    }

    void dagViewHasOneItemPerNode()
    {
        auto graph = graph::buildNetwork("resnet-18", 1);
        auto tasks = graph::extractTasks(*graph);
        QVERIFY(tasks);
        widgets::DagView view;
        view.resize(800, 600);
        for (const graph::Task& task : tasks->tasks) {
            QVERIFY(view.setDag(task.dag, QStringLiteral("t")));
            QCOMPARE(view.nodeItems().size(), task.dag.numOps());
            for (int i = 0; i < task.dag.numOps(); ++i)
                QCOMPARE(view.nodeItems()[i]->stage(), i);
        }
        // Zoom changes the transform within bounds.
        const double before = view.zoom();
        view.zoomIn();
        QVERIFY(view.zoom() > before);
        view.clearDag(QStringLiteral("empty"));
        QVERIFY(view.nodeItems().isEmpty());
    }
};

QTEST_MAIN(WidgetsTest)
#include "widgets_test.moc"
