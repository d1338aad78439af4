// run: a whole network executed from its tasks' best records (core/runtime), checked, and timed beside Ansor's
// estimate (Σ weight x best task time).
#include "app/cli/commands.h"
#include "core/codegen/runtime.h"
#include "core/engine/machine.h"
#include "core/graph/model_zoo.h"
#include "core/graph/onnx_import.h"
#include "core/ops/shape_check.h"
#include "core/runtime/graph_executor.h"
#include "core/runtime/library_export.h"
#include "core/runtime/network_run.h"
#include "core/runtime/torch_reference.h"
#include "core/store/schedule_source.h"
#include "core/support/strings.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace ts::cli {

namespace {
    namespace fs = std::filesystem;

    std::string ms(double seconds) { return formatFixed(seconds * 1e3, 3); }

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
        std::unique_ptr<store::Store> workspace; // on the heap: the chooser points into it
        runtime::StoreScheduleChooser chooser;
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
            n.workspace = std::make_unique<store::Store>(std::move(*workspace));
            const store::Device here = store::deviceOf(target::Target::host());
            if (auto devices = n.workspace->devices())
                if (auto device = engine::hostDevice(*devices, here))
                    n.chooser = runtime::StoreScheduleChooser(*n.workspace, *device);
        } else if (workspace.error().kind != ErrorKind::NotFound)
            return workspace.error();
        return n;
    }

    void printRun(const runtime::NetworkRun& run, const std::string& shownName)
    {
        std::cout << "# " << shownName << ", batch " << run.batch << ", on " << run.cpu << ", "
                  << (run.threads ? std::to_string(run.threads) : std::string("all")) << " threads\n";
        std::cout << "built " << run.kernels << " kernels (" << run.views << " reshapes are views) in "
                  << formatFixed(run.buildSeconds, 2) << " s; activations "
                  << formatFixed(static_cast<double>(run.plannedBytes) / 1e6, 2) << " MB planned ("
                  << formatFixed(static_cast<double>(run.unplannedBytes) / 1e6, 2) << " MB with a buffer per value)\n";
        std::cout << "check: " << run.checkedSteps << " kernels against the reference evaluator (32 sampled outputs "
                  << "each): " << (run.wrongSteps.empty() ? "all right" : "WRONG") << ", worst "
                  << formatFixed(run.worstCheck, 3) << " of the tolerance"
                  << (run.worstStep >= 0 ? " (step " + std::to_string(run.worstStep) + ")" : "") << "\n";
        if (!run.expectedName.empty() && run.wrongSteps.empty())
            std::cout << "output vs " << run.expectedName << ": " << (run.expected.error <= 1.0 ? "equal" : "DIFFERENT")
                      << " within rtol 2e-3, atol 2e-3 x " << formatFixed(run.expected.scale, 3) << " (worst "
                      << formatFixed(run.expected.error, 3) << " of the tolerance)\n";
        if (run.wrong())
            return;
        std::cout << "latency: median " << ms(run.medianSeconds) << " ms, p90 " << ms(run.p90Seconds) << " ms over "
                  << run.runSeconds.size() << " runs\n";
        if (run.estimatedTasks)
            std::cout << "estimate: " << ms(run.estimateSeconds) << " ms (Σ weight x best record time, "
                      << run.estimatedTasks << " of " << run.tasks.size() << " tasks tuned); measured / estimate "
                      << (run.allEstimated() ? formatFixed(run.medianSeconds / run.estimateSeconds, 2)
                                             : formatFixed(run.estimatedTasksMeasuredSeconds() / run.estimateSeconds, 2)
                                     + " over the tuned tasks (timed step by step)")
                      << "\n";
        else
            std::cout << "estimate: none (no task has a record on this machine)\n";
    }

    void printTasks(const runtime::NetworkRun& run)
    {
        double total = run.otherSeconds;
        for (const runtime::TaskRun& t : run.tasks)
            total += t.measuredSeconds;
        auto share = [&](double s) { return total > 0 ? 100.0 * s / total : 0.0; };
        // hot: each step timed again right after it ran, its data in the caches, as records are timed; measured: in
        // the network's flow. Estimate -> hot is the network's own overhead; hot -> measured is what the data
        // the previous steps left in the caches costs.
        std::printf("\n  %3s  %-32s %6s %12s %9s %12s %7s  %s\n", "id", "task", "weight", "estimate ms", "hot ms",
            "measured ms", "share", "schedule");
        for (const runtime::TaskRun& t : run.tasks)
            std::printf("  %3d  %-32s %6d %12s %9s %12s %6.1f%%  %s\n", t.task, t.name.substr(0, 32).c_str(), t.weight,
                t.estimateSeconds >= 0 ? ms(t.estimateSeconds).c_str() : "-", ms(t.hotSeconds).c_str(),
                ms(t.measuredSeconds).c_str(), share(t.measuredSeconds), t.schedule.c_str());
        std::printf("  %3s  %-32s %6d %12s %9s %12s %6.1f%%  %s\n", "-", "other steps (not tasks)", run.otherSteps, "-",
            ms(run.otherHotSeconds).c_str(), ms(run.otherSeconds).c_str(), share(run.otherSeconds), "default schedule");
        const size_t shown = std::min<size_t>(run.others.size(), 6);
        for (size_t i = 0; i < shown; ++i) // where that time goes, the slowest first
            std::printf("  %3s    %-30s %6d %12s %9s %12s %6.1f%%\n", "", run.others[i].name.substr(0, 30).c_str(),
                run.others[i].count, "", "", ms(run.others[i].seconds).c_str(), share(run.others[i].seconds));
        if (run.others.size() > shown)
            std::printf("  %3s    %-30s %6s\n", "",
                ("... " + std::to_string(run.others.size() - shown) + " more kinds").c_str(), "");
        std::printf("  sum of steps %s ms; a whole run %s ms (the difference: timing each step)\n",
            ms(run.stepSumSeconds).c_str(), ms(run.medianSeconds).c_str());
    }

    // --compare: the same network in LibTorch on the same input. A TorchScript file when one is named (or lies
    // beside an ONNX model), else the graph built op by op in LibTorch on the same weights.
    // `what`: --compare's value, checked already ("libtorch" or "libtorch:FILE.pt").
    Expected<runtime::LibraryRun> compareWithLibTorch(const std::string& what, const LoadedNetwork& loaded,
        const std::vector<ir::Buffer>& inputs, const runtime::NetworkRun& run, int repeat, int threads)
    {
        const std::string file
            = what == "libtorch" ? (loaded.onnx ? besideModel(loaded.ref.name, ".pt") : "") : what.substr(9);
        const int output = loaded.outputs.empty() ? -1 : loaded.outputs.front();
        std::vector<bool> ids; // a traced model takes token ids as an int64 (Long) tensor
        for (const graph::Node& n : loaded.graph->nodes())
            if (n.kind == graph::NodeKind::Input)
                ids.push_back(n.indexBound > 0);
        TS_TRY(runtime::TorchRun torch,
            file.empty() ? runtime::runGraphInTorch(*loaded.graph, inputs, repeat, threads, 1, output)
                         : runtime::runTorchScript(file, inputs, repeat, threads, ids));
        runtime::LibraryRun library;
        library.what = file.empty() ? "LibTorch (the graph op by op, same weights)"
                                    : "LibTorch (" + fs::path(file).filename().string() + ")";
        library.threads = torch.threads;
        library.backends = torch.backends;
        library.medianSeconds = runtime::percentile(torch.seconds, 0.5);
        library.p90Seconds = runtime::percentile(torch.seconds, 0.9);
        TS_TRY(const runtime::OutputMatch match, runtime::matchOutput(run.output, torch.output, library.what));
        library.outputError = match.error;
        return library;
    }

    int runRun(const Arguments& args)
    {
        auto repeat = args.intValue("repeat", 20);
        auto threads = args.intValue("threads", 0);
        if (!repeat || *repeat < 1 || *repeat > 100000)
            return fail("--repeat must be 1..100000");
        if (!threads || *threads < 0)
            return fail("--threads must be >= 0");
        const std::string compare = args.value("compare");
        if (args.has("compare") && compare != "libtorch" && compare.rfind("libtorch:", 0) != 0)
            return fail("--compare takes libtorch or libtorch:FILE.pt, got '" + compare + "'");
        auto loaded = loadNetwork(args);
        if (!loaded)
            return fail(loaded.error().message);
        const bool onnx = loaded->onnx;
        const std::string& name = loaded->ref.name;

        runtime::NetworkRunOptions options;
        options.repeat = static_cast<int>(*repeat);
        options.threads = static_cast<int>(*threads);
        // Inputs: given, the ones saved beside an ONNX model, or seeded random values.
        options.inputs = runtime::seededInputs(*loaded->graph);
        if (std::string input = args.value("input", onnx ? besideModel(name, ".input_0.pb") : ""); !input.empty()) {
            auto b = graph::readOnnxTensor(input);
            if (!b)
                return fail(b.error().message);
            if (options.inputs.empty())
                return fail("the network has no input to give " + input + " to");
            options.inputs.front() = std::move(*b);
        }
        // Token ids (an INT64 input only Gather's indices read) are held as float32 whole numbers.
        int k = 0;
        for (const graph::Node& n : loaded->graph->nodes()) {
            if (n.kind != graph::NodeKind::Input)
                continue;
            if (n.indexBound > 0) {
                const ir::Buffer& ids = options.inputs[static_cast<size_t>(k)];
                for (int64_t i = 0; i < ids.size(); ++i)
                    if (ids[i] != std::trunc(ids[i]))
                        return fail("input " + std::to_string(k) + " is token ids, but its value "
                            + formatFixed(ids[i], 3) + " at element " + std::to_string(i) + " is not a whole number");
                std::cout << "input " << k << " " << ops::shapeText(n.shape) << ": token ids in [0, " << n.indexBound
                          << "), as float32 whole numbers (negative ones count from the end; the rest are clamped)\n";
            }
            ++k;
        }
        if (std::string expected = args.value("expected", onnx ? besideModel(name, ".output_0.pb") : "");
            !expected.empty()) {
            auto b = graph::readOnnxTensor(expected);
            if (!b)
                return fail(b.error().message);
            options.expected = std::move(*b);
            options.expectedName = fs::path(expected).filename().string();
        }
        runtime::ExecutorOptions executor;
        executor.outputs = loaded->outputs;
        auto run = runtime::runNetwork(*loaded->graph, loaded->partition, loaded->chooser, executor, options);
        if (!run)
            return fail(run.error().message);
        run->network = onnx ? fs::path(name).filename().string() : name;
        printRun(*run, run->network);
        if (!run->wrongSteps.empty())
            return fail("wrong results from steps " + run->wrongSteps);
        if (run->wrong())
            return fail("the network's output differs from " + run->expectedName);
        if (!loaded->chooser.hasStore() && !run->estimatedTasks)
            std::cout << "  (no workspace with records on this machine: every task ran its default schedule)\n";

        if (args.has("compare")) {
            auto library = compareWithLibTorch(compare, *loaded, options.inputs, *run, options.repeat, options.threads);
            if (!library)
                return fail(library.error().message);
            run->library = *library;
            std::cout << library->what << ", " << library->threads << " threads, " << library->backends << ": median "
                      << ms(library->medianSeconds) << " ms, p90 " << ms(library->p90Seconds) << " ms; outputs "
                      << (library->outputError <= 1.0 ? "equal" : "DIFFERENT") << " (worst "
                      << formatFixed(library->outputError, 3) << " of the tolerance); TuneScope is "
                      << formatFixed(library->medianSeconds / run->medianSeconds, 2) << "x LibTorch's speed\n";
            if (library->outputError > 1.0)
                return fail("the network's output differs from LibTorch's");
        }
        printTasks(*run);
        if (args.has("json")) {
            std::ofstream out(args.value("json"));
            out << runtime::networkRunToJson(*run) << "\n";
            if (!out)
                return fail("cannot write " + args.value("json"));
        }
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
        int tuned = static_cast<int>(loaded->chooser.chosenSeconds().size());
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
            "[--repeat R] [--input FILE.pb] [--expected FILE.pb] [--compare libtorch[:FILE.pt]] [--json FILE]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption, kWorkspaceOption,
                { "threads", "K", "threads of the kernels' parallel loops (default all cores)" },
                { "repeat", "R", "timed runs (default 20); the median and p90 are printed" },
                { "input", "FILE",
                    "the input as a TensorProto file (default for --onnx M.onnx: M.input_0.pb beside "
                    "it, if there is one; else seeded random values)" },
                { "expected", "FILE", "the expected output as a TensorProto file (default M.output_0.pb beside it)" },
                { "compare", "libtorch[:FILE]",
                    "also run the model in LibTorch on the same input, outputs compared, latency side by side: "
                    "from a TorchScript file (libtorch:FILE.pt; for --onnx M.onnx, M.pt beside it), else the "
                    "graph built op by op in LibTorch on the same weights" },
                { "json", "FILE", "also write the run (checks, latency, estimate, per-task times) as JSON" },
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
