// The record store at scale: builds a workspace of 1 million records (250 tasks x 2 devices, 10% failures,
// realistic step lists), then times the queries the product makes. The issue's bar: "best per task" and
// "history of one task" under 50 ms at 1M records. Last, the Records view's model opening the workspace
// (its first page in a job, handed back to this thread's event loop) and fetching its next page.
//   ./build/release/tests/benchmarks/ts_bench_store [RECORDS] [PATH]   (default 1000000, a temporary file)
// PATH `postgres` runs the same on a private PostgreSQL server the benchmark starts (tests/core/pg_cluster.h),
// a postgresql:// URL on a server of yours (an empty database).
#include "tests/core/pg_cluster.h"
#include "tests/core/store_test_access.h"

#include "core/store/store.h"
#include "core/support/rng.h"
#include "widgets/models/records_model.h"

#include <QCoreApplication>
#include <QEventLoop>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace ts;
using namespace ts::store;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Median and worst of `runs` timings of `query`, in ms.
void time(const char* what, int runs, const std::function<size_t()>& query)
{
    std::vector<double> ms;
    size_t rows = 0;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        rows = query();
        ms.push_back(msSince(start));
    }
    std::sort(ms.begin(), ms.end());
    std::printf("  %-46s median %8.3f ms   max %8.3f ms   (%zu rows)\n", what, ms[ms.size() / 2], ms.back(), rows);
}

template <typename T> T orDie(Expected<T> value)
{
    if (!value) {
        std::fprintf(stderr, "ts_bench_store: %s\n", value.error().message.c_str());
        std::exit(1);
    }
    return std::move(value).value();
}

void orDie(Expected<void> done)
{
    if (!done) {
        std::fprintf(stderr, "ts_bench_store: %s\n", done.error().message.c_str());
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int64_t total = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    std::string path
        = argc > 2 ? argv[2] : (std::filesystem::temp_directory_path() / "ts_bench_store.tunescope").string();
    if (path == "postgres")
        path = ts::store::test::PgCluster::shared().createDatabase();
    const bool server = isPostgresUrl(path);
    if (!server)
        for (const char* suffix : { "", "-wal", "-shm" })
            std::filesystem::remove(path + suffix);
    constexpr int kTasks = 250;
    constexpr int kDevices = 2;
    constexpr size_t kBatch = 10'000;

    Store store = orDie(Store::open(path));
    std::vector<int64_t> tasks;
    std::vector<int64_t> devices;
    for (int d = 0; d < kDevices; ++d) {
        Device device;
        device.target = d == 0 ? "llvm -keys=cpu -mcpu=znver3" : "cuda -keys=cuda,gpu -arch=sm_90";
        devices.push_back(orDie(store.addDevice(device)));
    }
    for (int t = 0; t < kTasks; ++t) {
        TaskInfo task;
        task.key = "[\"matmul_add\", " + std::to_string(64 + t) + ", 1024, 1024, \"float32\"]";
        task.name = "matmul_add";
        tasks.push_back(orDie(store.addTask(task)));
    }
    // A real schedule's steps (TVM's matmul record): about 400 bytes a record.
    const std::string steps = R"([["SP", 2, 0, 1024, [2, 1, 4], 1], ["SP", 2, 4, 1024, [1, 1, 8], 1], )"
                              R"(["SP", 2, 8, 1024, [4], 1], ["RE", 2, [0, 4, 1, 5, 8, 2, 6, 9, 3, 7]], )"
                              R"(["FSP", 4, 0, 0, 2], ["FSP", 4, 3, 1, 2], ["RE", 4, [0, 3, 1, 4, 2, 5]], )"
                              R"(["CA", 2, 4, 3], ["FU", 4, [0, 1]], ["AN", 4, 0, 3], )"
                              R"(["PR", 2, 0, "auto_unroll_max_step$8"], ["AN", 2, 9, 2], ["AN", 4, 4, 2]])";
    Rng rng(7);
    std::printf("ts_bench_store: %lld records, %d tasks x %d devices, %s\n", static_cast<long long>(total), kTasks,
        kDevices, path.c_str());
    const auto insertStart = Clock::now();
    std::vector<Record> batch;
    batch.reserve(kBatch);
    for (int64_t i = 0; i < total; ++i) {
        Record r;
        r.taskId = tasks[static_cast<size_t>(rng.uniformInt(0, kTasks - 1))];
        r.deviceId = devices[static_cast<size_t>(i % kDevices)];
        r.steps = steps;
        r.stepCount = 13;
        r.result.status
            = rng.uniformInt(0, 9) == 0 ? record::MeasureStatus::RuntimeDeviceError : record::MeasureStatus::Ok;
        const double cost = 1e-4 * (1.0 + static_cast<double>(rng.uniformInt(0, 1'000'000)) / 1e4);
        r.result.costs = { cost, cost * 1.01, cost * 0.99 };
        r.result.allCost = 0.5;
        r.result.timestamp = 1.7e9 + static_cast<double>(i);
        batch.push_back(std::move(r));
        if (batch.size() == kBatch || i + 1 == total) {
            orDie(store.addRecords(batch));
            batch.clear();
        }
    }
    const double insertMs = msSince(insertStart);
    std::printf("  insert: %.1f s, %.0f records/s, in batches of %zu (one transaction each)\n", insertMs / 1e3,
        static_cast<double>(total) / (insertMs / 1e3), kBatch);
    if (server) {
        orDie(testConnection(store).exec("VACUUM ANALYZE"));
        std::printf("  database: %.0f MB\n",
            static_cast<double>(orDie(testConnection(store).queryInt("SELECT pg_database_size(current_database())")))
                / 1e6);
    } else {
        orDie(testConnection(store).exec("PRAGMA wal_checkpoint(TRUNCATE)"));
        std::printf("  file: %.0f MB\n", static_cast<double>(std::filesystem::file_size(path)) / 1e6);
    }

    // Queries through a second connection, as the GUI would read.
    const auto openStart = Clock::now();
    Store reader = orDie(Store::open(path));
    std::printf("  open an existing workspace: %.2f ms\n", msSince(openStart));
    constexpr int kRuns = 21;
    size_t next = 0;
    auto someTask = [&] { return tasks[(next++ * 37) % tasks.size()]; };
    time("best per task (all tasks x devices)", kRuns, [&] { return orDie(reader.bestPerTask()).size(); });
    time("best 10 records of one task on one device", kRuns,
        [&] { return orDie(reader.bestRecords(someTask(), devices[0], 10)).size(); });
    time("history of one task on one device", kRuns,
        [&] { return orDie(reader.history(someTask(), devices[0])).size(); });
    time("counts per status of one task", kRuns, [&] {
        RecordFilter f;
        f.taskIds = { someTask() };
        return orDie(reader.statusCounts(f)).size();
    });
    time("training set: all ok records of 5 tasks", 5, [&] {
        RecordFilter f;
        for (int i = 0; i < 5; ++i)
            f.taskIds.push_back(someTask());
        f.okOnly = true;
        return orDie(reader.records(f)).size();
    });
    time("(for comparison) best per task by GROUP BY", 3, [&] {
        auto s = orDie(testConnection(reader).prepare(
            "SELECT task_id, device_id, min(mean_cost), count(*) FROM records GROUP BY task_id, device_id"));
        size_t rows = 0;
        while (orDie(s.step()))
            ++rows;
        return rows;
    });
    time("records page: the last 500 (keyset, after an id)", kRuns,
        [&] { return orDie(reader.recordPage({}, total - 500, 500)).size(); });
    time("records page: the first 500 failures", kRuns, [&] {
        RecordFilter f;
        f.failedOnly = true;
        return orDie(reader.recordPage(f, 0, 500)).size();
    });
    time("count of all records", 5, [&] { return static_cast<size_t>(orDie(reader.recordCount(RecordFilter {}))); });
    // The Records view's model: open (first page + tasks + count, in a job) and fetch the next page.
    auto modelTime = [&](bool next) {
        models::RecordsModel model;
        QEventLoop loop;
        QObject::connect(&model, &models::RecordsModel::pageLoaded, &loop, &QEventLoop::quit);
        model.setWorkspace(QString::fromStdString(path));
        if (!next) {
            const auto start = Clock::now();
            loop.exec();
            return std::pair(msSince(start), model.rowCount());
        }
        loop.exec();
        const auto start = Clock::now();
        model.fetchMore({});
        loop.exec();
        return std::pair(msSince(start), model.rowCount());
    };
    for (bool next : { false, true }) {
        std::vector<double> ms;
        int rows = 0;
        for (int i = 0; i < 5; ++i)
            std::tie(ms.emplace_back(), rows) = modelTime(next);
        std::sort(ms.begin(), ms.end());
        std::printf("  %-46s median %8.3f ms   max %8.3f ms   (%d rows)\n",
            next ? "Records view model: fetch the next page" : "Records view model: open (first page, count)",
            ms[ms.size() / 2], ms.back(), rows);
    }
    std::printf("  records in the store: %lld\n", static_cast<long long>(orDie(reader.recordCount())));
    if (!server)
        for (const char* suffix : { "", "-wal", "-shm" })
            std::filesystem::remove(path + suffix);
    return 0;
}
