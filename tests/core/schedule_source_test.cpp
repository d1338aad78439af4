// The schedule resolver (core/store/schedule_source.h): each kind of source gives the DAG and the replayed
// state, and each way of naming something wrong gives one exact message.
#include "tests/core/store_fixtures.h"

#include "core/graph/model_zoo.h"
#include "core/graph/workload_registry.h"
#include "core/schedule/step_json.h"
#include "core/store/schedule_source.h"
#include "core/store/tvm_log.h"

#include <gtest/gtest.h>

namespace ts::store {
namespace {

    using test::TempDir;

    const std::string kData = TS_TEST_DATA_DIR;
    const std::string kMatmulLog = kData + "/tvm-logs/matmul.json";

    std::vector<std::string> stageNames(const sched::State& state)
    {
        std::vector<std::string> names;
        for (int i = 0; i < state.numStages(); ++i)
            names.push_back(state.stage(i).op->name());
        return names;
    }

    // Built member by member: GCC 12 warns (-Wmaybe-uninitialized) on a braced variant of nested aggregates.
    ScheduleSource networkTask(
        const std::string& name, int64_t task, int64_t batch = 1, ops::Layout layout = ops::Layout::NCHW)
    {
        NetworkTaskRef ref;
        ref.network.name = name;
        ref.network.batch = batch;
        ref.network.layout = layout;
        ref.task = task;
        ScheduleSource source;
        source.what = ref;
        return source;
    }

    ResolvedSchedule resolveOrDie(const ScheduleSource& source)
    {
        auto resolved = resolveSchedule(source);
        EXPECT_TRUE(resolved) << resolved.error().message;
        return std::move(resolved).value();
    }

    Error resolveError(const ScheduleSource& source)
    {
        auto resolved = resolveSchedule(source);
        EXPECT_FALSE(resolved) << "resolved: " << resolved->title;
        return resolved ? Error {} : resolved.error();
    }

    // A matmul_add record, TVM v0.3 style, with the given steps.
    std::string matmulAddRecord(const std::string& steps)
    {
        return R"({"i": [["[\"matmul_add\", 64, 64, 64, \"float32\"]", "llvm -keys=cpu", [2, 64, 64, 0, 0, 0, 0, 0]], )"
               R"([[], )"
            + steps + R"(]], "r": [[0.0001], 0, 0.2, 1700000000], "v": "v0.3"})";
    }

    TEST(ScheduleSource, NetworkTaskGivesItsDagAndTheDefaultSchedule)
    {
        const ResolvedSchedule r = resolveOrDie(networkTask("resnet-18", 3));
        EXPECT_EQ(r.title, "resnet-18 task 3 (conv2d_bias_add_add_relu_nchw)");
        EXPECT_EQ(r.name, "conv2d_bias_add_add_relu_nchw");
        ASSERT_TRUE(r.task);
        EXPECT_EQ(r.task->id, 3);
        EXPECT_EQ(r.task->weight, 2);
        const graph::TaskSet tasks = loadNetworkTasks(NetworkRef { "resnet-18" }).value();
        EXPECT_EQ(r.dag.workloadKey(), tasks.tasks[3].dag.workloadKey());
        EXPECT_DOUBLE_EQ(r.flops, tasks.tasks[3].dag.flopCount());
        EXPECT_TRUE(r.steps.empty());
        EXPECT_EQ(r.state.toString(), sched::State::initial(r.dag).toString());
        EXPECT_FALSE(r.record);
    }

    TEST(ScheduleSource, BatchAndLayoutReachTheNetwork)
    {
        const ResolvedSchedule r = resolveOrDie(networkTask("resnet-18", 0, 2, ops::Layout::NHWC));
        EXPECT_EQ(r.dag.ops().front()->shape(), (std::vector<int64_t> { 2, 224, 224, 3 }));
    }

    TEST(ScheduleSource, WorkloadGivesTheRegisteredDag)
    {
        const ResolvedSchedule r = resolveOrDie({ WorkloadRef { "matmul_add:64,32,48" } });
        EXPECT_EQ(r.title, "matmul_add:64,32,48");
        EXPECT_EQ(r.name, "matmul_add");
        EXPECT_EQ(stageNames(r.state), (std::vector<std::string> { "A", "B", "matmul", "C", "out" }));
        EXPECT_DOUBLE_EQ(r.flops, 64.0 * 48 * (2 * 32 + 1));
        EXPECT_TRUE(r.steps.empty());
        EXPECT_FALSE(r.task);
    }

    TEST(ScheduleSource, RecordGivesItsWorkloadItsStepsAndItsTarget)
    {
        const ResolvedSchedule r = resolveOrDie({ RecordRef { kMatmulLog, 2 } });
        EXPECT_EQ(r.title, "matmul_add from " + kMatmulLog + ":2");
        EXPECT_EQ(r.name, "matmul_add");
        EXPECT_EQ(r.dag.toString(),
            graph::buildWorkload(graph::parseWorkloadSpec("matmul_add:1024,1024,1024").value()).value().toString());
        EXPECT_EQ(r.steps.size(), 13u);
        EXPECT_EQ(r.state.steps().size(), 13u);
        EXPECT_EQ(sched::stepsToJson(r.steps)[0].dump(), R"(["SP",2,0,1024,[2,1,4],1])");
        EXPECT_NE(r.state.toString().find("parallel i.0@j.0@"), std::string::npos) << r.state.toString();
        ASSERT_TRUE(r.record);
        EXPECT_EQ(r.record->target, "llvm -keys=cpu");
        ASSERT_TRUE(r.record->hardwareParams);
        EXPECT_EQ((*r.record->hardwareParams)[0], 18);
        EXPECT_EQ(r.record->result.costs.size(), 1u);
    }

    TEST(ScheduleSource, ADagHashRecordGivesTheModelZooTaskItMatches)
    {
        const std::string cuda = kData + "/tvm-logs/resnet-18-NHWC-B1-cuda.json";
        const ResolvedSchedule r = resolveOrDie({ RecordRef { cuda, 3 } });
        EXPECT_EQ(r.title, "conv2d_bias_add_relu_nhwc (resnet-18 NHWC batch 1 task 4) from " + cuda + ":3");
        const graph::TaskSet tasks = loadNetworkTasks(NetworkRef { "resnet-18", 1, ops::Layout::NHWC }).value();
        EXPECT_EQ(r.dag.toString(), tasks.tasks[4].dag.toString());
        EXPECT_DOUBLE_EQ(r.flops, tasks.tasks[4].flops);
        ASSERT_TRUE(r.task);
        EXPECT_EQ(r.task->id, 4);
        EXPECT_EQ(r.steps.size(), 37u);
        ASSERT_TRUE(r.record);
        EXPECT_EQ(r.record->target.rfind("cuda", 0), 0u);
    }

    TEST(ScheduleSource, EveryRecordVersionTheImporterReadsResolves)
    {
        TempDir dir;
        const std::string steps = R"([["SP", 2, 0, 64, [8], 1], ["AN", 2, 0, 3]])";
        const std::string v3 = matmulAddRecord(steps);
        const std::string v2 = R"({"i": [["[\"matmul_add\", 64, 64, 64, \"float32\"]", "llvm"], [[], )" + steps
            + R"(]], "r": [[0.0001], 0, 0.2, 1700000000], "v": "v0.2"})";
        const std::string v6 = formatAnsorLine(parseLogLine(v3).value().value());
        ASSERT_NE(v6.find("\"v0.6\""), std::string::npos);
        // CRLF line ends and a last line without one, as files from other systems have them.
        const std::string path = dir.write("versions.json", "# versions\r\n" + v2 + "\r\n" + v3 + "\n" + v6);
        const std::string expected = resolveOrDie({ RecordRef { path, 3 } }).state.toString();
        for (int64_t line : { 2, 4 }) {
            const ResolvedSchedule r = resolveOrDie({ RecordRef { path, line } });
            EXPECT_EQ(r.steps.size(), 2u) << "line " << line;
            EXPECT_EQ(r.state.toString(), expected) << "line " << line;
        }
        EXPECT_FALSE(resolveOrDie({ RecordRef { path, 2 } }).record->hardwareParams); // v0.2 has none
    }

    TEST(ScheduleSource, StepsFileReplacesTheSteps)
    {
        const std::string split = kData + "/matmul_split.json";
        const ResolvedSchedule w = resolveOrDie({ WorkloadRef { "matmul:64,64,64" }, split });
        ASSERT_EQ(w.steps.size(), 3u);
        EXPECT_EQ(w.state.steps().size(), 3u);
        EXPECT_EQ(stageNames(w.state), (std::vector<std::string> { "A", "B", "matmul" }));
        EXPECT_EQ(w.state.stage(2).iters.size(), 4u); // i, j.0, j.1, k

        // On a record: its workload, the file's steps.
        TempDir dir;
        const std::string log = dir.write("log.json", matmulAddRecord(R"([["AN", 2, 0, 3]])") + "\n");
        const std::string steps = dir.write("steps.json", R"([["SP", 2, 1, 64, [8], 1]])");
        const ResolvedSchedule r = resolveOrDie({ RecordRef { log, 1 }, steps });
        ASSERT_EQ(r.steps.size(), 1u);
        EXPECT_EQ(sched::stepsToJson(r.steps)[0].dump(), R"(["SP",2,1,64,[8],1])");
        EXPECT_EQ(r.name, "matmul_add");
    }

    TEST(ScheduleSource, TaskRangeIsCheckedOnceWithTheRange)
    {
        EXPECT_EQ(resolveError(networkTask("resnet-18", 18)).message,
            "task 18 is out of range: resnet-18 has 18 tasks (0..17)");
        ScheduleSource negativeSource = networkTask("bert-tiny", -1);
        std::get<NetworkTaskRef>(negativeSource.what).taskLabel = "--task";
        const Error negative = resolveError(negativeSource);
        EXPECT_EQ(negative.kind, ErrorKind::InvalidArgument);
        EXPECT_EQ(negative.message, "--task -1 is out of range: bert-tiny has 8 tasks (0..7)");
        graph::TaskSet empty;
        empty.network = "nothing";
        EXPECT_EQ(findTask(empty, 0).error().message, "task 0 is out of range: nothing has 0 tasks");
        const graph::TaskSet tasks = loadNetworkTasks(NetworkRef { "resnet-18" }).value();
        EXPECT_EQ(findTask(tasks, 17).value(), &tasks.tasks[17]);
    }

    TEST(ScheduleSource, NetworkErrorsComeFromTheModelZoo)
    {
        std::string known;
        for (const graph::NetworkInfo& n : graph::networks())
            known += (known.empty() ? "" : ", ") + n.name;
        const Error unknown = resolveError(networkTask("resnet-19", 0));
        EXPECT_EQ(unknown.kind, ErrorKind::NotFound);
        EXPECT_EQ(unknown.message, "unknown network 'resnet-19' (known: " + known + ")");
        EXPECT_EQ(resolveError(networkTask("resnet-18", 0, 0)).message, "batch must be between 1 and 4096, got 0");
    }

    TEST(ScheduleSource, RecordReferenceErrors)
    {
        const std::string m = kMatmulLog;
        EXPECT_EQ(resolveError({ RecordRef { m, 0 } }).message, m + ":0: no such line (lines count from 1)");
        EXPECT_EQ(resolveError({ RecordRef { m, -3 } }).message, m + ":-3: no such line (lines count from 1)");
        EXPECT_EQ(resolveError({ RecordRef { m, 3 } }).message, m + ":3: no such line (the file has 2 lines)");
        EXPECT_EQ(resolveError({ RecordRef { m, 99 } }).message, m + ":99: no such line (the file has 2 lines)");
        EXPECT_EQ(resolveError({ RecordRef { m, 1 } }).message,
            m + ":1: not an auto_scheduler record (a comment or blank line)");
        const Error missing = resolveError({ RecordRef { "/nonexistent.json", 1 } });
        EXPECT_EQ(missing.kind, ErrorKind::Io);
        EXPECT_EQ(missing.message, "cannot open /nonexistent.json");

        TempDir dir;
        // Counting lines: a last line without '\n' counts, an empty file has none.
        const std::string one = dir.write("one.json", "# only");
        EXPECT_EQ(resolveError({ RecordRef { one, 2 } }).message, one + ":2: no such line (the file has 1 line)");
        const std::string empty = dir.write("empty.json", "");
        EXPECT_EQ(resolveError({ RecordRef { empty, 1 } }).message, empty + ":1: no such line (the file has 0 lines)");
        const std::string blank = dir.write("blank.json", "\n\n");
        EXPECT_EQ(resolveError({ RecordRef { blank, 2 } }).message,
            blank + ":2: not an auto_scheduler record (a comment or blank line)");
        EXPECT_EQ(resolveError({ RecordRef { blank, 3 } }).message, blank + ":3: no such line (the file has 2 lines)");
    }

    TEST(ScheduleSource, MalformedRecordsSayWhatTheImporterSays)
    {
        const std::string malformed = kData + "/malformed-log.json";
        EXPECT_EQ(resolveError({ RecordRef { malformed, 5 } }).message,
            malformed + ":5: not an auto_scheduler record: r[1] (error_no) is 42, outside 0..8");
        EXPECT_EQ(resolveError({ RecordRef { malformed, 3 } }).message,
            malformed + ":3: not an auto_scheduler record: i[1][1] (steps): step 0: unknown step code \"XX\"");

        TempDir dir;
        const std::string longLine = dir.write("long.json", std::string(kMaxLogLineBytes + 10, 'x') + "\n");
        const Error tooLong = resolveError({ RecordRef { longLine, 1 } });
        EXPECT_EQ(tooLong.kind, ErrorKind::Parse);
        EXPECT_EQ(tooLong.message, longLine + ":1: the line is over the 1048576-byte limit of a record");
    }

    TEST(ScheduleSource, RecordsWhoseWorkloadCannotBeRebuilt)
    {
        const std::string foreign = kData + "/tvm-logs/resnet-18-NHWC-B1.json";
        const Error hash = resolveError({ RecordRef { foreign, 3 } });
        EXPECT_EQ(hash.kind, ErrorKind::NotFound);
        EXPECT_EQ(hash.message,
            foreign
                + ":3: unknown workload 'b32ed43fb351136894c322ee49097a1a' (a TVM DAG hash): the key carries no "
                  "tensor shapes (TVM before 0.8 hashed the DAG alone) and the steps replay on no model-zoo task");
        // A DAG hash with shapes no model-zoo task has.
        const std::string cuda = kData + "/tvm-logs/resnet-18-NHWC-B1-cuda.json";
        const Error shapes = resolveError({ RecordRef { cuda, 2 } });
        EXPECT_EQ(shapes.kind, ErrorKind::NotFound);
        EXPECT_EQ(shapes.message,
            cuda
                + ":2: unknown workload '2d10de6646307f0e3e5cf4b31c20e69b' (a TVM DAG hash): no model-zoo task has "
                  "the key's tensor shapes ([1, 56, 56, 64], [1, 1, 64, 64], [1, 56, 56, 64])");

        TempDir dir;
        const std::string float16 = dir.write("f16.json",
            R"({"i": [["[\"matmul_add\", 4, 4, 4, \"float16\"]", "llvm"], [[], []]], "r": [[0.1], 0, 0.1, 1], "v": "v0.2"})");
        const Error dtype = resolveError({ RecordRef { float16, 1 } });
        EXPECT_EQ(dtype.kind, ErrorKind::Unsupported);
        EXPECT_EQ(dtype.message, float16 + ":1: workload matmul_add: dtype float16 (only float32)");

        const std::string autotvm = dir.write("autotvm.log",
            R"({"input": ["llvm", "dense_nopack.x86", [["TENSOR", [1, 512], "float32"], ["TENSOR", [1000, 512], )"
            R"("float32"], null, "float32"], {}], "config": {"index": 3, "code_hash": null, "entity": []}, )"
            R"("result": [[0.001], 0, 0.5, 1676344759.5], "version": 0.2, "tvm_version": "0.10.0"})");
        // An AutoTVM record whose entity does not fit the template's space for its args.
        const Error tvm = resolveError({ RecordRef { autotvm, 1 } });
        EXPECT_EQ(tvm.kind, ErrorKind::InvalidArgument);
        EXPECT_EQ(tvm.message.rfind(autotvm + ":1: its config: ", 0), 0u) << tvm.message;
        const std::string packed = dir.write("packed.log",
            R"({"input": ["llvm", "dense_cblas.x86", [["TENSOR", [1, 512], "float32"], ["TENSOR", [1000, 512], )"
            R"("float32"], null, "float32"], {}], "config": {"index": 3, "code_hash": null, "entity": []}, )"
            R"("result": [[0.001], 0, 0.5, 1676344759.5], "version": 0.2, "tvm_version": "0.10.0"})");
        const Error noTemplate = resolveError({ RecordRef { packed, 1 } });
        EXPECT_EQ(noTemplate.kind, ErrorKind::Unsupported);
        EXPECT_NE(
            noTemplate.message.find("template 'dense_cblas.x86', which TuneScope does not have"), std::string::npos)
            << noTemplate.message;
    }

    // The reference notes' AutoTVM line (TVM 0.10, conv2d_NCHWc.x86 on ResNet's first convolution, index 172):
    // the workload is rebuilt from its args and its config instantiated as steps that replay.
    TEST(ScheduleSource, AutotvmRecordsReplayThroughTheirTemplate)
    {
        const std::string log = kData + "/autotvm/conv2d_NCHWc-resnet-first.json";
        auto resolved = resolveSchedule({ RecordRef { log, 1 } });
        ASSERT_TRUE(resolved) << resolved.error().message;
        EXPECT_EQ(resolved->name, "conv2d_NCHWc.x86");
        EXPECT_EQ(resolved->title, "conv2d_NCHWc.x86 config 172 from " + log + ":1");
        EXPECT_FALSE(resolved->steps.empty());
        EXPECT_NEAR(resolved->flops, 2.0 * 64 * 112 * 112 * 3 * 7 * 7, 1.0);
        ASSERT_TRUE(resolved->record);
        EXPECT_EQ(resolved->record->kind, RecordKind::AutoTvm);
    }

    // TVM's pre-tuned x86 configs (tophub llvm_v0.04.log: ResNet-50's and VGG's convolutions, TVM 0.7, written
    // with the split's outer size, [1, 64]) resolve through conv2d_NCHWc.x86 as TVM builds it: data and kernel
    // packed by the config's tile_ic / tile_oc.
    TEST(ScheduleSource, TvmsTophubX86RecordsResolveToThePackedProgram)
    {
        const std::string log = kData + "/autotvm/tophub-llvm_v0.04.log";
        int records = 0;
        for (int64_t line = 3; line <= 37; ++line) {
            auto resolved = resolveSchedule({ RecordRef { log, line } });
            ASSERT_TRUE(resolved) << resolved.error().message;
            ++records;
            EXPECT_EQ(resolved->name, "conv2d_NCHWc.x86");
            int packed = 0;
            for (const ir::Tensor& op : resolved->dag.ops())
                packed += op->isPlaceholder() && op->shape().size() >= 5;
            EXPECT_EQ(packed, 2) << log << ":" << line;
        }
        EXPECT_EQ(records, 35);
        // Line 4: ResNet's 3x3 conv on 64x56x56, tile_ic [1, 64], tile_oc [2, 32]: data [1, 1, 56, 56, 64], kernel
        // [2, 1, 3, 3, 64, 32].
        auto second = resolveSchedule({ RecordRef { log, 4 } });
        ASSERT_TRUE(second) << second.error().message;
        std::vector<std::vector<int64_t>> shapes;
        for (const ir::Tensor& op : second->dag.ops())
            if (op->isPlaceholder())
                shapes.push_back(op->shape());
        EXPECT_EQ(shapes, (std::vector<std::vector<int64_t>> { { 1, 1, 56, 56, 64 }, { 2, 1, 3, 3, 64, 32 } }));
    }

    TEST(ScheduleSource, StepErrorsNameWhereTheStepsCameFrom)
    {
        const std::string unknown = kData + "/unknown_step.json";
        const Error parse = resolveError({ WorkloadRef { "matmul:64,64,64" }, unknown });
        EXPECT_EQ(parse.kind, ErrorKind::Parse);
        EXPECT_EQ(parse.message, unknown + ": step 0: unknown step code \"XX\"");

        const std::string badIterator = kData + "/bad_iterator.json";
        EXPECT_EQ(resolveError({ WorkloadRef { "matmul:64,64,64" }, badIterator }).message,
            badIterator + ": step 0 (SP): stage 2 (matmul): iterator 9 out of range (3 iterators)");

        EXPECT_EQ(resolveError({ WorkloadRef { "matmul:64,64,64" }, "/nonexistent-steps.json" }).message,
            "cannot open /nonexistent-steps.json");

        // A record's own steps that parse but do not replay.
        TempDir dir;
        const std::string log = dir.write("log.json", matmulAddRecord(R"([["SP", 2, 7, 64, [8], 1]])"));
        EXPECT_EQ(resolveError({ RecordRef { log, 1 } }).message,
            log + ":1: step 0 (SP): stage 2 (matmul): iterator 7 out of range (3 iterators)");
    }

    TEST(ScheduleSource, WorkloadErrorsComeFromTheRegistry)
    {
        EXPECT_EQ(resolveError({ WorkloadRef { "conv9d:1" } }).message.substr(0, 25), "unknown workload 'conv9d'");
        EXPECT_EQ(resolveError({ WorkloadRef { "matmul:1,2" } }).message, "workload matmul takes 3 arguments, got 2");
    }

} // namespace
} // namespace ts::store
