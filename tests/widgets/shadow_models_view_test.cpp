// Shadow models in the window: the New session dialog lists the registry's cost-model kinds as shadow models (Ansor
// only); a REAL short session (a 64^3 matmul measured for real, xgb ranking, analytical and xgb-rank shadowing it)
// gives the Predicted vs measured view one curve per model with one point per round, whose values are the lines
// the engine reported and stored, and a table of their means (engine::summarize); the stored session, loaded
// afresh, shows the same curves. With TS_SCREENSHOT_DIR set, a longer session (tlp and analytical shadowing xgb
// over 8 rounds) is drawn to shadow-models.png.
#include "session_fixture.h"
#include "steering_helpers.h"

#include "app/gui/prediction_view.h"
#include "app/gui/session_dialog.h"
#include "app/gui/view_registry.h"
#include "core/cost/cost_model.h"
#include "core/cost/neural_models.h"
#include "widgets/models/session_snapshot.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/shadow_metrics_plot.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QGroupBox>
#include <QListWidget>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

class ShadowModelsViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TuneScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("shadow_models_view_test"));
        QSettings().clear();
        cost::registerNeuralModels(); // as the workbench does: the dialog lists them too
    }

    void dialogListsTheRegistrysKindsForAnsorOnly()
    {
        app::SessionDialog dialog;
        auto* list = dialog.findChild<QListWidget*>(QStringLiteral("shadowModelList"));
        auto* group = dialog.findChild<QGroupBox*>(QStringLiteral("shadowModels"));
        QVERIFY(list && group);
        // Every registered kind, in the registry's order, nothing else; none checked at first.
        const std::vector<cost::CostModelKind> kinds = cost::costModelKinds();
        QCOMPARE(list->count(), static_cast<int>(kinds.size()));
        QVERIFY(kinds.size() >= 5); // the Qt-free ones and the LibTorch ones
        for (size_t i = 0; i < kinds.size(); ++i) {
            QCOMPARE(list->item(static_cast<int>(i))->text(), QString::fromStdString(kinds[i].kind));
            QCOMPARE(list->item(static_cast<int>(i))->checkState(), Qt::Unchecked);
        }
        QVERIFY(dialog.options().shadowModels.empty());

        // Checked kinds reach TuneOptions::shadowModels, in the registry's order.
        auto check = [&](const char* kind) {
            const auto found = list->findItems(QString::fromLatin1(kind), Qt::MatchExactly);
            QCOMPARE(found.size(), 1);
            found.front()->setCheckState(Qt::Checked);
        };
        check("tlp");
        check("analytical");
        std::vector<std::string> expected;
        for (const cost::CostModelKind& k : kinds)
            if (k.kind == "tlp" || k.kind == "analytical")
                expected.push_back(k.kind);
        QCOMPARE(expected.size(), size_t { 2 });
        QVERIFY(group->isEnabled());
        QCOMPARE(dialog.options().policy, search::PolicyKind::Ansor);
        QCOMPARE(dialog.options().shadowModels, expected);

        // An AutoTVM policy does not rank with the session's model: the choice is off, with the reason.
        QComboBox* policy = nullptr;
        for (QComboBox* c : dialog.findChildren<QComboBox*>())
            if (c->findData(QStringLiteral("autotvm-xgb")) >= 0)
                policy = c;
        QVERIFY(policy);
        policy->setCurrentIndex(policy->findData(QStringLiteral("autotvm-xgb")));
        QVERIFY(!group->isEnabled());
        QVERIFY2(group->toolTip().contains(QStringLiteral("Ansor only")), qPrintable(group->toolTip()));
        QVERIFY(group->toolTip().contains(QStringLiteral("autotvm-xgb")));
        QVERIFY(dialog.options().shadowModels.empty());
        policy->setCurrentIndex(policy->findData(QStringLiteral("random"))); // random sampling: no model ranks
        QVERIFY(!group->isEnabled());
        QVERIFY(dialog.options().shadowModels.empty());
        policy->setCurrentIndex(policy->findData(QStringLiteral("ansor")));
        QVERIFY(group->isEnabled());
        QCOMPARE(dialog.options().shadowModels, expected);

        // Kept for the next dialog, as the other values are.
        dialog.setWorkspace(QStringLiteral("/tmp/shadow-dialog.tunescope"));
        dialog.setTask(QStringLiteral("resnet-18"), 1, QStringLiteral("NCHW"), 0);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        app::SessionDialog again;
        QCOMPARE(again.options().shadowModels, expected);
        QSettings().clear();
    }

    // Rounds, each line folded in, in order: the session's line, then the shadows'.
    void snapshotFoldsEveryRoundsLines()
    {
        engine::TuneOptions options = testing::shortRun(16, 8, "xgb");
        options.shadowModels = { "analytical" };
        models::SnapshotBuilder builder(options, {}, "matmul");
        std::vector<engine::ShadowMetrics> all;
        for (int round = 1; round <= 2; ++round) {
            engine::RoundDone done;
            done.round = round;
            done.shadows = { engine::ShadowMetrics { "xgb", true, round, 0, 8, 0.5 + 0.1 * round, 0.2 * round },
                engine::ShadowMetrics { "analytical", false, round, 0, 8, 0.6, 0.3, 0.01 } };
            all.insert(all.end(), done.shadows.begin(), done.shadows.end());
            builder.apply(engine::TuneEvent { done });
        }
        QCOMPARE(builder.snapshot().shadows, all);
    }

    void liveSessionDrawsOneCurvePerModel()
    {
        QVERIFY(m_dir.isValid());
        const QString workspace = m_dir.filePath(QStringLiteral("shadows.tunescope"));
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(workspace);
        app::ViewContext context { selection, hub };
        app::PredictionView view(context);
        view.resize(1300, 420);
        view.show();
        QVERIFY(view.shadowPanel()->isHidden()); // no session: the view as without shadow models

        engine::TuneOptions options = testing::shortRun(32, 8, "xgb");
        options.shadowModels = { "analytical", "xgb-rank" };
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), options));
        QTRY_VERIFY(hub.current() && hub.current()->finished());
        const auto live = hub.current();
        QCOMPARE(static_cast<int>(live->rounds.size()), 4);
        // The engine's lines as it stored them: 3 per round (the session's model, then each shadow).
        const std::vector<engine::ShadowMetrics> stored = testing::storedShadowLines(workspace, live->sessionId);
        QCOMPARE(stored.size(), size_t { 12 });
        QCOMPARE(live->shadows, stored);
        for (size_t i = 0; i < stored.size(); ++i) {
            QCOMPARE(stored[i].round, static_cast<int>(i / 3) + 1);
            QCOMPARE(stored[i].session, i % 3 == 0);
            QVERIFY2(stored[i].error.empty(), stored[i].error.c_str());
        }

        QTRY_VERIFY(!view.shadowPanel()->isHidden());
        const std::vector<std::pair<std::string, bool>> models
            = { { "xgb", true }, { "analytical", false }, { "xgb-rank", false } };
        testing::checkShadowPlot(view.shadowPlot(), stored, models, 4, false);
        testing::checkShadowTable(view.shadowTable(), stored);
        // Spearman instead: the same curves, the other metric.
        view.shadowMetricBox()->setCurrentIndex(1);
        QCOMPARE(view.shadowPlot()->metric(), widgets::ShadowMetricsPlot::Metric::Spearman);
        testing::checkShadowPlot(view.shadowPlot(), stored, models, 4, true);
        view.shadowMetricBox()->setCurrentIndex(0);
        testing::checkShadowPlot(view.shadowPlot(), stored, models, 4, false);

        // Hovering the session's first point names it.
        QCoreApplication::processEvents();
        view.shadowPlot()->replot();
        const engine::ShadowMetrics first = stored.front();
        const QPointF at(view.shadowPlot()->xAxis->coordToPixel(first.round),
            view.shadowPlot()->yAxis->coordToPixel(first.pairwiseAccuracy));
        const auto hit = view.shadowPlot()->lineAt(at);
        QVERIFY(hit);
        QVERIFY(hit->session);
        QCOMPARE(hit->round, 1);

        // The stored session, loaded by another window's hub from the workspace: the same curves and means.
        widgets::SelectionContext selection2;
        widgets::SessionHub hub2;
        hub2.openWorkspace(workspace);
        app::ViewContext context2 { selection2, hub2 };
        app::PredictionView stored2(context2);
        stored2.resize(1300, 420);
        stored2.show();
        hub2.showSession(live->sessionId);
        QTRY_VERIFY(hub2.current() && hub2.current()->sessionId == live->sessionId);
        QVERIFY(!hub2.current()->live);
        QCOMPARE(hub2.current()->shadows, stored);
        QVERIFY(!stored2.shadowPanel()->isHidden());
        testing::checkShadowPlot(stored2.shadowPlot(), stored, models, 4, false);
        testing::checkShadowTable(stored2.shadowTable(), stored);
    }

    // The picture in docs/images/shadow-models.png: 3 models over 8 rounds of a real session.
    void screenshot()
    {
        const QByteArray shots = qgetenv("TS_SCREENSHOT_DIR");
        if (shots.isEmpty())
            QSKIP("set TS_SCREENSHOT_DIR to draw docs/images/shadow-models.png");
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(m_dir.filePath(QStringLiteral("screenshot.tunescope")));
        app::ViewContext context { selection, hub };
        app::PredictionView view(context);
        view.resize(1500, 440);
        view.show();
        engine::TuneOptions options = testing::shortRun(64, 8, "xgb");
        options.shadowModels = { "tlp", "analytical" };
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul("128,128,128"), options, 600000));
        QTRY_VERIFY(hub.current() && hub.current()->finished() && hub.current()->shadows.size() == 24);
        QTRY_VERIFY(!view.shadowPanel()->isHidden());
        QCOMPARE(view.shadowPlot()->series().size(), size_t { 3 });
        QTest::qWait(300);
        QVERIFY(view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/shadow-models.png")));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(ShadowModelsViewTest)
#include "shadow_models_view_test.moc"
