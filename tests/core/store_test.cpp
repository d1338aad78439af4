// The workspace store on real SQLite files: schema and migrations, queries, concurrency, damage, a process
// killed mid-batch; TVM log import and export against the real logs in tests/data/tvm-logs.
#include "tests/core/store_fixtures.h"
#include "tests/core/store_test_access.h"

#include "core/graph/workload_registry.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/store/importer.h"
#include "core/store/log_export.h"
#include "core/store/network_match.h"
#include "core/store/store.h"
#include "core/support/strings.h"
#include "core/target/host_cpu.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ts::store {
namespace {

    using namespace ts::store::test;
    using Json = nlohmann::json;

    // A line of the matmul log with another timestamp: a distinct record of a rebuildable task.
    std::string matmulLine(int64_t timestamp, double cost = 0.0044742, int errorNo = 0)
    {
        std::string line = split(readAll((kLogs / "matmul.json").string()), '\n')[1];
        Json json = Json::parse(line);
        json["r"][0] = Json::array({ cost });
        json["r"][1] = errorNo;
        json["r"][3] = timestamp;
        return json.dump();
    }

    Record syntheticRecord(
        int64_t task, int64_t device, double cost, record::MeasureStatus status = record::MeasureStatus::Ok)
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
        return r;
    }

    // A store with `tasks` tasks on one device, ids returned.
    std::pair<std::vector<int64_t>, int64_t> seed(Store& store, int tasks)
    {
        Device d;
        d.target = "llvm -keys=cpu -mcpu=znver3";
        d.hardwareParams = HardwareParams { 2, 64, 64, 0, 0, 0, 0, 0 };
        const int64_t device = store.addDevice(d).value();
        std::vector<int64_t> ids;
        for (int i = 0; i < tasks; ++i) {
            TaskInfo t;
            t.key = "[\"synthetic\", " + std::to_string(i) + "]";
            t.name = "synthetic " + std::to_string(i);
            ids.push_back(store.addTask(t).value());
        }
        return { ids, device };
    }

    // --- the store -------------------------------------------------------------------------------------------

    TEST(Store, CreatesAVersionedWalWorkspace)
    {
        TempDir dir;
        const std::string path = dir.file("sub/folder/w.tunescope");
        Store store = openOrDie(path);
        EXPECT_EQ(store.schemaVersion(), kSchemaVersion);
        EXPECT_EQ(testConnection(store).queryInt("PRAGMA user_version").value(), kSchemaVersion);
        EXPECT_EQ(testConnection(store).queryInt("PRAGMA application_id").value(), kApplicationId);
        EXPECT_EQ(testConnection(store).queryInt("PRAGMA foreign_keys").value(), 1);
        auto mode = testConnection(store).prepare("PRAGMA journal_mode").value();
        ASSERT_TRUE(mode.step().value());
        EXPECT_EQ(mode.getText(0), "wal");
        EXPECT_TRUE(store.verify());
    }

    TEST(Store, DevicesAndTasksAreFoundByIdentity)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        Device cpu;
        cpu.target = "llvm -keys=cpu -mcpu=core-avx2";
        const int64_t a = store.addDevice(cpu).value();
        EXPECT_EQ(store.addDevice(cpu).value(), a);
        cpu.hardwareParams = HardwareParams { 8, 32, 64, 0, 0, 0, 0, 0 };
        EXPECT_NE(store.addDevice(cpu).value(), a); // other hardware params, other device
        const auto devices = store.devices().value();
        ASSERT_EQ(devices.size(), 2u);
        EXPECT_EQ(devices[0].kind, "cpu");
        EXPECT_EQ(devices[0].name, "cpu core-avx2");
        EXPECT_EQ(devices[1].hardwareParams, cpu.hardwareParams);
        EXPECT_EQ(deviceNameOf("cuda -keys=cuda,gpu -arch=sm_86 -max_num_threads=1024"), "cuda sm_86");
        EXPECT_EQ(deviceKindOf("cuda -keys=cuda,gpu"), "gpu");

        TaskInfo t;
        t.key = "[\"matmul_add\", 8, 8, 8, \"float32\"]";
        t.name = "matmul_add";
        const int64_t id = store.addTask(t).value();
        EXPECT_EQ(store.addTask(t).value(), id);
        EXPECT_EQ(store.findTask(t.key).value()->id, id);
        EXPECT_FALSE(store.findTask("[\"nothing\"]").value().has_value());
        // A foreign key that points nowhere is refused, not stored.
        Record orphan = syntheticRecord(999, 999, 1e-3);
        EXPECT_FALSE(store.addRecords(std::span(&orphan, 1)));
        EXPECT_EQ(store.recordCount().value(), 0);
    }

    TEST(Store, TheHostDeviceRecordsItsCpuAndKeepsItUnderAnotherLlvmsName)
    {
        // The host's row says what LLVM called the CPU, the name chosen and the CPUID signature.
        const Device host = deviceOf(target::Target::host());
        const nlohmann::json cpu = nlohmann::json::parse(host.properties)["cpu"];
        EXPECT_EQ(cpu["name"], target::Target::host().cpuName);
        EXPECT_EQ(cpu["llvm_name"], target::hostCpuName().llvmName);
        EXPECT_EQ(cpu["vendor"], target::hostCpuId().vendor);
        EXPECT_EQ(cpu["family"], target::hostCpuId().family);

        // A Zen 5 recorded under LLVM 15's closest model, then met by an LLVM that knows it: one device.
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        Device before;
        before.target = "llvm -keys=cpu -mattr=+avx512f,+avx2 -mcpu=znver3 -num-cores=2";
        before.hardwareParams = HardwareParams { 2, 64, 64, 0, 0, 0, 0, 0 };
        before.properties = R"({"cpu": {"llvm_name": "generic", "name": "znver3", "rule": "vendor-model",
            "vendor": "AuthenticAMD", "family": 26, "model": 2}})";
        const int64_t id = store.addDevice(before).value();
        Device later = before;
        later.target = "llvm -keys=cpu -mattr=+avx512f,+avx2 -mcpu=znver5 -num-cores=2";
        later.properties = R"({"cpu": {"llvm_name": "znver5", "name": "znver5", "rule": "llvm",
            "vendor": "AuthenticAMD", "family": 26, "model": 2}})";
        EXPECT_EQ(store.addDevice(later).value(), id);
        EXPECT_TRUE(sameCpu(store.devices().value()[0], later));
        // Another model number, other features or another name without a signature: other devices.
        Device otherModel = later;
        otherModel.properties = R"({"cpu": {"vendor": "AuthenticAMD", "family": 26, "model": 68}})";
        EXPECT_NE(store.addDevice(otherModel).value(), id);
        Device otherFeatures = later;
        otherFeatures.target = "llvm -keys=cpu -mattr=+avx2 -mcpu=znver5 -num-cores=2";
        EXPECT_NE(store.addDevice(otherFeatures).value(), id);
        Device unsigned_ = later;
        unsigned_.target = "llvm -keys=cpu -mattr=+avx512f,+avx2 -mcpu=znver4 -num-cores=2";
        unsigned_.properties = "{}";
        EXPECT_NE(store.addDevice(unsigned_).value(), id);
        EXPECT_EQ(store.devices().value().size(), 4u);
    }

    TEST(Store, ADeviceGivesTheTargetItsRecordsWereMeasuredFor)
    {
        Device cpu;
        cpu.name = "cpu core-avx2";
        cpu.target = "llvm -keys=cpu -mcpu=core-avx2";
        cpu.hardwareParams = HardwareParams { 8, 32, 64, 0, 0, 0, 0, 0 };
        const target::Target t = targetOf(cpu).value();
        EXPECT_EQ(t.kind, target::TargetKind::Cpu);
        EXPECT_EQ(t.cpuName, "core-avx2");
        EXPECT_EQ(t.cores, 8);
        EXPECT_EQ(t.vectorBytes, 32);

        Device gpu; // resnet-18-NHWC-B1-cuda.json's device
        gpu.name = "cuda sm_86";
        gpu.target = "cuda -keys=cuda,gpu -arch=sm_86 -max_num_threads=1024 -thread_warp_size=32";
        gpu.hardwareParams = HardwareParams { -1, 16, 64, 49152, 2147483647, 1024, 8, 32 };
        const target::Target g = targetOf(gpu).value();
        EXPECT_EQ(g.kind, target::TargetKind::Cuda);
        EXPECT_EQ(g.arch, "sm_86");
        EXPECT_EQ(g.maxThreadsPerBlock, 1024);
        EXPECT_EQ(g.maxSharedMemoryPerBlock, 49152);
        EXPECT_EQ(g.warpSize, 32);

        Device other;
        other.name = "opencl";
        other.target = "opencl -device=mali";
        const auto refused = targetOf(other);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().message.rfind("device opencl: ", 0), 0u) << refused.error().message;
    }

    TEST(Store, QueriesAnswerWhatTheProductAsks)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        auto [tasks, device] = seed(store, 3);
        const int64_t session
            = store.beginSession({ 0, "ansor", "xgboost", 42, "{}", device, 1.7e9, {}, "running" }).value();
        std::vector<Record> batch;
        // Task 0: costs 5, 3, fail, 1, 4 ms in trial order; task 1: 2 ms, one failure; task 2: only failures.
        for (double c : { 5e-3, 3e-3 })
            batch.push_back(syntheticRecord(tasks[0], device, c));
        batch.push_back(syntheticRecord(tasks[0], device, 0, record::MeasureStatus::RuntimeDeviceError));
        for (double c : { 1e-3, 4e-3 })
            batch.push_back(syntheticRecord(tasks[0], device, c));
        batch.push_back(syntheticRecord(tasks[1], device, 2e-3));
        batch.push_back(syntheticRecord(tasks[1], device, 0, record::MeasureStatus::RunTimeout));
        batch.push_back(syntheticRecord(tasks[2], device, 0, record::MeasureStatus::WrongAnswer));
        for (Record& r : batch)
            r.sessionId = session;
        EXPECT_EQ(store.addRecords(batch).value(), 8);
        ASSERT_TRUE(store.endSession(session, "finished", 1.7e9 + 60));

        const auto best = store.bestRecords(tasks[0], device, 3).value();
        ASSERT_EQ(best.size(), 3u);
        EXPECT_DOUBLE_EQ(best[0].result.costs[0], 1e-3);
        EXPECT_DOUBLE_EQ(best[1].result.costs[0], 3e-3);
        EXPECT_DOUBLE_EQ(best[2].result.costs[0], 4e-3);
        EXPECT_EQ(best[0].steps, batch[0].steps);
        EXPECT_EQ(best[0].sessionId, session);

        const auto history = store.history(tasks[0], device).value();
        ASSERT_EQ(history.size(), 5u);
        EXPECT_EQ(history[2].status, record::MeasureStatus::RuntimeDeviceError);
        EXPECT_DOUBLE_EQ(history[2].meanCost, 1e10);
        for (size_t i = 1; i < history.size(); ++i)
            EXPECT_LT(history[i - 1].recordId, history[i].recordId);

        const auto summary = store.bestPerTask().value();
        ASSERT_EQ(summary.size(), 3u);
        EXPECT_EQ(summary[0].records, 5);
        EXPECT_EQ(summary[0].failures, 1);
        EXPECT_NEAR(*summary[0].bestCost, 1.005e-3, 1e-12);
        EXPECT_EQ(*summary[0].bestRecordId, best[0].id);
        EXPECT_EQ(summary[2].failures, 1);
        EXPECT_FALSE(summary[2].bestCost.has_value());

        const auto counts = store.statusCounts({}).value();
        EXPECT_EQ(counts.at(0), 5);
        EXPECT_EQ(counts.at(4), 1);
        EXPECT_EQ(counts.at(5), 1);
        EXPECT_EQ(counts.at(7), 1);
        RecordFilter training;
        training.taskIds = { tasks[0], tasks[1] };
        training.okOnly = true;
        EXPECT_EQ(store.records(training).value().size(), 5u);
        RecordFilter bySession;
        bySession.sessionId = session;
        EXPECT_EQ(store.records(bySession).value().size(), 8u);
        EXPECT_EQ(store.sessions().value().at(0).status, "finished");

        // Deleting the best record moves "best" to the next one (the triggers keep the summary true).
        ASSERT_TRUE(testConnection(store).exec("DELETE FROM records WHERE id = " + std::to_string(best[0].id)));
        const auto after = store.bestPerTask().value();
        EXPECT_EQ(after[0].records, 4);
        EXPECT_EQ(*after[0].bestRecordId, best[1].id);
    }

    TEST(Store, NetworksAndCostModelsRoundTrip)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        auto [tasks, device] = seed(store, 2);
        NetworkInfo net { 0, "resnet-18", 1, "NHWC", { { tasks[0], 4 }, { tasks[1], 1 } } };
        const int64_t id = store.addNetwork(net).value();
        EXPECT_EQ(store.addNetwork(net).value(), id);
        const auto networks = store.networks().value();
        ASSERT_EQ(networks.size(), 1u);
        EXPECT_EQ(networks[0].tasks.size(), 2u);
        EXPECT_EQ(networks[0].tasks[0].weight, 4);

        CostModelInfo model { 0, "xgboost", "xgb on 2 tasks", "{\"max_depth\": 6}", "{\"records\": 10}",
            { 0, 1, 2, 255, 0 }, 1.7e9 };
        const int64_t modelId = store.saveCostModel(model).value();
        const CostModelInfo loaded = store.costModel(modelId).value();
        EXPECT_EQ(loaded.weights, model.weights);
        EXPECT_EQ(loaded.settings, model.settings);
        Record predicted = syntheticRecord(tasks[0], device, 1e-3);
        predicted.predictedScore = 0.75;
        predicted.predictedBy = modelId;
        predicted.batchRank = 3;
        ASSERT_TRUE(store.addRecords(std::span(&predicted, 1)));
        const Record back = store.records({}).value().at(0);
        EXPECT_EQ(back.predictedScore, 0.75);
        EXPECT_EQ(back.predictedBy, modelId);
        EXPECT_EQ(back.batchRank, 3);
        EXPECT_FALSE(store.costModel(modelId + 1));
    }

    // --- versions and damage ---------------------------------------------------------------------------------

    TEST(Store, MigratesTheFirstSchemaForward)
    {
        TempDir dir;
        const std::string path = dir.file("old.tunescope");
        {
            OpenOptions v1;
            v1.schemaVersion = 1;
            Store old = openOrDie(path, v1);
            EXPECT_EQ(old.schemaVersion(), 1);
            EXPECT_EQ(importOrDie(old, (kLogs / "matmul.json").string()).added, 1);
            EXPECT_FALSE(old.saveCostModel({})); // version 1 has no cost models
        }
        Store store = openOrDie(path);
        EXPECT_EQ(store.schemaVersion(), kSchemaVersion);
        EXPECT_EQ(testConnection(store).queryInt("PRAGMA user_version").value(), kSchemaVersion);
        const auto records = store.records({}).value();
        ASSERT_EQ(records.size(), 1u);
        EXPECT_EQ(records[0].stepCount, 13);
        EXPECT_FALSE(records[0].predictedScore.has_value());
        EXPECT_TRUE(store.saveCostModel({ 0, "random", "r", "{}", "{}", {}, 0 }));
        EXPECT_TRUE(store.verify());
    }

    TEST(Store, AFailedRecordKeepsItsMessage)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        auto [tasks, device] = seed(store, 1);
        std::vector<Record> batch = { syntheticRecord(tasks[0], device, 1e-3),
            syntheticRecord(tasks[0], device, record::kFailedCost, record::MeasureStatus::CompileHostError) };
        batch[1].result.message = "LLVM: invalid vector width 3 in stage C";
        ASSERT_EQ(store.addRecords(batch).value(), 2);
        const auto back = store.records({}).value();
        ASSERT_EQ(back.size(), 2u);
        EXPECT_EQ(back[0].result.message, "");
        EXPECT_EQ(back[1].result.message, "LLVM: invalid vector width 3 in stage C");
        EXPECT_EQ(back[1].result.status, record::MeasureStatus::CompileHostError);
        EXPECT_TRUE(testConnection(store).queryInt("SELECT count(*) FROM records WHERE message IS NULL").value() == 1);
        // Every record query reads it: pages and streams too.
        EXPECT_EQ(store.recordPage({}, back[0].id, 10).value().at(0).result.message, batch[1].result.message);
        // A TVM log carries no message: export writes the same line whether or not one is stored.
        TaskInfo task = store.tasks().value().at(0);
        const auto line = toLogRecord(back[1], task, store.devices().value().at(0));
        ASSERT_TRUE(line);
        EXPECT_EQ(formatLogLine(*line).find("LLVM"), std::string::npos);
    }

    TEST(Store, MigratesAVersion2WorkspaceAndItsRecords)
    {
        TempDir dir;
        const std::string path = dir.file("v2.tunescope");
        int64_t task = 0;
        int64_t device = 0;
        {
            OpenOptions v2;
            v2.schemaVersion = 2;
            Store old = openOrDie(path, v2);
            EXPECT_EQ(old.schemaVersion(), 2);
            const auto seeded = seed(old, 1);
            task = seeded.first.at(0);
            device = seeded.second;
            Record failed = syntheticRecord(task, device, record::kFailedCost, record::MeasureStatus::RunTimeout);
            failed.result.message = "not kept by version 2";
            failed.batchRank = 1;
            ASSERT_EQ(old.addRecords(std::span(&failed, 1)).value(), 1);
            EXPECT_EQ(old.records({}).value().at(0).result.message, "");
        }
        Store store = openOrDie(path);
        EXPECT_EQ(store.schemaVersion(), 3);
        EXPECT_EQ(testConnection(store).queryInt("PRAGMA user_version").value(), 3);
        auto records = store.records({}).value();
        ASSERT_EQ(records.size(), 1u);
        EXPECT_EQ(records[0].result.status, record::MeasureStatus::RunTimeout);
        EXPECT_EQ(records[0].batchRank, 1);
        EXPECT_EQ(records[0].result.message, "");
        Record next = syntheticRecord(task, device, record::kFailedCost, record::MeasureStatus::WrongAnswer);
        next.result.message = "C[3, 7] = 1.5, expected 2.25";
        ASSERT_EQ(store.addRecords(std::span(&next, 1)).value(), 1);
        EXPECT_EQ(store.records({}).value().at(1).result.message, "C[3, 7] = 1.5, expected 2.25");
        EXPECT_TRUE(store.verify());
    }

    TEST(Store, RecordPagesFollowTheIdsOfAFilter)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        auto [tasks, device] = seed(store, 2);
        const int64_t session
            = store.beginSession({ 0, "ansor", "random", 1, "{}", device, 1.7e9, {}, "running" }).value();
        std::vector<Record> batch;
        for (int i = 0; i < 25; ++i) {
            Record r = syntheticRecord(tasks[static_cast<size_t>(i % 2)], device, 1e-3 * (i + 1),
                i % 5 == 4 ? record::MeasureStatus::RunTimeout : record::MeasureStatus::Ok);
            r.result.timestamp += i; // distinct
            if (i >= 10)
                r.sessionId = session;
            batch.push_back(r);
        }
        ASSERT_EQ(store.addRecords(batch).value(), 25);
        // All records, in pages of 10: 10, 10, 5, then none.
        std::vector<int64_t> ids;
        int64_t after = 0;
        for (int page = 0;; ++page) {
            const auto rows = store.recordPage({}, after, 10).value();
            if (rows.empty())
                break;
            EXPECT_LE(rows.size(), 10u);
            for (const Record& r : rows)
                ids.push_back(r.id);
            after = rows.back().id;
            ASSERT_LT(page, 5);
        }
        ASSERT_EQ(ids.size(), 25u);
        for (size_t i = 0; i < ids.size(); ++i)
            EXPECT_EQ(ids[i], batch[i].id);
        // Failures of the session: records 14, 19, 24.
        RecordFilter failures;
        failures.sessionId = session;
        failures.failedOnly = true;
        const auto failed = store.recordPage(failures, 0, 2).value();
        ASSERT_EQ(failed.size(), 2u);
        EXPECT_EQ(failed[0].id, batch[14].id);
        EXPECT_EQ(failed[1].id, batch[19].id);
        const auto rest = store.recordPage(failures, failed[1].id, 2).value();
        ASSERT_EQ(rest.size(), 1u);
        EXPECT_EQ(rest[0].id, batch[24].id);
        EXPECT_EQ(store.recordCount(failures).value(), 3);
        RecordFilter all;
        EXPECT_EQ(store.recordCount(all).value(), 25);
        RecordFilter ok;
        ok.okOnly = true;
        EXPECT_EQ(store.recordCount(ok).value(), 20);
        // The page query walks the primary key, not a sort.
        auto plan = testConnection(store).prepare(
            "EXPLAIN QUERY PLAN SELECT id FROM records WHERE id > 5 ORDER BY id LIMIT 10");
        ASSERT_TRUE(plan);
        ASSERT_TRUE(plan->step().value());
        EXPECT_EQ(plan->getText(3).find("TEMP B-TREE"), std::string::npos) << plan->getText(3);
    }

    TEST(Store, RefusesANewerSchemaAndLeavesItUntouched)
    {
        TempDir dir;
        const std::string path = dir.file("new.tunescope");
        {
            Store store = openOrDie(path);
            ASSERT_TRUE(testConnection(store).exec("PRAGMA user_version = 99"));
        }
        const std::string before = readAll(path);
        auto opened = Store::open(path);
        ASSERT_FALSE(opened);
        EXPECT_NE(opened.error().message.find(path), std::string::npos);
        EXPECT_NE(opened.error().message.find("newer TuneScope (schema version 99"), std::string::npos)
            << opened.error().message;
        EXPECT_EQ(readAll(path), before);
    }

    TEST(Store, ReportsFilesThatAreNotWorkspaces)
    {
        TempDir dir;
        // Binary garbage.
        const std::string garbage = dir.file("garbage.tunescope");
        std::string bytes(8192, '\0');
        for (size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
        writeAll(garbage, bytes);
        auto opened = Store::open(garbage);
        ASSERT_FALSE(opened);
        EXPECT_NE(opened.error().message.find(garbage), std::string::npos);
        EXPECT_NE(opened.error().message.find("file is not a database"), std::string::npos) << opened.error().message;
        EXPECT_EQ(readAll(garbage), bytes);

        // Another program's SQLite database.
        const std::string other = dir.file("other.sqlite");
        {
            auto db = Connection::open(other, Connection::Mode::ReadWriteCreate).value();
            ASSERT_TRUE(db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')"));
        }
        const std::string otherBytes = readAll(other);
        opened = Store::open(other);
        ASSERT_FALSE(opened);
        EXPECT_NE(opened.error().message.find("not a TuneScope workspace"), std::string::npos)
            << opened.error().message;
        EXPECT_EQ(readAll(other), otherBytes);

        // A directory, and a read-only open of a missing file.
        EXPECT_FALSE(Store::open(dir.file("")));
        OpenOptions readOnly;
        readOnly.readOnly = true;
        EXPECT_FALSE(Store::open(dir.file("missing.tunescope"), readOnly));
        EXPECT_FALSE(fs::exists(dir.file("missing.tunescope")));
    }

    TEST(Statement, BindAllBindsItsValuesToParametersInOrder)
    {
        TempDir dir;
        auto db = Connection::open(dir.file("bind.sqlite"), Connection::Mode::ReadWriteCreate).value();
        ASSERT_TRUE(db.exec("CREATE TABLE t (a INTEGER, b TEXT, c REAL, d INTEGER)"));
        auto insert = db.prepare("INSERT INTO t VALUES (?, ?, ?, ?)").value();
        insert.bindAll(int64_t { 7 }, std::string("seven"), 0.5, std::optional<int64_t>());
        ASSERT_TRUE(insert.run());
        auto select = db.prepare("SELECT a, b, c, d FROM t").value();
        ASSERT_TRUE(select.step().value());
        EXPECT_EQ(select.getInt(0), 7);
        EXPECT_EQ(select.getText(1), "seven");
        EXPECT_EQ(select.getDouble(2), 0.5);
        EXPECT_TRUE(select.isNull(3));
    }

    TEST(Store, DetectsADamagedWorkspaceAndLeavesItUntouched)
    {
        TempDir dir;
        const std::string path = dir.file("damaged.tunescope");
        {
            Store store = openOrDie(path);
            auto [tasks, device] = seed(store, 4);
            std::vector<Record> batch;
            for (int i = 0; i < 4000; ++i)
                batch.push_back(syntheticRecord(tasks[i % 4], device, 1e-3 * (1 + i % 17)));
            ASSERT_TRUE(store.addRecords(batch));
            ASSERT_TRUE(testConnection(store).exec("PRAGMA wal_checkpoint(TRUNCATE)"));
        }
        std::string bytes = readAll(path);
        ASSERT_GT(bytes.size(), 64u * 1024u);
        // Scribble over pages in the middle of the file (the header stays intact).
        for (size_t i = bytes.size() / 3; i < bytes.size() / 3 + 16384; ++i)
            bytes[i] = static_cast<char>(0xA5);
        writeAll(path, bytes);
        auto store = Store::open(path);
        std::string message;
        if (!store) {
            message = store.error().message;
        } else {
            auto checked = store->verify();
            ASSERT_FALSE(checked);
            message = checked.error().message;
            auto all = store->records({});
            if (!all) {
                EXPECT_NE(all.error().message.find("malformed"), std::string::npos) << all.error().message;
            }
        }
        EXPECT_NE(message.find(path), std::string::npos) << message;
        store = makeError(ErrorKind::Io, "closed");
        EXPECT_EQ(readAll(path), bytes);

        // A truncated file: SQLite's message names it as malformed.
        const std::string truncated = dir.file("truncated.tunescope");
        writeAll(truncated, bytes.substr(0, bytes.size() / 2));
        auto cut = Store::open(truncated);
        if (cut) {
            auto checked = cut->verify();
            ASSERT_FALSE(checked);
            EXPECT_NE(checked.error().message.find(truncated), std::string::npos);
        }
    }

    // --- concurrency and crashes -----------------------------------------------------------------------------

    TEST(Store, AReaderNeverSeesHalfABatch)
    {
        TempDir dir;
        const std::string path = dir.file("w.tunescope");
        constexpr int kBatches = 60;
        constexpr int kBatchSize = 50;
        int64_t device = 0;
        std::vector<int64_t> tasks;
        {
            Store store = openOrDie(path);
            std::tie(tasks, device) = seed(store, 2);
        }
        std::atomic<bool> done { false };
        std::thread writer([&] {
            Store store = openOrDie(path);
            for (int b = 0; b < kBatches; ++b) {
                std::vector<Record> batch;
                for (int i = 0; i < kBatchSize; ++i)
                    batch.push_back(syntheticRecord(tasks[i % 2], device, 1e-3 * (1 + (b * 7 + i) % 13)));
                ASSERT_TRUE(store.addRecords(batch));
            }
            done = true;
        });
        Store reader = openOrDie(path);
        int64_t last = 0;
        int observations = 0;
        while (!done || observations < 5) {
            // One read transaction: the record count and the summary must agree, in whole batches.
            ASSERT_TRUE(testConnection(reader).exec("BEGIN"));
            const int64_t count = reader.recordCount().value();
            int64_t summed = 0;
            for (const TaskSummary& s : reader.bestPerTask().value())
                summed += s.records;
            ASSERT_TRUE(testConnection(reader).exec("COMMIT"));
            EXPECT_EQ(count % kBatchSize, 0) << "saw " << count << " records";
            EXPECT_EQ(summed, count);
            EXPECT_GE(count, last);
            last = count;
            ++observations;
        }
        writer.join();
        EXPECT_EQ(reader.recordCount().value(), kBatches * kBatchSize);
    }

    TEST(Store, AProcessKilledMidBatchLosesOnlyThatBatch)
    {
        TempDir dir;
        const std::string path = dir.file("killed.tunescope");
        constexpr int kBatchSize = 100;
        constexpr int kCommitted = 3;
        {
            Store store = openOrDie(path);
            seed(store, 1);
        }
        int pipeFds[2];
        ASSERT_EQ(pipe(pipeFds), 0);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            // The child writes batches; in batch kCommitted it stops halfway and waits to be killed.
            close(pipeFds[0]);
            auto store = Store::open(path);
            if (!store)
                _exit(3);
            for (int b = 0;; ++b) {
                auto transaction = store->begin();
                if (!transaction)
                    _exit(4);
                for (int i = 0; i < kBatchSize; ++i) {
                    Record r = syntheticRecord(1, 1, 1e-3 * (1 + i));
                    if (!store->addRecords(std::span(&r, 1)))
                        _exit(5);
                    if (b == kCommitted && i == kBatchSize / 2) {
                        (void)!write(pipeFds[1], "M", 1);
                        pause();
                    }
                }
                if (!transaction->commit())
                    _exit(6);
            }
        }
        close(pipeFds[1]);
        char signal = 0;
        ASSERT_EQ(read(pipeFds[0], &signal, 1), 1);
        close(pipeFds[0]);
        EXPECT_EQ(signal, 'M');
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status));

        Store store = openOrDie(path);
        EXPECT_EQ(store.recordCount().value(), kCommitted * kBatchSize);
        EXPECT_EQ(store.bestPerTask().value().at(0).records, kCommitted * kBatchSize);
        EXPECT_TRUE(store.verify());
        // And it takes writes again.
        Record r = syntheticRecord(1, 1, 1e-3);
        EXPECT_EQ(store.addRecords(std::span(&r, 1)).value(), 1);
    }

    // --- TVM logs --------------------------------------------------------------------------------------------

    // What a log file holds, read independently of the importer: record lines, comments, costs, step counts.
    struct FileFacts {
        int records = 0;
        int comments = 0;
        std::vector<std::vector<double>> costs;
        std::vector<size_t> stepCounts;
    };

    FileFacts factsOf(const std::string& path)
    {
        FileFacts facts;
        for (const std::string& line : split(readAll(path), '\n')) {
            if (line.empty())
                continue;
            if (line[0] == '#') {
                ++facts.comments;
                continue;
            }
            const Json json = Json::parse(line);
            ++facts.records;
            facts.costs.push_back(json["r"][0].get<std::vector<double>>());
            facts.stepCounts.push_back(json["i"][1][1].size());
        }
        return facts;
    }

    TEST(TvmLogs, EveryFileImportsWithItsExactCounts)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const std::map<std::string, std::pair<int, int>> expected // records, comment lines
            = { { "matmul.json", { 1, 1 } }, { "conv2d.json", { 1, 1 } }, { "resnet-18-NHWC-B1.json", { 24, 2 } },
                  { "resnet-18-NHWC-B1-cuda.json", { 24, 0 } } };
        int64_t total = 0;
        for (const std::string& name : kLogFiles) {
            const std::string path = (kLogs / name).string();
            const FileFacts facts = factsOf(path);
            EXPECT_EQ(facts.records, expected.at(name).first) << name;
            EXPECT_EQ(facts.comments, expected.at(name).second) << name;
            const ImportReport report = importOrDie(store, path);
            EXPECT_EQ(report.records, facts.records) << name;
            EXPECT_EQ(report.added, facts.records) << name;
            EXPECT_EQ(report.comments, facts.comments) << name;
            EXPECT_EQ(report.malformed, 0) << name;
            EXPECT_EQ(report.format, "auto_scheduler");
            ASSERT_TRUE(report.sourceId);
            RecordFilter fromFile;
            fromFile.sourceId = report.sourceId;
            const auto records = store.records(fromFile).value();
            ASSERT_EQ(records.size(), static_cast<size_t>(facts.records)) << name;
            for (size_t i = 0; i < records.size(); ++i) {
                EXPECT_EQ(records[i].result.costs, facts.costs[i]) << name << " record " << i;
                EXPECT_EQ(static_cast<size_t>(records[i].stepCount), facts.stepCounts[i]) << name << " record " << i;
                EXPECT_EQ(records[i].result.status, record::MeasureStatus::Ok);
            }
            total += facts.records;
        }
        EXPECT_EQ(store.recordCount().value(), total);
        EXPECT_EQ(total, 50);
        const auto sources = store.sources().value();
        ASSERT_EQ(sources.size(), 4u);
        EXPECT_EQ(sources[2].lines, 26);
        EXPECT_EQ(sources[2].records, 24);
        // matmul_add on the CPU from v0.3 (3 task fields), the GPU logs with CUDA hardware params.
        const auto devices = store.devices().value();
        EXPECT_EQ(devices[0].target, "llvm -keys=cpu");
        EXPECT_EQ(devices[0].hardwareParams, (HardwareParams { 18, 64, 64, 0, 0, 0, 0, 0 }));
        EXPECT_EQ(devices[1].kind, "gpu");
        EXPECT_FALSE(devices[1].hardwareParams.has_value()); // conv2d.json is v0.2: no hardware params
    }

    TEST(TvmLogs, RebuildableWorkloadsAreLinkedAndReplay)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        for (const std::string& name : kLogFiles) {
            const ImportReport report = importOrDie(store, (kLogs / name).string());
            EXPECT_TRUE(report.notes.empty()) << name << ": " << report.notes.front();
        }
        int linked = 0;
        for (const TaskInfo& task : store.tasks().value()) {
            if (!task.rebuildable) {
                EXPECT_TRUE(task.dagText.empty());
                EXPECT_EQ(task.name.rfind("dag ", 0), 0u) << task.name;
                continue;
            }
            ++linked;
            // The stored steps replay on the rebuilt DAG: the record can be measured again.
            auto dag = rebuildTask(task);
            ASSERT_TRUE(dag) << task.key << ": " << dag.error().message;
            EXPECT_EQ(task.flops, dag->flopCount());
            RecordFilter filter;
            filter.taskIds = { task.id };
            for (const Record& r : store.records(filter).value()) {
                auto steps = sched::parseSteps(r.steps);
                ASSERT_TRUE(steps);
                auto state = sched::State::replay(*dag, *steps);
                EXPECT_TRUE(state) << task.name << ": " << state.error().message;
            }
        }
        // matmul_add and conv2d_layer, the six tasks of the ResNet-18 CUDA log whose DAG-hash keys match a
        // model-zoo task (network_match.h), and the five of the v0.3 ResNet-18 log (keys without shapes) whose
        // steps replay on exactly one.
        EXPECT_EQ(linked, 2 + 6 + 5);
        EXPECT_EQ(store.tasks().value().size(), 2u + 24u + 24u);
    }

    TEST(Store, TasksTuneScopeBuiltAreItsOwnNotForeign)
    {
        // A task a tuning session adds is rebuildable (from the session that tuned it), so never "foreign".
        const ir::ComputeDAG dag = graph::buildWorkload(graph::parseWorkloadSpec("matmul:8,8,8").value()).value();
        const TaskInfo own = taskInfoOf("matmul", dag.workloadKey(), dag.toString(), dag.flopCount());
        EXPECT_TRUE(own.rebuildable);
        EXPECT_TRUE(isOwnTaskKey(own.key));
        for (const std::string key : { "[\"matmul\", 8, 8, 8, \"float32\"]", "[\"b32ed43fb351136894c322ee49097a1a\"]",
                 "[\"dense_nopack.x86\", [[\"TENSOR\", [1, 8], \"float32\"]], {}]", "", "big" })
            EXPECT_FALSE(isOwnTaskKey(key)) << key;

        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const int64_t id = store.addTask(own).value();
        // A workspace written before own tasks were marked holds them with rebuildable 0: read as they are.
        TaskInfo older = taskInfoOf("matmul 16", "0123456789abcdef", "", 0.0);
        older.rebuildable = false;
        const int64_t olderId = store.addTask(older).value();
        TaskInfo foreign;
        foreign.key = "[\"b32ed43fb351136894c322ee49097a1a\"]";
        foreign.name = "dag b32ed43f";
        const int64_t foreignId = store.addTask(foreign).value();
        for (const TaskInfo& t : store.tasks().value())
            EXPECT_EQ(t.rebuildable, t.id == id || t.id == olderId) << t.name;
        EXPECT_FALSE(store.findTask(foreign.key).value()->rebuildable);
        EXPECT_NE(foreignId, id);

        // Not from its key alone, though: rebuildTask says where such a task is rebuilt from.
        auto rebuilt = rebuildTask(*store.findTask(own.key).value());
        ASSERT_FALSE(rebuilt);
        EXPECT_EQ(rebuilt.error().kind, ErrorKind::NotFound);
        EXPECT_NE(rebuilt.error().message.find("TuneScope's own, keyed by its DAG's hash alone"), std::string::npos)
            << rebuilt.error().message;
    }

    TEST(TvmLogs, ImportingTheSameFileTwiceAddsNothing)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const std::string path = (kLogs / "resnet-18-NHWC-B1.json").string();
        EXPECT_EQ(importOrDie(store, path).added, 24);
        const ImportReport again = importOrDie(store, path);
        EXPECT_EQ(again.added, 0);
        EXPECT_EQ(again.duplicates, 24);
        EXPECT_FALSE(again.sourceId);
        EXPECT_EQ(store.recordCount().value(), 24);
        EXPECT_EQ(store.sources().value().size(), 1u);
        EXPECT_EQ(store.tasks().value().size(), 24u);
    }

    TEST(TvmLogs, ExportThenImportIsLossless)
    {
        TempDir dir;
        Store original = openOrDie(dir.file("a.tunescope"));
        for (const std::string& name : kLogFiles)
            importOrDie(original, (kLogs / name).string());
        const std::string exported = dir.file("exported.json");
        {
            std::ofstream out(exported);
            EXPECT_EQ(exportLog(original, {}, out).value(), 50);
        }
        Store copy = openOrDie(dir.file("b.tunescope"));
        EXPECT_EQ(importOrDie(copy, exported).added, 50);

        auto logRecords = [](Store& store) {
            std::vector<LogRecord> out;
            const auto tasks = store.tasks().value();
            const auto devices = store.devices().value();
            for (const Record& r : store.records({}).value()) {
                auto task
                    = std::find_if(tasks.begin(), tasks.end(), [&](const TaskInfo& t) { return t.id == r.taskId; });
                auto device
                    = std::find_if(devices.begin(), devices.end(), [&](const Device& d) { return d.id == r.deviceId; });
                LogRecord log = toLogRecord(r, *task, *device).value();
                log.version.clear(); // the one field that changes: the export is v0.6
                out.push_back(std::move(log));
            }
            return out;
        };
        const auto before = logRecords(original);
        const auto after = logRecords(copy);
        ASSERT_EQ(before.size(), after.size());
        for (size_t i = 0; i < before.size(); ++i)
            EXPECT_TRUE(before[i] == after[i]) << "record " << i << ":\n"
                                               << formatLogLine(before[i]) << "\n"
                                               << formatLogLine(after[i]);
        // The exported file goes back into the first store as duplicates only.
        EXPECT_EQ(importOrDie(original, exported).duplicates, 50);

        // A v0.6 log comes back byte for byte.
        Store v6 = openOrDie(dir.file("c.tunescope"));
        const std::string cuda = (kLogs / "resnet-18-NHWC-B1-cuda.json").string();
        importOrDie(v6, cuda);
        std::ostringstream text;
        ASSERT_TRUE(exportLog(v6, {}, text));
        EXPECT_EQ(text.str(), readAll(cuda));
    }

    TEST(TvmLogs, AutoTvmLogsOfBothVersions)
    {
        TempDir dir;
        const std::string v2
            = R"({"input": ["llvm -keys=cpu ", "conv2d_NCHWc.x86", [["TENSOR", [1, 3, 224, 224], "float32"], )"
              R"(["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"], {}], )"
              R"("config": {"index": 172, "code_hash": null, "entity": [["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", )"
              R"([-1, 4]], ["tile_ow", "sp", [-1, 1]], ["unroll_kw", "ot", false]]}, "result": [[0.0045656413], 0, )"
              R"(0.5309267044067383, 1676344759.520081], "version": 0.2, "tvm_version": "0.10.0"})";
        const std::string v1
            = R"({"i": ["cuda", "dense_small_batch.gpu", [["TENSOR", [1, 512], "float32"], ["TENSOR", [1000, 512], )"
              R"("float32"], null, "float32"], {}, ["dense_small_batch.gpu", [1, 512], [1000, 512]], {"i": 7, "t": "", )"
              R"("c": null, "e": [["tile_k", "sp", [-1, 64]]]}], "r": [[1000000000.0], 4, 0.21, 1576000000.5], "v": 0.1})";
        const std::string path = dir.file("autotvm.log");
        writeAll(path, v2 + "\n" + v1 + "\n");
        Store store = openOrDie(dir.file("w.tunescope"));
        const ImportReport report = importOrDie(store, path);
        EXPECT_EQ(report.added, 2);
        EXPECT_EQ(report.malformed, 0) << report.issues.front().reason;
        EXPECT_EQ(report.format, "autotvm");
        EXPECT_EQ(report.linked, 2);

        const auto tasks = store.tasks().value();
        ASSERT_EQ(tasks.size(), 2u);
        EXPECT_EQ(tasks[0].name, "conv2d_NCHWc.x86");
        EXPECT_TRUE(tasks[0].rebuildable);
        // 1x64x112x112 outputs, 3*7*7 multiply-adds each.
        EXPECT_DOUBLE_EQ(tasks[0].flops, 2.0 * 64 * 112 * 112 * 3 * 7 * 7);
        EXPECT_TRUE(tasks[1].rebuildable);
        EXPECT_DOUBLE_EQ(tasks[1].flops, 2.0 * 1000 * 512);
        const auto records = store.records({}).value();
        EXPECT_EQ(records[0].kind, RecordKind::AutoTvm);
        EXPECT_EQ(records[0].stepCount, 4);
        EXPECT_EQ(records[1].result.status, record::MeasureStatus::RuntimeDeviceError);

        // The v0.2 line is written back exactly; the v0.1 one as v0.2 with the same content.
        std::ostringstream text;
        ASSERT_TRUE(exportLog(store, {}, text));
        const auto lines = split(text.str(), '\n');
        EXPECT_EQ(lines[0], v2);
        auto reread = parseLogLine(lines[1]).value();
        auto original = parseLogLine(v1).value();
        ASSERT_TRUE(reread && original);
        EXPECT_EQ(reread->steps, original->steps);
        EXPECT_EQ(reread->result.costs, original->result.costs);
        EXPECT_EQ(reread->result.timestamp, 1576000000.5);
        EXPECT_EQ(reread->workloadKey, original->workloadKey);
    }

    TEST(TvmLogs, MalformedLinesAreReportedAndTheRestImports)
    {
        TempDir dir;
        const std::string good1 = matmulLine(1600000001);
        const std::string good2 = matmulLine(1600000002, 0.005);
        const std::string good3 = matmulLine(1600000003, 0.006, 4);
        std::string unknownStep = good1;
        unknownStep.replace(unknownStep.find("\"SP\""), 4, "\"XX\"");
        std::string binary = "\x7f"
                             "ELF\x02\x01\x01";
        binary += std::string("\0\0\xff\xfe garbage \x01\x02", 16);
        const std::vector<std::pair<std::string, std::string>> bad = {
            // line text, expected fragment of the reason
            { good1.substr(0, good1.size() / 2), "not valid JSON" },
            { R"({"i": [["[\"matmul_add\", 4, 4, 4]", "llvm"], [[], []]], "r": ["fast", 0, 0.1, 1], "v": "v0.2"})",
                "r[0] (costs) must be a list of numbers, got a string" },
            { R"({"i": [["[\"matmul_add\", 4, 4, 4]", 7], [[], []]], "r": [[0.1], 0, 0.1, 1], "v": "v0.2"})",
                "i[0][1] (target) must be a string, got an integer" },
            { unknownStep, "i[1][1] (steps): step 0" },
            { R"({"i": [["[\"matmul_add\", 4, 4, 4]", "llvm"], [[], []]], "r": [[0.1], 1e300, 0.1, 1], "v": "v0.2"})",
                "r[1] (error_no) must be an integer" },
            { R"({"i": [["[\"matmul_add\", 4, 4, 4]", "llvm"], [[], []]], "r": [[1e400], 0, 0.1, 1], "v": "v0.2"})",
                "not valid JSON: number overflow parsing '1e400'" },
            { R"({"i": [["[\"matmul_add\", 4, 4, 4]", "llvm"], [[], [["CI", 99999999999999999999]]]], "r": [[0.1], 0, 0.1, 1], "v": "v0.2"})",
                "i[1][1] (steps): step 0: step [\"CI\",1e+20]: field 1 is not an integer" },
            { R"({"i": [["[\"matmul_add\", 4, 4, 4]", "llvm"], [[], []]], "r": [[0.1], 0, 0.1, 1], "v": "v0.2", "x": 1})",
                "unknown key \"x\"" },
            { "[1, 2, 3]", "a record must be a JSON object" },
            { binary, "not valid JSON" },
            { "{" + std::string(10 * 1024 * 1024, ' ') + "}", "over the 1048576-byte limit" },
        };
        std::string file = "# a comment\n" + good1 + "\n\n";
        std::vector<int64_t> badLines;
        int64_t line = 3;
        for (const auto& [text, reason] : bad) {
            file += text + "\n";
            badLines.push_back(++line);
        }
        file += good2 + "\n" + good3; // no trailing newline
        const std::string path = dir.file("mixed.json");
        writeAll(path, file);

        Store store = openOrDie(dir.file("w.tunescope"));
        const ImportReport report = importOrDie(store, path);
        EXPECT_EQ(report.added, 3);
        EXPECT_EQ(report.comments, 2); // the comment and the blank line
        EXPECT_EQ(report.malformed, static_cast<int64_t>(bad.size()));
        ASSERT_EQ(report.issues.size(), bad.size());
        for (size_t i = 0; i < bad.size(); ++i) {
            EXPECT_EQ(report.issues[i].line, badLines[i]);
            EXPECT_NE(report.issues[i].reason.find(bad[i].second), std::string::npos)
                << "line " << badLines[i] << ": " << report.issues[i].reason;
        }
        EXPECT_EQ(store.statusCounts({}).value().at(4), 1);

        // An empty file and a file of garbage import nothing and say so.
        const std::string empty = dir.file("empty.json");
        writeAll(empty, "");
        const ImportReport none = importOrDie(store, empty);
        EXPECT_EQ(none.lines, 0);
        EXPECT_EQ(none.added, 0);
        const std::string junk = dir.file("junk.bin");
        writeAll(junk, binary + "\n" + binary);
        EXPECT_EQ(importOrDie(store, junk).malformed, 2);
        EXPECT_EQ(store.recordCount().value(), 3);
        EXPECT_FALSE(importLog(store, dir.file("no-such-file.json")));
    }

    TEST(TvmLogs, ACancelledImportLeavesTheStoreAsItWas)
    {
        TempDir dir;
        std::string file;
        for (int i = 0; i < 10000; ++i)
            file += matmulLine(1600000000 + i) + "\n";
        const std::string path = dir.file("big.json");
        writeAll(path, file);
        Store store = openOrDie(dir.file("w.tunescope"));
        std::atomic<bool> cancel { false };
        ImportOptions options;
        options.cancel = &cancel;
        int calls = 0;
        options.progress = [&](int64_t done, int64_t total) {
            EXPECT_LE(done, total);
            ++calls;
            cancel = true; // cancel at the first progress report
        };
        const ImportReport report = importOrDie(store, path, options);
        EXPECT_TRUE(report.cancelled);
        EXPECT_GE(calls, 1);
        EXPECT_EQ(store.recordCount().value(), 0);
        EXPECT_TRUE(store.tasks().value().empty());
        EXPECT_TRUE(store.sources().value().empty());
        // Without cancelling, all of it.
        EXPECT_EQ(importOrDie(store, path).added, 10000);
    }

} // namespace
} // namespace ts::store
