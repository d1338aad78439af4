// Networks: task counts and weights (pinned, so a change in fusion or dedup is seen), and total
// multiply-accumulates within 3% of the published figures.
#include "core/graph/model_zoo.h"
#include "core/graph/task_extraction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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
