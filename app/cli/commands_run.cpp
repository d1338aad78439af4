// run: a whole network executed from its tasks' best records (core/runtime), checked, and timed beside Ansor's
// estimate (Σ weight x best task time).
#include "app/cli/commands.h"
#include "core/codegen/runtime.h"
#include "core/graph/model_zoo.h"
#include "core/graph/onnx_import.h"
#include "core/runtime/graph_executor.h"
#include "core/runtime/library_export.h"
#include "core/runtime/torch_reference.h"
#include "core/session/machine.h"
#include "core/store/schedule_source.h"
#include "core/support/strings.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

namespace ts::cli {

namespace {
    namespace fs = std::filesystem;

    // The best stored record of each task on this machine that runs on the task's own DAG (an AutoTVM program
    // with a layout of its own, such as conv2d_NCHWc's packed data, needs packing steps the executor does not
    // insert yet, so the next best record is taken).
    struct RecordChooser {
        std::optional<store::Store> workspace;
        std::optional<store::Device> device;
        std::map<int, double> bestSeconds; // task id -> the chosen record's time

        std::optional<runtime::GroupSchedule> operator()(const graph::Task& task)
        {
            if (!workspace || !device)
                return std::nullopt;
            auto row = workspace->findTask(task.dag.workloadKey());
            if (!row || !*row)
                return std::nullopt;
            auto best = workspace->bestRecords((*row)->id, device->id, 16);
            if (!best)
                return std::nullopt;
            for (const store::Record& record : *best) {
                auto state = store::replayStored(task.dag, record.steps, record.extra);
                if (!state)
                    continue;
                if (ir::ComputeDAG::create(state->originTensors()).workloadKey() != task.dag.workloadKey())
                    continue;
                bestSeconds[task.id] = record.result.meanCost();
                return runtime::GroupSchedule { std::move(*state), "record " + std::to_string(record.id),
                    record.result.meanCost() };
            }
            return std::nullopt;
        }
    };

    double percentile(std::vector<double> v, double q)
    {
        std::sort(v.begin(), v.end());
        const size_t i = std::min(v.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())) - 1));
        return v[i];
    }

    std::string ms(double seconds) { return formatFixed(seconds * 1e3, 3); }

    // The network's first output against a reference (PyTorch's saved output, LibTorch's): the worst element's
    // error as a share of rtol 2e-3, atol 2e-3 x the reference's largest magnitude (<= 1 is equal), and that scale.
    struct OutputMatch {
        double error = 0.0;
        double scale = 0.0;
    };

    Expected<OutputMatch> matchOutput(
        const runtime::GraphExecutor& executor, const ir::Buffer& reference, const std::string& what)
    {
        TS_TRY(const ir::Buffer got, executor.value(executor.outputs().front()));
        if (reference.size() != got.size())
            return makeError(ErrorKind::InvalidArgument,
                "the network's output has " + std::to_string(got.size()) + " values, " + what + " "
                    + std::to_string(reference.size()));
        OutputMatch match;
        for (int64_t i = 0; i < reference.size(); ++i)
            match.scale = std::max(match.scale, static_cast<double>(std::abs(reference[i])));
        ir::Buffer want(got.shape());
        std::copy(reference.data(), reference.data() + reference.size(), want.data());
        match.error = ir::maxRelativeError(got, want, 2e-3, 2e-3 * match.scale);
        return match;
    }

    // A .pb beside an ONNX model, as tests/fixtures/make_onnx_models.py writes them: NAME.input_0.pb.
    std::string besideModel(const std::string& model, const std::string& suffix)
    {
        const fs::path p(model);
        const fs::path file = p.parent_path() / (p.stem().string() + suffix);
        return fs::exists(file) ? file.string() : std::string();
    }

    // The network of --network/--onnx, partitioned, with the workspace's best records to run it from.
    struct LoadedNetwork {
        store::NetworkRef ref;
        bool onnx = false;
        std::optional<graph::Graph> graph;
        std::vector<int> outputs;
        graph::Partition partition;
        RecordChooser chooser;
    };

    Expected<LoadedNetwork> loadNetwork(const Arguments& args)
    {
        LoadedNetwork n;
        TS_TRY(n.ref, networkRef(args));
        n.onnx = graph::isOnnxPath(n.ref.name);
        if (n.onnx) {
            TS_TRY(graph::OnnxModel model, graph::importOnnx(n.ref.name, { n.ref.batch, {} }));
            n.graph = std::move(model.graph);
            n.outputs = model.outputs;
        } else {
            TS_TRY(graph::Graph g, graph::buildNetwork(n.ref.name, n.ref.batch, n.ref.layout));
            n.graph = std::move(g);
        }
        TS_TRY(n.partition, graph::partitionGraph(*n.graph));
        if (auto workspace = openWorkspace(args, true)) {
            n.chooser.workspace.emplace(std::move(*workspace));
            const store::Device here = store::deviceOf(target::Target::host());
            if (auto devices = n.chooser.workspace->devices())
                n.chooser.device = session::hostDevice(*devices, here);
        } else if (workspace.error().kind != ErrorKind::NotFound)
            return workspace.error();
        return n;
    }

    int runRun(const Arguments& args)
    {
        auto repeat = args.intValue("repeat", 20);
        auto threads = args.intValue("threads", 0);
        if (!repeat || *repeat < 1 || *repeat > 100000)
            return fail("--repeat must be 1..100000");
        if (!threads || *threads < 0)
            return fail("--threads must be >= 0");
        auto loaded = loadNetwork(args);
        if (!loaded)
            return fail(loaded.error().message);
        const store::NetworkRef* network = &loaded->ref;
        const bool onnx = loaded->onnx;
        std::optional<graph::Graph>& graph = loaded->graph;
        RecordChooser& chooser = loaded->chooser;
        const graph::Partition* partition = &loaded->partition;

        codegen::setKernelThreads(static_cast<int>(*threads));
        runtime::ExecutorOptions options;
        options.outputs = loaded->outputs;
        const auto buildStart = std::chrono::steady_clock::now();
        auto executor = runtime::GraphExecutor::build(
            *graph, *partition, [&](const graph::Task& t) { return chooser(t); }, options);
        if (!executor)
            return fail(executor.error().message);
        const double buildSeconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - buildStart).count();

        // Inputs: given, the ones saved beside an ONNX model, or seeded random values.
        std::vector<ir::Buffer> inputs;
        std::string inputFile = args.value("input", onnx ? besideModel(network->name, ".input_0.pb") : "");
        std::string expectedFile = args.value("expected", onnx ? besideModel(network->name, ".output_0.pb") : "");
        for (const graph::Node& n : graph->nodes())
            if (n.kind == graph::NodeKind::Input) {
                if (!inputFile.empty() && inputs.empty()) {
                    auto b = graph::readOnnxTensor(inputFile);
                    if (!b)
                        return fail(b.error().message);
                    inputs.push_back(std::move(*b));
                    continue;
                }
                ir::Buffer b(n.shape);
                ir::fillRandomInput(b.data(), b.size(), 7, static_cast<int>(inputs.size()));
                inputs.push_back(std::move(b));
            }
        if (auto set = executor->setInputs(inputs); !set)
            return fail(set.error().message);

        const std::vector<runtime::StepInfo>& steps = executor->steps();
        int kernels = 0;
        for (const runtime::StepInfo& s : steps)
            kernels += s.view ? 0 : 1;
        std::cout << "# " << (onnx ? fs::path(network->name).filename().string() : network->name) << ", batch "
                  << network->batch << ", on " << codegen::hostCpuName() << ", "
                  << (*threads ? std::to_string(*threads) : std::string("all")) << " threads\n";
        std::cout << "built " << kernels << " kernels (" << steps.size() - static_cast<size_t>(kernels)
                  << " reshapes are views) in " << formatFixed(buildSeconds, 2) << " s; activations "
                  << formatFixed(static_cast<double>(executor->plannedBytes()) / 1e6, 2) << " MB planned ("
                  << formatFixed(static_cast<double>(executor->unplannedBytes()) / 1e6, 2)
                  << " MB with a buffer per value)\n";

        // Correctness: every step against the reference evaluator, then the output against the saved one.
        executor->run();
        auto checks = executor->checkSteps(32);
        if (!checks)
            return fail(checks.error().message);
        double worst = 0.0;
        int worstStep = -1;
        for (const runtime::StepCheck& c : *checks)
            if (c.error > worst) {
                worst = c.error;
                worstStep = c.step;
            }
        std::cout << "check: " << checks->size() << " kernels against the reference evaluator (32 sampled outputs "
                  << "each): " << (worst <= 1.0 ? "all right" : "WRONG") << ", worst " << formatFixed(worst, 3)
                  << " of the tolerance" << (worstStep >= 0 ? " (step " + std::to_string(worstStep) + ")" : "") << "\n";
        if (worst > 1.0) {
            std::string wrong;
            for (const runtime::StepCheck& c : *checks)
                if (c.error > 1.0)
                    wrong += (wrong.empty() ? "" : ", ") + std::to_string(c.step) + " ("
                        + steps[static_cast<size_t>(c.step)].name + ", " + formatFixed(c.error, 1) + ")";
            return fail("wrong results from steps " + wrong);
        }
        if (!expectedFile.empty()) {
            auto expected = graph::readOnnxTensor(expectedFile);
            if (!expected)
                return fail(expected.error().message);
            auto match = matchOutput(*executor, *expected, expectedFile);
            if (!match)
                return fail(match.error().message);
            const double error = match->error;
            std::cout << "output vs " << fs::path(expectedFile).filename().string() << ": "
                      << (error <= 1.0 ? "equal" : "DIFFERENT") << " within rtol 2e-3, atol 2e-3 x "
                      << formatFixed(match->scale, 3) << " (worst " << formatFixed(error, 3) << " of the tolerance)\n";
            if (error > 1.0)
                return fail("the network's output differs from " + expectedFile);
        }

        // Latency: whole runs, then runs timed step by step.
        for (int i = 0; i < 3; ++i)
            executor->run();
        std::vector<double> runs;
        for (int64_t i = 0; i < *repeat; ++i) {
            const auto start = std::chrono::steady_clock::now();
            executor->run();
            runs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::vector<double> perStep;
        for (int64_t i = 0; i < *repeat; ++i)
            executor->runTimed(perStep);
        for (double& s : perStep)
            s /= static_cast<double>(*repeat);

        const graph::TaskSet& tasks = partition->tasks;
        double estimate = 0.0;
        int estimated = 0;
        for (const graph::Task& t : tasks.tasks)
            if (auto it = chooser.bestSeconds.find(t.id); it != chooser.bestSeconds.end()) {
                estimate += it->second * t.weight;
                ++estimated;
            }
        const double median = percentile(runs, 0.5);
        std::cout << "latency: median " << ms(median) << " ms, p90 " << ms(percentile(runs, 0.9)) << " ms over "
                  << *repeat << " runs\n";
        if (estimated)
            std::cout << "estimate: " << ms(estimate) << " ms (Σ weight x best record time, " << estimated << " of "
                      << tasks.tasks.size() << " tasks tuned); measured / estimate "
                      << formatFixed(median / estimate, 2) << "\n";
        else
            std::cout << "estimate: none (no task has a record on this machine"
                      << (chooser.workspace ? "" : "; no workspace") << ")\n";

        if (args.has("compare")) {
            const std::string what = args.value("compare");
            std::string file;
            if (what == "libtorch")
                file = onnx ? besideModel(network->name, ".pt") : "";
            else if (what.rfind("libtorch:", 0) == 0)
                file = what.substr(9);
            else
                return fail("--compare takes libtorch or libtorch:FILE.pt, got '" + what + "'");
            if (file.empty())
                return fail(
                    "--compare libtorch needs the model as TorchScript: libtorch:FILE.pt (torch.jit.trace of it)");
            auto torch = runtime::runTorchScript(file, inputs, static_cast<int>(*repeat), static_cast<int>(*threads));
            if (!torch)
                return fail(torch.error().message);
            auto match = matchOutput(*executor, torch->output, file);
            if (!match)
                return fail(match.error().message);
            const double error = match->error;
            const double torchMedian = percentile(torch->seconds, 0.5);
            std::cout << "LibTorch (" << fs::path(file).filename().string() << ", " << torch->threads << " threads, "
                      << torch->backends << "): median " << ms(torchMedian) << " ms, p90 "
                      << ms(percentile(torch->seconds, 0.9)) << " ms; outputs "
                      << (error <= 1.0 ? "equal" : "DIFFERENT") << " (worst " << formatFixed(error, 3)
                      << " of the tolerance); TuneScope is " << formatFixed(torchMedian / median, 2)
                      << "x LibTorch's speed\n";
            if (error > 1.0)
                return fail("the network's output differs from LibTorch's");
        }

        // Per task: measured (all occurrences) against the estimate.
        std::vector<double> taskSeconds(tasks.tasks.size(), 0.0);
        std::vector<std::string> taskSchedule(tasks.tasks.size());
        double other = 0.0;
        int otherSteps = 0;
        for (size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].task >= 0) {
                taskSeconds[static_cast<size_t>(steps[i].task)] += perStep[i];
                taskSchedule[static_cast<size_t>(steps[i].task)] = steps[i].schedule;
            } else if (!steps[i].view) {
                other += perStep[i];
                ++otherSteps;
            }
        }
        double total = other;
        for (double s : taskSeconds)
            total += s;
        std::printf("\n  %3s  %-32s %6s %12s %12s %7s  %s\n", "id", "task", "weight", "estimate ms", "measured ms",
            "share", "schedule");
        for (const graph::Task& t : tasks.tasks) {
            auto it = chooser.bestSeconds.find(t.id);
            const std::string est = it != chooser.bestSeconds.end() ? ms(it->second * t.weight) : "-";
            const double measured = taskSeconds[static_cast<size_t>(t.id)];
            std::printf("  %3d  %-32s %6d %12s %12s %6.1f%%  %s\n", t.id, t.name.substr(0, 32).c_str(), t.weight,
                est.c_str(), ms(measured).c_str(), total > 0 ? 100.0 * measured / total : 0.0,
                taskSchedule[static_cast<size_t>(t.id)].c_str());
        }
        std::printf("  %3s  %-32s %6d %12s %12s %6.1f%%  %s\n", "-", "other steps (not tasks)", otherSteps, "-",
            ms(other).c_str(), total > 0 ? 100.0 * other / total : 0.0, "default schedule");
        std::printf("  sum of steps %s ms; a whole run %s ms (the difference: timing each step)\n", ms(total).c_str(),
            ms(median).c_str());
        return 0;
    }
    int runExportLibrary(const Arguments& args)
    {
        if (!args.has("out"))
            return fail("--out DIR is required");
        auto loaded = loadNetwork(args);
        if (!loaded)
            return fail(loaded.error().message);
        runtime::ExportOptions options;
        options.directory = args.value("out");
        const std::string stem = loaded->onnx ? fs::path(loaded->ref.name).stem().string() : loaded->ref.name;
        std::string name;
        for (char ch : args.value("name", stem))
            name += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(ch)) : '_';
        if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])))
            name = "m" + name;
        options.name = name;
        if (args.has("target")) {
            auto target = target::fromTvm(args.value("target"));
            if (!target)
                return fail("--target: " + target.error().message);
            options.target = *target;
        }
        runtime::ExecutorOptions executor;
        executor.outputs = loaded->outputs;
        auto exported = runtime::exportLibrary(
            *loaded->graph, loaded->partition, [&](const graph::Task& t) { return loaded->chooser(t); }, executor,
            options);
        if (!exported)
            return fail(exported.error().message);
        int tuned = static_cast<int>(loaded->chooser.bestSeconds.size());
        std::cout << "exported " << exported->kernels << " kernels (" << tuned << " of "
                  << loaded->partition.tasks.tasks.size() << " tasks from tuned records, the rest on the default "
                  << "schedule) for "
                  << (options.target.cpuName.empty() ? std::string("the generic CPU") : options.target.cpuName) << " ("
                  << options.target.triple << ")\n"
                  << "  library  " << exported->library << "\n  header   " << exported->header << "\n  weights  "
                  << exported->weights << " (" << formatFixed(static_cast<double>(exported->weightBytes) / 1e6, 2)
                  << " MB)\n  example  " << exported->example << "\n"
                  << "build the example: cc " << exported->example << " -I" << options.directory << " -L"
                  << options.directory << " -l" << name << " -Wl,-rpath," << options.directory << " -o example\n";
        return 0;
    }
} // namespace

std::vector<Command> runCommands()
{
    return {
        { "run", "run a whole network from its tasks' best records: checked, timed, beside Ansor's estimate",
            "tunescope-cli run (--network NAME | --onnx FILE) [--batch N] [--layout L] [--workspace W] [--threads K] "
            "[--repeat R] [--input FILE.pb] [--expected FILE.pb] [--compare libtorch[:FILE.pt]]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption, kWorkspaceOption,
                { "threads", "K", "threads of the kernels' parallel loops (default all cores)" },
                { "repeat", "R", "timed runs (default 20); the median and p90 are printed" },
                { "input", "FILE",
                    "the input as a TensorProto file (default for --onnx M.onnx: M.input_0.pb beside "
                    "it, if there is one; else seeded random values)" },
                { "expected", "FILE", "the expected output as a TensorProto file (default M.output_0.pb beside it)" },
                { "compare", "libtorch[:FILE]",
                    "also run the model in LibTorch from a TorchScript file (default for --onnx "
                    "M.onnx: M.pt beside it) on the same input: outputs compared, latency "
                    "side by side" },
                kHelpOption },
            runRun },
        { "export-library", "export the tuned network as a shared library with a C API, its weights and a C example",
            "tunescope-cli export-library (--network NAME | --onnx FILE) --out DIR [--name N] [--target T] "
            "[--batch N] [--layout L] [--workspace W]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption, kWorkspaceOption,
                { "out", "DIR", "the folder to write (created if missing)" },
                { "name", "N", "the library's name and C prefix (default: the network's, as [a-z0-9_])" },
                { "target", "T",
                    "compile the kernels for this target, e.g. 'llvm -mcpu=x86-64-v3' (default: this "
                    "machine)" },
                kHelpOption },
            runExportLibrary },
    };
}

} // namespace ts::cli
