// Networks: task counts and weights (pinned, so a change in fusion or dedup is seen), and total
// multiply-accumulates within 3% of the published figures.
#include "core/graph/model_zoo.h"
#include "core/graph/op_tasks.h"
#include "core/graph/task_extraction.h"
#include "core/graph/workload_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace ts;
using namespace ts::graph;

namespace {
TaskSet tasksOf(const std::string& name, int64_t batch = 1, ops::Layout layout = ops::Layout::NCHW)
{
    auto g = buildNetwork(name, batch, layout);
    EXPECT_TRUE(g) << g.error().toString();
    auto tasks = extractTasks(*g);
    EXPECT_TRUE(tasks) << tasks.error().toString();
    return *tasks;
}

std::vector<int> weights(const TaskSet& set)
{
    std::vector<int> w;
    for (const Task& t : set.tasks)
        w.push_back(t.weight);
    return w;
}
} // namespace

TEST(ModelZoo, ResNet18TasksAndWeights)
{
    TaskSet set = tasksOf("resnet-18");
    // conv1, maxpool, 2 tasks in layer1, 4 in each of layers 2-4 (first conv, conv+residual, downsample,
    // second conv), global pool, dense.
    ASSERT_EQ(set.tasks.size(), 18u);
    EXPECT_EQ(weights(set), (std::vector<int> { 1, 1, 2, 2, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 1 }));
    EXPECT_EQ(set.totalWeight(), 23);
    EXPECT_EQ(set.tasks[3].fusedOps, (std::vector<std::string> { "conv2d", "bias_add", "add", "relu" }));
    EXPECT_EQ(set.tasks[1].anchor, NodeKind::MaxPool2d);
    EXPECT_EQ(set.tasks.back().anchor, NodeKind::Dense);
    // Every conv appears: 1 + 16 (4 stages x 2 blocks x 2) + 3 downsample = 20 conv instances.
    int convs = 0;
    for (const Task& t : set.tasks)
        convs += t.anchor == NodeKind::Conv2d ? t.weight : 0;
    EXPECT_EQ(convs, 20);
}

TEST(ModelZoo, MobileNetV2TasksAndWeights)
{
    TaskSet set = tasksOf("mobilenet-v2");
    EXPECT_EQ(set.tasks.size(), 32u);
    EXPECT_EQ(set.totalWeight(), 54);
    // 17 inverted residual blocks -> 17 depthwise convs.
    int depthwise = 0;
    for (const Task& t : set.tasks)
        depthwise += t.anchor == NodeKind::DepthwiseConv2d ? t.weight : 0;
    EXPECT_EQ(depthwise, 17);
    // Heaviest: the 64 -> 384 expansion, in blocks 2-4 of the 64-channel stage and in the first 96-channel block.
    const std::vector<int> w = weights(set);
    EXPECT_EQ(*std::max_element(w.begin(), w.end()), 4);
}

TEST(ModelZoo, PublishedMultiplyAccumulates)
{
    for (const NetworkInfo& info : networks()) {
        if (info.publishedGMacs <= 0)
            continue;
        TaskSet set = tasksOf(info.name);
        const double gmacs = set.totalMacs() / 1e9;
        EXPECT_NEAR(gmacs, info.publishedGMacs, 0.03 * info.publishedGMacs) << info.name;
        // All arithmetic, element-wise included, is at least the MACs' two operations each.
        EXPECT_GE(set.totalFlops(), 2 * set.totalMacs()) << info.name;
        EXPECT_LE(set.totalFlops(), 2.1 * set.totalMacs()) << info.name;
    }
}

TEST(ModelZoo, BatchScalesWorkAndLayoutKeepsIt)
{
    const double one = tasksOf("resnet-18").totalFlops();
    EXPECT_NEAR(tasksOf("resnet-18", 4).totalFlops(), 4 * one, 1e-6 * one);
    TaskSet nhwc = tasksOf("resnet-18", 1, ops::Layout::NHWC);
    EXPECT_NEAR(nhwc.totalFlops(), one, 1e-9 * one);
    EXPECT_EQ(nhwc.tasks.size(), 18u);
    EXPECT_NE(nhwc.tasks[2].dag.workloadKey(), tasksOf("resnet-18").tasks[2].dag.workloadKey());
}

TEST(ModelZoo, EveryNetworkBuilds)
{
    for (const NetworkInfo& info : networks()) {
        TaskSet set = tasksOf(info.name);
        EXPECT_FALSE(set.tasks.empty()) << info.name;
        for (const Task& t : set.tasks)
            EXPECT_GT(t.flops, 0) << info.name << " task " << t.id;
    }
    TaskSet bert = tasksOf("bert-base");
    // QKV dense (36), two batch matmuls, softmax, output dense, layer norm (24), two FFN denses.
    EXPECT_EQ(weights(bert), (std::vector<int> { 36, 12, 12, 12, 12, 24, 12, 12 }));
    EXPECT_NEAR(bert.totalMacs() / 1e9, 11.18, 0.05);
}

TEST(ModelZoo, BadRequestsGiveClearErrors)
{
    auto unknown = buildNetwork("resnet-19", 1);
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().kind, ErrorKind::NotFound);
    EXPECT_NE(unknown.error().message.find("unknown network 'resnet-19'"), std::string::npos);
    auto zero = buildNetwork("resnet-18", 0);
    ASSERT_FALSE(zero);
    EXPECT_EQ(zero.error().message, "batch must be between 1 and 4096, got 0");
    auto layout = buildNetwork("bert-tiny", 1, ops::Layout::NHWC);
    ASSERT_FALSE(layout);
    EXPECT_NE(layout.error().message.find("no image layout"), std::string::npos);
}

TEST(Graph, InvalidNodeIsRecordedOnce)
{
    Graph g("tiny", ops::Layout::NCHW, 1);
    int x = g.input("data", { 1, 3, 4, 4 });
    int bad = g.conv2d(x, 8, 7, 1, 0);
    EXPECT_EQ(bad, -1);
    EXPECT_EQ(g.relu(bad), -1);
    ASSERT_TRUE(g.error().has_value());
    EXPECT_NE(g.error()->message.find("tiny, node conv2d_1: conv2d_nchw: window of 7"), std::string::npos);
    EXPECT_FALSE(extractTasks(g));
}

// Nodes no task claims run fused: a group grows back from its sink over producers whose every reader is in the
// group (a diamond such as GELU's x * f(x) is one kernel); a producer read outside stays a group of its own,
// and a reshape stays a view.
TEST(Partition, NodesOutsideTasksFuseIntoOneKernelPerSink)
{
    auto kindsOf = [](const Graph& g, const Group& group) {
        std::string out;
        for (int n : group.nodes)
            out += (out.empty() ? "" : " ") + std::string(toString(g.node(n).kind));
        return out;
    };
    auto groupsOf = [&](const Graph& g) {
        auto partition = partitionGraph(g);
        EXPECT_TRUE(partition) << partition.error().message;
        std::vector<std::string> out;
        for (const Group& group : partition->groups)
            out.push_back((group.task >= 0 ? "task: " : "") + kindsOf(g, group));
        return out;
    };
    {
        Graph g("diamond", ops::Layout::NCHW, 1);
        const int x = g.input("data", { 16, 64 });
        const int d = g.dense(x, 64);
        const int t = g.transpose(d, { 1, 0 });
        const int m = g.multiply(t, g.scale(t, 0.7));
        g.relu(g.reshape(m, { 1024 }));
        EXPECT_EQ(
            groupsOf(g), (std::vector<std::string> { "task: dense", "transpose scale multiply", "reshape", "relu" }));
    }
    {
        Graph g("escape", ops::Layout::NCHW, 1);
        const int x = g.input("data", { 16, 64 });
        const int d = g.dense(x, 64);
        const int t = g.transpose(d, { 1, 0 });
        const int s = g.scale(t, 0.7);
        g.multiply(t, s);
        g.relu(s); // s is read outside multiply's group: its own kernel, and so is t, read by both
        EXPECT_EQ(groupsOf(g), (std::vector<std::string> { "task: dense", "transpose", "scale", "multiply", "relu" }));
    }
    {
        // An embedding lookup is data movement, never a task: it fuses into the positional add that reads it, and
        // its ids come from the input as they are.
        Graph g("embedding", ops::Layout::NCHW, 1);
        const int ids = g.input("ids", { 1, 16 });
        const int lookup = g.take(g.input("table", { 1000, 64 }), ids);
        EXPECT_EQ(g.shape(lookup), (std::vector<int64_t> { 1, 16, 64 }));
        g.softmax(g.add(lookup, g.input("positions", { 1, 16, 64 })));
        EXPECT_EQ(groupsOf(g), (std::vector<std::string> { "take add", "task: softmax" }));
        EXPECT_EQ(extractTasks(g)->tasks.size(), 1u);
        EXPECT_EQ(g.take(ids, ids, 2), -1); // ids [1, 16] has no axis 2
        EXPECT_NE(g.error()->message.find("take: axis out of range for data [1, 16]"), std::string::npos)
            << g.error()->message;
    }
}

// Single-operator tasks (tune --op): names, shapes text and work as a network's tasks have them; the
// same DAG as the workload registry's matmul (so the same workload key); errors that say what to type.
// Every operator is also a registered workload, tunescope_OP[_LAYOUT], as `export` names it: the key rebuilds
// the very DAG `tune --op` tuned, and the operator's own errors come back for bad values.
TEST(OperatorTask, EveryOperatorIsARegisteredWorkloadByItsName)
{
    const std::vector<std::tuple<std::string, std::vector<int64_t>, ops::Layout, std::string>> cases {
        { "dense", { 4, 8, 16 }, ops::Layout::NCHW, "tunescope_dense" },
        { "batch_matmul", { 2, 4, 8, 16 }, ops::Layout::NCHW, "tunescope_batch_matmul" },
        { "conv2d", { 1, 9, 9, 4, 8, 3, 3, 2, 1 }, ops::Layout::NCHW, "tunescope_conv2d_nchw" },
        { "conv2d", { 1, 9, 9, 4, 8, 3, 3, 2, 1 }, ops::Layout::NHWC, "tunescope_conv2d_nhwc" },
        { "depthwise", { 1, 9, 9, 4, 3, 3, 1, 0 }, ops::Layout::NHWC, "tunescope_depthwise_nhwc" },
    };
    for (const auto& [op, shape, layout, name] : cases) {
        EXPECT_EQ(operatorWorkloadName(op, layout), name);
        auto task = operatorTask(op, shape, layout);
        ASSERT_TRUE(task) << task.error().toString();
        std::string key = "[\"" + name + "\"";
        for (int64_t v : shape)
            key += ", " + std::to_string(v);
        auto parsed = parseWorkloadKey(key + ", \"float32\"]");
        ASSERT_TRUE(parsed) << parsed.error().toString();
        auto dag = buildWorkload(*parsed);
        ASSERT_TRUE(dag) << name << ": " << dag.error().toString();
        EXPECT_EQ(dag->workloadKey(), task->dag.workloadKey()) << name;
    }
    auto bad = parseWorkloadKey(R"(["tunescope_conv2d_nchw", 1, 2, 2, 4, 8, 3, 3, 1, 0])");
    ASSERT_TRUE(bad);
    auto refused = buildWorkload(*bad);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("tunescope_conv2d_nchw"), std::string::npos) << refused.error().message;
    EXPECT_FALSE(operatorTaskOfWorkload("tunescope_conv3d", { 1 }));
}

TEST(OperatorTask, MatmulIsTheRegistryWorkload)
{
    auto task = operatorTask("matmul", { 64, 32, 48 }, ops::Layout::NCHW);
    ASSERT_TRUE(task) << task.error().toString();
    EXPECT_EQ(task->name, "matmul");
    EXPECT_EQ(task->fusedOps, (std::vector<std::string> { "matmul" }));
    EXPECT_EQ(task->shapes, "A [64, 32], B [32, 48] -> [64, 48]");
    EXPECT_EQ(task->weight, 1);
    EXPECT_DOUBLE_EQ(task->flops, 2.0 * 64 * 32 * 48);
    auto key = parseWorkloadSpec("matmul:64,32,48");
    ASSERT_TRUE(key);
    auto dag = buildWorkload(*key);
    ASSERT_TRUE(dag);
    EXPECT_EQ(task->dag.workloadKey(), dag->workloadKey());
}

TEST(OperatorTask, EveryOperatorBuilds)
{
    struct Case {
        std::string op;
        std::vector<int64_t> shape;
        ops::Layout layout;
        std::string name;
        std::string shapes;
        double macs;
    };
    const std::vector<Case> cases {
        { "dense", { 16, 512, 1000 }, ops::Layout::NCHW, "dense", "data [16, 512], weight [1000, 512] -> [16, 1000]",
            16.0 * 512 * 1000 },
        { "batch_matmul", { 12, 128, 64, 128 }, ops::Layout::NCHW, "batch_matmul",
            "A [12, 128, 64], B [12, 128, 64] -> [12, 128, 128]", 12.0 * 128 * 64 * 128 },
        { "conv2d", { 1, 56, 56, 64, 128, 3, 3, 2, 1 }, ops::Layout::NCHW, "conv2d_nchw",
            "data [1, 64, 56, 56], weight [128, 64, 3, 3], stride 2 pad 1 -> [1, 128, 28, 28]",
            128.0 * 28 * 28 * 64 * 9 },
        { "conv2d", { 1, 56, 56, 64, 128, 3, 3, 2, 1 }, ops::Layout::NHWC, "conv2d_nhwc",
            "data [1, 56, 56, 64], weight [3, 3, 64, 128], stride 2 pad 1 -> [1, 28, 28, 128]",
            128.0 * 28 * 28 * 64 * 9 },
        { "depthwise", { 1, 112, 112, 32, 3, 3, 1, 1 }, ops::Layout::NCHW, "depthwise_conv2d_nchw",
            "data [1, 32, 112, 112], weight [32, 1, 3, 3], stride 1 pad 1 -> [1, 32, 112, 112]", 32.0 * 112 * 112 * 9 },
        { "depthwise", { 1, 112, 112, 32, 3, 3, 2, 0 }, ops::Layout::NHWC, "depthwise_conv2d_nhwc",
            "data [1, 112, 112, 32], weight [3, 3, 32, 1], stride 2 pad 0 -> [1, 55, 55, 32]", 32.0 * 55 * 55 * 9 },
    };
    for (const Case& c : cases) {
        auto task = operatorTask(c.op, c.shape, c.layout);
        ASSERT_TRUE(task) << c.op << ": " << task.error().toString();
        EXPECT_EQ(task->name, c.name);
        EXPECT_EQ(task->shapes, c.shapes);
        EXPECT_DOUBLE_EQ(task->dag.multiplyAccumulateCount(), c.macs) << c.name;
        EXPECT_DOUBLE_EQ(task->flops, task->dag.flopCount());
        EXPECT_GE(task->flops, 2.0 * c.macs);
    }
}

TEST(OperatorTask, BadRequestsSayWhatToType)
{
    auto unknown = operatorTask("conv3d", { 1 }, ops::Layout::NCHW);
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(
        unknown.error().message, "unknown operator 'conv3d' (known: matmul, dense, batch_matmul, conv2d, depthwise)");
    auto count = operatorTask("conv2d", { 1, 2, 3 }, ops::Layout::NCHW);
    ASSERT_FALSE(count);
    EXPECT_EQ(count.error().message, "conv2d takes N,H,W,CI,CO,KH,KW,stride,pad (9 values), got 3");
    auto zero = operatorTask("matmul", { 64, 0, 64 }, ops::Layout::NCHW);
    ASSERT_FALSE(zero);
    EXPECT_EQ(zero.error().message, "matmul: L must be >= 1, got 0");
    auto pad = operatorTask("depthwise", { 1, 8, 8, 4, 3, 3, 1, -1 }, ops::Layout::NCHW);
    ASSERT_FALSE(pad);
    EXPECT_EQ(pad.error().message, "depthwise: pad must be >= 0, got -1");
    auto window = operatorTask("conv2d", { 1, 4, 4, 8, 8, 7, 7, 1, 0 }, ops::Layout::NCHW);
    ASSERT_FALSE(window);
    EXPECT_EQ(window.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(window.error().message, "conv2d_nchw: window of 7 along height does not fit the padded input of 4");
}

TEST(OperatorTask, ShapeValuesParse)
{
    auto values = parseShapeValues("64,32,48");
    ASSERT_TRUE(values);
    EXPECT_EQ(*values, (std::vector<int64_t> { 64, 32, 48 }));
    auto bad = parseShapeValues("64,x,48");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("'x'"), std::string::npos) << bad.error().message;
}
