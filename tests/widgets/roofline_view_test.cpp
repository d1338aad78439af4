// The Roofline view over a real short session: the selected task's records become a column of points at the
// task's arithmetic intensity with one best; without a machine profile there are no roofs and the view
// offers to measure; measuring (really, 1 thread) draws the roof and keeps the profile in the workspace;
// a measurement cancelled at once leaves the stored profile alone.
#include "session_fixture.h"

#include "app/gui/roofline_view.h"
#include "app/gui/view_registry.h"
#include "core/engine/machine.h"
#include "core/graph/op_tasks.h"
#include "widgets/roofline_plot.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

class RooflineViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordsAgainstTheRoofs()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString workspace = dir.filePath(QStringLiteral("roofline.tunescope"));
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(workspace);
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(16, 8)));

        app::ViewContext context { selection, hub };
        app::RooflineView view(context);
        view.resize(900, 400);
        view.show();
        QSignalSpy refreshed(&view, &app::RooflineView::refreshed);
        auto task = graph::operatorTask("matmul", { 64, 64, 64 }, ops::Layout::NCHW);
        QVERIFY(task);
        selection.selectTask(nullptr, std::make_shared<const graph::Task>(*task));
        QVERIFY(refreshed.wait(20000));
        while (refreshed.wait(500)) { } // the constructor's refresh may land after the selection's

        const auto& points = view.plot()->points();
        QVERIFY(!points.empty());
        int best = 0;
        const double intensity = task->flops / static_cast<double>(task->dag.bytesRead() + task->dag.bytesWritten());
        for (const auto& p : points) {
            QVERIFY(p.selectedTask);
            QVERIFY(p.gflops > 0);
            QCOMPARE(p.intensity, intensity); // one task: one compulsory traffic
            best += p.best ? 1 : 0;
        }
        QCOMPARE(best, 1);
        QCOMPARE(view.plot()->roofCount(), 0);
        QCOMPARE(view.measureButton()->text(), QStringLiteral("Measure machine"));
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("GFLOP/s")));

        QSignalSpy measured(&view, &app::RooflineView::machineMeasured);
        refreshed.clear();
        view.measureMachine(1);
        QVERIFY(view.isMeasuring());
        QVERIFY(measured.wait(120000));
        QCOMPARE(measured.first().at(0).toString(), QString());
        QVERIFY(refreshed.wait(20000));
        QCOMPARE(view.plot()->roofCount(), 1);
        QVERIFY(view.plot()->profile());
        // The L2's roof where the OS reports an L2 (the matmul's 48 KiB fit it: its summary names the L2).
        if (view.plot()->profile()->l2Bytes > 0) {
            QVERIFY(view.plot()->cacheRoofCount() >= 1);
            QVERIFY(view.profileLabel()->text().contains(QStringLiteral("L2 ")));
            for (const auto& p : view.plot()->points())
                QCOMPARE(p.bytes, static_cast<double>(task->dag.bytesRead() + task->dag.bytesWritten()));
        }
        QVERIFY(view.profileLabel()->text().contains(QStringLiteral("FMA peak")));
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("of its roof")));
        if (const QByteArray shots = qgetenv("TS_SCREENSHOT_DIR"); !shots.isEmpty()) // a picture to look at
            view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/roofline-view.png"));
        auto store = store::Store::open(workspace.toStdString());
        QVERIFY(store);
        auto stored = engine::hostProfile(*store);
        QVERIFY(stored && stored->has_value());
        const std::string json = (*stored)->toJson();

        // Cancelled at once: nothing is written, the view is usable again.
        measured.clear();
        view.measureMachine(1);
        for (QPushButton* b : view.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Cancel"))
                b->click();
        QVERIFY(!measured.isEmpty() || measured.wait(120000));
        QVERIFY(view.measureButton()->isEnabled());
        QTest::qWait(200);
        auto again = engine::hostProfile(*store);
        QVERIFY(again && again->has_value());
        QCOMPARE((*again)->toJson(), json);
    }
};

QTEST_MAIN(RooflineViewTest)
#include "roofline_view_test.moc"
