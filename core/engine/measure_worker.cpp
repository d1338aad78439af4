// runWorker: claim, measure, write back (measure_worker.h).
#include "core/engine/measure_worker.h"

#include "core/engine/queue_measurer.h"
#include "core/engine/tune_origin.h"
#include "core/measure/measurer.h"
#include "core/store/network_match.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/store/work_queue.h"
#include "core/target/target.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <unistd.h>

namespace ts::engine {

namespace {

    std::string hostName()
    {
        char name[256] = {};
        ::gethostname(name, sizeof name - 1);
        return name;
    }

    // The device this worker measures for: its id, and the target a GPU device's kernels are built for
    // (nullopt: this host's CPU).
    struct WorkerDevice {
        int64_t id = 0;
        std::optional<target::Target> gpu;
    };

    Expected<WorkerDevice> workerDevice(store::Store& workspace, const std::string& name)
    {
        const store::Device host = store::deviceOf(target::Target::host());
        if (name.empty()) {
            TS_TRY(int64_t id, workspace.addDevice(host));
            return WorkerDevice { id, std::nullopt };
        }
        TS_TRY(std::vector<store::Device> devices, workspace.devices());
        for (const store::Device& d : devices)
            if (d.name == name) {
                if (d.kind == "cpu" && !store::sameCpu(d, host))
                    return makeError(ErrorKind::InvalidArgument,
                        "device " + name + " is another CPU (" + d.target + "); this host is " + host.target
                            + ": a worker measures only for the machine it runs on");
                if (d.kind != "gpu")
                    return WorkerDevice { d.id, std::nullopt };
                TS_TRY(target::Target gpu, store::targetOf(d));
                return WorkerDevice { d.id, gpu }; // measured by tunescope-gpu-runner on this host's GPU
            }
        return makeError(ErrorKind::NotFound, workspace.path() + ": no device named " + name);
    }

    // The tasks' DAGs, rebuilt once each.
    class TaskDags {
    public:
        explicit TaskDags(store::Store& workspace)
            : m_workspace(workspace)
        {
        }
        // A task keyed as TVM keys workloads is rebuilt from its key; one of TuneScope's own (keyed by its DAG's
        // hash) from the origin its session stored (a network or an operator), matched by that hash.
        Expected<const ir::ComputeDAG*> get(int64_t taskId, std::optional<int64_t> sessionId)
        {
            if (auto it = m_dags.find(taskId); it != m_dags.end())
                return &it->second;
            TS_TRY(std::vector<store::TaskInfo> tasks, m_workspace.tasks());
            const auto task = std::find_if(tasks.begin(), tasks.end(), [&](const auto& t) { return t.id == taskId; });
            if (task == tasks.end())
                return makeError(ErrorKind::NotFound, "no task " + std::to_string(taskId) + " in the workspace");
            auto rebuilt = store::rebuildTask(*task);
            if (!rebuilt && store::isOwnTaskKey(task->key) && sessionId)
                rebuilt = fromOrigin(*task, *sessionId);
            if (!rebuilt)
                return rebuilt.error();
            return &m_dags.emplace(taskId, std::move(rebuilt).value()).first->second;
        }

    private:
        Expected<ir::ComputeDAG> fromOrigin(const store::TaskInfo& task, int64_t sessionId)
        {
            TS_TRY(std::vector<store::SessionInfo> sessions, m_workspace.sessions());
            for (const store::SessionInfo& s : sessions) {
                if (s.id != sessionId)
                    continue;
                const nlohmann::json settings = nlohmann::json::parse(s.settings, nullptr, false);
                if (!settings.is_object() || !settings.contains("origin"))
                    break;
                TS_TRY(TuneOrigin origin, TuneOrigin::fromJson(settings["origin"].dump()));
                TS_TRY(std::vector<graph::Task> built, buildTasks(origin));
                for (graph::Task& t : built)
                    if (t.dag.workloadKey() == task.key)
                        return std::move(t.dag);
                return makeError(ErrorKind::NotFound,
                    "task " + task.name + ": none of the tasks of " + origin.title() + " has its DAG");
            }
            return makeError(ErrorKind::NotFound,
                "task " + task.name + " is keyed by its DAG's hash and session " + std::to_string(sessionId)
                    + " stored no origin (a network or an operator) to rebuild it from: a worker cannot measure it");
        }

    public:
    private:
        store::Store& m_workspace;
        std::map<int64_t, ir::ComputeDAG> m_dags;
    };

} // namespace

Expected<WorkerStats> runWorker(
    const WorkerOptions& options, std::stop_token stop, const std::function<void(const std::string&)>& log)
{
    TS_TRY(store::Store workspace, store::Store::open(options.workspace));
    TS_TRY(store::WorkQueue queue, store::WorkQueue::open(options.workspace));
    TS_TRY(WorkerDevice device, workerDevice(workspace, options.device));
    const int64_t deviceId = device.id;
    store::WorkerInfo me;
    me.host = hostName();
    me.pid = ::getpid();
    me.name = options.name.empty() ? me.host + ":" + std::to_string(me.pid) : options.name;
    me.deviceId = deviceId;
    me.threads = options.threads;
    WorkerStats stats;
    const auto started = std::chrono::steady_clock::now();
    // Times a call of the queue: the server's share of the worker's time.
    auto timed = [&](auto&& call) {
        const auto start = std::chrono::steady_clock::now();
        auto result = call();
        stats.queueSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    };
    TS_TRY(stats.workerId, queue.registerWorker(me));
    TS_CHECK(queue.listenForWork());
    log("worker " + std::to_string(stats.workerId) + " (" + me.name + ") on " + workspace.path() + ", device "
        + std::to_string(deviceId) + ", " + std::to_string(options.threads) + " threads");

    TaskDags dags(workspace);
    std::map<std::string, std::unique_ptr<measure::Measurer>> measurers; // by options text
    auto measurerFor = [&](const std::string& text) -> Expected<measure::Measurer*> {
        if (auto it = measurers.find(text); it != measurers.end())
            return it->second.get();
        measure::MeasureOptions o;
        TS_CHECK(measureOptionsFromJson(text, o));
        o.buildParallelism = options.threads;
        o.kernelThreads = options.threads;
        if (device.gpu)
            o.target = *device.gpu;
        return measurers.emplace(text, std::make_unique<measure::Measurer>(o)).first->second.get();
    };
    auto write = [&](int64_t row, const record::MeasureResult& result) -> Expected<void> {
        TS_TRY(bool written, timed([&] { return queue.complete(stats.workerId, row, result); }));
        if (!written) {
            ++stats.refused;
            return {};
        }
        ++stats.measured;
        stats.failed += result.ok() ? 0 : 1;
        return {};
    };

    while (!stop.stop_requested()) {
        if (options.maxCandidates > 0 && stats.measured >= options.maxCandidates)
            break;
        int limit = options.claim;
        if (options.maxCandidates > 0)
            limit = static_cast<int>(std::min<int64_t>(limit, options.maxCandidates - stats.measured));
        TS_TRY(std::vector<store::QueuedCandidate> claimed,
            timed([&] { return queue.claim(stats.workerId, deviceId, limit, options.leaseSeconds); }));
        if (claimed.empty()) {
            if (options.exitWhenIdle)
                break;
            TS_CHECK(queue.heartbeat(stats.workerId, options.leaseSeconds, "idle", ""));
            TS_CHECK(queue.wait(options.idleWaitMs));
            continue;
        }
        const std::string what = "task " + std::to_string(claimed.front().taskId) + ", "
            + std::to_string(claimed.size()) + " candidates of batch " + claimed.front().batch;
        log("claimed " + what);
        TS_CHECK(timed([&] { return queue.heartbeat(stats.workerId, options.leaseSeconds, "measuring", what); }));

        // What cannot be measured here fails as a result, with the reason.
        auto dag = dags.get(claimed.front().taskId, claimed.front().sessionId);
        auto measurer = measurerFor(claimed.front().options);
        std::vector<sched::State> states;
        std::vector<int64_t> rows;
        for (const store::QueuedCandidate& c : claimed) {
            if (!dag || !measurer) {
                const std::string why = !dag ? dag.error().message : measurer.error().message;
                TS_CHECK(write(c.id, record::failedResult(record::MeasureStatus::InstantiationError, why, 0.0)));
                continue;
            }
            const int rewrite = (*measurer)->options().layoutRewrite;
            const std::string extra
                = rewrite > 0 ? nlohmann::json { { "layout_rewrite_option", rewrite } }.dump() : "{}";
            auto state = store::replayStored(**dag, c.steps, extra);
            if (!state) {
                TS_CHECK(write(
                    c.id, record::failedResult(record::MeasureStatus::InstantiationError, state.error().message, 0.0)));
                continue;
            }
            states.push_back(std::move(state).value());
            rows.push_back(c.id);
        }
        if (!states.empty()) {
            std::optional<Error> failure;
            std::stop_source claimStop;
            measure::MeasureCallbacks callbacks;
            callbacks.onResult = [&](int index, record::MeasureResult result) {
                if (stop.stop_requested())
                    claimStop.request_stop();
                if (failure)
                    return;
                if (auto written = write(rows[static_cast<size_t>(index)], result); !written)
                    failure = written.error();
                else if (auto renewed = timed(
                             [&] { return queue.heartbeat(stats.workerId, options.leaseSeconds, "measuring", what); });
                         !renewed)
                    failure = renewed.error();
            };
            // A stop ends the claim after the candidate in flight: the measurer is stopped from the next
            // result on, and what it did not run goes back to the queue below.
            (*measurer)->measure(**dag, std::move(states), callbacks, claimStop.get_token());
            if (failure)
                return *failure;
        }
    }
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    TS_TRY(int released, queue.release(stats.workerId));
    stats.released = released;
    TS_CHECK(queue.heartbeat(stats.workerId, options.leaseSeconds, "stopped", ""));
    log("worker " + std::to_string(stats.workerId) + " stopped: " + std::to_string(stats.measured) + " measured ("
        + std::to_string(stats.failed) + " failed), " + std::to_string(stats.refused) + " refused, "
        + std::to_string(stats.released) + " given back");
    return stats;
}

} // namespace ts::engine
