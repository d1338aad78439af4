// TVM DAG-hash keys matched to model-zoo tasks (core/store/network_match.h): the key's tensor order and
// spellings, a record of TVM's ResNet-18 log matched and replayed, a key whose shapes match nothing kept
// foreign and counted, tasks with equal shapes told apart by the replay check (or left ambiguous), and what
// an import of the network log makes of it.
#include "tests/core/store_fixtures.h"

#include "core/graph/model_zoo.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/schedule/step_json.h"
#include "core/store/network_match.h"
#include "core/support/strings.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace ts::store {
namespace {

    using namespace ts::store::test;
    using Json = nlohmann::json;
    using Shapes = std::vector<std::vector<int64_t>>;

    const std::string kCudaLog = (kLogs / "resnet-18-NHWC-B1-cuda.json").string();

    // Line `n` (1-based) of a log, parsed.
    LogRecord recordAt(const std::string& path, size_t n)
    {
        const std::vector<std::string> lines = split(readAll(path), '\n');
        auto parsed = parseLogLine(lines.at(n - 1));
        if (!parsed || !*parsed)
            throw std::runtime_error(path + ":" + std::to_string(n) + " is not a record");
        return std::move(**parsed);
    }

    DagHashKey keyOf(const LogRecord& r) { return parseDagHashKey(r.workloadKey).value().value(); }
    std::vector<sched::Step> stepsOf(const LogRecord& r) { return sched::parseSteps(r.steps).value(); }

    ZooTask zooTask(const std::string& network, ops::Layout layout, int id)
    {
        graph::TaskSet set = graph::extractTasks(graph::buildNetwork(network, 1, layout).value()).value();
        return ZooTask { network, 1, layout, set.tasks.at(static_cast<size_t>(id)) };
    }

    // resnet-18 NHWC task 4's computation (conv2d 3x3 stride 2, 64 -> 128 channels, plus bias) with another
    // epilogue: none, or relu6. Same tensors, same shapes.
    ZooTask convBiasWith(const std::string& epilogue)
    {
        ir::Tensor data = ir::placeholder("data", { 1, 56, 56, 64 });
        ir::Tensor weight = ir::placeholder("weight", { 3, 3, 64, 128 });
        ir::Tensor bias = ir::placeholder("bias", { 128 });
        ops::Conv2dParams params;
        params.layout = ops::Layout::NHWC;
        params.stride = { 2, 2 };
        params.padding = ops::Conv2dParams::symmetric(1, 1);
        ir::Tensor out = ops::biasAdd(ops::conv2d(data, weight, params).value(), bias, 3).value();
        if (epilogue == "relu6")
            out = ops::clip(out, 0.0, 6.0).value();
        graph::Task task;
        task.name = "conv2d_bias_add" + (epilogue.empty() ? "" : "_" + epilogue) + "_nhwc";
        task.dag = ir::ComputeDAG::create({ data, weight, bias, out });
        task.flops = task.dag.flopCount();
        return ZooTask { "test", 1, ops::Layout::NHWC, task };
    }

    TEST(NetworkMatch, TheKeyListsPlaceholdersDepthFirstFromTheOutputThenTheOutput)
    {
        // resnet-18 NHWC task 3: relu(conv2d(data, weight) + bias + residual).
        const ZooTask task = zooTask("resnet-18", ops::Layout::NHWC, 3);
        Shapes shapes;
        for (const ir::Tensor& t : tvmKeyTensors(task.task.dag))
            shapes.push_back(t->shape());
        EXPECT_EQ(
            shapes, (Shapes { { 1, 56, 56, 64 }, { 3, 3, 64, 64 }, { 64 }, { 1, 56, 56, 64 }, { 1, 56, 56, 64 } }));
    }

    TEST(NetworkMatch, KeysAreReadInTheirThreeSpellings)
    {
        const std::string hash = "07f9fcad27bdd3233f86fe35a5185d33";
        auto nested = parseDagHashKey("[\"" + hash + "\", [1, 7, 7, 512], [1, 1, 1, 512]]").value();
        ASSERT_TRUE(nested);
        EXPECT_EQ(nested->form, DagHashKey::Form::Nested);
        EXPECT_EQ(nested->shapes, (Shapes { { 1, 7, 7, 512 }, { 1, 1, 1, 512 } }));
        EXPECT_EQ(shapesText(*nested), "[1, 7, 7, 512], [1, 1, 1, 512]");
        auto flat = parseDagHashKey("[\"" + hash + "\", 1, 7, 7, 512, 1, 1, 1, 512]").value();
        ASSERT_TRUE(flat);
        EXPECT_EQ(flat->form, DagHashKey::Form::Flat);
        EXPECT_EQ(flat->shapes, (Shapes { { 1, 7, 7, 512, 1, 1, 1, 512 } }));
        auto bare = parseDagHashKey("[\"" + hash + "\"]").value();
        ASSERT_TRUE(bare);
        EXPECT_EQ(bare->form, DagHashKey::Form::Hash);
        EXPECT_FALSE(parseDagHashKey("[\"matmul_add\", 1024, 1024, 1024]").value());
        auto bad = parseDagHashKey("[\"" + hash + "\", [1, 7], \"float32\"]");
        ASSERT_FALSE(bad);
        EXPECT_NE(bad.error().message.find("element 2 is \"float32\", not a shape"), std::string::npos)
            << bad.error().message;
    }

    TEST(NetworkMatch, ARecordOfTvmsResNetLogMatchesItsZooTaskAndReplays)
    {
        // Line 3: ["07f9fcad...", [1, 56, 56, 64], [3, 3, 64, 128], [1, 1, 1, 128], [1, 28, 28, 128]], CUDA.
        const LogRecord r = recordAt(kCudaLog, 3);
        NetworkMatcher matcher;
        const NetworkMatch match = matcher.match(keyOf(r), stepsOf(r)).value();
        ASSERT_EQ(match.outcome, NetworkMatch::Outcome::Matched) << match.reason << ": " << match.detail;
        EXPECT_EQ(match.task->label(), "resnet-18 NHWC batch 1 task 4");
        EXPECT_EQ(match.task->task.name, "conv2d_bias_add_relu_nhwc");
        // The bias is [1, 1, 1, 128] in TVM's key (a folded batch norm) and [128] here: equal once unit
        // dimensions are dropped, so the task is the one candidate.
        EXPECT_EQ(match.candidates,
            (std::vector<std::string> { "resnet-18 NHWC batch 1 task 4 (conv2d_bias_add_relu_nhwc)" }));
        auto state = replayAndInferBound(match.task->task.dag, stepsOf(r));
        ASSERT_TRUE(state) << state.error().message;
        EXPECT_EQ(state->numStages(), 9); // the two shared-memory cache stages added
        // The same key spelled flat (TVM 0.8.dev) matches the same task.
        const std::string flatKey = "[\"07f9fcad27bdd3233f86fe35a5185d33\", 1, 56, 56, 64, 3, 3, 64, 128, 1, 1, 1, "
                                    "128, 1, 28, 28, 128]";
        const NetworkMatch flat = matcher.match(parseDagHashKey(flatKey).value().value(), stepsOf(r)).value();
        ASSERT_EQ(flat.outcome, NetworkMatch::Outcome::Matched);
        EXPECT_EQ(flat.task->label(), "resnet-18 NHWC batch 1 task 4");
    }

    TEST(NetworkMatch, AKeyWhoseShapesMatchNothingOrThatHasNoShapesIsNotMatched)
    {
        // Line 2: a 1x1 convolution without bias, which no zoo network has.
        const LogRecord r = recordAt(kCudaLog, 2);
        NetworkMatcher matcher;
        const NetworkMatch none = matcher.match(keyOf(r), stepsOf(r)).value();
        EXPECT_EQ(none.outcome, NetworkMatch::Outcome::NoShapeMatch);
        EXPECT_FALSE(none.task);
        EXPECT_EQ(none.reason, "no model-zoo task has the key's tensor shapes");
        EXPECT_EQ(none.detail, "[1, 56, 56, 64], [1, 1, 64, 64], [1, 56, 56, 64]");
        // A v0.3 key is the hash alone; this one's steps (a softmax over 1000 classes) replay on no zoo task.
        const LogRecord old = recordAt((kLogs / "resnet-18-NHWC-B1.json").string(), 3);
        const NetworkMatch bare = matcher.match(keyOf(old), stepsOf(old)).value();
        EXPECT_EQ(bare.outcome, NetworkMatch::Outcome::NoShapes);
        EXPECT_TRUE(bare.candidates.empty());
        EXPECT_EQ(bare.detail, "");
        // A key with the task's shapes whose steps are another task's does not replay.
        const LogRecord conv = recordAt(kCudaLog, 3);
        const NetworkMatch wrongSteps = matcher.match(keyOf(conv), stepsOf(r)).value();
        EXPECT_EQ(wrongSteps.outcome, NetworkMatch::Outcome::NoReplay);
        EXPECT_EQ(wrongSteps.detail.rfind("resnet-18 NHWC batch 1 task 4 (conv2d_bias_add_relu_nhwc): ", 0), 0u)
            << wrongSteps.detail;
    }

    TEST(NetworkMatch, AKeyWithoutShapesIsMatchedByItsStepsAloneWhenOneTaskFits)
    {
        // TVM's v0.3 ResNet-18 log keys tasks by the hash alone. Line 7 tiles a 7x7 stride-2 convolution
        // (its splits say 112 x 112 x 64 outputs, 7 x 7 x 3 reductions): only the network's first task fits.
        const std::string oldLog = (kLogs / "resnet-18-NHWC-B1.json").string();
        NetworkMatcher matcher;
        const LogRecord conv = recordAt(oldLog, 7);
        const NetworkMatch match = matcher.match(keyOf(conv), stepsOf(conv)).value();
        ASSERT_EQ(match.outcome, NetworkMatch::Outcome::Matched) << match.reason << ": " << match.detail;
        EXPECT_TRUE(match.stepsAlone);
        EXPECT_EQ(match.task->label(), "resnet-18 NHWC batch 1 task 0");
        // Line 5 fuses the four axes of a global average pool's output (512 elements): NCHW and NHWC alike.
        const LogRecord pool = recordAt(oldLog, 5);
        const NetworkMatch both = matcher.match(keyOf(pool), stepsOf(pool)).value();
        EXPECT_EQ(both.outcome, NetworkMatch::Outcome::Ambiguous);
        EXPECT_EQ(both.detail,
            "resnet-18 NCHW batch 1 task 16 (global_avg_pool2d), resnet-18 NHWC batch 1 task 16 (global_avg_pool2d)");
    }

    TEST(NetworkMatch, TasksWithEqualShapesAreToldApartByTheReplayCheck)
    {
        const LogRecord r = recordAt(kCudaLog, 3); // conv2d + bias + relu; its first step inlines the bias add
        const ZooTask relu = zooTask("resnet-18", ops::Layout::NHWC, 4);
        NetworkMatcher matcher({ convBiasWith(""), relu });
        const std::vector<const ZooTask*> candidates = matcher.candidates(keyOf(r)).value();
        ASSERT_EQ(candidates.size(), 2u); // both have the key's shapes
        const NetworkMatch match = matcher.match(keyOf(r), stepsOf(r)).value();
        // Without the relu the bias add is the output, which cannot be inlined: only the relu task replays.
        ASSERT_EQ(match.outcome, NetworkMatch::Outcome::Matched) << match.reason << ": " << match.detail;
        EXPECT_EQ(match.task->task.name, "conv2d_bias_add_relu_nhwc");
        EXPECT_EQ(match.candidates.size(), 2u);

        // relu and relu6 epilogues have the same stages: the steps replay on both, so neither is chosen.
        NetworkMatcher twoEpilogues({ relu, convBiasWith("relu6") });
        const NetworkMatch ambiguous = twoEpilogues.match(keyOf(r), stepsOf(r)).value();
        EXPECT_EQ(ambiguous.outcome, NetworkMatch::Outcome::Ambiguous);
        EXPECT_FALSE(ambiguous.task);
        EXPECT_EQ(ambiguous.detail,
            "resnet-18 NHWC batch 1 task 4 (conv2d_bias_add_relu_nhwc), test NHWC batch 1 task 0 "
            "(conv2d_bias_add_relu6_nhwc)");
    }

    // TuneScope's own key (its hash of the DAG and the shapes, as `export` writes a task it tuned): the hash names
    // the DAG, so the relu6 task TVM's hash leaves ambiguous is found, and a DAG no candidate is stays unmatched.
    TEST(NetworkMatch, TuneScopesOwnHashNamesItsDagExactly)
    {
        const LogRecord r = recordAt(kCudaLog, 3);
        const ZooTask relu = zooTask("resnet-18", ops::Layout::NHWC, 4);
        const ZooTask relu6 = convBiasWith("relu6");
        Json key = Json::parse(r.workloadKey);
        key[0] = relu6.task.dag.workloadKey();
        ASSERT_TRUE(isDagHashKey(key.dump()));
        const DagHashKey own = parseDagHashKey(key.dump()).value().value();
        EXPECT_TRUE(own.own());
        EXPECT_FALSE(keyOf(r).own());
        NetworkMatcher twoEpilogues({ relu, relu6 });
        const NetworkMatch match = twoEpilogues.match(own, stepsOf(r)).value();
        ASSERT_EQ(match.outcome, NetworkMatch::Outcome::Matched) << match.reason << ": " << match.detail;
        EXPECT_EQ(match.task->task.name, "conv2d_bias_add_relu6_nhwc");

        key[0] = convBiasWith("").task.dag.workloadKey(); // the shapes fit, but neither candidate is this DAG
        const NetworkMatch none = twoEpilogues.match(parseDagHashKey(key.dump()).value().value(), stepsOf(r)).value();
        EXPECT_EQ(none.outcome, NetworkMatch::Outcome::NoShapeMatch);
        EXPECT_NE(none.reason.find("TuneScope's own hash"), std::string::npos) << none.reason;

        // Without shapes (an export older than the shapes), the zoo at batch 1 is searched for the DAG.
        NetworkMatcher zoo;
        const NetworkMatch bare
            = zoo.match(
                     parseDagHashKey(Json::array({ relu.task.dag.workloadKey() }).dump()).value().value(), stepsOf(r))
                  .value();
        ASSERT_EQ(bare.outcome, NetworkMatch::Outcome::Matched) << bare.reason << ": " << bare.detail;
        EXPECT_EQ(bare.task->task.dag.workloadKey(), relu.task.dag.workloadKey());
    }

    TEST(NetworkMatch, ImportingTheNetworkLogMakesMatchedRecordsDataAndCountsTheRest)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const ImportReport report = importOrDie(store, kCudaLog);
        EXPECT_EQ(report.added, 24);
        EXPECT_EQ(report.tasks, 24);
        EXPECT_EQ(report.hashTasks, 24);
        // Four strided conv2d+bias+relu, the global average pool and the dense layer; the others are
        // Winograd convolutions, bias-free 1x1 convolutions, softmax and a max pool fused with its bias.
        EXPECT_EQ(report.matchedTasks, 6);
        EXPECT_EQ(report.linked, 6);
        EXPECT_EQ(report.replayed, 6);
        EXPECT_EQ(report.foreign, 18);
        ASSERT_EQ(report.notData.size(), 1u);
        EXPECT_EQ(report.notData[0].reason, "no model-zoo task has the key's tensor shapes");
        EXPECT_EQ(report.notData[0].records, 18);
        EXPECT_EQ(report.notData[0].tasks, 18);
        EXPECT_EQ(report.notData[0].example.rfind("line 1: dag 1097323f: [1, 14, 14, 256], ", 0), 0u);
        const std::vector<std::string> lines = report.dataLines();
        ASSERT_EQ(lines.size(), 2u);
        EXPECT_EQ(lines[0],
            kCudaLog
                + ": training data: 6 of 24 records replay (24 tasks, 6 of 24 DAG-hash tasks matched to "
                  "model-zoo tasks)");
        EXPECT_EQ(lines[1].rfind(kCudaLog + ":   18 records (18 tasks): no model-zoo task has the key's", 0), 0u);

        // The matched tasks are stored as registered workloads are: rebuildable, with DAG text and FLOPs, and
        // the DAG rebuilt from the stored task replays the stored steps.
        int matched = 0;
        for (const TaskInfo& task : store.tasks().value()) {
            if (!task.rebuildable)
                continue;
            ++matched;
            auto dag = rebuildTask(task);
            ASSERT_TRUE(dag) << task.name << ": " << dag.error().message;
            EXPECT_EQ(dag->toString(), task.dagText);
            EXPECT_EQ(task.flops, dag->flopCount());
            EXPECT_GT(task.flops, 0.0);
            RecordFilter filter;
            filter.taskIds = { task.id };
            for (const Record& record : store.records(filter).value()) {
                auto state = replayAndInferBound(*dag, sched::parseSteps(record.steps).value());
                EXPECT_TRUE(state) << task.name << ": " << state.error().message;
            }
        }
        EXPECT_EQ(matched, 6);
        EXPECT_TRUE(store.findTask(recordAt(kCudaLog, 3).workloadKey).value()->name
            == "conv2d_bias_add_relu_nhwc (resnet-18 NHWC batch 1 task 4)");
    }

    TEST(NetworkMatch, AnUnmatchedKeyIsKeptForeignAndCountedByReason)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const std::vector<std::string> lines = split(readAll(kCudaLog), '\n');
        const std::vector<std::string> old = split(readAll((kLogs / "resnet-18-NHWC-B1.json").string()), '\n');
        // A 1x1 convolution without bias (no zoo task has it), twice, and a v0.3 record keyed by the hash alone.
        Json second = Json::parse(lines[1]);
        second["r"][3] = 1;
        const std::string path = dir.write("mixed.json", lines[1] + "\n" + second.dump() + "\n" + old[2] + "\n");
        const ImportReport report = importOrDie(store, path);
        EXPECT_EQ(report.added, 3);
        EXPECT_EQ(report.foreign, 3);
        EXPECT_EQ(report.replayed, 0);
        EXPECT_EQ(report.matchedTasks, 0);
        ASSERT_EQ(report.notData.size(), 2u);
        EXPECT_EQ(report.notData[0].reason, "no model-zoo task has the key's tensor shapes");
        EXPECT_EQ(report.notData[0].records, 2);
        EXPECT_EQ(report.notData[0].tasks, 1);
        EXPECT_EQ(report.notData[0].example, "line 1: dag 2d10de66: [1, 56, 56, 64], [1, 1, 64, 64], [1, 56, 56, 64]");
        EXPECT_EQ(report.notData[1].reason,
            "the key carries no tensor shapes (TVM before 0.8 hashed the DAG alone) and the steps replay on no "
            "model-zoo task");
        EXPECT_EQ(report.notData[1].example, "line 3: dag b32ed43f");
        EXPECT_EQ(report.notData[1].records, 1);
        for (const TaskInfo& task : store.tasks().value()) {
            EXPECT_FALSE(task.rebuildable);
            EXPECT_EQ(task.name.rfind("dag ", 0), 0u);
            EXPECT_FALSE(rebuildTask(task));
        }
    }

} // namespace
} // namespace ts::store
