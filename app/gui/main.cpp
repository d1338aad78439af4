// tunescope: the workbench GUI.
//   tunescope                      opens the demo workspace (ResNet-18, first task selected)
//   tunescope --network N --task I selects another task at start
//   tunescope --headless           prints the demo's content (tasks and the selected DAG) without a display
//   tunescope --screenshot F.png   renders the window to F.png and exits (used by docs and tests)
#include "app/gui/main_window.h"
#include "core/graph/task_report.h"
#include "core/store/schedule_source.h"
#include "widgets/dag_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <cstring>
#include <iostream>

namespace {

const char* const kDemoNetwork = "resnet-18";

// The demo's content as text, for machines without a display.
int printHeadless(const std::string& network, int taskId)
{
    auto tasks = ts::store::loadNetworkTasks({ network });
    if (!tasks) {
        std::cerr << "tunescope: " << tasks.error().message << "\n";
        return 1;
    }
    auto task = ts::store::findTask(*tasks, taskId, "--task");
    if (!task) {
        std::cerr << "tunescope: " << task.error().message << "\n";
        return 1;
    }
    std::cout << ts::graph::formatTaskTable(*tasks, "TuneScope demo workspace: network " + network + ", batch 1")
              << "\n"
              << ts::graph::formatTaskDag(**task);
    return 0;
}

bool hasArgument(int argc, char** argv, const char* name)
{
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], name))
            return true;
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    // --headless must work where no display exists, so it is handled before QApplication connects to one.
    if (hasArgument(argc, argv, "--headless")) {
        std::string network = kDemoNetwork;
        int task = 0;
        for (int i = 1; i + 1 < argc; ++i) {
            if (!std::strcmp(argv[i], "--network"))
                network = argv[i + 1];
            if (!std::strcmp(argv[i], "--task"))
                task = std::atoi(argv[i + 1]);
        }
        return printHeadless(network, task);
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("TuneScope"));
    QApplication::setApplicationName(QStringLiteral("TuneScope"));
    QApplication::setApplicationVersion(QStringLiteral(TUNESCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/tunescope.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("TuneScope, a workbench for tuning tensor programs"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption networkOption(QStringLiteral("network"), QStringLiteral("Network to open."),
        QStringLiteral("name"), QString::fromLatin1(kDemoNetwork));
    QCommandLineOption taskOption(
        QStringLiteral("task"), QStringLiteral("Task to select."), QStringLiteral("id"), QStringLiteral("0"));
    QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Render the window to a PNG file and exit."), QStringLiteral("file"));
    QCommandLineOption langOption(
        QStringLiteral("lang"), QStringLiteral("User-interface language (en, de)."), QStringLiteral("code"));
    QCommandLineOption headlessOption(
        QStringLiteral("headless"), QStringLiteral("Print the demo workspace's content instead of opening a window."));
    parser.addOptions({ networkOption, taskOption, screenshotOption, langOption, headlessOption });
    parser.process(app);

    QTranslator translator;
    const QString lang = parser.isSet(langOption) ? parser.value(langOption) : QLocale::system().name().left(2);
    if (lang != QLatin1String("en") && translator.load(QStringLiteral(":/i18n/tunescope_") + lang))
        QApplication::installTranslator(&translator);

    ts::app::MainWindow window;
    window.resize(1400, 860);
    window.show();
    const bool screenshot = parser.isSet(screenshotOption);
    // The explorer loads its networks off the GUI thread: select the task once they are shown.
    QObject::connect(
        &window, &ts::app::MainWindow::explorerReady, &window,
        [&] {
            bool ok = false;
            const int task = parser.value(taskOption).toInt(&ok);
            if (ok && window.selectTask(parser.value(networkOption), task))
                return;
            std::fprintf(stderr, "tunescope: no task %s in network %s\n", qPrintable(parser.value(taskOption)),
                qPrintable(parser.value(networkOption)));
            if (screenshot)
                QApplication::exit(1);
        },
        Qt::SingleShotConnection);

    if (screenshot) {
        // The picture is taken once the selected task's DAG layout has arrived.
        const QString file = parser.value(screenshotOption);
        QObject::connect(
            window.dagView(), &ts::widgets::DagView::layoutFinished, &window,
            [&](bool laidOut) {
                const bool saved = laidOut && window.grab().save(file, "PNG");
                if (!laidOut)
                    std::fprintf(stderr, "tunescope: %s\n", qPrintable(window.dagView()->title()));
                else if (!saved)
                    std::fprintf(stderr, "tunescope: cannot write %s\n", qPrintable(file));
                QApplication::exit(saved ? 0 : 1);
            },
            Qt::SingleShotConnection);
        QTimer::singleShot(60000, &window, [] {
            std::fprintf(stderr, "tunescope: the DAG was not laid out within a minute\n");
            QApplication::exit(1);
        });
    }
    return QApplication::exec();
}
