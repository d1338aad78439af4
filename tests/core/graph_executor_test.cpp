// The graph executor: whole networks compiled and run, checked step by step against the reference evaluator
// and, for ONNX models exported by PyTorch, against PyTorch's own output.
#include "core/graph/model_zoo.h"
#include "core/graph/onnx_import.h"
#include "core/runtime/graph_executor.h"
#include "core/schedule/step.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace ts;
using namespace ts::runtime;

namespace {
const std::string kFixtures = TS_ONNX_FIXTURES;

std::vector<ir::Buffer> randomInputs(const graph::Graph& g)
{
    std::vector<ir::Buffer> out;
    for (const graph::Node& n : g.nodes())
        if (n.kind == graph::NodeKind::Input) {
            ir::Buffer b(n.shape);
            ir::fillRandomInput(b.data(), b.size(), 3, static_cast<int>(out.size()));
            out.push_back(std::move(b));
        }
    return out;
}

double worst(const std::vector<StepCheck>& checks)
{
    double w = 0.0;
    for (const StepCheck& c : checks)
        w = std::max(w, c.error);
    return w;
}
} // namespace

TEST(GraphExecutor, AnOnnxResNet18RunsAndComputesPyTorchsOutput)
{
    auto model = graph::importOnnx(kFixtures + "/resnet18_64.onnx");
    ASSERT_TRUE(model) << model.error().toString();
    auto partition = graph::partitionGraph(model->graph);
    ASSERT_TRUE(partition);
    ExecutorOptions options;
    options.outputs = model->outputs;
    auto executor = GraphExecutor::build(model->graph, *partition, nullptr, options);
    ASSERT_TRUE(executor) << executor.error().toString();
    auto input = graph::readOnnxTensor(kFixtures + "/resnet18_64.input_0.pb");
    auto expected = graph::readOnnxTensor(kFixtures + "/resnet18_64.output_0.pb");
    ASSERT_TRUE(input && expected);
    ASSERT_TRUE(executor->setInputs({ *input }));
    executor->run();
    auto got = executor->value(model->outputs[0]);
    ASSERT_TRUE(got) << got.error().toString();
    ASSERT_EQ(got->shape(), expected->shape());
    double scale = 0.0;
    for (int64_t i = 0; i < expected->size(); ++i)
        scale = std::max(scale, static_cast<double>(std::abs((*expected)[i])));
    EXPECT_LE(ir::maxRelativeError(*got, *expected, 2e-3, 2e-3 * scale), 1.0);

    // Every kernel against the reference evaluator, on what it read.
    auto checks = executor->checkSteps(16);
    ASSERT_TRUE(checks) << checks.error().toString();
    EXPECT_EQ(checks->size(), 23u); // 18 task kinds, 23 occurrences; the flatten is a view
    EXPECT_LE(worst(*checks), 1.0);
    // The flatten runs no kernel, and planned buffers are reused.
    const auto& steps = executor->steps();
    EXPECT_EQ(std::count_if(steps.begin(), steps.end(), [](const StepInfo& s) { return s.view; }), 1);
    EXPECT_LT(executor->plannedBytes(), executor->unplannedBytes() / 2);

    // Another input, another output: the run really depends on its input.
    ir::Buffer other = *input;
    for (int64_t i = 0; i < other.size(); ++i)
        other[i] = -other[i];
    ASSERT_TRUE(executor->setInputs({ other }));
    executor->run();
    auto changed = executor->value(model->outputs[0]);
    ASSERT_TRUE(changed);
    EXPECT_GT(ir::maxRelativeError(*changed, *expected, 2e-3, 2e-3 * scale), 1.0);
}

TEST(GraphExecutor, ATaskRunsTheScheduleTheChooserGives)
{
    auto g = graph::buildNetwork("bert-tiny", 1);
    ASSERT_TRUE(g);
    auto partition = graph::partitionGraph(*g);
    ASSERT_TRUE(partition);
    // A schedule of our own for every dense task: the output's rows split by 8, the outer loop parallel.
    int asked = 0;
    auto choose = [&](const graph::Task& task) -> std::optional<GroupSchedule> {
        ++asked;
        if (task.anchor != graph::NodeKind::Dense)
            return std::nullopt;
        sched::State s = sched::State::initial(task.dag);
        const int stage = s.numStages() - 1;
        if (!s.apply(sched::SplitStep { stage, 0, s.stage(stage).iters[0].extent, { 8 }, true }))
            return std::nullopt;
        if (!s.apply(sched::AnnotationStep { stage, 0, sched::Annotation::Parallel }))
            return std::nullopt;
        return GroupSchedule { s, "test schedule", 0.0 };
    };
    auto executor = GraphExecutor::build(*g, *partition, choose);
    ASSERT_TRUE(executor) << executor.error().toString();
    EXPECT_EQ(asked, static_cast<int>(partition->tasks.tasks.size())); // once per task, not per occurrence
    int dense = 0;
    for (const StepInfo& s : executor->steps())
        if (s.task >= 0 && partition->tasks.tasks[static_cast<size_t>(s.task)].anchor == graph::NodeKind::Dense) {
            ++dense;
            EXPECT_EQ(s.schedule, "test schedule");
        } else if (s.task >= 0) {
            EXPECT_EQ(s.schedule, "default schedule (no record)");
        }
    EXPECT_EQ(dense, 2 * 6); // 2 layers: query, key, value, attention output, intermediate, output
    ASSERT_TRUE(executor->setInputs(randomInputs(*g)));
    executor->run();
    auto checks = executor->checkSteps(16);
    ASSERT_TRUE(checks) << checks.error().toString();
    EXPECT_LE(worst(*checks), 1.0);
}

TEST(GraphExecutor, WrongInputsAreRefused)
{
    auto g = graph::buildNetwork("resnet-18", 1);
    ASSERT_TRUE(g);
    auto partition = graph::partitionGraph(*g);
    ASSERT_TRUE(partition);
    auto executor = GraphExecutor::build(*g, *partition, nullptr);
    ASSERT_TRUE(executor) << executor.error().toString();
    auto wrong = executor->setInputs({ ir::Buffer({ 1, 3, 32, 32 }) });
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.error().message.find("[1, 3, 224, 224]"), std::string::npos) << wrong.error().message;
    EXPECT_FALSE(executor->setInputs({}));
    EXPECT_FALSE(executor->value(-1));
}
