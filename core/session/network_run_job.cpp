#include "core/session/network_run_job.h"

#include "core/graph/onnx_import.h"
#include "core/measure/runner_process.h"

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ts::session {

std::string cliProgram()
{
    if (const char* env = std::getenv("TUNESCOPE_CLI"))
        return env;
    if (std::string found = measure::findBesideThisProgram("tunescope-cli", { ".", "..", "../app", "../../app" });
        !found.empty())
        return found;
    return "tunescope-cli";
}

namespace {
    // The command line runNetworkInChild starts, without the program.
    std::vector<std::string> networkRunArguments(const NetworkRunRequest& request, const std::string& jsonPath)
    {
        std::vector<std::string> args = { "run", graph::isOnnxPath(request.network) ? "--onnx" : "--network",
            request.network, "--batch", std::to_string(request.batch), "--repeat", std::to_string(request.repeat),
            "--threads", std::to_string(request.threads) };
        if (!graph::isOnnxPath(request.network))
            args.insert(args.end(), { "--layout", request.layout });
        if (!request.workspace.empty())
            args.insert(args.end(), { "--workspace", request.workspace });
        if (request.compareLibTorch)
            args.insert(args.end(), { "--compare", "libtorch" });
        args.insert(args.end(), { "--json", jsonPath });
        return args;
    }

    // How far a run is, from the line the command just printed.
    double fractionAfter(const QString& line)
    {
        if (line.startsWith(QStringLiteral("built ")))
            return 0.4;
        if (line.startsWith(QStringLiteral("check: ")))
            return 0.6;
        if (line.startsWith(QStringLiteral("latency: ")))
            return 0.8;
        if (line.startsWith(QStringLiteral("LibTorch")))
            return 0.95;
        return -1.0;
    }
} // namespace

Expected<runtime::NetworkRun> runNetworkInChild(const NetworkRunRequest& request, JobContext& context)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return makeError(ErrorKind::Io, "cannot make a temporary folder for the run's report");
    const std::string json = dir.filePath(QStringLiteral("run.json")).toStdString();
    QStringList args;
    for (const std::string& a : networkRunArguments(request, json))
        args << QString::fromStdString(a);
    QProcess child;
    child.setProcessChannelMode(QProcess::SeparateChannels);
    child.start(QString::fromStdString(cliProgram()), args);
    if (!child.waitForStarted(10000))
        return makeError(ErrorKind::Io, "cannot start " + cliProgram() + ": " + child.errorString().toStdString());
    context.reportProgress(0.05, "building the kernels of " + request.network);
    QString pending;
    QString errors;
    while (child.state() != QProcess::NotRunning) {
        if (context.stopRequested()) {
            child.kill();
            child.waitForFinished(5000);
            return makeError(ErrorKind::Internal, "the network run was cancelled");
        }
        child.waitForReadyRead(100);
        pending += QString::fromUtf8(child.readAllStandardOutput());
        errors += QString::fromUtf8(child.readAllStandardError());
        for (qsizetype nl = pending.indexOf(QLatin1Char('\n')); nl >= 0; nl = pending.indexOf(QLatin1Char('\n'))) {
            const QString line = pending.left(nl);
            pending.remove(0, nl + 1);
            if (const double f = fractionAfter(line); f >= 0)
                context.reportProgress(f, line.toStdString());
        }
    }
    errors += QString::fromUtf8(child.readAllStandardError());
    if (child.exitStatus() != QProcess::NormalExit)
        return makeError(ErrorKind::Internal,
            "the network run crashed (" + child.errorString().toStdString() + "); nothing else was affected");
    if (child.exitCode() != 0) {
        const QString trimmed = errors.trimmed();
        return makeError(ErrorKind::InvalidArgument,
            "the network run failed: "
                + (trimmed.isEmpty() ? "exit status " + std::to_string(child.exitCode())
                                     : trimmed.split(QLatin1Char('\n')).last().toStdString()));
    }
    std::ifstream in(json);
    std::stringstream text;
    text << in.rdbuf();
    if (!in)
        return makeError(ErrorKind::Io, "the network run wrote no report");
    return runtime::networkRunFromJson(text.str());
}

} // namespace ts::session
