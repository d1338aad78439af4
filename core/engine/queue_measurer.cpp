// QueueMeasurer: a batch through the workspace's work queue.
#include "core/engine/queue_measurer.h"

#include "core/schedule/step_json.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <set>

namespace ts::engine {

namespace {

    using Clock = std::chrono::steady_clock;
    // How long the session waits for a notification before it looks at the batch anyway, and checks its stop.
    constexpr int kWaitMs = 200;
    constexpr auto kLookAnyway = std::chrono::seconds(3);
    // Consecutive errors of the queue (the server gone) after which the rest of the batch fails.
    constexpr int kMaxErrors = 20;

} // namespace

std::string measureOptionsToJson(const measure::MeasureOptions& o)
{
    return nlohmann::json {
        { "number", o.timing.number }, { "repeat", o.timing.repeat }, { "min_repeat_ms", o.timing.minRepeatMs },
        { "warmup", o.timing.warmup }, { "flush_cache", o.timing.flushCache }, { "build_timeout_ms", o.buildTimeoutMs },
        { "run_timeout_ms", o.runTimeoutMs }, { "seed", o.seed }, { "check", o.checkCorrectness }, { "rtol", o.rtol },
        { "atol", o.atol }, { "layout_rewrite", o.layoutRewrite }
    }.dump();
}

Expected<void> measureOptionsFromJson(const std::string& text, measure::MeasureOptions& o)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object())
        return makeError(ErrorKind::Parse, "measure options: not a JSON object: " + text.substr(0, 80));
    try {
        o.timing.number = json.value("number", o.timing.number);
        o.timing.repeat = json.value("repeat", o.timing.repeat);
        o.timing.minRepeatMs = json.value("min_repeat_ms", o.timing.minRepeatMs);
        o.timing.warmup = json.value("warmup", o.timing.warmup);
        o.timing.flushCache = json.value("flush_cache", o.timing.flushCache);
        o.buildTimeoutMs = json.value("build_timeout_ms", o.buildTimeoutMs);
        o.runTimeoutMs = json.value("run_timeout_ms", o.runTimeoutMs);
        o.seed = json.value("seed", o.seed);
        o.checkCorrectness = json.value("check", o.checkCorrectness);
        o.rtol = json.value("rtol", o.rtol);
        o.atol = json.value("atol", o.atol);
        o.layoutRewrite = json.value("layout_rewrite", o.layoutRewrite);
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorKind::Parse, std::string("measure options: ") + e.what());
    }
    return {};
}

Expected<int64_t> recoverQueuedResults(store::Store& workspace, const std::string& url)
{
    if (!store::isPostgresUrl(url))
        return 0;
    TS_TRY(store::WorkQueue queue, store::WorkQueue::open(url));
    TS_TRY(std::vector<store::SessionInfo> sessions, workspace.sessions());
    int64_t recovered = 0;
    for (const store::SessionInfo& session : sessions) {
        const nlohmann::json settings = nlohmann::json::parse(session.settings, nullptr, false);
        if (session.status != "running" || !settings.is_object() || settings.value("measure_on", "") != "workers")
            continue;
        TS_TRY(std::optional<std::vector<store::QueueRow>> left, queue.leftBy(session.id));
        if (!left || left->empty())
            continue; // alive (another process runs it), or nothing left
        store::RecordFilter mine;
        mine.sessionId = session.id;
        std::set<std::string> stored;
        TS_CHECK(workspace.forEachRecord(mine, [&](const store::Record& r) {
            stored.insert(r.steps);
            return true;
        }));
        std::vector<store::Record> records;
        for (store::QueueRow& row : *left) {
            if (stored.count(row.steps) > 0)
                continue; // the session stored its batch before it died
            store::Record r;
            r.taskId = row.taskId;
            r.deviceId = session.deviceId.value_or(0);
            r.sessionId = session.id;
            r.kind = store::RecordKind::Ansor;
            const nlohmann::json steps = nlohmann::json::parse(row.steps, nullptr, false);
            r.stepCount = steps.is_array() ? static_cast<int>(steps.size()) : 0;
            r.steps = std::move(row.steps);
            r.result = std::move(row.result);
            nlohmann::json extra { { "pick", "recovered" } };
            measure::MeasureOptions options;
            if (measureOptionsFromJson(row.options, options) && options.layoutRewrite > 0)
                extra["layout_rewrite_option"] = options.layoutRewrite;
            r.extra = extra.dump();
            records.push_back(std::move(r));
        }
        TS_TRY(int64_t added, workspace.addRecords(records));
        TS_CHECK(queue.markStored(session.id));
        recovered += added;
    }
    return recovered;
}

Expected<std::unique_ptr<QueueMeasurer>> QueueMeasurer::open(const std::string& workspace,
    std::optional<int64_t> sessionId, int64_t deviceId, std::map<std::string, int64_t> taskIds,
    const measure::MeasureOptions& options)
{
    TS_TRY(store::WorkQueue queue, store::WorkQueue::open(workspace));
    TS_CHECK(queue.listenForResults(sessionId));
    if (sessionId)
        TS_CHECK(queue.holdSession(*sessionId)); // a resume can tell this session from a dead one
    return std::unique_ptr<QueueMeasurer>(
        new QueueMeasurer(std::move(queue), sessionId, deviceId, std::move(taskIds), measureOptionsToJson(options)));
}

QueueMeasurer::QueueMeasurer(store::WorkQueue queue, std::optional<int64_t> sessionId, int64_t deviceId,
    std::map<std::string, int64_t> taskIds, std::string options)
    : m_queue(std::move(queue))
    , m_sessionId(sessionId)
    , m_deviceId(deviceId)
    , m_taskIds(std::move(taskIds))
    , m_options(std::move(options))
{
}

int QueueMeasurer::measure(const ir::ComputeDAG& task, std::vector<sched::State> states,
    const measure::MeasureCallbacks& callbacks, std::stop_token stop)
{
    const int total = static_cast<int>(states.size());
    std::vector<bool> delivered(states.size(), false);
    int done = 0;
    auto deliver = [&](int index, record::MeasureResult result) {
        delivered[static_cast<size_t>(index)] = true;
        ++done;
        if (callbacks.onResult)
            callbacks.onResult(index, std::move(result));
        if (callbacks.onProgress)
            callbacks.onProgress(measure::MeasureProgress { done, done, total });
    };
    auto failRest = [&](const std::string& why) {
        for (int i = 0; i < total; ++i)
            if (!delivered[static_cast<size_t>(i)])
                deliver(i, record::failedResult(record::MeasureStatus::RuntimeDeviceError, why, 0.0));
        return total;
    };
    const auto taskId = m_taskIds.find(task.workloadKey());
    if (taskId == m_taskIds.end())
        return failRest("work queue: the task is not in the workspace");
    std::vector<std::string> steps;
    for (const sched::State& state : states)
        steps.push_back(sched::stepsToText(state.steps()));
    auto batch = m_queue.enqueue(m_sessionId, taskId->second, m_deviceId, steps, m_options);
    if (!batch)
        return failRest("work queue: " + batch.error().message);
    int errors = 0;
    auto lastLook = Clock::now() - kLookAnyway;
    bool look = true;
    while (done < total) {
        if (stop.stop_requested()) {
            (void)m_queue.cancel(*batch); // what workers finish now is refused; the session is stopping
            return done;
        }
        if (look || Clock::now() - lastLook >= kLookAnyway) {
            lastLook = Clock::now();
            auto finished = m_queue.finished(*batch);
            if (!finished) {
                if (++errors >= kMaxErrors) {
                    (void)m_queue.cancel(*batch);
                    return failRest("work queue: " + finished.error().message);
                }
            } else {
                errors = 0;
                for (store::QueueResult& r : *finished)
                    if (r.position >= 0 && r.position < total && !delivered[static_cast<size_t>(r.position)])
                        deliver(r.position, std::move(r.result));
            }
            if (done == total)
                break;
        }
        auto arrived = m_queue.wait(kWaitMs);
        look = !arrived || *arrived; // an error: look (and count it) on the next pass
    }
    return done;
}

} // namespace ts::engine
