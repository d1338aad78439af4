// The store's contract, run against both backends: an SQLite file and a database on a private PostgreSQL
// server that this test starts (tests/core/pg_cluster.h). The same calls must give the same answers; then
// what only a server has: another application's database, a newer schema, wrong credentials, an unreachable
// host, a connection dropped mid-batch, two writers at once, and copying a workspace both ways.
#include "tests/core/pg_cluster.h"
#include "tests/core/store_fixtures.h"

#include "core/store/importer.h"
#include "core/store/log_export.h"
#include "core/store/store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <thread>

namespace ts::store {
namespace {

    using namespace ts::store::test;

    Record record(int64_t task, int64_t device, double cost, std::optional<int64_t> fingerprint = {},
        record::MeasureStatus status = record::MeasureStatus::Ok)
    {
        Record r;
        r.taskId = task;
        r.deviceId = device;
        r.steps = R"([["SP", 2, 0, 1024, [2, 1, 4], 1], ["AN", 2, 0, 3]])";
        r.stepCount = 2;
        r.result.costs = { cost, cost * 1.01 };
        r.result.status = status;
        r.result.allCost = 0.3;
        r.result.timestamp = 1.7e9;
        r.fingerprint = fingerprint;
        return r;
    }

    struct Seeded {
        int64_t device = 0;
        std::vector<int64_t> tasks;
    };

    Seeded seed(Store& store, int tasks)
    {
        Seeded out;
        Device d;
        d.target = "llvm -keys=cpu -mcpu=znver4";
        d.hardwareParams = HardwareParams { 2, 64, 64, 0, 0, 0, 0, 0 };
        out.device = store.addDevice(d).value();
        for (int i = 0; i < tasks; ++i) {
            TaskInfo t;
            t.key = "[\"synthetic\", " + std::to_string(i) + "]";
            t.name = "synthetic " + std::to_string(i);
            t.flops = 1e6 * (i + 1);
            out.tasks.push_back(store.addTask(t).value());
        }
        return out;
    }

    // A fresh workspace of either backend for each test.
    class StoreBackends : public ::testing::TestWithParam<Backend> {
    protected:
        std::string newWorkspace()
        {
            if (GetParam() == Backend::Sqlite)
                return m_dir.file("ws" + std::to_string(++m_count) + ".tunescope");
            return PgCluster::shared().createDatabase();
        }

        TempDir m_dir;
        int m_count = 0;
    };

    TEST_P(StoreBackends, CreatesAWorkspaceAndOpensItAgain)
    {
        const std::string ws = newWorkspace();
        {
            Store store = openOrDie(ws);
            EXPECT_EQ(store.backend(), GetParam());
            EXPECT_EQ(store.schemaVersion(), kSchemaVersion);
            seed(store, 2);
        }
        Store again = openOrDie(ws);
        EXPECT_EQ(again.tasks().value().size(), 2u);
        EXPECT_TRUE(again.verify());
        OpenOptions readOnly;
        readOnly.readOnly = true;
        Store reader = openOrDie(ws, readOnly);
        EXPECT_EQ(reader.devices().value().size(), 1u);
        EXPECT_FALSE(reader.addTask(TaskInfo { 0, RecordKind::Ansor, "k", "n", "", 0, false })) << "read-only";
    }

    TEST_P(StoreBackends, DevicesTasksAndNetworksAreFoundByIdentity)
    {
        Store store = openOrDie(newWorkspace());
        const Seeded s = seed(store, 3);
        EXPECT_EQ(seed(store, 3).tasks, s.tasks) << "the same identities find the same rows";
        ASSERT_TRUE(store.setDeviceProperty(s.device, "machine_profile", R"({"peak": 233.8})"));
        ASSERT_TRUE(store.setDeviceProperty(s.device, "note", R"("second")"));
        const nlohmann::json properties = nlohmann::json::parse(store.devices().value()[0].properties);
        EXPECT_EQ(properties["machine_profile"]["peak"].get<double>(), 233.8);
        EXPECT_EQ(properties["note"], "second");
        EXPECT_EQ(store.setDeviceProperty(s.device + 99, "x", "1").error().kind, ErrorKind::NotFound);

        NetworkInfo net { 0, "resnet-18", 1, "NHWC", { { s.tasks[2], 3 }, { s.tasks[0], 1 } } };
        const int64_t id = store.addNetwork(net).value();
        net.tasks = { { s.tasks[1], 2 } };
        EXPECT_EQ(store.addNetwork(net).value(), id) << "a network is replaced, not duplicated";
        const std::vector<NetworkInfo> networks = store.networks().value();
        ASSERT_EQ(networks.size(), 1u);
        ASSERT_EQ(networks[0].tasks.size(), 1u);
        EXPECT_EQ(networks[0].tasks[0].taskId, s.tasks[1]);
        EXPECT_EQ(networks[0].tasks[0].weight, 2);
        EXPECT_EQ(store.findTask("[\"synthetic\", 1]").value()->flops, 2e6);
    }

    TEST_P(StoreBackends, SessionsAndCostModelsRoundTrip)
    {
        Store store = openOrDie(newWorkspace());
        const Seeded s = seed(store, 1);
        const int64_t session = store
                                    .beginSession(SessionInfo {
                                        0, "sketch", "xgb", 42, R"({"a":1})", s.device, 1.5, std::nullopt, "running" })
                                    .value();
        ASSERT_TRUE(store.endSession(session, "done", 2.25));
        ASSERT_TRUE(store.setSessionModel(session, "mlp", R"({"switches":[1]})"));
        EXPECT_EQ(store.endSession(session + 5, "done", 3).error().kind, ErrorKind::NotFound);
        const SessionInfo stored = store.sessions().value().at(0);
        EXPECT_EQ(stored.costModel, "mlp");
        EXPECT_EQ(stored.status, "done");
        EXPECT_EQ(stored.endedAt, 2.25);
        EXPECT_EQ(stored.seed, 42);

        std::vector<uint8_t> weights(300);
        for (size_t i = 0; i < weights.size(); ++i)
            weights[i] = static_cast<uint8_t>(i * 7);
        const int64_t model
            = store.saveCostModel(CostModelInfo { 0, "xgb", "m", "{}", R"({"rmse":0.1})", weights, 9.0 }).value();
        const CostModelInfo back = store.costModel(model).value();
        EXPECT_EQ(back.weights, weights) << "bytes 0 and 0x5c (backslash) included";
        EXPECT_EQ(back.trainingSummary, R"({"rmse":0.1})");
        EXPECT_EQ(store.costModel(model + 1).error().kind, ErrorKind::NotFound);
    }

    TEST_P(StoreBackends, RecordsQueriesAnswerAlike)
    {
        Store store = openOrDie(newWorkspace());
        const Seeded s = seed(store, 2);
        std::vector<Record> batch = { record(s.tasks[0], s.device, 3e-3, 11), record(s.tasks[0], s.device, 1e-3, 12),
            record(s.tasks[0], s.device, 0, 13, record::MeasureStatus::RunTimeout),
            record(s.tasks[1], s.device, 0.1 + 0.2, 14), record(s.tasks[0], s.device, 5e-3, 11) };
        batch[2].result.message = "timed out after 10 s";
        batch[1].predictedScore = 0.75;
        batch[1].batchRank = 2;
        EXPECT_EQ(store.addRecords(batch).value(), 4) << "the repeated fingerprint is skipped";
        EXPECT_GT(batch[0].id, 0);
        EXPECT_EQ(batch[4].id, 0);

        const std::vector<Record> best = store.bestRecords(s.tasks[0], s.device, 5).value();
        ASSERT_EQ(best.size(), 2u);
        EXPECT_EQ(best[0].id, batch[1].id);
        EXPECT_EQ(best[0].predictedScore, 0.75);
        EXPECT_EQ(best[0].batchRank, 2);
        EXPECT_EQ(best[0].result.costs, (std::vector<double> { 1e-3, 1e-3 * 1.01 })) << "doubles exactly";

        const std::vector<TaskSummary> summary = store.bestPerTask().value();
        ASSERT_EQ(summary.size(), 2u);
        EXPECT_EQ(summary[0].records, 3);
        EXPECT_EQ(summary[0].failures, 1);
        EXPECT_EQ(summary[0].bestRecordId, batch[1].id);
        const double c = 0.1 + 0.2;
        EXPECT_EQ(summary[1].bestCost, (c + c * 1.01) / 2) << "the mean of the costs, to the last bit";

        const std::vector<HistoryPoint> curve = store.history(s.tasks[0], s.device).value();
        ASSERT_EQ(curve.size(), 3u);
        EXPECT_EQ(curve[2].status, record::MeasureStatus::RunTimeout);

        RecordFilter failed;
        failed.failedOnly = true;
        const std::vector<Record> failures = store.records(failed).value();
        ASSERT_EQ(failures.size(), 1u);
        EXPECT_EQ(failures[0].result.message, "timed out after 10 s");
        RecordFilter task0;
        task0.taskIds = { s.tasks[0] };
        task0.okOnly = true;
        EXPECT_EQ(store.recordCount(task0).value(), 2);
        const std::map<int, int64_t> counts = store.statusCounts({}).value();
        EXPECT_EQ(counts.at(0), 3);
        EXPECT_EQ(counts.at(record::toInt(record::MeasureStatus::RunTimeout)), 1);
        const std::vector<Record> page = store.recordPage({}, batch[0].id, 2).value();
        ASSERT_EQ(page.size(), 2u);
        EXPECT_EQ(page[0].id, batch[1].id);
        EXPECT_EQ(store.recordCount().value(), 4);
        EXPECT_TRUE(store.verify());
    }

    TEST_P(StoreBackends, ABatchIsOneTransaction)
    {
        Store store = openOrDie(newWorkspace());
        const Seeded s = seed(store, 1);
        {
            Transaction t = store.begin().value();
            std::vector<Record> batch = { record(s.tasks[0], s.device, 1e-3), record(s.tasks[0], s.device, 2e-3) };
            ASSERT_EQ(store.addRecords(batch).value(), 2);
        } // rolled back
        EXPECT_EQ(store.recordCount().value(), 0);
        EXPECT_TRUE(store.bestPerTask().value().empty()) << "the summary rolled back with the records";
    }

    TEST_P(StoreBackends, StreamsMoreRecordsThanAPage)
    {
        Store store = openOrDie(newWorkspace());
        const Seeded s = seed(store, 1);
        std::vector<Record> batch;
        for (int i = 0; i < 5000; ++i)
            batch.push_back(record(s.tasks[0], s.device, 1e-3 * (1 + i % 97)));
        ASSERT_EQ(store.addRecords(batch).value(), 5000);
        int64_t seen = 0;
        int64_t last = 0;
        ASSERT_TRUE(store.forEachRecord({}, [&](const Record& r) {
            EXPECT_GT(r.id, last);
            last = r.id;
            return ++seen < 4500;
        }));
        EXPECT_EQ(seen, 4500) << "visit returning false stops the stream";
        EXPECT_EQ(store.records({}).value().size(), 5000u);
    }

    TEST_P(StoreBackends, TwoWritersAtOnceLoseNothing)
    {
        const std::string ws = newWorkspace();
        Seeded s;
        {
            Store store = openOrDie(ws);
            s = seed(store, 1);
        }
        auto writer = [&](int which) {
            Store store = openOrDie(ws);
            for (int b = 0; b < 20; ++b) {
                std::vector<Record> batch;
                for (int i = 0; i < 25; ++i)
                    batch.push_back(record(s.tasks[0], s.device, 1e-3 * (1 + i), which * 100000 + b * 100 + i));
                ASSERT_EQ(store.addRecords(batch).value(), 25);
            }
        };
        std::thread a(writer, 1);
        std::thread b(writer, 2);
        a.join();
        b.join();
        Store store = openOrDie(ws);
        EXPECT_EQ(store.recordCount().value(), 1000);
        EXPECT_EQ(store.bestPerTask().value().at(0).records, 1000);
        EXPECT_TRUE(store.verify());
    }

    TEST_P(StoreBackends, ImportsAndExportsATvmLog)
    {
        Store store = openOrDie(newWorkspace());
        const ImportReport report = importLog(store, (kLogs / "matmul.json").string()).value();
        EXPECT_GT(report.added, 0);
        EXPECT_EQ(store.recordCount().value(), report.added);
        EXPECT_EQ(importLog(store, (kLogs / "matmul.json").string()).value().added, 0) << "imported once";
        const std::string out = m_dir.file("out.json");
        {
            std::ofstream file(out);
            EXPECT_EQ(exportLog(store, {}, file).value(), report.added);
        }
        Store other = openOrDie(m_dir.file("other.tunescope"));
        EXPECT_EQ(importLog(other, out).value().added, report.added);
    }

    INSTANTIATE_TEST_SUITE_P(Both, StoreBackends, ::testing::Values(Backend::Sqlite, Backend::Postgres),
        [](const ::testing::TestParamInfo<Backend>& info) {
            return std::string(info.param == Backend::Sqlite ? "Sqlite" : "Postgres");
        });

    // --- what only a server has -----------------------------------------------------------------------------

    TEST(PostgresStore, ADatabaseOfAnotherApplicationIsNotTouched)
    {
        PgCluster& pg = PgCluster::shared();
        const std::string url = pg.createDatabase();
        pg.execOn(url, "CREATE TABLE invoices (id INT); INSERT INTO invoices VALUES (7)");
        auto store = Store::open(url);
        ASSERT_FALSE(store);
        EXPECT_NE(store.error().message.find("not a TuneScope workspace (its schema holds 1 tables"), std::string::npos)
            << store.error().message;
        EXPECT_NE(store.error().message.find(url), std::string::npos) << "the message names the database";
    }

    TEST(PostgresStore, ANewerSchemaIsRefused)
    {
        PgCluster& pg = PgCluster::shared();
        const std::string url = pg.createDatabase();
        openOrDie(url);
        pg.execOn(url, "UPDATE tunescope_workspace SET schema_version = 99");
        auto store = Store::open(url);
        ASSERT_FALSE(store);
        EXPECT_EQ(store.error().kind, ErrorKind::Unsupported);
        EXPECT_NE(store.error().message.find("schema version 99"), std::string::npos);
    }

    TEST(PostgresStore, WrongCredentialsAndAnUnreachableServerAreClearErrors)
    {
        PgCluster& pg = PgCluster::shared();
        const std::string url = pg.createDatabase();
        const std::string wrong = "postgresql://tunescope:hunter2-wrong@127.0.0.1:" + std::to_string(pg.port())
            + url.substr(url.rfind('/'));
        auto denied = Store::open(wrong);
        ASSERT_FALSE(denied);
        EXPECT_NE(denied.error().message.find("password authentication failed"), std::string::npos)
            << denied.error().message;
        EXPECT_EQ(denied.error().message.find("hunter2"), std::string::npos) << "no password in messages";
        EXPECT_EQ(redactedUrl("postgresql://u:secret@h:5/db?sslmode=require&password=x"),
            "postgresql://u@h:5/db?sslmode=require");

        auto unreachable = Store::open("postgresql://tunescope@127.0.0.1:1/db?connect_timeout=3");
        ASSERT_FALSE(unreachable);
        EXPECT_NE(unreachable.error().message.find("cannot connect"), std::string::npos);
        EXPECT_NE(unreachable.error().message.find("Connection refused"), std::string::npos)
            << unreachable.error().message;

        OpenOptions readOnly;
        readOnly.readOnly = true;
        EXPECT_EQ(Store::open(pg.createDatabase(), readOnly).error().kind, ErrorKind::NotFound);
    }

    TEST(PostgresStore, ADroppedConnectionLosesOnlyTheBatchInFlight)
    {
        PgCluster& pg = PgCluster::shared();
        const std::string url = pg.createDatabase();
        Store store = openOrDie(url);
        const Seeded s = seed(store, 1);
        std::vector<Record> first = { record(s.tasks[0], s.device, 1e-3, 1) };
        ASSERT_EQ(store.addRecords(first).value(), 1);
        {
            Transaction t = store.begin().value();
            std::vector<Record> batch = { record(s.tasks[0], s.device, 2e-3, 2) };
            ASSERT_EQ(store.addRecords(batch).value(), 1);
            // The server ends this session's backend, as a restart or a network cut would.
            pg.execOn(url.substr(0, url.rfind('/')) + "/postgres",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                    + url.substr(url.rfind('/') + 1) + "' AND pid <> pg_backend_pid()");
            std::vector<Record> more = { record(s.tasks[0], s.device, 3e-3, 3) };
            auto lost = store.addRecords(more);
            ASSERT_FALSE(lost);
            EXPECT_NE(lost.error().message.find("connection"), std::string::npos) << lost.error().message;
        }
        // The next batch, outside the dead transaction, reconnects and prepares its statements again.
        std::vector<Record> after = { record(s.tasks[0], s.device, 4e-3, 4) };
        ASSERT_EQ(store.addRecords(after).value(), 1);
        Store check = openOrDie(url);
        EXPECT_EQ(check.recordCount().value(), 2) << "the first batch and the one after; the cut batch is gone";
        EXPECT_TRUE(check.verify());
    }

    TEST(PostgresStore, CopiesAWorkspaceBothWaysWithItsIds)
    {
        PgCluster& pg = PgCluster::shared();
        TempDir dir;
        Store sqlite = openOrDie(dir.file("a.tunescope"));
        importLog(sqlite, (kLogs / "matmul.json").string()).value();
        const Seeded s = seed(sqlite, 2);
        const int64_t session
            = sqlite.beginSession(SessionInfo { 0, "sketch", "xgb", 1, "{}", s.device, 1.0, std::nullopt, "done" })
                  .value();
        std::vector<Record> batch = { record(s.tasks[1], s.device, 1e-3, 77) };
        batch[0].sessionId = session;
        sqlite.addRecords(batch).value();
        sqlite.saveCostModel(CostModelInfo { 0, "xgb", "m", "{}", "{}", { 0, 1, 92, 255 }, 2.0 }).value();

        Store server = openOrDie(pg.createDatabase());
        const auto copied = server.copyFrom(sqlite).value();
        EXPECT_EQ(copied.back().first, "records");
        EXPECT_EQ(copied.back().second, sqlite.recordCount().value());
        EXPECT_TRUE(server.verify());
        EXPECT_EQ(server.records({}).value().back().id, batch[0].id) << "ids kept";
        EXPECT_EQ(server.bestPerTask().value().size(), sqlite.bestPerTask().value().size());
        EXPECT_EQ(server.costModel(1).value().weights, (std::vector<uint8_t> { 0, 1, 92, 255 }));
        std::vector<Record> next = { record(s.tasks[1], s.device, 2e-3, 78) };
        ASSERT_EQ(server.addRecords(next).value(), 1);
        EXPECT_EQ(next[0].id, batch[0].id + 1) << "the identity continues after the copied ids";

        Store back = openOrDie(dir.file("b.tunescope"));
        back.copyFrom(server).value();
        EXPECT_EQ(back.recordCount().value(), sqlite.recordCount().value() + 1);
        EXPECT_TRUE(back.verify());
        auto again = back.copyFrom(server);
        ASSERT_FALSE(again);
        EXPECT_NE(again.error().message.find("not empty"), std::string::npos);
    }

} // namespace
} // namespace ts::store
