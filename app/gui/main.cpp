// tunescope: the workbench GUI.
//   tunescope                      opens the demo workspace (ResNet-18, first task selected)
//   tunescope --network N --task I selects another task at start
//   tunescope --headless           prints the demo's content (tasks and the selected DAG) without a display
//   tunescope --screenshot F.png   renders the window to F.png and exits (used by docs and tests)
//   tunescope --lang zh_CN         the interface in Simplified Chinese (en, de, zh_CN; default: the system's)
//   tunescope --workspace W.tunescope   opens that workspace (default: the last one, or the demo workspace)
//   tunescope --demo-session       starts the demo's short tuning session in the workspace (done by itself the
//                                  first time the demo workspace is opened)
//   tunescope --screenshot F.png --screenshot-after-trials N   the picture once the live session has N trials
//   tunescope --workspace W --replay-race ID [--screenshot F.png]   plays a stored race back in the Race view
//                                  (a classroom without time to tune); with --screenshot, the picture at its end
#include "app/gui/curves_view.h"
#include "app/gui/main_window.h"
#include "app/gui/race_view.h"
#include "app/gui/settings_keys.h"
#include "app/gui/ui_language.h"
#include "core/cost/neural_models.h"
#include "core/graph/task_report.h"
#include "core/store/database.h"
#include "core/store/schedule_source.h"
#include "widgets/dag_view.h"
#include "widgets/session_hub.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <iostream>

namespace {

const char* const kDemoNetwork = "resnet-18";

// The demo's session: two ResNet-18 convolutions (a 3x3 that occurs twice and a 1x1), tuned by Ansor with
// the XGBoost model, 128 trials in rounds of 32, layout rewrite as TVM's (2): two warm-up rounds, then the task
// scheduler's gradient at work. About a minute or two on two cores.
ts::engine::TuneOrigin demoOrigin()
{
    ts::engine::TuneOrigin origin;
    origin.network = kDemoNetwork;
    origin.batch = 1;
    origin.layout = "NCHW";
    origin.taskIds = { 2, 6 };
    return origin;
}

ts::engine::TuneOptions demoOptions()
{
    ts::engine::TuneOptions options;
    options.model = "xgb";
    options.trials = 128;
    options.measuresPerRound = 32;
    options.seed = 1;
    // As a session the dialog starts for a network: TVM's layout rewrite (weights packed before the timed runs).
    options.measure.layoutRewrite = ts::engine::defaultLayoutRewrite(options.policy, true, options.measure.target);
    return options;
}

QString demoWorkspacePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/demo.tunescope");
}

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
    ts::cost::registerNeuralModels(); // the session dialog lists them with the other cost models
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
    QCommandLineOption langOption(QStringLiteral("lang"),
        QStringLiteral("User-interface language: %1 (default: the system's).")
            .arg(ts::app::kUiLanguages.join(QStringLiteral(", "))),
        QStringLiteral("code"));
    QCommandLineOption headlessOption(
        QStringLiteral("headless"), QStringLiteral("Print the demo workspace's content instead of opening a window."));
    QCommandLineOption workspaceOption(QStringLiteral("workspace"),
        QStringLiteral("Workspace to open (default: the last one, or the demo workspace)."), QStringLiteral("file"));
    QCommandLineOption demoOption(
        QStringLiteral("demo-session"), QStringLiteral("Start the demo's short tuning session in the workspace."));
    QCommandLineOption replayRaceOption(QStringLiteral("replay-race"),
        QStringLiteral("Play a race stored in the workspace back in the Race view (see tunescope-cli race --list)."),
        QStringLiteral("id"));
    QCommandLineOption afterTrialsOption(QStringLiteral("screenshot-after-trials"),
        QStringLiteral("With --screenshot: take it once the live session has this many trials."), QStringLiteral("n"));
    QCommandLineOption modelOption(QStringLiteral("model"),
        QStringLiteral("Open an ONNX model (as File > Open model); --network PATH selects it."),
        QStringLiteral("file"));
    QCommandLineOption sizeOption(QStringLiteral("window-size"),
        QStringLiteral("Initial window size, WIDTHxHEIGHT (default 1600x1000)."), QStringLiteral("size"));
    parser.addOptions({ replayRaceOption, networkOption, taskOption, screenshotOption, langOption, headlessOption,
        workspaceOption, demoOption, afterTrialsOption, sizeOption, modelOption });
    parser.process(app);

    // --lang names a bundled language (de_DE and zh-CN do too) and fails if it cannot; without it the system's
    // UI languages decide, English where none is bundled.
    if (parser.isSet(langOption)) {
        const QString lang = ts::app::uiLanguageFor(parser.value(langOption));
        if (lang.isEmpty() || !ts::app::installUiLanguage(app, lang)) {
            std::fprintf(stderr, "tunescope: no translation for --lang %s (languages: %s)\n",
                qPrintable(parser.value(langOption)), qPrintable(ts::app::kUiLanguages.join(QStringLiteral(", "))));
            return 1;
        }
    } else {
        ts::app::installUiLanguage(app, ts::app::systemUiLanguage());
    }

    ts::app::MainWindow window;
    const QStringList size = parser.value(sizeOption).split(QLatin1Char('x'));
    if (size.size() == 2 && size[0].toInt() > 0 && size[1].toInt() > 0)
        window.resize(size[0].toInt(), size[1].toInt());
    else
        window.resize(1600, 1000);
    window.show();
    const bool screenshot = parser.isSet(screenshotOption);
    if (parser.isSet(modelOption))
        window.openModel(parser.value(modelOption));

    // The workspace: the one asked for, else the last one (if it still exists), else the demo's. The demo
    // workspace gets its short tuning session the first time it is opened, so a new user sees curves,
    // sketches and code at once; it is made here, not shipped.
    QString workspace = parser.value(workspaceOption);
    if (workspace.isEmpty()) {
        workspace = QSettings().value(ts::app::settings::kWorkspace).toString();
        if (workspace.isEmpty()
            || (!ts::store::isPostgresUrl(workspace.toStdString()) && !QFileInfo::exists(workspace)))
            workspace = demoWorkspacePath();
    }
    const bool firstDemo = workspace == demoWorkspacePath() && !QFileInfo::exists(workspace);
    if (!ts::store::isPostgresUrl(workspace.toStdString()))
        QDir().mkpath(QFileInfo(workspace).absolutePath());
    window.openWorkspace(workspace);
    if (firstDemo || parser.isSet(demoOption))
        window.sessions()->start(demoOrigin(), demoOptions());
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

    if (parser.isSet(replayRaceOption)) {
        auto* race = qobject_cast<ts::app::RaceView*>(window.view(QStringLiteral("RaceDock")));
        if (race == nullptr)
            return 1;
        // A classroom replay gets room: the Race dock floats at a good size.
        for (QWidget* w = race; w != nullptr; w = w->parentWidget())
            if (auto* dock = qobject_cast<QDockWidget*>(w)) {
                dock->show();
                dock->setFloating(true);
                dock->resize(1400, 620);
                dock->raise();
                break;
            }
        QObject::connect(&race->runner(), &ts::widgets::RaceRunner::errorOccurred, &window,
            [](const QString& message) { std::fprintf(stderr, "tunescope: %s\n", qPrintable(message)); });
        if (screenshot)
            QObject::connect(
                &race->runner(), &ts::widgets::RaceRunner::raceLoaded, &window,
                [&window, race, file = parser.value(screenshotOption)] {
                    QTimer::singleShot(12000, &window, [race, file] {
                        const bool saved = race->grab().save(file, "PNG");
                        QApplication::exit(saved ? 0 : 1);
                    });
                },
                Qt::SingleShotConnection);
        race->runner().loadRace(workspace, parser.value(replayRaceOption));
    } else if (screenshot && parser.isSet(afterTrialsOption)) {
        // The picture of a session in progress: once the live session has enough trials (or has ended).
        const int trials = parser.value(afterTrialsOption).toInt();
        const QString file = parser.value(screenshotOption);
        auto* hub = window.sessions();
        QObject::connect(hub, &ts::widgets::SessionHub::currentChanged, &window, [&window, hub, trials, file] {
            const auto live = hub->live();
            if (!live || (live->trialsDone < trials && hub->isLive()))
                return;
            static bool taken = false;
            if (taken)
                return;
            taken = true;
            // Select the first task's best record, as a user would on the curve, so that the code, the DAG
            // marks and the scatter show it; then let the views draw.
            if (auto* curves = qobject_cast<ts::app::CurvesView*>(window.view(QStringLiteral("CurvesDock"))))
                if (!live->tasks.empty() && !live->tasks[0].curve.empty())
                    curves->activatePoint(live->sessionId, 0, live->tasks[0].curve.back().recordId);
            QTimer::singleShot(4000, &window, [&window, file] {
                const bool saved = window.grab().save(file, "PNG");
                if (!saved)
                    std::fprintf(stderr, "tunescope: cannot write %s\n", qPrintable(file));
                window.sessions()->cancel();
                window.setCloseQuestion([] { return true; });
                QApplication::exit(saved ? 0 : 1);
            });
        });
        QTimer::singleShot(600000, &window, [] {
            std::fprintf(stderr, "tunescope: the session did not reach the trials within ten minutes\n");
            QApplication::exit(1);
        });
    } else if (screenshot) {
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
