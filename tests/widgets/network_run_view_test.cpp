// The Network run view over a real short session of bert-tiny's first task: Run network runs `tunescope-cli run`
// in a child process on the workspace's records, and the view shows the measured latency beside the estimate
// (the tuned task has one, the others run their default schedule), one bar row per task plus the steps that are
// no task's; the tuning curves draw the measured latency across their latency plot. A run cancelled at once
// leaves nothing behind; a run that fails says why.
#include "session_fixture.h"

#include "app/gui/curves_view.h"
#include "app/gui/network_run_view.h"
#include "app/gui/view_registry.h"
#include "core/session/network_run_job.h"
#include "widgets/network_run_plot.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/tuning_curve_plot.h"

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

class NetworkRunViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qputenv("TUNESCOPE_CLI", TS_CLI_PATH); }

    void runsTheShownSessionsNetwork()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("run.tunescope")));
        app::ViewContext context { selection, hub };
        app::NetworkRunView view(context);
        app::CurvesView curves(context);
        view.resize(900, 420);
        view.show();
        QVERIFY(!view.runAction()->isEnabled()); // no session shown

        engine::TuneOrigin origin;
        origin.network = "bert-tiny";
        origin.taskIds = { 0 };
        QVERIFY(testing::runToEnd(hub, origin, testing::shortRun(8, 8)));
        QTRY_VERIFY(hub.current() && hub.current()->network == "bert-tiny");
        QTRY_VERIFY(view.runAction()->isEnabled());
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("has not been run whole")));

        QSignalSpy finished(&view, &app::NetworkRunView::finished);
        view.runAction()->trigger();
        QVERIFY(view.isRunning());
        QVERIFY(!view.runAction()->isEnabled());
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.first().at(0).toString(), QString());

        const auto run = hub.networkRun(*hub.current());
        QVERIFY(run);
        QVERIFY(!run->wrong());
        QCOMPARE(run->estimatedTasks, 1); // the tuned task
        QVERIFY(run->medianSeconds > 0);
        QVERIFY(run->tasks.front().schedule.rfind("record ", 0) == 0);
        QVERIFY(run->tasks.front().estimateSeconds > 0);
        const QStringList rows = view.plot()->rowLabels();
        QCOMPARE(rows.size(), static_cast<qsizetype>(run->tasks.size() + 1));
        QVERIFY(rows.last().startsWith(QStringLiteral("other steps")));
        QCOMPARE(view.plot()->measuredBars()->data()->size(), rows.size());
        QCOMPARE(view.plot()->estimateBars()->data()->size(), 1);
        // Every task and the other steps timed hot too, through the child's JSON: a bar each.
        QCOMPARE(view.plot()->hotBars()->data()->size(), rows.size());
        QVERIFY(run->tasks.front().hotSeconds > 0);
        QVERIFY(view.summaryLabel()->text().contains(QStringLiteral("for the 1 of 8 tasks tuned")));
        QVERIFY(curves.plot()->measuredLatency());
        QCOMPARE(*curves.plot()->measuredLatency(), run->medianSeconds * 1e3);
        if (const QByteArray shots = qgetenv("TS_SCREENSHOT_DIR"); !shots.isEmpty()) { // a picture to look at
            QTest::qWait(300);
            view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/network-run.png"));
            curves.resize(700, 500);
            curves.show();
            QTest::qWait(300);
            curves.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/network-run-curves.png"));
        }

        // Cancelled at once: the child is killed, the last run stays shown.
        finished.clear();
        view.runNetwork(2);
        QVERIFY(view.isRunning());
        view.cancel();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("cancelled"));
        QVERIFY(!view.isRunning());
        QCOMPARE(hub.networkRun(*hub.current()), run);
        QTRY_VERIFY(view.runAction()->isEnabled());
    }

    void aFailedRunSaysWhy()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        session::NetworkRunRequest request;
        request.network = "no-such-network";
        request.workspace = dir.filePath(QStringLiteral("none.tunescope")).toStdString();
        session::JobContext context { std::stop_token {} };
        auto run = session::runNetworkInChild(request, context);
        QVERIFY(!run);
        QVERIFY2(run.error().message.find("the network run failed") != std::string::npos, run.error().message.c_str());
        QVERIFY2(run.error().message.find("no-such-network") != std::string::npos, run.error().message.c_str());
    }
};

QTEST_MAIN(NetworkRunViewTest)
#include "network_run_view_test.moc"
