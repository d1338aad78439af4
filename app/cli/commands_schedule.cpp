// lower, measure: replay a schedule on a network task, a named workload or a TVM record's workload, then
// print what it lowers to (loop IR, optionally LLVM IR and assembly), or compile, run and check it.
#include "app/cli/commands.h"
#include "app/cli/interrupt.h"
#include "core/codegen/codegen.h"
#include "core/cost/analytical_model.h"
#include "core/engine/machine.h"
#include "core/features/per_store_features.h"
#include "core/lower/lower.h"
#include "core/measure/gpu_bundle.h"
#include "core/measure/measurer.h"
#include "core/schedule/step_printer.h"
#include "core/store/tvm_log.h"
#include "core/support/strings.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace ts::cli {

namespace {

    // --record, --workload or --network with --task (the first given wins), and --steps. Their form is
    // checked here; what they name is checked by the resolver.
    Expected<store::ScheduleSource> scheduleSource(const Arguments& args)
    {
        store::ScheduleSource source;
        if (args.has("record")) {
            // FILE:LINE, LINE 1-based, a line of a TVM auto_scheduler log.
            const std::string spec = args.value("record");
            const size_t colon = spec.rfind(':');
            if (colon == std::string::npos)
                return makeError(ErrorKind::InvalidArgument, "--record wants FILE:LINE, got '" + spec + "'");
            TS_TRY(int64_t line, parseInt(spec.substr(colon + 1), "--record line"));
            source.what = store::RecordRef { spec.substr(0, colon), line };
        } else if (args.has("workload")) {
            source.what = store::WorkloadRef { args.value("workload") };
        } else {
            TS_TRY(store::NetworkRef network, networkRef(args));
            if (!args.has("task"))
                return makeError(ErrorKind::InvalidArgument, "--task is required with --network");
            TS_TRY(int64_t id, args.intValue("task", 0));
            source.what = store::NetworkTaskRef { std::move(network), id, "--task" };
        }
        if (args.has("steps"))
            source.stepsFile = args.value("steps");
        return source;
    }

    // --target: this machine by default; a TVM target string; or "record", the target the record was tuned
    // for (its -mcpu and hardware parameters).
    Expected<target::Target> targetOption(const Arguments& args, const store::ResolvedSchedule& scheduled)
    {
        if (!args.has("target"))
            return target::Target::host();
        const bool ofRecord = args.value("target") == "record";
        if (ofRecord && !scheduled.record)
            return makeError(ErrorKind::InvalidArgument, "--target record needs a --record source");
        TS_TRY(target::Target t,
            ofRecord ? target::fromTvm(scheduled.record->target, scheduled.record->hardwareParams)
                     : target::fromTvm(args.value("target")));
        if (t.cores < 0)
            t.cores = target::Target::host().cores;
        return t;
    }

    // --layout-rewrite 0|1|2: Ansor's layout_rewrite_option; default: the record's (a TVM CPU task's is 1, a Relay
    // network's 2), else 0.
    Expected<int> layoutRewriteOption(const Arguments& args, const store::ResolvedSchedule& scheduled)
    {
        if (!args.has("layout-rewrite"))
            return scheduled.record ? scheduled.record->layoutRewriteOption : 0;
        const std::string value = args.value("layout-rewrite", "");
        if (value != "0" && value != "1" && value != "2")
            return makeError(ErrorKind::InvalidArgument, "--layout-rewrite must be 0, 1 or 2, got '" + value + "'");
        return value[0] - '0';
    }

    using ScheduleCommand = int (*)(const Arguments&, const store::ResolvedSchedule&);

    // Resolves the selection (its DAG and its steps, replayed), then runs the command on it.
    int withSchedule(const Arguments& args, ScheduleCommand command)
    {
        auto source = scheduleSource(args);
        if (!source)
            return fail(source.error().message);
        auto resolved = store::resolveSchedule(*source);
        if (!resolved)
            return fail(resolved.error().message);
        return command(args, *resolved);
    }

    // This machine's profile in the workspace of --workspace (or the default one, where a missing file is not
    // an error): nullopt when none was measured.
    Expected<std::optional<measure::MachineProfile>> hostProfileOf(const Arguments& args)
    {
        auto workspace = openWorkspace(args, true);
        if (!workspace)
            return workspace.error();
        return engine::hostProfile(*workspace);
    }

    // --estimate: the analytical cost model's estimate term by term (what ranks a learned model's warm-up), with
    // the workspace's measured limits when it has this machine's profile.
    int printEstimate(const Arguments& args, const sched::State& state, const target::Target& target, bool packed)
    {
        auto program = features::perStoreFeatures(state, target, packed);
        if (!program)
            return fail(program.error().message);
        cost::MachineLimits limits;
        if (target == target::Target::host()) {
            auto profile = hostProfileOf(args);
            if (profile && *profile)
                limits = engine::limitsOf(**profile, target.vectorBytes);
            else if (args.has("workspace"))
                return fail(profile ? "no machine profile in the workspace ('tunescope-cli machine')"
                                    : profile.error().message);
        }
        const cost::AnalyticalCostModel model(limits);
        const auto rows = model.explain(*program, target);
        double total = 0.0;
        for (const auto& row : rows)
            total += row.seconds;
        std::cout << "\n# analytical estimate ("
                  << (limits.measured ? "the workspace's measured limits" : "default limits")
                  << "): " << formatFixed(total * 1e3, 4) << " ms\n";
        for (const auto& row : rows) {
            std::cout << row.store << ": " << formatFixed(row.seconds * 1e6, 2) << " us = max(compute "
                      << formatFixed(row.compute * 1e6, 2) << " us, memory " << formatFixed(row.memory * 1e6, 2)
                      << " us); " << formatFixed(row.ops / 1e6, 3) << " Mflop, vector " << formatFixed(row.vecLen, 0)
                      << " (efficiency " << formatFixed(row.vecEfficiency, 2) << "), " << formatFixed(row.coresUsed, 0)
                      << " cores at balance " << formatFixed(row.balance, 2) << "\n";
            for (size_t b = 0; b < row.buffers.size(); ++b) {
                const auto& buffer = row.buffers[b];
                std::cout << "  B" << b << ": " << formatFixed(buffer.seconds * 1e6, 2) << " us; "
                          << formatFixed(buffer.lines, 0) << " lines from " << buffer.level << " (reuse distance "
                          << formatFixed(buffer.reuseBytes / 1024.0, 1) << " KiB"
                          << (buffer.inRegisters ? ", reused in registers" : "") << "), "
                          << formatFixed(buffer.uniqueBytes / 1024.0, 1) << " KiB unique\n";
            }
        }
        return 0;
    }

    int lowerSchedule(const Arguments& args, const store::ResolvedSchedule& scheduled)
    {
        const sched::State& state = scheduled.state;
        auto bound = lower::inferBound(state);
        if (!bound)
            return fail(bound.error().message);
        std::cout << "# " << scheduled.title << ", " << scheduled.steps.size() << " steps\n";
        std::cout << "\n# steps\n" << sched::printStepsAsCalls(scheduled.dag, scheduled.steps);
        std::cout << "\n# state\n" << bound->toString();
        lower::LowerOptions options;
        auto target = targetOption(args, scheduled);
        if (!target)
            return fail(target.error().message);
        options.target = *target;
        auto rewrite = layoutRewriteOption(args, scheduled);
        if (!rewrite)
            return fail(rewrite.error().message);
        options.layoutRewrite = *rewrite;
        if (args.has("passes"))
            options.onPass = [](const std::string& pass, const lower::LoweredFunc& f) {
                std::cout << "\n# after " << pass << "\n" << lower::toString(f);
            };
        auto func = lower::lower(state, options);
        if (!func)
            return fail(func.error().message);
        if (!args.has("passes"))
            std::cout << "\n# loop IR\n" << lower::toString(*func);
        if (args.has("llvm")) {
            auto ir = codegen::emitLlvmIr(*func, true, options.target);
            if (!ir)
                return fail(ir.error().message);
            std::cout << "\n# LLVM IR (optimized for " << target::toString(options.target) << ")\n" << *ir;
        }
        if (args.has("cuda")) {
            auto cuda = codegen::emitCudaC(*func, options.target);
            if (!cuda)
                return fail(cuda.error().message);
            std::cout << "\n# CUDA C (for " << target::toString(options.target) << ")\n" << *cuda;
        }
        if (args.has("estimate")) {
            if (int failed = printEstimate(args, state, options.target, options.layoutRewrite > 0))
                return failed;
        }
        if (args.has("asm")) {
            auto assembly = codegen::emitAssembly(*func, options.target);
            if (!assembly)
                return fail(assembly.error().message);
            std::cout << (options.target.isGpu() ? "\n# PTX (for " : "\n# assembly (for ")
                      << target::toString(options.target) << ")\n"
                      << *assembly;
        }
        return 0;
    }

    // --emit-bundle: a GPU target's candidate as a kernel bundle appended to FILE, to measure on a GPU machine
    // elsewhere. (Measuring here goes through the Measurer, which runs tunescope-gpu-runner itself.)
    int emitBundle(
        const Arguments& args, const store::ResolvedSchedule& scheduled, const measure::MeasureOptions& options)
    {
        if (!options.target.isGpu())
            return fail("--emit-bundle makes bundles for GPU targets (--target 'cuda -arch=sm_90', or --target "
                        "record on a CUDA record)");
        // The record the result completes: a TVM record source's own, for the target measured.
        std::string record;
        if (scheduled.record) {
            store::LogRecord r = *scheduled.record;
            r.target = target::toString(options.target);
            r.result = record::MeasureResult {};
            record = store::formatLogLine(r);
        }
        auto bundle = measure::makeGpuBundle(scheduled.dag, scheduled.state, options.target, scheduled.title, record,
            measure::gpuBundleOptions(options));
        if (!bundle)
            return fail(bundle.error().message);
        const std::string path = args.value("emit-bundle");
        std::ofstream out(path, std::ios::app);
        if (!(out << *bundle << "\n"))
            return fail("cannot write " + path);
        std::cout << "bundle:   appended to " << path << " (on a GPU machine: tunescope-gpu-runner " << path
                  << " > results.json; then here: tunescope-cli import-results results.json)\n";
        return 0;
    }

    int measureSchedule(const Arguments& args, const store::ResolvedSchedule& scheduled)
    {
        const sched::State& state = scheduled.state;
        measure::MeasureOptions options;
        auto number = args.intValue("number", options.timing.number);
        auto repeat = args.intValue("repeat", options.timing.repeat);
        auto minRepeat = args.intValue("min-repeat-ms", options.timing.minRepeatMs);
        auto threads = args.intValue("threads", 0);
        auto timeout = args.intValue("timeout", options.runTimeoutMs / 1000);
        for (const auto* v : { &number, &repeat, &minRepeat, &threads, &timeout })
            if (!*v)
                return fail(v->error().message);
        if (*number < 1 || *repeat < 1 || *minRepeat < 0 || *threads < 0 || *timeout < 1 || *number > 1'000'000
            || *repeat > 1000 || *timeout > 3600)
            return fail("--number and --repeat must be >= 1, --min-repeat-ms and --threads >= 0, --timeout 1..3600 s");
        options.timing.number = static_cast<int>(*number);
        options.timing.repeat = static_cast<int>(*repeat);
        options.timing.minRepeatMs = static_cast<int>(*minRepeat);
        options.timing.flushCache = args.has("flush-cache");
        options.kernelThreads = static_cast<int>(*threads);
        options.runTimeoutMs = static_cast<int>(*timeout * 1000);
        auto target = targetOption(args, scheduled);
        if (!target)
            return fail(target.error().message);
        options.target = *target;
        auto rewrite = layoutRewriteOption(args, scheduled);
        if (!rewrite)
            return fail(rewrite.error().message);
        options.layoutRewrite = *rewrite;
        std::cout << scheduled.title << ", " << scheduled.steps.size() << " steps, "
                  << formatFixed(scheduled.flops / 1e9, 3) << " GFLOP\n";
        if (args.has("target"))
            std::cout << "target:   " << target::toString(options.target) << "\n";
        std::cout << std::flush;

        if (args.has("emit-bundle"))
            return emitBundle(args, scheduled, options);

        // Live: progress on a terminal, Ctrl-C stops the build or the run in flight (the runner is killed).
        std::optional<record::MeasureResult> result;
        measure::MeasureCallbacks callbacks;
        callbacks.onResult = [&](int, record::MeasureResult r) { result = std::move(r); };
        if (::isatty(STDERR_FILENO))
            callbacks.onProgress = [](const measure::MeasureProgress& p) {
                std::cerr << "\r"
                          << (p.built < p.total         ? "building"
                                     : p.done < p.total ? "running "
                                                        : "done    ")
                          << std::flush;
                if (p.done == p.total)
                    std::cerr << "\r        \r" << std::flush;
            };
        InterruptStop interrupt;
        measure::Measurer measurer(options);
        measurer.measure(scheduled.dag, { state }, callbacks, interrupt.token());
        if (!result)
            return fail("measurement stopped (signal " + std::to_string(interrupt.signal()) + "); nothing measured",
                kExitInterrupted);
        const record::MeasureResult& r = *result;
        std::cout << "status:   " << record::toInt(r.status) << " (" << record::toString(r.status) << ")\n";
        if (!r.ok()) {
            std::cout << "message:  " << r.message << "\n";
            return kExitFailure;
        }
        std::cout << "cost:     " << formatFixed(r.meanCost() * 1e3, 4) << " ms ("
                  << join(r.costs, ", ", [](double c) { return formatFixed(c * 1e3, 4); }) << ")\n";
        std::cout << "GFLOP/s:  " << formatFixed(scheduled.flops / r.meanCost() / 1e9, 1) << "\n";
        if (r.waited >= measure::kBusyWait)
            std::cout << "busy:     the kernel's threads waited for a CPU " << formatFixed(r.waited * 100, 0)
                      << "% of the time they were ready (another process is using the cores): the cost above "
                         "counts that wait too\n";
        // The roofline point, when the workspace has this machine's profile ('tunescope-cli machine'); a
        // missing default workspace is not an error here, a named one that cannot be read is said.
        if (options.target == target::Target::host()) {
            auto profile = hostProfileOf(args);
            if (profile && *profile) {
                const int used = options.kernelThreads > 0 ? options.kernelThreads
                                                           : static_cast<int>((*profile)->peakGflops.size());
                std::cout << "roof:     " << roofText(**profile, scheduled.dag, scheduled.flops, r.meanCost(), used)
                          << "\n";
            } else if (args.has("workspace")) {
                std::cout << "roof:     "
                          << (profile ? std::string("no machine profile in the workspace ('tunescope-cli machine')")
                                      : profile.error().message)
                          << "\n";
            }
        }
        std::cout << "checked:  outputs match the reference evaluator\n";
        std::cout << "all cost: " << formatFixed(r.allCost, 3) << " s (build + run)\n";
        return 0;
    }

    std::vector<OptionSpec> scheduleOptions(std::vector<OptionSpec> extra)
    {
        std::vector<OptionSpec> options = { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
            { "task", "ID", "task id from 'tunescope-cli tasks'" },
            { "workload", "NAME:ARGS", "a registered workload instead, e.g. matmul_add:1024,1024,1024" },
            { "record", "FILE:LINE", "a TVM auto_scheduler log line: its workload and steps" },
            { "steps", "FILE", "a JSON list of steps to replay, as in TVM records (default: none)" } };
        options.insert(options.end(), extra.begin(), extra.end());
        options.push_back(kHelpOption);
        return options;
    }

    const OptionSpec kLayoutRewriteOption { "layout-rewrite", "0|1|2",
        "Ansor's layout_rewrite_option: a conv2d's, dense's, matmul's or batch_matmul's second operand packed into the "
        "layout its loops "
        "read, at the start of the kernel (1) or in its setup, run once before the timed runs (2); default: the "
        "record's option, else 0" };
    const OptionSpec kTargetOption { "target", "TVM_TARGET",
        "compile for this target instead of this machine: a TVM target string, e.g. 'llvm -mcpu=haswell' (AVX2 "
        "code on an AVX-512 host), or 'record' (the record's own target); measure refuses a target whose "
        "instructions this CPU lacks" };

} // namespace

std::vector<Command> scheduleCommands()
{
    return {
        { "lower", "replay a schedule and print the state, the loop IR and optionally LLVM IR and assembly",
            "tunescope-cli lower (--network NAME --task ID | --workload W | --record FILE:LINE) [--steps FILE] "
            "[--target T] [--llvm] [--cuda] [--asm] [--passes] [--estimate [--workspace PATH]]",
            scheduleOptions({ kTargetOption, { "llvm", "", "also print the optimized LLVM IR" },
                { "cuda", "", "also print the CUDA C (a cuda target, e.g. --target record on a CUDA record)" },
                { "asm", "", "also print the machine code the kernel compiles to (CPU assembly; PTX on cuda targets)" },
                { "passes", "", "print the loop IR after every lowering pass" },
                { "estimate", "",
                    "also print the analytical cost model's estimate term by term (with the workspace's measured "
                    "limits when it has this machine's profile)" },
                kWorkspaceOption, kLayoutRewriteOption }),
            [](const Arguments& args) { return withSchedule(args, lowerSchedule); } },
        { "measure", "compile a schedule, run it in tunescope-runner, check it and print its cost",
            "tunescope-cli measure (--network NAME --task ID | --workload W | --record FILE:LINE) [--steps FILE] "
            "[--number N] [--repeat N] [--min-repeat-ms MS] [--flush-cache] [--threads N] [--timeout S] [--target T] "
            "[--workspace "
            "PATH] [--emit-bundle FILE]",
            scheduleOptions({ { "number", "N", "runs per measurement (default 3)" },
                { "repeat", "N", "measurements (default 1)" },
                { "min-repeat-ms", "MS", "grow number until a measurement lasts this long (default 100)" },
                { "flush-cache", "",
                    "flush the kernel's buffers from every cache level before each run (TVM's "
                    "enable_cpu_cache_flush): one run per measurement, timed cold, as a network step meets its "
                    "data; give --repeat 10 or more" },
                { "threads", "N", "threads of parallel loops (default: all cores)" },
                { "timeout", "S", "seconds before a run is killed (default 10)" }, kTargetOption, kLayoutRewriteOption,
                { "workspace", "PATH",
                    "read this machine's profile from this workspace for the roofline point (default: the "
                    "default workspace, when it exists)" },
                { "emit-bundle", "FILE",
                    "GPU targets: append the kernel bundle to FILE instead of measuring here (run it with "
                    "tunescope-gpu-runner on a GPU machine, then 'tunescope-cli import-results')" } }),
            [](const Arguments& args) { return withSchedule(args, measureSchedule); } },
    };
}

} // namespace ts::cli
