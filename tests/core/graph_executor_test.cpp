// The graph executor: whole networks compiled and run, checked step by step against the reference evaluator
// and, for ONNX models exported by PyTorch, against PyTorch's own output; and the same network exported as a
// shared library with a C API, built and run by the system C compiler.
#include "core/graph/model_zoo.h"
#include "core/graph/onnx_import.h"
#include "core/runtime/graph_executor.h"
#include "core/runtime/library_export.h"
#include "core/runtime/network_run.h"
#include "core/schedule/step.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

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
// An ONNX fixture (tests/fixtures/make_onnx_models.py) built with default schedules and run once on its saved input.
struct FixtureRun {
    std::optional<graph::OnnxModel> model;
    std::optional<GraphExecutor> executor;
    ir::Buffer input;
    ir::Buffer expected; // PyTorch's output
    double scale = 0.0; // the largest |expected|

    // The output against PyTorch's: <= 1 is equal within rtol 2e-3, atol 2e-3 x scale.
    double error() const
    {
        auto got = executor->value(model->outputs[0]);
        EXPECT_TRUE(got) << got.error().toString();
        EXPECT_EQ(got->shape(), expected.shape());
        return got ? ir::maxRelativeError(*got, expected, 2e-3, 2e-3 * scale) : 1e9;
    }
};

void runFixture(const std::string& name, FixtureRun& r)
{
    auto model = graph::importOnnx(kFixtures + "/" + name + ".onnx");
    ASSERT_TRUE(model) << model.error().toString();
    r.model = std::move(*model);
    auto partition = graph::partitionGraph(r.model->graph);
    ASSERT_TRUE(partition);
    ExecutorOptions options;
    options.outputs = r.model->outputs;
    auto executor = GraphExecutor::build(r.model->graph, *partition, nullptr, options);
    ASSERT_TRUE(executor) << executor.error().toString();
    r.executor = std::move(*executor);
    auto input = graph::readOnnxTensor(kFixtures + "/" + name + ".input_0.pb");
    auto expected = graph::readOnnxTensor(kFixtures + "/" + name + ".output_0.pb");
    ASSERT_TRUE(input && expected);
    r.input = std::move(*input);
    r.expected = std::move(*expected);
    for (int64_t i = 0; i < r.expected.size(); ++i)
        r.scale = std::max(r.scale, static_cast<double>(std::abs(r.expected[i])));
    ASSERT_TRUE(r.executor->setInputs({ r.input }));
    r.executor->run();
}
} // namespace

TEST(GraphExecutor, AnOnnxResNet18RunsAndComputesPyTorchsOutput)
{
    FixtureRun r;
    ASSERT_NO_FATAL_FAILURE(runFixture("resnet18_64", r));
    GraphExecutor* executor = &*r.executor;
    EXPECT_LE(r.error(), 1.0);

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
    ir::Buffer other = r.input;
    for (int64_t i = 0; i < other.size(); ++i)
        other[i] = -other[i];
    ASSERT_TRUE(executor->setInputs({ other }));
    executor->run();
    EXPECT_GT(r.error(), 1.0);
}

TEST(GraphExecutor, AnOnnxConvTransposeDecoderRunsAndComputesPyTorchsOutput)
{
    FixtureRun r;
    ASSERT_NO_FATAL_FAILURE(runFixture("decoder_tiny", r));
    GraphExecutor* executor = &*r.executor;
    EXPECT_LE(r.error(), 1.0);
    // conv2d and two conv2d_transpose tasks (the second grouped), each with its bias and relu.
    auto checks = executor->checkSteps(16);
    ASSERT_TRUE(checks) << checks.error().toString();
    EXPECT_EQ(checks->size(), 3u);
    EXPECT_LE(worst(*checks), 1.0);
}

TEST(GraphExecutor, AnOnnxBertWithTokenIdsRunsAndComputesPyTorchsOutput)
{
    // int64 token ids (given as whole float32 numbers) through an embedding lookup compiled as generated code.
    FixtureRun r;
    ASSERT_NO_FATAL_FAILURE(runFixture("bert_embedding_tiny", r));
    GraphExecutor* executor = &*r.executor;
    EXPECT_LE(r.error(), 1.0);
    // Every kernel, the one that looks the ids up included, against the reference evaluator.
    auto checks = executor->checkSteps(16);
    ASSERT_TRUE(checks) << checks.error().toString();
    const auto& steps = executor->steps();
    EXPECT_EQ(checks->size(), std::count_if(steps.begin(), steps.end(), [](const StepInfo& s) { return !s.view; }));
    EXPECT_TRUE(std::any_of(
        steps.begin(), steps.end(), [](const StepInfo& s) { return s.name.find("take") != std::string::npos; }));
    EXPECT_LE(worst(*checks), 1.0);

    // Other ids, another output; and the seeded inputs of a run are valid ids.
    ir::Buffer other = r.input;
    for (int64_t i = 0; i < other.size(); ++i)
        other[i] = static_cast<float>((static_cast<int64_t>(other[i]) + 1) % 1000);
    ASSERT_TRUE(executor->setInputs({ other }));
    executor->run();
    EXPECT_GT(r.error(), 1.0);
    const std::vector<ir::Buffer> seeded = seededInputs(r.model->graph);
    ASSERT_EQ(seeded.size(), 1u);
    std::set<float> distinct;
    for (int64_t i = 0; i < seeded[0].size(); ++i) {
        EXPECT_EQ(seeded[0][i], std::floor(seeded[0][i]));
        EXPECT_GE(seeded[0][i], 0.0f);
        EXPECT_LT(seeded[0][i], 1000.0f);
        distinct.insert(seeded[0][i]);
    }
    EXPECT_GT(distinct.size(), 8u);
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

namespace {
// Runs `command`, returning its exit status.
int shell(const std::string& command) { return std::system(command.c_str()); }

void writeRaw(const ir::Buffer& b, const std::string& path)
{
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.data()), b.size() * 4);
}

std::vector<float> readRaw(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    std::vector<float> v(static_cast<size_t>(in.tellg()) / sizeof(float));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(float)));
    return v;
}
} // namespace

TEST(LibraryExport, AnExportedModelRunsFromCWithPyTorchsOutput)
{
    auto model = graph::importOnnx(kFixtures + "/mobilenet_v2_64.onnx");
    ASSERT_TRUE(model) << model.error().toString();
    auto partition = graph::partitionGraph(model->graph);
    ASSERT_TRUE(partition);
    ExecutorOptions executor;
    executor.outputs = model->outputs;
    for (const std::string level : { "", "x86-64-v3" }) {
        ExportOptions options;
        options.directory = (std::filesystem::temp_directory_path() / ("ts_export_test" + level)).string();
        std::filesystem::remove_all(options.directory);
        options.name = "mobilenet";
        if (!level.empty()) {
            // Object code for an older x86 level than this machine's: what a library for other machines is.
            auto target = target::fromTvm("llvm -mcpu=" + level);
            ASSERT_TRUE(target) << target.error().toString();
            options.target = *target;
        }
        auto exported = exportLibrary(model->graph, *partition, nullptr, executor, options);
        ASSERT_TRUE(exported) << exported.error().toString();
        EXPECT_EQ(exported->kernels, 54);
        EXPECT_EQ(exported->inputShapes, (std::vector<std::vector<int64_t>> { { 1, 3, 64, 64 } }));
        EXPECT_EQ(exported->outputShapes, (std::vector<std::vector<int64_t>> { { 1, 1000 } }));
        // The example, built with the system compiler against the library alone, computes PyTorch's output.
        const std::string dir = options.directory;
        ASSERT_EQ(shell("cc " + dir + "/example.c -I" + dir + " -L" + dir + " -lmobilenet -Wl,-rpath," + dir + " -o "
                      + dir + "/example"),
            0);
        auto input = graph::readOnnxTensor(kFixtures + "/mobilenet_v2_64.input_0.pb");
        auto expected = graph::readOnnxTensor(kFixtures + "/mobilenet_v2_64.output_0.pb");
        ASSERT_TRUE(input && expected);
        writeRaw(*input, dir + "/in.raw");
        ASSERT_EQ(shell(dir + "/example " + exported->weights + " " + dir + "/in.raw " + dir + "/out.raw > " + dir
                      + "/stdout.txt"),
            0);
        const std::vector<float> got = readRaw(dir + "/out.raw");
        ASSERT_EQ(static_cast<int64_t>(got.size()), expected->size());
        ir::Buffer gotBuffer(expected->shape());
        std::copy(got.begin(), got.end(), gotBuffer.data());
        double scale = 0.0;
        for (int64_t i = 0; i < expected->size(); ++i)
            scale = std::max(scale, static_cast<double>(std::abs((*expected)[i])));
        EXPECT_LE(ir::maxRelativeError(gotBuffer, *expected, 2e-3, 2e-3 * scale), 1.0) << level;
        // A wrong weights file is refused by name.
        EXPECT_NE(shell(dir + "/example " + dir + "/in.raw > /dev/null 2> " + dir + "/err.txt"), 0);
        std::ifstream err(dir + "/err.txt");
        std::string message((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
        EXPECT_NE(message.find("not this model's weights file"), std::string::npos) << message;
    }
}

TEST(LibraryExport, AModelOfTokenIdsTakesInt64IdsFromC)
{
    auto model = graph::importOnnx(kFixtures + "/bert_embedding_tiny.onnx");
    ASSERT_TRUE(model) << model.error().toString();
    auto partition = graph::partitionGraph(model->graph);
    ASSERT_TRUE(partition);
    ExecutorOptions executor;
    executor.outputs = model->outputs;
    ExportOptions options;
    options.directory = (std::filesystem::temp_directory_path() / "ts_export_ids_test").string();
    std::filesystem::remove_all(options.directory);
    options.name = "bert_ids";
    auto exported = exportLibrary(model->graph, *partition, nullptr, executor, options);
    ASSERT_TRUE(exported) << exported.error().toString();
    EXPECT_EQ(exported->inputShapes, (std::vector<std::vector<int64_t>> { { 1, 16 } }));
    const std::string dir = options.directory;
    // The example reads int64 ids and sets them with bert_ids_set_input_ids.
    ASSERT_EQ(shell("cc " + dir + "/example.c -I" + dir + " -L" + dir + " -lbert_ids -Wl,-rpath," + dir + " -o " + dir
                  + "/example"),
        0);
    auto input = graph::readOnnxTensor(kFixtures + "/bert_embedding_tiny.input_0.pb");
    auto expected = graph::readOnnxTensor(kFixtures + "/bert_embedding_tiny.output_0.pb");
    ASSERT_TRUE(input && expected);
    {
        std::ofstream out(dir + "/ids.raw", std::ios::binary);
        for (int64_t i = 0; i < input->size(); ++i) {
            const auto id = static_cast<int64_t>((*input)[i]);
            out.write(reinterpret_cast<const char*>(&id), sizeof id);
        }
    }
    ASSERT_EQ(shell(dir + "/example " + exported->weights + " " + dir + "/ids.raw " + dir + "/out.raw > " + dir
                  + "/stdout.txt"),
        0);
    const std::vector<float> got = readRaw(dir + "/out.raw");
    ASSERT_EQ(static_cast<int64_t>(got.size()), expected->size());
    ir::Buffer gotBuffer(expected->shape());
    std::copy(got.begin(), got.end(), gotBuffer.data());
    double scale = 0.0;
    for (int64_t i = 0; i < expected->size(); ++i)
        scale = std::max(scale, static_cast<double>(std::abs((*expected)[i])));
    EXPECT_LE(ir::maxRelativeError(gotBuffer, *expected, 2e-3, 2e-3 * scale), 1.0);
    // The header says how an id input is given.
    std::ifstream header(exported->header);
    const std::string text((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("int bert_ids_set_input_ids(bert_ids_model* model, int i, const int64_t* ids, int64_t count);"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("int64_t bert_ids_input_id_rows(int i);"), std::string::npos) << text;
}

TEST(LibraryExport, ABadNameIsRefused)
{
    auto g = graph::buildNetwork("bert-tiny", 1);
    ASSERT_TRUE(g);
    auto partition = graph::partitionGraph(*g);
    ASSERT_TRUE(partition);
    ExportOptions options;
    options.directory = (std::filesystem::temp_directory_path() / "ts_export_bad").string();
    options.name = "My Model";
    auto exported = exportLibrary(*g, *partition, nullptr, {}, options);
    ASSERT_FALSE(exported);
    EXPECT_NE(exported.error().message.find("lower-case letters"), std::string::npos);
}

TEST(NetworkRun, ChecksTimesAndRoundTripsAsJson)
{
    auto g = graph::buildNetwork("bert-tiny", 1);
    ASSERT_TRUE(g);
    auto partition = graph::partitionGraph(*g);
    ASSERT_TRUE(partition);
    StoreScheduleChooser chooser; // no workspace: every task on the default schedule
    NetworkRunOptions options;
    options.repeat = 3;
    auto run = runNetwork(*g, *partition, chooser, {}, options);
    ASSERT_TRUE(run) << run.error().toString();
    EXPECT_FALSE(run->wrong()) << run->wrongSteps;
    EXPECT_EQ(run->checkedSteps, run->kernels);
    EXPECT_LE(run->worstCheck, 1.0);
    ASSERT_EQ(run->runSeconds.size(), 3u);
    EXPECT_GT(run->medianSeconds, 0.0);
    EXPECT_GE(run->p90Seconds, run->medianSeconds);
    EXPECT_EQ(run->estimatedTasks, 0); // nothing tuned, nothing estimated
    ASSERT_EQ(run->tasks.size(), partition->tasks.tasks.size());
    double measured = run->otherSeconds;
    for (const TaskRun& t : run->tasks) {
        EXPECT_LT(t.estimateSeconds, 0.0);
        EXPECT_GT(t.measuredSeconds, 0.0) << t.name;
        EXPECT_EQ(t.schedule, "default schedule (no record)");
        measured += t.measuredSeconds;
    }
    EXPECT_NEAR(measured, run->stepSumSeconds, 1e-9);

    run->library = LibraryRun { "LibTorch (test)", 2, "oneDNN", 1e-3, 2e-3, 0.25 };
    auto back = networkRunFromJson(networkRunToJson(*run));
    ASSERT_TRUE(back) << back.error().toString();
    EXPECT_EQ(back->network, "bert-tiny");
    EXPECT_EQ(back->kernels, run->kernels);
    EXPECT_EQ(back->runSeconds, run->runSeconds);
    EXPECT_EQ(back->tasks.size(), run->tasks.size());
    EXPECT_EQ(back->tasks.back().name, run->tasks.back().name);
    EXPECT_DOUBLE_EQ(back->tasks.back().measuredSeconds, run->tasks.back().measuredSeconds);
    ASSERT_TRUE(back->library);
    EXPECT_EQ(back->library->what, "LibTorch (test)");
    EXPECT_DOUBLE_EQ(back->library->outputError, 0.25);

    auto broken = networkRunFromJson("{\"network\": \"x\"}");
    ASSERT_FALSE(broken);
    EXPECT_NE(broken.error().message.find("not a network run report"), std::string::npos);
}

TEST(NetworkRun, AWrongExpectedOutputStopsBeforeTiming)
{
    auto g = graph::buildNetwork("bert-tiny", 1);
    ASSERT_TRUE(g);
    auto partition = graph::partitionGraph(*g);
    ASSERT_TRUE(partition);
    StoreScheduleChooser chooser;
    NetworkRunOptions options;
    options.repeat = 2;
    auto right = runNetwork(*g, *partition, chooser, {}, options);
    ASSERT_TRUE(right) << right.error().toString();
    ir::Buffer expected = right->output;
    options.expected = expected;
    options.expectedName = "same.pb";
    auto same = runNetwork(*g, *partition, chooser, {}, options);
    ASSERT_TRUE(same);
    EXPECT_FALSE(same->wrong());
    EXPECT_LE(same->expected.error, 1.0);
    for (int64_t i = 0; i < expected.size(); ++i)
        expected[i] += 1.0f;
    options.expected = expected;
    options.expectedName = "shifted.pb";
    auto wrong = runNetwork(*g, *partition, chooser, {}, options);
    ASSERT_TRUE(wrong);
    EXPECT_TRUE(wrong->wrong());
    EXPECT_GT(wrong->expected.error, 1.0);
    EXPECT_TRUE(wrong->runSeconds.empty()); // nothing timed
}

// runHot times each step again right after it ran, in the network's order: every step rewrites its whole output,
// so the network's output is the same after it, and a view (no kernel) takes no time.
TEST(GraphExecutor, TimingEachStepHotLeavesTheOutputAsARunDoes)
{
    FixtureRun r;
    ASSERT_NO_FATAL_FAILURE(runFixture("bert_tiny_encoder", r));
    GraphExecutor* executor = &*r.executor;
    const ir::Buffer once = executor->value(r.model->outputs[0]).value();
    std::vector<double> hot;
    executor->runHot(hot, 3);
    ASSERT_EQ(hot.size(), executor->steps().size());
    for (size_t i = 0; i < hot.size(); ++i)
        if (executor->steps()[i].view)
            EXPECT_EQ(hot[i], 0.0) << "step " << i << " is a view";
        else
            EXPECT_GT(hot[i], 0.0) << "step " << i << " (" << executor->steps()[i].name << ")";
    const ir::Buffer again = executor->value(r.model->outputs[0]).value();
    ASSERT_EQ(again.size(), once.size());
    EXPECT_TRUE(std::equal(again.data(), again.data() + again.size(), once.data())) << "the same values, bit for bit";
}
