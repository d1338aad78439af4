// Item model, DAG view and selection: QAbstractItemModelTester on the explorer model (loaded off the GUI
// thread), one scene item per DAG node once the asynchronous layout arrives, stale layouts and catalogs
// dropped, the selection context's levels.
#include "core/graph/model_zoo.h"
#include "core/schedule/state.h"
#include "widgets/dag_layout.h"
#include "widgets/dag_view.h"
#include "widgets/models/network_task_model.h"
#include "widgets/selection_context.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace ts;

namespace {

// Shows `dag` and waits for its layout; returns whether it was laid out.
bool showDag(widgets::DagView& view, const ir::ComputeDAG& dag, const QString& title)
{
    QSignalSpy finished(&view, &widgets::DagView::layoutFinished);
    view.setDag(dag, title);
    return finished.wait(10000) && finished.count() == 1 && finished.at(0).at(0).toBool();
}

// The explorer's model, checked by QAbstractItemModelTester for as long as it lives.
class TestedNetworkModel : public models::NetworkTaskModel {
    QAbstractItemModelTester m_tester { this, QAbstractItemModelTester::FailureReportingMode::QtTest };
};

graph::TaskSet resnetTasks()
{
    auto graph = graph::buildNetwork("resnet-18", 1);
    return graph::extractTasks(*graph).value();
}

} // namespace

class WidgetsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelPassesTester()
    {
        TestedNetworkModel model;
        QTRY_VERIFY(!model.isLoading());
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
        QCOMPARE(model.data(model.index(3, models::NetworkTaskModel::WeightColumn, resnet)).toInt(), 2);
        QCOMPARE(model.data(resnet.siblingAtColumn(models::NetworkTaskModel::WeightColumn)).toInt(), 23);
        QVERIFY(!model.taskAt(resnet));
        // Handles share the catalog: the same task, and still valid once the model shows another catalog.
        auto handle = model.taskHandleAt(model.index(3, 0, resnet));
        QCOMPARE(handle.get(), task);
        QCOMPARE(model.networkAt(model.index(3, 0, resnet))->name, std::string("resnet-18"));
        QVERIFY(!model.taskHandleAt(resnet));
        model.setCatalog(models::NetworkCatalog {});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(handle->weight, 2);
        QCOMPARE(handle->dag.numOps(), 9);
    }

    void modelLoadsOffTheGuiThread()
    {
        TestedNetworkModel model;
        QSignalSpy loading(&model, &models::NetworkTaskModel::loadingChanged);
        // Nothing is built in the constructor: the rows arrive later, in one reset.
        QVERIFY(model.isLoading());
        QCOMPARE(model.rowCount(), 0);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QVERIFY(loading.wait(10000));
        QCOMPARE(loading.at(0).at(0).toBool(), false);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), int(graph::networks().size()));
    }

    void modelDropsAStaleCatalog()
    {
        TestedNetworkModel model;
        QTRY_VERIFY(!model.isLoading());
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setConfiguration(8, ops::Layout::NCHW);
        model.setConfiguration(2, ops::Layout::NHWC); // before the batch-8 catalog arrives
        QTRY_VERIFY(!model.isLoading());
        QTest::qWait(100);
        QCOMPARE(reset.count(), 1); // only the newest catalog was shown
        QCOMPARE(model.batch(), int64_t(2));
        QCOMPARE(model.rowCount(), 5);
        const QModelIndex resnet = model.networkIndex(QStringLiteral("resnet-18"));
        QCOMPARE(model.taskAt(model.index(0, 0, resnet))->dag.op(0).shape()[0], int64_t(2));
    }

    void modelOpensOnnxModels()
    {
        TestedNetworkModel model;
        QTRY_VERIFY(!model.isLoading());
        const QString path = QStringLiteral(TS_ONNX_FIXTURES "/resnet18.onnx");
        model.addModel(path);
        model.addModel(QStringLiteral("/nonexistent/broken.onnx"));
        model.addModel(path); // once only
        QCOMPARE(model.models(), QStringList({ path, QStringLiteral("/nonexistent/broken.onnx") }));
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(model.rowCount(), int(graph::networks().size()) + 2);
        // Named by its path, shown by its file name, with the built-in ResNet-18's tasks.
        const QModelIndex onnx = model.networkIndex(path);
        QVERIFY(onnx.isValid());
        QCOMPARE(model.data(onnx).toString(), QStringLiteral("resnet18.onnx"));
        QCOMPARE(model.rowCount(onnx), 18);
        QCOMPARE(model.data(onnx.siblingAtColumn(models::NetworkTaskModel::WeightColumn)).toInt(), 23);
        // A model that cannot be imported keeps its row, with the reason.
        const QModelIndex broken = model.networkIndex(QStringLiteral("/nonexistent/broken.onnx"));
        QVERIFY(broken.isValid());
        QCOMPARE(model.rowCount(broken), 0);
        QVERIFY2(model.errorAt(broken).contains(QLatin1String("cannot open the ONNX model")),
            qPrintable(model.errorAt(broken)));
    }

    void modelResetsOnConfiguration()
    {
        TestedNetworkModel model;
        QTRY_VERIFY(!model.isLoading());
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setConfiguration(1, ops::Layout::NHWC);
        QTRY_COMPARE(reset.count(), 1);
        // BERT has no image layout, so only the CNNs remain.
        QCOMPARE(model.rowCount(), 5);
        const QModelIndex resnet = model.networkIndex(QStringLiteral("resnet-18"));
        QVERIFY(QString::fromStdString(model.taskAt(model.index(0, 0, resnet))->name).endsWith(QLatin1String("nhwc")));
        model.setConfiguration(1, ops::Layout::NHWC);
        QVERIFY(!model.isLoading());
        QTest::qWait(50);
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
            QVERIFY(showDag(view, task.dag, QStringLiteral("t")));
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
        QCOMPARE(view.actions().size(), 3); // zoom in, zoom out, fit: listed by the main window
    }

    void dagLayoutArrivesLater()
    {
        const graph::TaskSet tasks = resnetTasks();
        widgets::DagView view;
        view.resize(800, 600);
        QSignalSpy finished(&view, &widgets::DagView::layoutFinished);
        view.setDag(tasks.tasks[3].dag, QStringLiteral("task 3"));
        // The boxes wait for Graphviz, which runs on a worker thread.
        QVERIFY(view.isLayingOut());
        QVERIFY(view.nodeItems().isEmpty());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!view.isLayingOut());
        QCOMPARE(view.nodeItems().size(), 9);
        QCOMPARE(view.title(), QStringLiteral("task 3"));
        // Producers above consumers: the layout reached the items.
        QVERIFY(view.nodeItems()[0]->pos().y() < view.nodeItems()[8]->pos().y());
    }

    void fastReselectDropsTheStaleLayout()
    {
        const graph::TaskSet tasks = resnetTasks();
        widgets::DagView view;
        view.resize(800, 600);
        QVERIFY(showDag(view, tasks.tasks[1].dag, QStringLiteral("task 1"))); // 2 ops
        QSignalSpy finished(&view, &widgets::DagView::layoutFinished);
        view.setDag(tasks.tasks[3].dag, QStringLiteral("task 3")); // 9 ops
        view.setDag(tasks.tasks[17].dag, QStringLiteral("task 17")); // dense + bias: 5 ops
        QVERIFY(finished.wait(10000));
        QTest::qWait(100); // the superseded layout would have arrived by now
        QCOMPARE(finished.count(), 1);
        QCOMPARE(view.title(), QStringLiteral("task 17"));
        QCOMPARE(view.nodeItems().size(), tasks.tasks[17].dag.numOps());

        // Clearing drops a layout in flight too.
        view.setDag(tasks.tasks[3].dag, QStringLiteral("task 3"));
        view.clearDag(QStringLiteral("nothing selected"));
        QVERIFY(!view.isLayingOut());
        QTest::qWait(100);
        QCOMPARE(finished.count(), 1);
        QVERIFY(view.nodeItems().isEmpty());
        QCOMPARE(view.title(), QStringLiteral("nothing selected"));
    }

    void selectionClearsInnerLevels()
    {
        models::NetworkTaskModel model;
        QTRY_VERIFY(!model.isLoading());
        const QModelIndex resnet = model.networkIndex(QStringLiteral("resnet-18"));
        const auto network = model.networkAt(resnet);
        const auto task3 = model.taskHandleAt(model.index(3, 0, resnet));
        const auto task4 = model.taskHandleAt(model.index(4, 0, resnet));

        widgets::SelectionContext selection;
        QSignalSpy networkChanged(&selection, &widgets::SelectionContext::networkChanged);
        QSignalSpy taskChanged(&selection, &widgets::SelectionContext::taskChanged);
        QSignalSpy stateChanged(&selection, &widgets::SelectionContext::stateChanged);
        QSignalSpy recordChanged(&selection, &widgets::SelectionContext::recordChanged);
        selection.selectTask(network, task3);
        QCOMPARE(networkChanged.count(), 1);
        QCOMPARE(taskChanged.count(), 1);
        QCOMPARE(selection.networkName(), QStringLiteral("resnet-18"));
        QCOMPARE(selection.task(), task3);
        selection.selectTask(network, task3); // the same again: no signal, so views writing back cannot loop
        QCOMPARE(networkChanged.count(), 1);
        QCOMPARE(taskChanged.count(), 1);

        selection.selectState(std::make_shared<const sched::State>(sched::State::initial(task3->dag)));
        selection.selectRecord(42);
        QCOMPARE(stateChanged.count(), 1);
        QCOMPARE(recordChanged.count(), 1);
        QCOMPARE(selection.recordId(), std::optional<int64_t>(42));

        selection.selectTask(network, task4); // a new task clears the state and the record
        QCOMPARE(taskChanged.count(), 2);
        QCOMPARE(networkChanged.count(), 1);
        QVERIFY(!selection.state());
        QVERIFY(!selection.recordId());
        QCOMPARE(stateChanged.count(), 2);
        QCOMPARE(recordChanged.count(), 2);

        selection.selectNetwork(network); // the network row: no task
        QVERIFY(!selection.task());
        QCOMPARE(taskChanged.count(), 3);
        QCOMPARE(networkChanged.count(), 1);
        selection.clear();
        QVERIFY(!selection.network());
        QCOMPARE(networkChanged.count(), 2);
    }
};

QTEST_MAIN(WidgetsTest)
#include "widgets_test.moc"
