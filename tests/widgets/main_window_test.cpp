// The main window opens, and selecting a task in the explorer populates the DAG scene.
#include "app/gui/main_window.h"
#include "widgets/dag_view.h"
#include "widgets/network_task_model.h"

#include <QCoreApplication>
#include <QSettings>
#include <QTest>
#include <QTreeView>

using namespace ts;

class MainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TuneScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("main_window_test"));
        QSettings().clear();
    }

    void selectingTaskPopulatesDag()
    {
        app::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.dagView()->nodeItems().isEmpty());

        QVERIFY(window.selectTask(QStringLiteral("resnet-18"), 3));
        const graph::Task* task = window.taskModel()->taskAt(window.explorer()->currentIndex());
        QVERIFY(task);
        QCOMPARE(task->id, 3);
        QCOMPARE(window.dagView()->nodeItems().size(), task->dag.numOps());
        QCOMPARE(window.dagView()->nodeItems().size(), 9); // data, pad, weight, conv, bias, add, residual, add, relu

        // Clicking another task through the explorer's selection replaces the scene.
        const QModelIndex bert = window.taskModel()->networkIndex(QStringLiteral("bert-tiny"));
        window.explorer()->setCurrentIndex(window.taskModel()->index(2, 0, bert)); // softmax
        QCOMPARE(window.dagView()->nodeItems().size(), 5);
        QVERIFY(!window.selectTask(QStringLiteral("bert-tiny"), 99));
        QVERIFY(!window.selectTask(QStringLiteral("no-such-net"), 0));
    }

    void rememberedSelectionAndGeometry()
    {
        {
            app::MainWindow window;
            window.resize(900, 700);
            window.show();
            QVERIFY(window.selectTask(QStringLiteral("vgg-11"), 1));
            window.close();
        }
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("explorer/network")).toString(), QStringLiteral("vgg-11"));
        QCOMPARE(settings.value(QStringLiteral("explorer/task")).toInt(), 1);
        QVERIFY(!settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
