// The Model comparison view over a real short session: comparing random and xgb on a time split of its
// records fills one table row and one scatter per model, on the same test records; a dataset that does not
// exist is an error in the view, not a crash; a cancelled comparison shows nothing and frees the button.
//
// With TS_MODEL_COMPARISON_DATASET=WORKSPACE (and optionally TS_MODEL_COMPARISON_MODELS, _HOLDOUT and
// _SCREENSHOT=FILE.png) the last test compares the LibTorch models too on that dataset and saves a
// screenshot: how docs/images/model-comparison.png is made.
#include "session_fixture.h"

#include "app/gui/model_comparison_view.h"
#include "app/gui/view_registry.h"
#include "core/cost/neural_models.h"
#include "widgets/model_scatter.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

class ModelComparisonViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void comparesTwoModelsOnTheSameRecords()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("compare.tunescope")));
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(48, 16)));

        app::ViewContext context { selection, hub };
        app::ModelComparisonView view(context);
        view.resize(1200, 320);
        view.show();
        view.modelsEdit()->setText(QStringLiteral("random, xgb"));
        QSignalSpy compared(&view, &app::ModelComparisonView::compared);
        view.compare();
        QVERIFY(!view.compareButton()->isEnabled());
        QVERIFY(compared.wait(120000));
        QCOMPARE(compared.front().front().toString(), QString());
        QCOMPARE(view.table()->rowCount(), 2);
        QCOMPARE(view.table()->item(0, 0)->text(), QStringLiteral("random"));
        QCOMPARE(view.table()->item(1, 0)->text(), QStringLiteral("xgb"));
        const double pairwise = view.table()->item(1, 3)->text().toDouble();
        QVERIFY(pairwise >= 0.0 && pairwise <= 1.0);
        QCOMPARE(view.scatters().size(), size_t { 2 });
        QVERIFY(view.scatters()[0]->pointCount() > 0);
        QCOMPARE(view.scatters()[0]->pointCount(), view.scatters()[1]->pointCount()); // the same test records
        QVERIFY(view.scatters()[1]->title().startsWith(QStringLiteral("xgb (pairwise")));
        QVERIFY(view.statusLabel()->text().contains(QStringLiteral("last 30%")));
        QVERIFY(view.compareButton()->isEnabled());
    }

    void searchCurvesAreOverlaid()
    {
        QTemporaryDir dir;
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("search.tunescope")));
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(32, 16)));
        app::ViewContext context { selection, hub };
        app::ModelComparisonView view(context);
        view.modelsEdit()->setText(QStringLiteral("random,xgb"));
        view.searchTasksBox()->setValue(1);
        view.searchTrialsBox()->setValue(8);
        QSignalSpy compared(&view, &app::ModelComparisonView::compared);
        view.compare();
        QVERIFY(compared.wait(180000));
        QCOMPARE(compared.front().front().toString(), QString());
        QCOMPARE(view.searchPlot()->curveCount(), 2);
        QVERIFY(view.searchPlot()->isVisibleTo(&view));
        QVERIFY(view.searchPlot()->graph(0)->dataCount() >= 2);
        if (const QString shot = qEnvironmentVariable("TS_MODEL_COMPARISON_SEARCH_SHOT"); !shot.isEmpty()) {
            view.resize(1500, 360);
            QTest::qWait(200);
            QVERIFY(view.grab().save(shot));
        }
    }

    void aMissingDatasetIsAnErrorInTheView()
    {
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        app::ModelComparisonView view(context);
        view.modelsEdit()->setText(QStringLiteral("xgb"));
        view.datasetEdit()->setText(QStringLiteral("/nonexistent/dir/data.tunescope"));
        QSignalSpy compared(&view, &app::ModelComparisonView::compared);
        view.compare();
        QVERIFY(compared.wait(30000));
        QVERIFY(view.statusLabel()->text().startsWith(QStringLiteral("The comparison failed")));
        QCOMPARE(view.table()->rowCount(), 0);
        QVERIFY(view.compareButton()->isEnabled());
    }

    void cancelShowsNothing()
    {
        QTemporaryDir dir;
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("cancel.tunescope")));
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(32, 16)));
        app::ViewContext context { selection, hub };
        app::ModelComparisonView view(context);
        view.modelsEdit()->setText(QStringLiteral("xgb"));
        QSignalSpy compared(&view, &app::ModelComparisonView::compared);
        view.compare();
        view.cancelButton()->click();
        QCOMPARE(compared.size(), 1);
        QCOMPARE(compared.front().front().toString(), QStringLiteral("cancelled"));
        QVERIFY2(!compared.wait(3000), "a cancelled job delivers nothing");
        QCOMPARE(view.table()->rowCount(), 0);
        QVERIFY(view.compareButton()->isEnabled());
    }

    void screenshotOnARealDataset()
    {
        const QString dataset = qEnvironmentVariable("TS_MODEL_COMPARISON_DATASET");
        if (dataset.isEmpty())
            QSKIP("set TS_MODEL_COMPARISON_DATASET to compare the LibTorch models on a dataset");
        cost::registerNeuralModels();
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        app::ModelComparisonView view(context);
        view.resize(1800, 420);
        view.show();
        view.datasetEdit()->setText(dataset);
        view.modelsEdit()->setText(qEnvironmentVariable("TS_MODEL_COMPARISON_MODELS", QStringLiteral("xgb,mlp,tlp")));
        view.holdoutEdit()->setText(qEnvironmentVariable("TS_MODEL_COMPARISON_HOLDOUT"));
        QSignalSpy compared(&view, &app::ModelComparisonView::compared);
        view.compare();
        QVERIFY(compared.wait(3'600'000));
        QCOMPARE(compared.front().front().toString(), QString());
        QTest::qWait(200);
        const QString file = qEnvironmentVariable("TS_MODEL_COMPARISON_SCREENSHOT");
        if (!file.isEmpty())
            QVERIFY(view.grab().save(file));
    }
};

QTEST_MAIN(ModelComparisonViewTest)
#include "model_comparison_view_test.moc"
