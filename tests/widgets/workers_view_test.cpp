// The Sessions dock on a PostgreSQL workspace (a private server the test starts, tests/core/pg_cluster.h): a
// session started from the window with "measure on workers" is measured by a worker (in this process, as
// tunescope-worker runs it), and the dock's Workers table lists that worker with what it measured, while the
// GUI thread never blocks. On an SQLite workspace the table is hidden. The model passes the tester.
#include "event_loop_probe.h"
#include "session_fixture.h"
#include "tests/core/pg_cluster.h"

#include "app/gui/sessions_view.h"
#include "app/gui/view_registry.h"
#include "core/engine/measure_worker.h"
#include "core/store/store.h"
#include "widgets/models/workers_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAbstractItemModelTester>
#include <QGroupBox>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace ts;

class WorkersViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aSessionOnWorkersListsTheWorkerAndWhatItMeasured()
    {
        const std::string url = store::test::PgCluster::shared().createDatabase();
        QVERIFY(store::Store::open(url));
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        app::SessionsView view(context);
        view.resize(900, 500);
        view.show();
        QAbstractItemModelTester tester(view.workers(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        hub.openWorkspace(QString::fromStdString(url));
        auto* box = view.findChild<QGroupBox*>();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());

        std::stop_source stop;
        std::jthread worker([&] {
            engine::WorkerOptions options;
            options.workspace = url;
            options.name = "gui-worker";
            options.claim = 4;
            options.idleWaitMs = 300;
            auto done = engine::runWorker(options, stop.get_token(), [](const std::string&) {});
            if (!done)
                qWarning("worker: %s", done.error().message.c_str());
        });
        engine::TuneOptions options = testing::shortRun(16, 8);
        options.workspace = url;
        options.measureOnWorkers = true;
        options.remeasureTop = 0;
        testing::EventLoopProbe probe;
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul("32,32,32"), options));
        view.refreshWorkers();
        QTRY_COMPARE(view.workers()->rowCount(), 1);
        QTRY_COMPARE(view.workers()->index(0, models::WorkersModel::Measured).data().toLongLong(), 16LL);
        QCOMPARE(view.workers()->index(0, models::WorkersModel::Name).data().toString(), QStringLiteral("gui-worker"));
        QVERIFY(box->title().startsWith(QStringLiteral("Workers (1)")));
        stop.request_stop();
        worker.join();
        view.refreshWorkers();
        QTRY_COMPARE(
            view.workers()->index(0, models::WorkersModel::State).data().toString(), QStringLiteral("stopped"));
        // The thread's CPU time per stretch (a call that works long), and the wall gaps (a busy host shows there too).
        qInfo("GUI thread: worst call %.1f ms of CPU, longest gap %.1f ms", probe.maxBusyMs(), probe.maxBlockedMs());
        QVERIFY2(probe.maxBusyMs() < 50.0, qPrintable(QString::number(probe.maxBusyMs())));

        // An SQLite workspace has no workers: the table goes away.
        QTemporaryDir dir;
        hub.openWorkspace(dir.filePath(QStringLiteral("local.tunescope")));
        QTRY_VERIFY(!box->isVisible());
        QCOMPARE(view.workers()->rowCount(), 0);
    }
};

QTEST_MAIN(WorkersViewTest)
#include "workers_view_test.moc"
