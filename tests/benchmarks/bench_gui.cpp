// How long the workbench's event loop is blocked while a tuning session runs with every view open.
//   ts_bench_gui [TRIALS [PER_ROUND]]   (offscreen unless QT_QPA_PLATFORM says otherwise)
// Runs the demo's kind of session (ResNet-18 tasks 2 and 6, NCHW, Ansor + XGBoost) into a fresh workspace,
// shows each session in every view as it goes (the curves, scatter, scheduler, records, sketches and code
// follow the live snapshots), and selects the newest record now and then as a user would. A 5 ms timer
// measures each stretch the GUI thread spent elsewhere; the target is under 50 ms for the longest.
#include "tests/widgets/event_loop_probe.h"

#include "app/gui/main_window.h"
#include "core/engine/tune_origin.h"
#include "widgets/session_hub.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("TuneScopeBench"));
    QApplication::setApplicationName(QStringLiteral("ts_bench_gui"));
    const int trials = argc > 1 ? std::atoi(argv[1]) : 128;
    const int perRound = argc > 2 ? std::atoi(argv[2]) : 32;

    QTemporaryDir dir;
    ts::app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    window.openWorkspace(dir.filePath(QStringLiteral("bench.tunescope")));
    ts::widgets::SessionHub& hub = *window.sessions();

    ts::engine::TuneOrigin origin;
    origin.network = "resnet-18";
    origin.taskIds = { 2, 6 };
    ts::engine::TuneOptions options;
    options.model = "xgb";
    options.trials = trials;
    options.measuresPerRound = perRound;

    ts::testing::EventLoopProbe probe;
    int snapshots = 0;
    QObject::connect(&hub, &ts::widgets::SessionHub::currentChanged, &window, [&] { ++snapshots; });
    QElapsedTimer clock;
    QObject::connect(&hub, &ts::widgets::SessionHub::liveFinished, &window,
        [&](qint64, const QString& status, const QString& message) {
            probe.stop();
            std::printf("session %s%s%s: %d trials in %.1f s, %d snapshots shown (%.1f per second)\n",
                qPrintable(status), message.isEmpty() ? "" : ": ", qPrintable(message),
                hub.current() ? hub.current()->trialsDone : 0, clock.elapsed() / 1000.0, snapshots,
                snapshots * 1000.0 / std::max<qint64>(1, clock.elapsed()));
            std::printf("event loop blocked: longest %.1f ms, p99 %.2f ms, p50 %.2f ms over %zu ticks of 5 ms"
                        " (target: longest < 50 ms)\n",
                probe.maxBlockedMs(), probe.quantileMs(0.99), probe.quantileMs(0.5), probe.ticks());
            QApplication::exit(status == QLatin1String("finished") ? 0 : 1);
        });
    clock.start();
    probe.start();
    if (!hub.start(origin, options)) {
        std::fprintf(stderr, "ts_bench_gui: the session did not start\n");
        return 1;
    }
    return QApplication::exec();
}
