// Measurement workers on a private PostgreSQL server (tests/core/pg_cluster.h): the work queue's claims,
// leases and refusals; sessions that queue their batches and workers that measure them for real (compiled
// kernels in the runner); a worker killed with SIGKILL mid-claim, whose candidates another worker measures.
// Every candidate is measured and stored exactly once.
#include "tests/core/pg_cluster.h"

#include "core/engine/measure_worker.h"
#include "core/engine/queue_measurer.h"
#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"
#include "core/store/store.h"
#include "core/store/work_queue.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

extern char** environ;

using namespace ts;
using namespace std::chrono_literals;
using store::test::PgCluster;

namespace {

store::Store openOrDie(const std::string& url)
{
    auto store = store::Store::open(url);
    if (!store)
        throw std::runtime_error(store.error().message);
    return std::move(store).value();
}

// A workspace with one task and device, and a queue on it.
struct Queued {
    std::string url;
    int64_t task = 0;
    int64_t device = 0;
};

Queued workspaceWithATask()
{
    Queued q;
    q.url = PgCluster::shared().createDatabase();
    store::Store s = openOrDie(q.url);
    q.device = s.addDevice(store::deviceOf(target::Target::host())).value();
    q.task = s.addTask(store::taskInfoOf("matmul", "0123abcd", "", 1e6)).value();
    return q;
}

record::MeasureResult okResult(double cost)
{
    record::MeasureResult r;
    r.status = record::MeasureStatus::Ok;
    r.costs = { cost };
    r.timestamp = 1.7e9;
    return r;
}

TEST(WorkQueue, ClaimsAreExclusiveLeasesRunOutAndALateResultIsRefused)
{
    const Queued q = workspaceWithATask();
    store::WorkQueue a = store::WorkQueue::open(q.url).value();
    store::WorkQueue b = store::WorkQueue::open(q.url).value();
    const int64_t wa = a.registerWorker(store::WorkerInfo { 0, "a", "h", 1, q.device }).value();
    const int64_t wb = b.registerWorker(store::WorkerInfo { 0, "b", "h", 2, q.device }).value();
    const std::vector<std::string> steps(10, "[]");
    const std::string batch = a.enqueue(std::nullopt, q.task, q.device, steps, "{}").value();

    const auto first = a.claim(wa, q.device, 4, 0.5).value();
    const auto second = b.claim(wb, q.device, 4, 60).value();
    ASSERT_EQ(first.size(), 4u);
    ASSERT_EQ(second.size(), 4u);
    std::set<int64_t> ids;
    for (const auto* claim : { &first, &second })
        for (const store::QueuedCandidate& c : *claim)
            EXPECT_TRUE(ids.insert(c.id).second) << "row " << c.id << " claimed twice";
    EXPECT_EQ(first[0].position, 0);
    EXPECT_EQ(second[0].position, 4);
    EXPECT_TRUE(a.complete(wa, first[0].id, okResult(1e-3)).value());

    std::this_thread::sleep_for(700ms); // a's lease runs out: b takes its three unfinished rows and the last two
    const auto third = b.claim(wb, q.device, 8, 60).value();
    ASSERT_EQ(third.size(), 5u);
    EXPECT_EQ(third[0].position, 1);
    EXPECT_EQ(third[0].attempts, 2);
    EXPECT_FALSE(a.complete(wa, first[1].id, okResult(5e-3)).value()) << "a lost its lease: its result is refused";
    EXPECT_TRUE(b.complete(wb, first[1].id, okResult(2e-3)).value());
    EXPECT_FALSE(b.complete(wb, first[1].id, okResult(3e-3)).value()) << "a row is completed once";

    const auto results = a.finished(batch).value();
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[1].position, 1);
    EXPECT_EQ(results[1].result.costs, std::vector<double> { 2e-3 });
    EXPECT_EQ(a.cancel(batch).value(), 8);
    EXPECT_FALSE(b.complete(wb, second[0].id, okResult(1e-3)).value()) << "a cancelled row refuses results";
    const store::BatchState state = a.batchState(batch).value();
    EXPECT_EQ(state.done, 2);
    EXPECT_EQ(state.cancelled, 8);
    const auto workers = a.workers().value();
    ASSERT_EQ(workers.size(), 2u);
    EXPECT_EQ(workers[1].measured, 1);
}

TEST(WorkQueue, AResultWakesItsOwnSessionOnlyAndNewWorkWakesTheWorkers)
{
    const Queued q = workspaceWithATask();
    store::WorkQueue session = store::WorkQueue::open(q.url).value();
    store::WorkQueue other = store::WorkQueue::open(q.url).value(); // another session on the workspace
    store::WorkQueue anonymous = store::WorkQueue::open(q.url).value(); // a measurer with no session
    store::WorkQueue worker = store::WorkQueue::open(q.url).value();
    store::Store workspace = openOrDie(q.url);
    const int64_t s1 = workspace.beginSession(store::SessionInfo { .policy = "ansor", .deviceId = q.device }).value();
    const int64_t s2 = workspace.beginSession(store::SessionInfo { .policy = "ansor", .deviceId = q.device }).value();
    ASSERT_TRUE(session.listenForResults(s1));
    ASSERT_TRUE(other.listenForResults(s2));
    ASSERT_TRUE(anonymous.listenForResults(std::nullopt));
    ASSERT_TRUE(worker.listenForWork());
    const int64_t id = worker.registerWorker(store::WorkerInfo { 0, "w", "h", 1, q.device }).value();
    EXPECT_FALSE(worker.wait(0).value());
    const std::string batch = session.enqueue(s1, q.task, q.device, { "[]" }, "{}").value();
    EXPECT_EQ(store::WorkQueue::resultsChannel(batch), "tunescope_results_s" + std::to_string(s1));
    EXPECT_TRUE(worker.wait(5000).value()) << "NOTIFY tunescope_queue";
    const auto claimed = worker.claim(id, q.device, 1, 60).value();
    ASSERT_EQ(claimed.size(), 1u);
    ASSERT_TRUE(worker.complete(id, claimed[0].id, okResult(1e-3)).value());
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(session.wait(5000).value()) << "NOTIFY tunescope_results_s<id>";
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
    EXPECT_FALSE(other.wait(300).value()) << "another session is not woken by this one's result";
    EXPECT_FALSE(anonymous.wait(0).value());

    // A batch with no session is announced to the connection that queued it, and to nobody else.
    const std::string mine = anonymous.enqueue(std::nullopt, q.task, q.device, { "[]" }, "{}").value();
    EXPECT_EQ(store::WorkQueue::resultsChannel(mine).rfind("tunescope_results_x", 0), 0u) << mine;
    ASSERT_TRUE(worker.wait(5000).value());
    const auto second = worker.claim(id, q.device, 1, 60).value();
    ASSERT_EQ(second.size(), 1u);
    ASSERT_TRUE(worker.complete(id, second[0].id, okResult(1e-3)).value());
    EXPECT_TRUE(anonymous.wait(5000).value());
    EXPECT_FALSE(session.wait(300).value());
    EXPECT_FALSE(other.wait(0).value());
}

TEST(WorkQueue, APruneKeepsOnlyWhatAResumeNeeds)
{
    const Queued q = workspaceWithATask();
    store::Store workspace = openOrDie(q.url);
    const int64_t running
        = workspace.beginSession(store::SessionInfo { .policy = "ansor", .deviceId = q.device }).value();
    const int64_t ended
        = workspace.beginSession(store::SessionInfo { .policy = "ansor", .deviceId = q.device }).value();
    ASSERT_TRUE(workspace.endSession(ended, "finished", 1.7e9));
    store::WorkQueue queue = store::WorkQueue::open(q.url).value();
    const int64_t worker = queue.registerWorker(store::WorkerInfo { 0, "w", "h", 1, q.device }).value();
    std::vector<std::string> batches;
    for (const std::optional<int64_t> session :
        { std::optional<int64_t>(running), std::optional<int64_t>(ended), std::optional<int64_t>() }) {
        batches.push_back(queue.enqueue(session, q.task, q.device, { "[]", "[]" }, "{}").value());
        const auto claimed = queue.claim(worker, q.device, 2, 60).value();
        ASSERT_EQ(claimed.size(), 2u);
        ASSERT_TRUE(queue.complete(worker, claimed[0].id, okResult(1e-3)).value()); // one done, one cancelled
        ASSERT_EQ(queue.cancel(batches.back()).value(), 1);
    }
    const store::Pruned none = queue.prune(3600).value();
    EXPECT_EQ(none.rows, 0) << "nothing is an hour old";
    EXPECT_EQ(none.workers, 0);
    std::this_thread::sleep_for(10ms);
    const store::Pruned all = queue.prune(0).value();
    EXPECT_EQ(all.rows, 5) << "three cancelled rows, the ended session's and the session-less batch's results";
    EXPECT_EQ(all.workers, 1);
    EXPECT_EQ(queue.batchState(batches[0]).value().done, 1) << "a running session's result stays for its resume";
    EXPECT_EQ(queue.batchState(batches[1]).value().done, 0);
    EXPECT_EQ(queue.batchState(batches[2]).value().done, 0);
    EXPECT_TRUE(queue.workers().value().empty());
}

TEST(WorkQueue, AnSqliteWorkspaceHasNoQueue)
{
    auto queue = store::WorkQueue::open("/tmp/some.tunescope");
    ASSERT_FALSE(queue);
    EXPECT_EQ(queue.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(queue.error().message.find("need a PostgreSQL workspace"), std::string::npos);
}

// --- sessions and workers, measuring for real ----------------------------------------------------------------

engine::TuneOptions workerSession(const std::string& url, int trials, uint64_t seed)
{
    engine::TuneOrigin origin;
    origin.op = "matmul";
    origin.shape = "32,32,32";
    auto tasks = engine::buildTasks(origin);
    EXPECT_TRUE(tasks) << tasks.error().message;
    engine::TuneOptions o;
    o.tasks = { engine::TuneTask { "matmul", tasks->at(0).dag, 1, "matmul" } };
    o.origin = origin.toJson();
    o.trials = trials;
    o.measuresPerRound = 8;
    o.seed = seed;
    o.workspace = url;
    o.search.population = 64;
    o.search.sampleInitMinPopulation = 16;
    o.measure.timing.minRepeatMs = 1;
    o.measure.runnerPath = TS_RUNNER_PATH;
    o.remeasureTop = 0;
    o.measureOnWorkers = true;
    o.resume = false; // two sessions at once on one workspace each tune their own budget
    return o;
}

engine::WorkerOptions workerOptions(const std::string& url, const std::string& name)
{
    engine::WorkerOptions w;
    w.workspace = url;
    w.name = name;
    w.claim = 4;
    w.idleWaitMs = 500;
    return w;
}

// Every queued row done once, every record stored once: the queue's done rows and the records agree.
void expectExactlyOnce(const std::string& url, int trials)
{
    store::Store s = openOrDie(url);
    const std::vector<store::Record> records = s.records({}).value();
    EXPECT_EQ(static_cast<int>(records.size()), trials);
    std::set<std::string> steps;
    for (const store::Record& r : records) {
        EXPECT_TRUE(steps.insert(r.steps).second) << "a state stored twice";
        EXPECT_TRUE(r.result.ok()) << r.result.message;
    }
    store::WorkQueue q = store::WorkQueue::open(url).value();
    int64_t measured = 0;
    for (const store::WorkerInfo& w : q.workers().value())
        measured += w.measured;
    EXPECT_EQ(measured, trials) << "each candidate measured once";
}

TEST(Workers, TwoSessionsAndTwoWorkersMeasureEveryCandidateOnce)
{
    const std::string url = PgCluster::shared().createDatabase();
    openOrDie(url);
    std::stop_source stopWorkers;
    std::vector<std::jthread> workers;
    std::vector<engine::WorkerStats> stats(2);
    for (int i = 0; i < 2; ++i)
        workers.emplace_back([&, i] {
            auto done = engine::runWorker(
                workerOptions(url, "w" + std::to_string(i)), stopWorkers.get_token(), [](const std::string&) {});
            ASSERT_TRUE(done) << done.error().message;
            stats[static_cast<size_t>(i)] = *done;
        });
    std::vector<std::jthread> sessions;
    for (uint64_t seed : { 1, 2 })
        sessions.emplace_back([&, seed] {
            engine::TuningSession s(workerSession(url, 16, seed), {});
            auto finished = s.run();
            ASSERT_TRUE(finished) << finished.error().message;
            EXPECT_EQ(finished->totalTrials, 16);
        });
    sessions.clear(); // joined
    stopWorkers.request_stop();
    workers.clear();
    expectExactlyOnce(url, 32);
    EXPECT_EQ(stats[0].measured + stats[1].measured, 32);
    EXPECT_EQ(stats[0].refused + stats[1].refused, 0);
    store::Store s = openOrDie(url);
    for (const store::SessionInfo& session : s.sessions().value())
        EXPECT_NE(session.settings.find("\"measure_on\":\"workers\""), std::string::npos);
}

TEST(Workers, AWorkerKilledMidClaimLosesItsLeaseAndAnotherMeasuresItsCandidates)
{
    const std::string url = PgCluster::shared().createDatabase();
    openOrDie(url);
    // The doomed worker: a real tunescope-worker process with a short lease.
    const std::vector<std::string> args { TS_WORKER_PATH, "--workspace", url, "--name", "doomed", "--claim", "8",
        "--lease", "2" };
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t doomed = 0;
    ASSERT_EQ(::posix_spawn(&doomed, TS_WORKER_PATH, nullptr, nullptr, argv.data(), environ), 0);

    std::jthread session([&] {
        engine::TuningSession s(workerSession(url, 8, 3), {});
        auto finished = s.run();
        ASSERT_TRUE(finished) << finished.error().message;
    });
    // Kill it once it holds the batch.
    bool claimed = false;
    for (int i = 0; i < 300 && !claimed; ++i) {
        std::this_thread::sleep_for(50ms);
        auto workers = store::WorkQueue::open(url).value().workers().value();
        claimed = !workers.empty() && workers[0].state == "measuring";
    }
    ASSERT_TRUE(claimed) << "the worker never claimed the batch";
    ::kill(doomed, SIGKILL);
    int status = 0;
    ::waitpid(doomed, &status, 0);

    std::stop_source stopRescuer;
    engine::WorkerStats rescued;
    std::jthread rescuer([&] {
        auto done
            = engine::runWorker(workerOptions(url, "rescuer"), stopRescuer.get_token(), [](const std::string&) {});
        ASSERT_TRUE(done) << done.error().message;
        rescued = *done;
    });
    session.join();
    stopRescuer.request_stop();
    rescuer.join();
    store::Store s = openOrDie(url);
    const std::vector<store::Record> records = s.records({}).value();
    EXPECT_EQ(records.size(), 8u);
    std::set<std::string> steps;
    for (const store::Record& r : records)
        EXPECT_TRUE(steps.insert(r.steps).second) << "a state stored twice";
    EXPECT_GT(rescued.measured, 0) << "the rescuer measured what the killed worker held";
    EXPECT_EQ(rescued.refused, 0);
}

} // namespace

namespace {

// Runs a program to its end; its exit status and what it printed (stdout and stderr together).
std::pair<int, std::string> runProgram(const std::string& command)
{
    std::string out;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return { -1, "" };
    char buffer[4096];
    while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        out.append(buffer, n);
    const int status = ::pclose(pipe);
    return { WIFEXITED(status) ? WEXITSTATUS(status) : -1, out };
}

TEST(WorkersCli, TuneOnAWorkerProcessThenCopyTheWorkspaceToAFile)
{
    const std::string url = PgCluster::shared().createDatabase();
    openOrDie(url);
    const std::string log = std::filesystem::temp_directory_path() / ("ts_worker_" + std::to_string(::getpid()));
    pid_t worker = 0;
    const std::vector<std::string> args { "/bin/sh", "-c",
        std::string("exec ") + TS_WORKER_PATH + " --workspace " + url + " --name cli-worker > " + log + " 2>&1" };
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ASSERT_EQ(::posix_spawn(&worker, "/bin/sh", nullptr, nullptr, argv.data(), environ), 0);

    const auto [tuned, tuneOut] = runProgram(std::string(TS_CLI_PATH) + " tune --op matmul --shape 32,32,32 "
        + "--trials 16 --measures-per-round 8 --min-repeat-ms 1 --measure-on workers --workspace " + url);
    EXPECT_EQ(tuned, 0) << tuneOut;
    const auto [listed, workersOut] = runProgram(std::string(TS_CLI_PATH) + " workers --workspace " + url);
    EXPECT_EQ(listed, 0) << workersOut;
    EXPECT_NE(workersOut.find("cli-worker"), std::string::npos) << workersOut;
    EXPECT_NE(workersOut.find("16 measured"), std::string::npos) << workersOut;
    const auto [kept, keptOut] = runProgram(std::string(TS_CLI_PATH) + " workers --prune 1 --workspace " + url);
    EXPECT_EQ(kept, 0) << keptOut;
    EXPECT_NE(keptOut.find("pruned 0 finished queue rows and 0 workers not seen for 1 h"), std::string::npos)
        << keptOut;
    const auto [negative, negativeOut]
        = runProgram(std::string(TS_CLI_PATH) + " workers --prune -1 --workspace " + url);
    EXPECT_NE(negative, 0);
    EXPECT_NE(negativeOut.find("--prune"), std::string::npos) << negativeOut;

    ::kill(worker, SIGTERM); // ends after the candidate in flight, cleanly
    int status = 0;
    ::waitpid(worker, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    std::ifstream in(log);
    const std::string workerLog((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(workerLog.find("stopped: 16 measured (0 failed), 0 refused, 0 given back"), std::string::npos)
        << workerLog;
    std::filesystem::remove(log);

    const std::string file
        = std::filesystem::temp_directory_path() / ("ts_copy_" + std::to_string(::getpid()) + ".tunescope");
    std::filesystem::remove(file);
    const auto [copied, copyOut] = runProgram(std::string(TS_CLI_PATH) + " copy-workspace " + url + " " + file);
    EXPECT_EQ(copied, 0) << copyOut;
    EXPECT_NE(copyOut.find("16 records"), std::string::npos) << copyOut;
    EXPECT_NE(copyOut.find("integrity check ok on both"), std::string::npos) << copyOut;
    const auto [again, againOut] = runProgram(std::string(TS_CLI_PATH) + " copy-workspace " + url + " " + file);
    EXPECT_NE(again, 0);
    EXPECT_NE(againOut.find("not empty"), std::string::npos) << againOut;
    std::filesystem::remove(file);
    std::filesystem::remove(file + "-wal");
    std::filesystem::remove(file + "-shm");
}

} // namespace

namespace {

TEST(WorkersCli, ASessionKilledWithABatchInTheQueueResumesFromTheQueueAndTheRecords)
{
    const std::string url = PgCluster::shared().createDatabase();
    openOrDie(url);
    // The session, in its own process: it queues its first batch and waits, since no worker runs yet.
    const std::vector<std::string> args { TS_CLI_PATH, "tune", "--op", "matmul", "--shape", "32,32,32", "--trials",
        "16", "--measures-per-round", "8", "--min-repeat-ms", "1", "--measure-on", "workers", "--workspace", url };
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t tune = 0;
    posix_spawn_file_actions_t quiet;
    ::posix_spawn_file_actions_init(&quiet);
    ::posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    ASSERT_EQ(::posix_spawn(&tune, TS_CLI_PATH, &quiet, nullptr, argv.data(), environ), 0);
    ::posix_spawn_file_actions_destroy(&quiet);
    auto queued = [&] {
        return openOrDie(url).sessions().value().size() == 1
            && store::WorkQueue::open(url).value().workers().value().empty();
    };
    bool waiting = false;
    for (int i = 0; i < 600 && !waiting; ++i) {
        std::this_thread::sleep_for(50ms);
        if (!queued())
            continue;
        // The batch is queued once the session's first round is in the table.
        auto db = store::Connection::openPostgres(url, true).value();
        waiting = db.queryInt("SELECT count(*) FROM measure_queue WHERE state = 'queued'").value() == 8;
    }
    ASSERT_TRUE(waiting) << "the session never queued its first batch";
    ::kill(tune, SIGKILL);
    int status = 0;
    ::waitpid(tune, &status, 0);

    // A worker measures the dead session's batch anyway (it cannot know); the resume takes the results.
    std::stop_source stop;
    std::jthread worker([&] {
        auto done = engine::runWorker(workerOptions(url, "after"), stop.get_token(), [](const std::string&) {});
        ASSERT_TRUE(done) << done.error().message;
    });
    auto db = store::Connection::openPostgres(url, true).value();
    for (int i = 0; i < 600 && db.queryInt("SELECT count(*) FROM measure_queue WHERE state = 'done'").value() < 8; ++i)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(db.queryInt("SELECT count(*) FROM measure_queue WHERE state = 'done'").value(), 8);
    EXPECT_EQ(openOrDie(url).recordCount().value(), 0) << "the dead session stored nothing";

    engine::TuneOptions resume = workerSession(url, 16, 1);
    resume.resume = true;
    resume.measure.layoutRewrite = 1; // as the CLI measured an operator: a resume counts records of its own rewrite
    engine::TuningSession s(resume, {});
    auto finished = s.run();
    ASSERT_TRUE(finished) << finished.error().message;
    EXPECT_EQ(finished->restoredTrials, 8) << "the dead session's batch, recovered from the queue";
    EXPECT_EQ(finished->totalTrials, 8);
    stop.request_stop();
    worker.join();
    const std::vector<store::Record> records = openOrDie(url).records({}).value();
    ASSERT_EQ(records.size(), 16u);
    std::set<std::string> steps;
    int recovered = 0;
    for (const store::Record& r : records) {
        EXPECT_TRUE(steps.insert(r.steps).second) << "a state stored twice";
        recovered += r.extra.find("\"pick\":\"recovered\"") != std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(recovered, 8);
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM measure_queue WHERE state = 'stored'").value(), 8);
    EXPECT_EQ(engine::recoverQueuedResults(*std::make_unique<store::Store>(openOrDie(url)), url).value(), 0)
        << "taken once";
}

} // namespace
