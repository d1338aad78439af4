// The dataset (core/store/dataset.h) on temporary workspaces written through the Store API: labels, the
// skipped-record counts, DAG rebuilding with its reasons, the splits' invariants and evaluation.
#include "tests/core/store_fixtures.h"

#include "core/store/dataset.h"
#include "core/store/schedule_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ts::store {
namespace {

    using namespace ts::store::test;
    using record::MeasureStatus;

    int64_t addDevice(Store& store, const std::string& cpu)
    {
        Device d;
        d.target = "llvm -keys=cpu -mcpu=" + cpu;
        d.hardwareParams = HardwareParams { 2, 64, 64, 0, 0, 0, 0, 0 };
        return store.addDevice(d).value();
    }

    int64_t addTask(Store& store, const std::string& key, bool rebuildable = false)
    {
        TaskInfo t;
        t.key = key;
        t.name = "task " + key;
        t.rebuildable = rebuildable;
        return store.addTask(t).value();
    }

    // One record; an empty `costs` with status Ok is a result with nothing to rank.
    void addRecord(Store& store, int64_t task, int64_t device, std::vector<double> costs,
        MeasureStatus status = MeasureStatus::Ok, RecordKind kind = RecordKind::Ansor)
    {
        Record r;
        r.taskId = task;
        r.deviceId = device;
        r.kind = kind;
        r.steps = R"([["AN", 2, 0, 3]])";
        r.stepCount = 1;
        r.result.status = status;
        r.result.costs = status == MeasureStatus::Ok ? std::move(costs) : std::vector<double> { record::kFailedCost };
        r.result.timestamp = 1.7e9;
        std::vector<Record> batch = { r };
        ASSERT_EQ(store.addRecords(batch).value(), 1);
    }

    std::vector<double> labelsOf(const Dataset& d, size_t task, int64_t device)
    {
        std::vector<double> out;
        for (const DatasetRecord& r : d.records)
            if (r.task == task && r.deviceId == device)
                out.push_back(r.label);
        return out;
    }

    size_t taskNamed(const Dataset& d, int64_t storeId)
    {
        for (size_t i = 0; i < d.tasks.size(); ++i)
            if (d.tasks[i].taskId == storeId)
                return i;
        throw std::runtime_error("task " + std::to_string(storeId) + " is not in the dataset");
    }

    // Two bert-tiny tasks, a registered workload, a broken one, foreign tasks and a task only failures.
    struct Workspace {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        int64_t d1 = 0, d2 = 0;
        int64_t b0 = 0, b1 = 0, matmul = 0, broken = 0, inBadNet = 0, foreign = 0, stranger = 0, failing = 0;

        Workspace()
        {
            d1 = addDevice(store, "znver3");
            d2 = addDevice(store, "skylake");
            const graph::TaskSet bert = loadNetworkTasks({ "bert-tiny", 1, ops::Layout::NCHW }).value();
            auto add = [&](const graph::Task& t) {
                return store.addTask(taskInfoOf(t.name, t.dag.workloadKey(), t.dag.toString(), t.flops)).value();
            };
            b0 = add(bert.tasks.at(0));
            b1 = add(bert.tasks.at(1));
            matmul = addTask(store, R"(["matmul_add", 64, 64, 64, "float32"])", true);
            broken = addTask(store, R"(["matmul_add", 64])", true);
            inBadNet = addTask(store, R"(["1097323f"])");
            foreign = addTask(store, R"(["2097323f"])");
            stranger = addTask(store, "0123456789abcdef"); // claims to be in bert-tiny, is not
            failing = addTask(store, R"(["3097323f"])");
            store.addNetwork({ 0, "bert-tiny", 1, "NCHW", { { b0, 2 }, { b1, 1 }, { stranger, 1 } } }).value();
            store.addNetwork({ 0, "no-such-net", 1, "NCHW", { { inBadNet, 1 } } }).value();

            addRecord(store, b0, d1, { 2e-3 });
            addRecord(store, b0, d1, { 1e-3, 1e-3 });
            addRecord(store, b0, d1, {}, MeasureStatus::RunTimeout);
            addRecord(store, b0, d1, { 4e-3 });
            addRecord(store, b0, d1, {}, MeasureStatus::RunTimeout);
            addRecord(store, b0, d1, {}, MeasureStatus::WrongAnswer);
            addRecord(store, b0, d1, {}); // ok, but no cost
            addRecord(store, b0, d1, { 1e-4 }, MeasureStatus::Ok, RecordKind::AutoTvm);
            addRecord(store, b0, d2, { 3e-3 });
            addRecord(store, b1, d1, { 5e-3 });
            for (int64_t t : { matmul, broken, inBadNet, foreign, stranger })
                addRecord(store, t, d1, { 1e-3 });
            addRecord(store, failing, d1, {}, MeasureStatus::CompileHostError);
        }
    };

    TEST(Dataset, LabelsAreBestCostOverCostPerTaskAndDevice)
    {
        Workspace w;
        const Dataset d = loadDataset(w.store, { .deviceId = w.d1 }).value();
        EXPECT_EQ(labelsOf(d, taskNamed(d, w.b0), w.d1), (std::vector<double> { 0.5, 1.0, 0.25 }));
        EXPECT_EQ(labelsOf(d, taskNamed(d, w.b1), w.d1), (std::vector<double> { 1.0 }));
        const DatasetRecord& first = d.records.front();
        EXPECT_EQ(first.task, taskNamed(d, w.b0));
        EXPECT_DOUBLE_EQ(first.cost, 2e-3);
        EXPECT_EQ(first.steps, R"([["AN", 2, 0, 3]])");
        for (const DatasetRecord& r : d.records)
            EXPECT_EQ(r.deviceId, w.d1);
        EXPECT_TRUE(std::is_sorted(d.records.begin(), d.records.end(),
            [](const DatasetRecord& a, const DatasetRecord& b) { return a.recordId < b.recordId; }));

        // All devices: the skylake record is the best of its own (task, device).
        const Dataset all = loadDataset(w.store).value();
        EXPECT_EQ(labelsOf(all, taskNamed(all, w.b0), w.d2), (std::vector<double> { 1.0 }));
        EXPECT_EQ(labelsOf(all, taskNamed(all, w.b0), w.d1), (std::vector<double> { 0.5, 1.0, 0.25 }));
        std::vector<size_t> every(all.records.size());
        for (size_t i = 0; i < every.size(); ++i)
            every[i] = i;
        const std::vector<RecordGroup> groups = groupByTaskDevice(all, every);
        EXPECT_EQ(groups.size(), 8u); // b0 on two devices, six tasks on one
        EXPECT_EQ(groups[0].task, taskNamed(all, w.b0));
        EXPECT_EQ(groups[0].records.size(), 3u);
        EXPECT_EQ(groups[1].deviceId, w.d2);
    }

    TEST(Dataset, CountsEverySkippedRecordByReason)
    {
        Workspace w;
        const Dataset d = loadDataset(w.store, { .deviceId = w.d1 }).value();
        const DatasetReport& r = d.report;
        EXPECT_EQ(r.recordsRead, 15);
        EXPECT_EQ(r.recordsKept, 9);
        EXPECT_EQ(r.skipped,
            (std::map<SkipReason, int64_t> {
                { SkipReason::Failed, 4 }, { SkipReason::BadCost, 1 }, { SkipReason::OtherKind, 1 } }));
        EXPECT_EQ(r.failedByStatus,
            (std::map<MeasureStatus, int64_t> { { MeasureStatus::CompileHostError, 1 },
                { MeasureStatus::WrongAnswer, 1 }, { MeasureStatus::RunTimeout, 2 } }));
        EXPECT_EQ(r.recordsRead, r.recordsKept + 6);
        EXPECT_EQ(r.tasksWithoutUsableRecords, 1); // the task with only a failure
        EXPECT_EQ(d.tasks.size(), 7u);
        EXPECT_EQ(r.lines().at(0),
            "15 records read, 9 kept; skipped: 4 failed (1 compile error, 1 wrong answer, 2 run timeout), 1 no "
            "usable cost, 1 other record kind");
    }

    TEST(Dataset, RebuildsDagsFromNetworksAndWorkloadKeysAndSaysWhyNot)
    {
        Workspace w;
        const Dataset d = loadDataset(w.store, { .deviceId = w.d1 }).value();
        const DatasetTask& b0 = d.tasks[taskNamed(d, w.b0)];
        ASSERT_TRUE(b0.dag.has_value());
        EXPECT_EQ(b0.dag->workloadKey(), b0.key);
        ASSERT_EQ(b0.networks.size(), 1u);
        EXPECT_EQ(b0.networks[0].name, "bert-tiny");
        EXPECT_EQ(b0.networks[0].layout, "NCHW");
        EXPECT_EQ(b0.networks[0].weight, 2);
        const DatasetTask& matmul = d.tasks[taskNamed(d, w.matmul)];
        ASSERT_TRUE(matmul.dag.has_value());
        EXPECT_EQ(matmul.dag->numOps(), 5); // A, B, matmul, C, out
        for (int64_t id : { w.broken, w.inBadNet, w.foreign, w.stranger })
            EXPECT_FALSE(d.tasks[taskNamed(d, id)].dag.has_value()) << id;
        EXPECT_EQ(d.report.tasksWithDag, 3);
        EXPECT_EQ(d.report.tasksWithoutDag,
            (std::map<DagMissing, int64_t> { { DagMissing::NoSource, 1 }, { DagMissing::NetworkNotBuilt, 1 },
                { DagMissing::NotInNetwork, 1 }, { DagMissing::WorkloadNotBuilt, 1 } }));
        ASSERT_EQ(d.report.warnings.size(), 1u);
        EXPECT_NE(
            d.report.warnings[0].find("no-such-net (batch 1, NCHW) not rebuilt: unknown network"), std::string::npos)
            << d.report.warnings[0];
        ASSERT_EQ(d.networks.size(), 2u);
        EXPECT_EQ(d.networks[0].tasks.size(), 3u);

        const Dataset stepsOnly = loadDataset(w.store, { .deviceId = w.d1, .rebuildDags = false }).value();
        EXPECT_EQ(stepsOnly.report.tasksWithDag, 0);
        EXPECT_EQ(stepsOnly.report.tasksWithoutDag.at(DagMissing::NotRequested), 7);
    }

    TEST(Dataset, FiltersByNetworkAndRejectsUnknownNamesAndDevices)
    {
        Workspace w;
        const Dataset d = loadDataset(w.store, { .networks = { "bert-tiny" } }).value();
        std::set<int64_t> ids;
        for (const DatasetTask& t : d.tasks)
            ids.insert(t.taskId);
        EXPECT_EQ(ids, (std::set<int64_t> { w.b0, w.b1, w.stranger }));
        EXPECT_EQ(d.report.recordsRead, 11); // b0's nine, b1's and the stranger's

        auto unknown = loadDataset(w.store, { .networks = { "resnet-50" } });
        ASSERT_FALSE(unknown);
        EXPECT_EQ(unknown.error().kind, ErrorKind::InvalidArgument);
        EXPECT_EQ(
            unknown.error().message, "no network named 'resnet-50' in the workspace (it has: bert-tiny, no-such-net)");
        auto device = loadDataset(w.store, { .deviceId = 99 });
        ASSERT_FALSE(device);
        EXPECT_EQ(device.error().kind, ErrorKind::NotFound);
        EXPECT_EQ(device.error().message, "device 99 is not in the workspace (devices: 1, 2)");
    }

    // Six tasks of three records each, costs c, 2c, 4c in that order; net-a holds t0 t1 t2, net-b t2 t3.
    struct SplitWorkspace {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        std::vector<int64_t> tasks;
        Dataset dataset;

        SplitWorkspace()
        {
            const int64_t device = addDevice(store, "znver3");
            for (int i = 0; i < 6; ++i)
                tasks.push_back(addTask(store, "[\"t" + std::to_string(i) + "\"]"));
            for (int round = 0; round < 3; ++round)
                for (int i = 0; i < 6; ++i)
                    addRecord(store, tasks[static_cast<size_t>(i)], device, { (i + 1) * 1e-3 * (1 << round) });
            store.addNetwork({ 0, "net-a", 1, "NCHW", { { tasks[0], 1 }, { tasks[1], 2 }, { tasks[2], 1 } } }).value();
            store.addNetwork({ 0, "net-b", 1, "NCHW", { { tasks[2], 1 }, { tasks[3], 3 } } }).value();
            dataset = loadDataset(store, { .rebuildDags = false }).value();
        }

        std::set<size_t> tasksOf(const std::vector<size_t>& records) const
        {
            std::set<size_t> out;
            for (size_t i : records)
                out.insert(dataset.records[i].task);
            return out;
        }

        // Every record in exactly one part.
        void expectPartition(const DatasetSplit& s) const
        {
            std::vector<size_t> all = s.train;
            all.insert(all.end(), s.validation.begin(), s.validation.end());
            all.insert(all.end(), s.test.begin(), s.test.end());
            std::sort(all.begin(), all.end());
            ASSERT_EQ(all.size(), dataset.records.size());
            for (size_t i = 0; i < all.size(); ++i)
                EXPECT_EQ(all[i], i);
        }

        void expectNoTaskInTwoParts(const DatasetSplit& s) const
        {
            const std::set<size_t> train = tasksOf(s.train), validation = tasksOf(s.validation), test = tasksOf(s.test);
            for (size_t t : test) {
                EXPECT_FALSE(train.contains(t)) << t;
                EXPECT_FALSE(validation.contains(t)) << t;
            }
            for (size_t t : validation)
                EXPECT_FALSE(train.contains(t)) << t;
        }
    };

    TEST(DatasetSplit, ByNetworksHoldsOutSharedTasks)
    {
        SplitWorkspace w;
        const std::vector<std::string> held = { "net-b" };
        const DatasetSplit s = splitByNetworks(w.dataset, held).value();
        w.expectPartition(s);
        w.expectNoTaskInTwoParts(s);
        EXPECT_EQ(w.tasksOf(s.test), (std::set<size_t> { 2, 3 })); // t2 is in net-a too: test, not train
        EXPECT_EQ(w.tasksOf(s.train), (std::set<size_t> { 0, 1, 4, 5 }));
        EXPECT_TRUE(s.validation.empty());

        const DatasetSplit v = splitByNetworks(w.dataset, held, { .validationFraction = 0.5, .seed = 3 }).value();
        w.expectPartition(v);
        w.expectNoTaskInTwoParts(v);
        EXPECT_EQ(w.tasksOf(v.test), (std::set<size_t> { 2, 3 }));
        EXPECT_EQ(w.tasksOf(v.validation).size(), 2u);
        EXPECT_EQ(v.validation, splitByNetworks(w.dataset, held, { .validationFraction = 0.5, .seed = 3 })->validation);

        const std::vector<std::string> unknown = { "resnet-50" };
        auto bad = splitByNetworks(w.dataset, unknown);
        ASSERT_FALSE(bad);
        EXPECT_EQ(bad.error().message, "no network named 'resnet-50' in the dataset (it has: net-a, net-b)");
    }

    TEST(DatasetSplit, ByTasksIsSeededAndDoesNotLeak)
    {
        SplitWorkspace w;
        const DatasetSplit s = splitByTasks(w.dataset, 0.5, { .validationFraction = 0.2, .seed = 7 }).value();
        w.expectPartition(s);
        w.expectNoTaskInTwoParts(s);
        EXPECT_EQ(w.tasksOf(s.test).size(), 3u);
        EXPECT_EQ(w.tasksOf(s.validation).size(), 1u); // 0.2 of 6 rounds to 1
        EXPECT_EQ(s.test, splitByTasks(w.dataset, 0.5, { .validationFraction = 0.2, .seed = 7 })->test);
        std::set<std::set<size_t>> seen;
        for (uint64_t seed = 0; seed < 6; ++seed)
            seen.insert(w.tasksOf(splitByTasks(w.dataset, 0.5, { .seed = seed })->test));
        EXPECT_GT(seen.size(), 1u);

        EXPECT_EQ(splitByTasks(w.dataset, 1.5).error().kind, ErrorKind::InvalidArgument);
        EXPECT_EQ(splitByTasks(w.dataset, 0.6, { .validationFraction = 0.6 }).error().message,
            "the test and validation fractions add up to more than 1 (0.600 + 0.600)");
    }

    TEST(DatasetSplit, ByTimeKeepsEachTasksOrder)
    {
        SplitWorkspace w;
        const DatasetSplit s = splitByTime(w.dataset, 0.34, { .validationFraction = 0.34 }).value();
        w.expectPartition(s);
        EXPECT_EQ(s.train.size(), 6u);
        EXPECT_EQ(s.validation.size(), 6u);
        EXPECT_EQ(s.test.size(), 6u);
        for (size_t t = 0; t < 6; ++t) {
            auto ids = [&](const std::vector<size_t>& part) {
                std::vector<int64_t> out;
                for (size_t i : part)
                    if (w.dataset.records[i].task == t)
                        out.push_back(w.dataset.records[i].recordId);
                return out;
            };
            const auto train = ids(s.train), validation = ids(s.validation), test = ids(s.test);
            ASSERT_EQ(train.size(), 1u);
            ASSERT_EQ(validation.size(), 1u);
            ASSERT_EQ(test.size(), 1u);
            EXPECT_LT(train[0], validation[0]);
            EXPECT_LT(validation[0], test[0]);
        }
        // A fraction that rounds to nothing keeps every record in train.
        EXPECT_EQ(splitByTime(w.dataset, 0.1)->train.size(), 18u);
    }

    TEST(DatasetSplit, EvaluateScoresNetworksOnTheTestSet)
    {
        SplitWorkspace w;
        std::vector<double> perfect, reversed;
        for (const DatasetRecord& r : w.dataset.records) {
            perfect.push_back(r.label);
            reversed.push_back(-r.label);
        }
        std::vector<size_t> all(w.dataset.records.size());
        for (size_t i = 0; i < all.size(); ++i)
            all[i] = i;
        const MetricsSummary good = evaluate(w.dataset, all, perfect);
        EXPECT_EQ(good.tasks, 6);
        EXPECT_DOUBLE_EQ(good.mean.pairwiseAccuracy, 1.0);
        EXPECT_DOUBLE_EQ(good.mean.rmse, 0.0);
        ASSERT_EQ(good.networks.size(), 2u);
        EXPECT_DOUBLE_EQ(good.networks[0].topKScore[0], 1.0);

        // The reversed model's top 1 is each task's slowest program, four times the best.
        const MetricsSummary bad = evaluate(w.dataset, all, reversed);
        EXPECT_DOUBLE_EQ(bad.mean.pairwiseAccuracy, 0.0);
        EXPECT_DOUBLE_EQ(bad.networks[1].topKScore[0], 0.25);
        EXPECT_DOUBLE_EQ(bad.networks[1].topKScore[1], 1.0); // top 5 holds all three

        // On net-b held out, net-a is scored on its one test task; the other two count as without programs.
        const std::vector<std::string> held = { "net-b" };
        const DatasetSplit s = splitByNetworks(w.dataset, held).value();
        const MetricsSummary test = evaluate(w.dataset, s.test, reversed);
        EXPECT_EQ(test.tasks, 2);
        ASSERT_EQ(test.networks.size(), 2u);
        EXPECT_EQ(test.networks[0].name, "net-a (batch 1, NCHW)");
        EXPECT_EQ(test.networks[0].tasks, 1);
        EXPECT_EQ(test.networks[0].tasksWithoutPrograms, 2);
        EXPECT_EQ(test.networks[1].tasks, 2);
    }

} // namespace
} // namespace ts::store
