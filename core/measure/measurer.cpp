#include "core/measure/measurer.h"

#include "core/codegen/codegen.h"
#include "core/lower/lower.h"
#include "core/measure/build_pool.h"
#include "core/measure/runner_process.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

namespace ts::measure {

using Clock = std::chrono::steady_clock;

struct Measurer::Built {
    MeasureStatus status = MeasureStatus::Ok;
    std::string message;
    codegen::ObjectCode object;
    std::vector<int64_t> argElements;
    int numInputs = 0;
    std::vector<std::string> outputNames;
    double seconds = 0.0;
    // The DAG the state was made from when it is not the task's (an AutoTVM config's own program, such as
    // TVM's packed NCHW[x]c compute): the reference is that DAG's.
    std::optional<ir::ComputeDAG> program;
};

namespace {
    // MemAvailable of /proc/meminfo, bytes; nullopt where it cannot be read.
    std::optional<double> availableMemoryBytes()
    {
        std::ifstream in("/proc/meminfo");
        std::string key;
        double kib = 0;
        std::string unit;
        while (in >> key >> kib >> unit)
            if (key == "MemAvailable:")
                return kib * 1024.0;
        return std::nullopt;
    }

    std::string gigabytes(double bytes) { return formatFixed(bytes / 1e9, 1) + " GB"; }

    // What every build of one measure call shares, taken once when the call starts.
    struct BuildContext {
        target::Target target;
        int layoutRewrite = 0;
        std::optional<double> availableBytes; // memory the runner may allocate buffers from
        std::optional<std::string> cannotRun; // why this machine cannot run code for the target
    };

    BuildContext buildContext(const target::Target& target, int layoutRewrite = 0)
    {
        BuildContext context { target, layoutRewrite, availableMemoryBytes(), std::nullopt };
        if (auto runs = codegen::checkRunsHere(target); !runs)
            context.cannotRun = runs.error().message;
        return context;
    }

    Measurer::Built buildFunc(const lower::LoweredFunc& func, const BuildContext& context)
    {
        Measurer::Built built;
        double bytes = 0;
        for (const ir::BufferRef& arg : func.args) {
            built.argElements.push_back(arg->allocatedElements());
            bytes += static_cast<double>(arg->allocatedElements()) * ir::bytesOf(arg->dtype);
        }
        built.numInputs = func.numInputs;
        for (size_t i = static_cast<size_t>(func.numInputs); i < func.args.size(); ++i)
            built.outputNames.push_back(func.args[i]->name);
        // Buffers that cannot be allocated are the task's fault, not the kernel's: say so before compiling
        // (the runner would otherwise die allocating them).
        if (context.availableBytes && bytes > *context.availableBytes) {
            built.status = MeasureStatus::InstantiationError;
            built.message = "the kernel's buffers need " + gigabytes(bytes) + ", more than the "
                + gigabytes(*context.availableBytes) + " of memory available";
            return built;
        }
        if (context.cannotRun) {
            built.status = MeasureStatus::CompileHostError;
            built.message = *context.cannotRun;
            return built;
        }
        auto object = codegen::compileToObject(func, context.target);
        if (!object) {
            built.status = MeasureStatus::CompileHostError;
            built.message = object.error().message;
        } else {
            built.object = std::move(object).value();
        }
        return built;
    }

    Measurer::Built buildState(const sched::State& state, const BuildContext& context)
    {
        const auto start = Clock::now();
        Measurer::Built built;
        try {
            lower::LowerOptions options;
            options.target = context.target;
            options.layoutRewrite = context.layoutRewrite;
            auto func = lower::lower(state, options);
            if (!func) {
                built.status = MeasureStatus::InstantiationError;
                built.message = func.error().message;
            } else {
                built = buildFunc(*func, context);
            }
        } catch (const std::exception& e) {
            // A broken invariant (TS_ASSERT in release) must not cross the build thread: it becomes this
            // candidate's failure, with its message.
            built.status = MeasureStatus::UnknownError;
            built.message = std::string("internal error while building: ") + e.what();
        }
        built.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return built;
    }

    // The build side of one measure call, shared by the measuring thread and the build jobs. A job may
    // outlive the call (a build abandoned after a timeout or a stop), so it holds the batch by shared_ptr
    // and touches nothing else but the pool, which joins it before it dies.
    struct BuildBatch {
        enum class Phase { Queued, Building, Done, Abandoned };
        struct Slot {
            Phase phase = Phase::Queued;
            Clock::time_point started;
            Measurer::Built built;
        };

        BuildBatch(std::vector<sched::State> inputs, BuildContext buildContext)
            : states(std::move(inputs))
            , context(std::move(buildContext))
            , slots(states.size())
        {
        }

        const std::vector<sched::State> states;
        const BuildContext context;
        std::mutex mutex;
        std::condition_variable_any changed;
        // Below: guarded by mutex.
        std::vector<Slot> slots;
        uint64_t events = 0; // bumped whenever a slot changes phase
        bool cancelled = false; // jobs not started yet are skipped
    };

    void buildJob(BuildBatch& batch, size_t index, BuildPool& pool)
    {
        BuildBatch::Slot& slot = batch.slots[index];
        {
            std::lock_guard lock(batch.mutex);
            if (batch.cancelled)
                return;
            slot.phase = BuildBatch::Phase::Building;
            slot.started = Clock::now();
            ++batch.events;
        }
        batch.changed.notify_all();
        Measurer::Built built = buildState(batch.states[index], batch.context);
        bool abandoned = false;
        {
            std::lock_guard lock(batch.mutex);
            abandoned = slot.phase == BuildBatch::Phase::Abandoned;
            if (!abandoned) {
                slot.built = std::move(built);
                slot.phase = BuildBatch::Phase::Done;
                ++batch.events;
            }
        }
        if (abandoned)
            pool.endLoan(); // the measuring thread lent the pool a thread when it gave up on this build
        else
            batch.changed.notify_all();
    }

} // namespace

Measurer::Measurer(MeasureOptions options)
    : m_options(std::move(options))
{
    if (m_options.runnerPath.empty())
        m_options.runnerPath = defaultRunnerPath();
    m_runner = std::make_unique<RunnerProcess>(m_options.runnerPath);
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    m_pool = std::make_unique<BuildPool>(m_options.buildParallelism > 0 ? m_options.buildParallelism : cores);
}

Measurer::~Measurer()
{
    m_pool.reset(); // joins the build threads, abandoned builds included
    m_runner.reset(); // kills the runner child
}

int Measurer::runnerStarts() const { return m_runner->starts(); }

const Reference* Measurer::reference(const ir::ComputeDAG& task, std::string* error)
{
    const std::string key = task.workloadKey() + "/" + std::to_string(m_options.seed);
    auto it = m_references.find(key);
    if (it == m_references.end()) {
        auto computed = computeReference(task, m_options.seed);
        if (!computed) {
            *error = computed.error().message;
            return nullptr;
        }
        it = m_references.emplace(key, std::move(computed).value()).first;
    }
    return &it->second;
}

std::optional<MeasureResult> Measurer::run(const ir::ComputeDAG& task, Built& built, std::stop_token stop)
{
    if (built.status != MeasureStatus::Ok)
        return record::failedResult(built.status, built.message, built.seconds);
    const auto start = Clock::now();
    RunRequest request;
    request.object = std::move(built.object.bytes);
    request.symbol = built.object.symbol;
    request.hasSetup = built.object.hasSetup;
    request.argElements = built.argElements;
    request.numInputs = built.numInputs;
    request.seed = m_options.seed;
    request.threads = m_options.kernelThreads;
    request.timing = m_options.timing;
    std::optional<RunReply> reply;
    if (m_options.isolate)
        reply = m_runner->run(request, m_options.runTimeoutMs, stop);
    else if (!stop.stop_requested())
        reply = runRequest(request);
    if (!reply)
        return std::nullopt;
    const double seconds = built.seconds + std::chrono::duration<double>(Clock::now() - start).count();
    if (reply->status != MeasureStatus::Ok)
        return record::failedResult(reply->status, reply->message, seconds);
    if (m_options.checkCorrectness) {
        std::string error;
        const Reference* expected = reference(built.program ? *built.program : task, &error);
        if (!expected)
            return record::failedResult(MeasureStatus::UnknownError, "reference evaluator: " + error, seconds);
        if (auto wrong
            = compareWithReference(*expected, built.outputNames, reply->outputs, m_options.rtol, m_options.atol))
            return record::failedResult(MeasureStatus::WrongAnswer, *wrong, seconds);
    }
    MeasureResult result;
    result.status = MeasureStatus::Ok;
    result.costs = std::move(reply->costs);
    result.waited = reply->waited;
    result.allCost = seconds;
    result.timestamp = record::unixNow();
    return result;
}

int Measurer::measure(const ir::ComputeDAG& task, std::vector<sched::State> states, const MeasureCallbacks& callbacks,
    std::stop_token stop)
{
    if (stop.stop_requested())
        return 0;
    if (m_options.target.isGpu())
        return measureOnGpu(task, states, callbacks, stop);
    const size_t total = states.size();
    MeasureProgress progress { 0, 0, static_cast<int>(total) };
    auto deliver = [&](size_t index, MeasureResult result) {
        ++progress.done;
        if (callbacks.onResult)
            callbacks.onResult(static_cast<int>(index), std::move(result));
    };
    auto reportProgress = [&] {
        if (callbacks.onProgress)
            callbacks.onProgress(progress);
    };

    // States made from another DAG than the task's (an AutoTVM config's program) are checked against that DAG's
    // reference: each such DAG made once per batch, and only when outputs are checked.
    std::vector<std::optional<ir::ComputeDAG>> programs(total);
    if (m_options.checkCorrectness) {
        const auto sameTensors = [](const std::vector<ir::Tensor>& a, const std::vector<ir::Tensor>& b) {
            return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
        };
        for (size_t i = 0; i < total; ++i) {
            const std::vector<ir::Tensor>& origin = states[i].originTensors();
            if (sameTensors(origin, task.tensors()))
                continue;
            for (size_t j = 0; j < i && !programs[i]; ++j)
                if (programs[j] && sameTensors(origin, programs[j]->tensors()))
                    programs[i] = programs[j];
            if (!programs[i])
                programs[i] = ir::ComputeDAG::create(origin);
        }
    }
    auto batch
        = std::make_shared<BuildBatch>(std::move(states), buildContext(m_options.target, m_options.layoutRewrite));
    for (size_t i = 0; i < total; ++i)
        m_pool->submit([batch, i, pool = m_pool.get()] { buildJob(*batch, i, *pool); });

    // Build phase: collect builds as they end, give up on those past the timeout, report failures at once.
    const auto timeout = std::chrono::milliseconds(m_options.buildTimeoutMs);
    std::vector<Built> built(total);
    std::vector<bool> collected(total, false);
    size_t pending = total;
    std::unique_lock lock(batch->mutex);
    while (pending > 0 && !stop.stop_requested()) {
        std::vector<size_t> ended;
        const auto now = Clock::now();
        auto nextDeadline = Clock::time_point::max();
        for (size_t i = 0; i < total; ++i) {
            BuildBatch::Slot& slot = batch->slots[i];
            if (collected[i])
                continue;
            if (slot.phase == BuildBatch::Phase::Done) {
                built[i] = std::move(slot.built);
            } else if (slot.phase == BuildBatch::Phase::Building && now - slot.started >= timeout) {
                slot.phase = BuildBatch::Phase::Abandoned;
                m_pool->lend();
                built[i].status = MeasureStatus::BuildTimeout;
                built[i].message = "build took longer than " + std::to_string(m_options.buildTimeoutMs) + " ms";
                built[i].seconds = m_options.buildTimeoutMs / 1e3;
            } else {
                if (slot.phase == BuildBatch::Phase::Building)
                    nextDeadline = std::min(nextDeadline, slot.started + timeout);
                continue;
            }
            collected[i] = true;
            ended.push_back(i);
        }
        if (!ended.empty()) {
            lock.unlock(); // callbacks run without the batch lock: the build threads go on meanwhile
            for (size_t i : ended) {
                --pending;
                ++progress.built;
                if (built[i].status != MeasureStatus::Ok)
                    deliver(i, record::failedResult(built[i].status, built[i].message, built[i].seconds));
                reportProgress();
            }
            lock.lock();
            continue;
        }
        const uint64_t seen = batch->events;
        const auto changed = [&] { return batch->events != seen; };
        if (nextDeadline == Clock::time_point::max())
            batch->changed.wait(lock, stop, changed);
        else
            batch->changed.wait_until(lock, stop, nextDeadline, changed);
    }
    batch->cancelled = pending > 0; // stopped: the builds not started are skipped, the running ones discarded
    lock.unlock();

    // Run phase: one candidate at a time, in index order.
    for (size_t i = 0; i < total && !stop.stop_requested(); ++i) {
        if (!collected[i] || built[i].status != MeasureStatus::Ok)
            continue;
        built[i].program = std::move(programs[i]);
        std::optional<MeasureResult> result = run(task, built[i], stop);
        if (!result)
            break;
        deliver(i, std::move(*result));
        reportProgress();
    }
    return progress.done;
}

std::vector<MeasureResult> Measurer::measure(const ir::ComputeDAG& task, const std::vector<sched::State>& states)
{
    std::vector<MeasureResult> results(states.size());
    MeasureCallbacks callbacks;
    callbacks.onResult
        = [&](int index, MeasureResult result) { results[static_cast<size_t>(index)] = std::move(result); };
    const int delivered = measure(task, states, callbacks);
    TS_ASSERT(delivered == static_cast<int>(states.size())) << "a batch without a stop ended early";
    return results;
}

MeasureResult Measurer::measureFunc(const ir::ComputeDAG& task, const lower::LoweredFunc& func)
{
    const auto start = Clock::now();
    Built built = buildFunc(func, buildContext(m_options.target));
    built.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return *run(task, built, {});
}

} // namespace ts::measure
