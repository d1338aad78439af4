#include "core/measure/measurer.h"

#include "core/codegen/codegen.h"
#include "core/lower/lower.h"
#include "core/measure/runner_process.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <future>
#include <numeric>
#include <thread>

namespace ts::measure {

using Clock = std::chrono::steady_clock;

const char* toString(MeasureStatus status)
{
    switch (status) {
    case MeasureStatus::Ok:
        return "ok";
    case MeasureStatus::InstantiationError:
        return "instantiation error";
    case MeasureStatus::CompileHostError:
        return "compile error";
    case MeasureStatus::CompileDeviceError:
        return "device compile error";
    case MeasureStatus::RuntimeDeviceError:
        return "runtime error";
    case MeasureStatus::WrongAnswer:
        return "wrong answer";
    case MeasureStatus::BuildTimeout:
        return "build timeout";
    case MeasureStatus::RunTimeout:
        return "run timeout";
    case MeasureStatus::UnknownError:
        return "unknown error";
    }
    return "?";
}

double MeasureResult::meanCost() const
{
    if (costs.empty())
        return kFailedCost;
    return std::accumulate(costs.begin(), costs.end(), 0.0) / static_cast<double>(costs.size());
}

struct Measurer::Built {
    MeasureStatus status = MeasureStatus::Ok;
    std::string message;
    codegen::ObjectCode object;
    std::vector<int64_t> argElements;
    int numInputs = 0;
    std::vector<std::string> outputNames;
    double seconds = 0.0;
};

namespace {
    Measurer::Built buildFunc(const lower::LoweredFunc& func, const target::Target& target)
    {
        Measurer::Built built;
        for (const ir::BufferRef& arg : func.args)
            built.argElements.push_back(arg->allocatedElements());
        built.numInputs = func.numInputs;
        for (size_t i = static_cast<size_t>(func.numInputs); i < func.args.size(); ++i)
            built.outputNames.push_back(func.args[i]->name);
        auto object = codegen::compileToObject(func, target);
        if (!object) {
            built.status = MeasureStatus::CompileHostError;
            built.message = object.error().message;
        } else {
            built.object = std::move(object).value();
        }
        return built;
    }

    Measurer::Built buildState(const sched::State& state, const target::Target& target)
    {
        const auto start = Clock::now();
        lower::LowerOptions options;
        options.target = target;
        auto func = lower::lower(state, options);
        Measurer::Built built;
        if (!func) {
            built.status = MeasureStatus::InstantiationError;
            built.message = func.error().message;
        } else {
            built = buildFunc(*func, target);
        }
        built.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return built;
    }

    MeasureResult failure(MeasureStatus status, std::string message, double seconds)
    {
        MeasureResult r;
        r.status = status;
        r.costs = { kFailedCost };
        r.message = std::move(message);
        r.allCost = seconds;
        r.timestamp = static_cast<int64_t>(std::time(nullptr));
        return r;
    }

    // Builds on detached threads so that a build past its timeout can be abandoned.
    std::vector<Measurer::Built> buildAll(
        const std::vector<sched::State>& states, int parallelism, int timeoutMs, const target::Target& target)
    {
        struct Slot {
            std::promise<Measurer::Built> promise;
            std::atomic<int64_t> startedNs { -1 };
        };
        const size_t n = states.size();
        std::vector<std::shared_ptr<Slot>> slots;
        std::vector<std::future<Measurer::Built>> futures;
        for (size_t i = 0; i < n; ++i) {
            slots.push_back(std::make_shared<Slot>());
            futures.push_back(slots.back()->promise.get_future());
        }
        auto next = std::make_shared<std::atomic<size_t>>(0);
        auto shared = std::make_shared<std::vector<sched::State>>(states);
        const int workers = std::max(1,
            std::min<int>(parallelism > 0 ? parallelism : static_cast<int>(std::thread::hardware_concurrency()),
                static_cast<int>(n)));
        for (int w = 0; w < workers; ++w)
            std::thread([slots, next, shared, target] {
                for (size_t i; (i = (*next)++) < slots.size();) {
                    slots[i]->startedNs = Clock::now().time_since_epoch().count();
                    slots[i]->promise.set_value(buildState((*shared)[i], target));
                }
            }).detach();
        std::vector<Measurer::Built> built(n);
        for (size_t i = 0; i < n; ++i) {
            for (;;) {
                if (futures[i].wait_for(std::chrono::milliseconds(5)) == std::future_status::ready) {
                    built[i] = futures[i].get();
                    break;
                }
                const int64_t started = slots[i]->startedNs;
                if (started >= 0
                    && Clock::now().time_since_epoch().count() - started > int64_t(timeoutMs) * 1'000'000) {
                    built[i].status = MeasureStatus::BuildTimeout;
                    built[i].message = "build took longer than " + std::to_string(timeoutMs) + " ms";
                    built[i].seconds = timeoutMs / 1e3;
                    break;
                }
            }
        }
        return built;
    }
} // namespace

Measurer::Measurer(MeasureOptions options)
    : m_options(std::move(options))
{
    if (m_options.runnerPath.empty())
        m_options.runnerPath = defaultRunnerPath();
    m_runner = std::make_unique<RunnerProcess>(m_options.runnerPath);
}

Measurer::~Measurer() = default;

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

MeasureResult Measurer::run(const ir::ComputeDAG& task, Built& built)
{
    if (built.status != MeasureStatus::Ok)
        return failure(built.status, built.message, built.seconds);
    const auto start = Clock::now();
    RunRequest request;
    request.object = std::move(built.object.bytes);
    request.symbol = built.object.symbol;
    request.argElements = built.argElements;
    request.numInputs = built.numInputs;
    request.seed = m_options.seed;
    request.threads = m_options.kernelThreads;
    request.timing = m_options.timing;
    const RunReply reply = m_options.isolate ? m_runner->run(request, m_options.runTimeoutMs) : runRequest(request);
    const double seconds = built.seconds + std::chrono::duration<double>(Clock::now() - start).count();
    const auto status = static_cast<MeasureStatus>(reply.status);
    if (status != MeasureStatus::Ok)
        return failure(status, reply.message, seconds);
    if (m_options.checkCorrectness) {
        std::string error;
        const Reference* expected = reference(task, &error);
        if (!expected)
            return failure(MeasureStatus::UnknownError, "reference evaluator: " + error, seconds);
        if (auto wrong
            = compareWithReference(*expected, built.outputNames, reply.outputs, m_options.rtol, m_options.atol))
            return failure(MeasureStatus::WrongAnswer, *wrong, seconds);
    }
    MeasureResult result;
    result.status = MeasureStatus::Ok;
    result.costs = std::move(reply.costs);
    result.allCost = seconds;
    result.timestamp = static_cast<int64_t>(std::time(nullptr));
    return result;
}

std::vector<MeasureResult> Measurer::measure(const ir::ComputeDAG& task, const std::vector<sched::State>& states)
{
    std::vector<Built> built = buildAll(states, m_options.buildParallelism, m_options.buildTimeoutMs, m_options.target);
    std::vector<MeasureResult> results;
    for (Built& b : built)
        results.push_back(run(task, b));
    return results;
}

MeasureResult Measurer::measureFunc(const ir::ComputeDAG& task, const lower::LoweredFunc& func)
{
    const auto start = Clock::now();
    Built built = buildFunc(func, m_options.target);
    built.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return run(task, built);
}

} // namespace ts::measure
