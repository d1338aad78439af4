// ONNX models in: torchvision's ResNet-18 and MobileNet-V2, BERT-shaped encoders and a small ConvTranspose decoder
// exported by PyTorch at test time (tests/fixtures/make_onnx_models.py) import with their weights, give the
// built-in networks' tasks, and compute PyTorch's output; models TuneScope cannot import fail naming the node, op
// type, attribute and opset.
#include "core/graph/graph_evaluator.h"
#include "core/graph/model_zoo.h"
#include "core/graph/onnx_import.h"
#include "core/graph/task_extraction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <onnx/onnx_pb.h>

using namespace ts;
using namespace ts::graph;

namespace {
const std::string kFixtures = TS_ONNX_FIXTURES;

std::string fixture(const std::string& name) { return kFixtures + "/" + name; }

TaskSet tasksOf(const Graph& g)
{
    auto tasks = extractTasks(g);
    EXPECT_TRUE(tasks) << tasks.error().toString();
    return tasks ? *tasks : TaskSet {};
}

// workload key -> weight
std::map<std::string, int> keyWeights(const TaskSet& set)
{
    std::map<std::string, int> out;
    for (const Task& t : set.tasks)
        out[t.dag.workloadKey()] += t.weight;
    return out;
}

std::string names(const TaskSet& set)
{
    std::string out;
    for (const Task& t : set.tasks)
        out += "  " + t.dag.workloadKey() + " " + t.name + " x" + std::to_string(t.weight) + ": " + t.shapes + "\n";
    return out;
}

// The model's output for its saved input, from the reference evaluator, against PyTorch's.
void expectPyTorchOutput(const std::string& name, double tolerance)
{
    auto model = importOnnx(fixture(name + ".onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    auto input = readOnnxTensor(fixture(name + ".input_0.pb"));
    auto expected = readOnnxTensor(fixture(name + ".output_0.pb"));
    ASSERT_TRUE(input && expected);
    auto values = evaluateGraph(model->graph, { *input });
    ASSERT_TRUE(values) << values.error().toString();
    const ir::Buffer& got = (*values)[static_cast<size_t>(model->outputs.at(0))];
    ASSERT_EQ(got.shape(), expected->shape());
    // Relative to the output's scale: a classifier's logits can all be small.
    double scale = 0.0;
    for (int64_t i = 0; i < expected->size(); ++i)
        scale = std::max(scale, static_cast<double>(std::abs((*expected)[i])));
    const double error = ir::maxRelativeError(got, *expected, tolerance, tolerance * scale);
    EXPECT_LE(error, 1.0) << name << ": output differs from PyTorch's beyond rtol " << tolerance << ", atol "
                          << tolerance * scale;
    // And a different input gives a different output (the check can fail).
    ir::Buffer other = *input;
    for (int64_t i = 0; i < other.size(); ++i)
        other[i] = -other[i];
    auto changed = evaluateGraph(model->graph, { other });
    ASSERT_TRUE(changed);
    EXPECT_GT(ir::maxRelativeError(
                  (*changed)[static_cast<size_t>(model->outputs.at(0))], *expected, tolerance, tolerance * scale),
        1.0);
}

// A one-node model written here, for the error cases.
std::string writeModel(const std::string& file, const std::function<void(onnx::ModelProto&)>& build)
{
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.set_producer_name("onnx_import_test");
    onnx::OperatorSetIdProto* opset = model.add_opset_import();
    opset->set_version(13);
    onnx::GraphProto* g = model.mutable_graph();
    g->set_name("test");
    onnx::ValueInfoProto* in = g->add_input();
    in->set_name("x");
    auto* type = in->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : { 1, 4, 8, 8 })
        type->mutable_shape()->add_dim()->set_dim_value(d);
    build(model);
    const std::string path = (std::filesystem::temp_directory_path() / file).string();
    std::ofstream out(path, std::ios::binary);
    model.SerializeToOstream(&out);
    return path;
}

onnx::NodeProto* addNode(onnx::ModelProto& m, const std::string& op, const std::string& name,
    std::vector<std::string> inputs, const std::string& output)
{
    onnx::NodeProto* n = m.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const std::string& i : inputs)
        n->add_input(i);
    n->add_output(output);
    return n;
}

void addOutput(onnx::ModelProto& m, const std::string& name)
{
    onnx::ValueInfoProto* out = m.mutable_graph()->add_output();
    out->set_name(name);
    out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    out->mutable_type()->mutable_tensor_type()->mutable_shape();
}
} // namespace

TEST(OnnxImport, TorchvisionResNet18GivesTheBuiltInResNet18sTasks)
{
    auto model = importOnnx(fixture("resnet18.onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    EXPECT_EQ(model->opset, 13);
    EXPECT_EQ(model->producer.rfind("pytorch", 0), 0u) << model->producer;
    ASSERT_EQ(model->inputNames, std::vector<std::string> { "input" });
    EXPECT_EQ(model->graph.shape(model->inputs[0]), (std::vector<int64_t> { 1, 3, 224, 224 }));
    EXPECT_EQ(model->graph.shape(model->outputs.at(0)), (std::vector<int64_t> { 1, 1000 }));
    auto zoo = buildNetwork("resnet-18", 1);
    ASSERT_TRUE(zoo);
    const TaskSet imported = tasksOf(model->graph);
    const TaskSet builtIn = tasksOf(*zoo);
    // The same layers give the same tasks (so they share records), as often: batch norm folded into the
    // convolutions' bias, Gemm into dense + bias.
    EXPECT_EQ(keyWeights(imported), keyWeights(builtIn)) << "imported:\n"
                                                         << names(imported) << "built-in:\n"
                                                         << names(builtIn);
    // Every convolution carries the model's weights.
    int convs = 0;
    for (const Node& n : model->graph.nodes())
        if (n.kind == NodeKind::Conv2d) {
            ++convs;
            ASSERT_EQ(n.params.size(), 1u);
            EXPECT_EQ(n.params[0]->shape(), n.weightShape);
        }
    EXPECT_EQ(convs, 20);
}

TEST(OnnxImport, TheBatchOptionFixesASymbolicBatchDimension)
{
    auto model = importOnnx(fixture("resnet18.onnx"), { 4 });
    ASSERT_TRUE(model) << model.error().toString();
    EXPECT_EQ(model->graph.shape(model->inputs[0]), (std::vector<int64_t> { 4, 3, 224, 224 }));
    auto zoo = buildNetwork("resnet-18", 4);
    ASSERT_TRUE(zoo);
    EXPECT_EQ(keyWeights(tasksOf(model->graph)), keyWeights(tasksOf(*zoo)));
}

TEST(OnnxImport, TorchvisionMobileNetV2GivesTheBuiltInMobileNetV2sTasks)
{
    auto model = importOnnx(fixture("mobilenet_v2.onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    auto zoo = buildNetwork("mobilenet-v2", 1);
    ASSERT_TRUE(zoo);
    const TaskSet imported = tasksOf(model->graph);
    const TaskSet builtIn = tasksOf(*zoo);
    EXPECT_EQ(keyWeights(imported), keyWeights(builtIn)) << "imported:\n"
                                                         << names(imported) << "built-in:\n"
                                                         << names(builtIn);
}

TEST(OnnxImport, ResNet18ComputesPyTorchsOutput) { expectPyTorchOutput("resnet18_64", 2e-3); }

TEST(OnnxImport, MobileNetV2ComputesPyTorchsOutput) { expectPyTorchOutput("mobilenet_v2_64", 2e-3); }

TEST(OnnxImport, ATransformerEncoderComputesPyTorchsOutput) { expectPyTorchOutput("bert_tiny_encoder", 2e-3); }

TEST(OnnxImport, ABertWithTokenIdsComputesPyTorchsOutput)
{
    // int64 token ids into nn.Embedding(1000, 64): the ids input is held as whole float32 numbers in [0, 1000), the
    // lookup is a Take node (no task: data movement), and the model computes PyTorch's output.
    expectPyTorchOutput("bert_embedding_tiny", 2e-3);
    auto model = importOnnx(fixture("bert_embedding_tiny.onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    ASSERT_EQ(model->inputs.size(), 1u);
    const Node& ids = model->graph.node(model->inputs[0]);
    EXPECT_EQ(ids.shape, (std::vector<int64_t> { 1, 16 }));
    EXPECT_EQ(ids.indexBound, 1000);
    const auto& nodes = model->graph.nodes();
    ASSERT_EQ(std::count_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.kind == NodeKind::Take; }), 1);
    const auto take = std::find_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.kind == NodeKind::Take; });
    EXPECT_EQ(take->shape, (std::vector<int64_t> { 1, 16, 64 }));
    EXPECT_EQ(model->graph.node(take->inputs[0]).kind, NodeKind::Constant);
    EXPECT_EQ(model->graph.node(take->inputs[0]).shape, (std::vector<int64_t> { 1000, 64 }));
    for (const Task& t : tasksOf(model->graph).tasks)
        EXPECT_EQ(std::count(t.fusedOps.begin(), t.fusedOps.end(), "take"), 0) << t.name;
}

namespace {
// A model of one Gather: `table` (rows x cols, entry r * 10 + c) along `axis`, at the int64 input "ids".
std::string writeGather(const std::string& file, std::vector<int64_t> tableShape, std::vector<int64_t> idShape,
    int64_t axis, bool tableIsInput = false)
{
    return writeModel(file, [&](onnx::ModelProto& m) {
        onnx::GraphProto* g = m.mutable_graph();
        g->clear_input();
        auto input = [&](const std::string& name, int type, const std::vector<int64_t>& shape) {
            onnx::ValueInfoProto* in = g->add_input();
            in->set_name(name);
            auto* t = in->mutable_type()->mutable_tensor_type();
            t->set_elem_type(type);
            for (int64_t d : shape)
                t->mutable_shape()->add_dim()->set_dim_value(d);
        };
        if (tableIsInput)
            input("table", onnx::TensorProto::FLOAT, tableShape);
        else {
            onnx::TensorProto* t = g->add_initializer();
            t->set_name("table");
            t->set_data_type(onnx::TensorProto::FLOAT);
            for (int64_t d : tableShape)
                t->add_dims(d);
            for (int64_t r = 0; r < tableShape[0]; ++r)
                for (int64_t c = 0; c < tableShape[1]; ++c)
                    t->add_float_data(static_cast<float>(r * 10 + c));
        }
        input("ids", onnx::TensorProto::INT64, idShape);
        onnx::NodeProto* n = addNode(m, "Gather", "lookup", { "table", "ids" }, "y");
        auto* a = n->add_attribute();
        a->set_name("axis");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(axis);
        addOutput(m, "y");
    });
}
} // namespace

TEST(OnnxImport, RunTimeGatherIndicesWrapOnceThenClamp)
{
    // 5 rows: -1 is row 4, 7 is clamped to row 4, -9 wraps to -4 and is clamped to row 0 (topi's take, mode "clip").
    auto model = importOnnx(writeGather("ts_gather_ids.onnx", { 5, 2 }, { 2, 3 }, 0));
    ASSERT_TRUE(model) << model.error().toString();
    ASSERT_EQ(model->inputs.size(), 1u);
    EXPECT_EQ(model->graph.node(model->inputs[0]).indexBound, 5);
    ir::Buffer ids(std::vector<int64_t> { 2, 3 });
    const float given[] = { 1, -1, 7, -9, 0, 3 };
    const int64_t rows[] = { 1, 4, 4, 0, 0, 3 };
    std::copy(std::begin(given), std::end(given), ids.data());
    auto values = evaluateGraph(model->graph, { ids });
    ASSERT_TRUE(values) << values.error().toString();
    const ir::Buffer& y = (*values)[static_cast<size_t>(model->outputs.at(0))];
    ASSERT_EQ(y.shape(), (std::vector<int64_t> { 2, 3, 2 }));
    for (int64_t k = 0; k < 6; ++k)
        for (int64_t c = 0; c < 2; ++c)
            EXPECT_EQ(y[k * 2 + c], static_cast<float>(rows[k] * 10 + c)) << "id " << given[k];

    // Along axis 1 of a computed (input) table: out[r, i, j] = table[r, ids[i, j]].
    auto columns = importOnnx(writeGather("ts_gather_axis1.onnx", { 3, 4 }, { 2, 2 }, 1, true));
    ASSERT_TRUE(columns) << columns.error().toString();
    ir::Buffer table(std::vector<int64_t> { 3, 4 });
    for (int64_t k = 0; k < 12; ++k)
        table[k] = static_cast<float>(k);
    ir::Buffer cols(std::vector<int64_t> { 2, 2 });
    const float colIds[] = { 3, 0, -2, 9 }; // columns 3, 0, 2, 3
    std::copy(std::begin(colIds), std::end(colIds), cols.data());
    auto picked = evaluateGraph(columns->graph, { table, cols });
    ASSERT_TRUE(picked) << picked.error().toString();
    const ir::Buffer& z = (*picked)[static_cast<size_t>(columns->outputs.at(0))];
    ASSERT_EQ(z.shape(), (std::vector<int64_t> { 3, 2, 2 }));
    const int64_t colOf[] = { 3, 0, 2, 3 };
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t i = 0; i < 4; ++i)
            EXPECT_EQ(z[r * 4 + i], static_cast<float>(r * 4 + colOf[i]));
}

TEST(OnnxImport, AGatherTheImporterCannotComputeIsNamed)
{
    // More entries along the axis than float32 indices can name exactly (2^24 + 1 rows; nothing is allocated).
    auto big = importOnnx(writeGather("ts_gather_big.onnx", { 16777217, 1 }, { 4 }, 0, true));
    ASSERT_FALSE(big);
    EXPECT_EQ(big.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(big.error().message.find("node lookup (Gather, opset 13), attribute axis: run-time indices into "
                                       "16777217 entries along axis 0 of table [16777217, 1]"),
        std::string::npos)
        << big.error().message;
    // An axis the data does not have.
    auto axis = importOnnx(writeGather("ts_gather_axis.onnx", { 5, 2 }, { 3 }, 2));
    ASSERT_FALSE(axis);
    EXPECT_NE(axis.error().message.find("node lookup (Gather, opset 13)"), std::string::npos) << axis.error().message;
    EXPECT_NE(axis.error().message.find("axis"), std::string::npos) << axis.error().message;
    // Integer ids that something other than Gather's indices reads stay refused, naming the input.
    const std::string path = writeModel("ts_ids_added.onnx", [](onnx::ModelProto& m) {
        onnx::GraphProto* g = m.mutable_graph();
        g->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
        addNode(m, "Relu", "r", { "x" }, "y");
        addOutput(m, "y");
    });
    auto added = importOnnx(path);
    ASSERT_FALSE(added);
    EXPECT_NE(added.error().message.find("input x has type INT64; TuneScope's graph inputs are float tensors, or "
                                         "integer ids that only Gather's indices read"),
        std::string::npos)
        << added.error().message;
}

TEST(OnnxImport, ABertBaseEncoderHasDenseAndBatchMatmulTasks)
{
    auto model = importOnnx(fixture("bert_base_encoder.onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    const TaskSet set = tasksOf(model->graph);
    std::map<std::string, int> anchors;
    for (const Task& t : set.tasks)
        anchors[std::string(toString(t.anchor))] += t.weight;
    // Per layer: the attention's input projection, its output projection and the two feed-forward layers are
    // dense; scores and context are batch_matmul; softmax; two layer norms (ONNX's decomposed form reduces
    // twice: mean, then mean of squares).
    EXPECT_EQ(anchors["dense"], 2 * 4) << names(set);
    EXPECT_EQ(anchors["batch_matmul"], 2 * 2) << names(set);
    EXPECT_EQ(anchors["softmax"], 2) << names(set);
    EXPECT_GT(set.totalMacs(), 2 * 128 * (4.0 * 768 * 768 + 2 * 768 * 3072));
}

TEST(OnnxImport, AnUnsupportedOperatorIsAnErrorNamingNodeOpAndOpset)
{
    const std::string path = writeModel("ts_unsupported.onnx", [](onnx::ModelProto& m) {
        addNode(m, "Relu", "first", { "x" }, "r");
        addNode(m, "Hardmax", "mystery", { "r" }, "h");
        addNode(m, "LpNormalization", "second_mystery", { "h" }, "y");
        addOutput(m, "y");
    });
    auto model = importOnnx(path);
    ASSERT_FALSE(model);
    EXPECT_EQ(model.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(model.error().message.find("node mystery (Hardmax, opset 13)"), std::string::npos)
        << model.error().message;

    // The check lists the first unsupported node; what only depends on it cannot be checked.
    auto check = checkOnnx(path);
    ASSERT_TRUE(check) << check.error().toString();
    ASSERT_EQ(check->issues.size(), 1u);
    EXPECT_EQ(check->issues[0].node, "mystery");
    EXPECT_EQ(check->issues[0].opType, "Hardmax");
    EXPECT_EQ(check->notChecked, 1);
}

TEST(OnnxImport, CheckListsEveryUnsupportedNodeAtOnce)
{
    const std::string path = writeModel("ts_two_unsupported.onnx", [](onnx::ModelProto& m) {
        addNode(m, "Hardmax", "a", { "x" }, "h");
        onnx::NodeProto* pad = addNode(m, "Pad", "b", { "x", "pads" }, "p");
        auto* mode = pad->add_attribute();
        mode->set_name("mode");
        mode->set_type(onnx::AttributeProto::STRING);
        mode->set_s("reflect");
        onnx::TensorProto* pads = m.mutable_graph()->add_initializer();
        pads->set_name("pads");
        pads->set_data_type(onnx::TensorProto::INT64);
        pads->add_dims(8);
        for (int i = 0; i < 8; ++i)
            pads->add_int64_data(i == 2 ? 1 : 0);
        addNode(m, "Add", "c", { "h", "p" }, "y");
        addOutput(m, "y");
    });
    auto check = checkOnnx(path);
    ASSERT_TRUE(check) << check.error().toString();
    ASSERT_EQ(check->issues.size(), 2u);
    EXPECT_EQ(check->issues[0].node, "a");
    EXPECT_EQ(check->issues[1].node, "b");
    EXPECT_EQ(check->issues[1].attribute, "mode");
    EXPECT_NE(check->issues[1].message.find("'reflect'"), std::string::npos) << check->issues[1].message;
    EXPECT_EQ(check->notChecked, 1);
}

TEST(OnnxImport, AnUnsupportedAttributeValueIsNamed)
{
    const std::string path = writeModel("ts_softmax_axis.onnx", [](onnx::ModelProto& m) {
        onnx::NodeProto* n = addNode(m, "Softmax", "sm", { "x" }, "y");
        auto* axis = n->add_attribute();
        axis->set_name("axis");
        axis->set_type(onnx::AttributeProto::INT);
        axis->set_i(1);
        addOutput(m, "y");
    });
    auto model = importOnnx(path);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("node sm (Softmax, opset 13), attribute axis: softmax over axis 1"),
        std::string::npos)
        << model.error().message;
}

TEST(OnnxImport, BadFilesGiveClearErrors)
{
    auto missing = importOnnx("/nonexistent/model.onnx");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);

    const std::string garbage = (std::filesystem::temp_directory_path() / "ts_garbage.onnx").string();
    std::ofstream(garbage) << "this is not a protobuf at all \x01\x02\xff";
    auto bad = importOnnx(garbage);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("ts_garbage.onnx"), std::string::npos) << bad.error().message;

    // A symbolic dimension other than the batch cannot be guessed.
    const std::string symbolic = writeModel("ts_symbolic.onnx", [](onnx::ModelProto& m) {
        auto* dims = m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
        dims->mutable_dim(2)->set_dim_param("height");
        addNode(m, "Relu", "r", { "x" }, "y");
        addOutput(m, "y");
    });
    auto sym = importOnnx(symbolic);
    ASSERT_FALSE(sym);
    EXPECT_NE(sym.error().message.find("symbolic dimension 'height' at axis 2"), std::string::npos)
        << sym.error().message;

    auto batch = importOnnx(fixture("resnet18.onnx"), { 0 });
    ASSERT_FALSE(batch);
    EXPECT_NE(batch.error().message.find("--batch"), std::string::npos);
}

TEST(OnnxImport, LayerNormalizationScalesByGammaAndShiftsByBeta)
{
    // gamma 2 and beta 0.5 over the last axis: every row of the output has mean 0.5 and standard deviation 2.
    // Swapped parameters would give mean 2 and deviation 0.5.
    const std::string path = writeModel("ts_layer_norm.onnx", [](onnx::ModelProto& m) {
        m.mutable_opset_import(0)->set_version(17);
        auto constant = [&](const std::string& name, float value) {
            onnx::TensorProto* t = m.mutable_graph()->add_initializer();
            t->set_name(name);
            t->set_data_type(onnx::TensorProto::FLOAT);
            t->add_dims(8);
            for (int i = 0; i < 8; ++i)
                t->add_float_data(value);
        };
        constant("gamma", 2.0f);
        constant("beta", 0.5f);
        addNode(m, "LayerNormalization", "ln", { "x", "gamma", "beta" }, "y");
        addOutput(m, "y");
    });
    auto model = importOnnx(path);
    ASSERT_TRUE(model) << model.error().toString();
    ir::Buffer x({ 1, 4, 8, 8 });
    ir::fillRandomInput(x.data(), x.size(), 5, 0);
    auto values = evaluateGraph(model->graph, { x });
    ASSERT_TRUE(values) << values.error().toString();
    const ir::Buffer& y = (*values)[static_cast<size_t>(model->outputs.at(0))];
    ASSERT_EQ(y.size(), x.size());
    for (int64_t row = 0; row < y.size() / 8; ++row) {
        double mean = 0.0, square = 0.0;
        for (int64_t i = 0; i < 8; ++i)
            mean += y[row * 8 + i] / 8.0;
        for (int64_t i = 0; i < 8; ++i)
            square += (y[row * 8 + i] - mean) * (y[row * 8 + i] - mean) / 8.0;
        EXPECT_NEAR(mean, 0.5, 1e-4) << "row " << row;
        EXPECT_NEAR(std::sqrt(square), 2.0, 1e-2) << "row " << row;
    }
}

TEST(OnnxImport, ATinyDecoderWithConvTransposeComputesPyTorchsOutput)
{
    expectPyTorchOutput("decoder_tiny", 1e-3);
    auto model = importOnnx(fixture("decoder_tiny.onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    // ConvTranspose2d(8, 8, 3, stride 2, padding 1, output_padding 1) and ConvTranspose2d(8, 4, 2, stride 2,
    // groups 2), each a task with its bias and relu.
    std::vector<const Node*> transposed;
    for (const Node& n : model->graph.nodes())
        if (n.kind == NodeKind::ConvTranspose2d)
            transposed.push_back(&n);
    ASSERT_EQ(transposed.size(), 2u);
    EXPECT_EQ(transposed[0]->conv.padding, (std::array<int64_t, 4> { 1, 1, 1, 1 }));
    EXPECT_EQ(transposed[0]->outputPadding, (std::array<int64_t, 2> { 1, 1 }));
    EXPECT_EQ(transposed[0]->shape, (std::vector<int64_t> { 1, 8, 32, 32 }));
    EXPECT_EQ(transposed[1]->conv.groups, 2);
    EXPECT_EQ(transposed[1]->weightShape, (std::vector<int64_t> { 8, 2, 2, 2 }));
    const TaskSet tasks = tasksOf(model->graph);
    ASSERT_EQ(tasks.tasks.size(), 3u) << names(tasks);
    EXPECT_EQ(tasks.tasks[1].name, "conv2d_transpose_bias_add_relu_nchw") << names(tasks);
    EXPECT_EQ(tasks.tasks[2].anchor, NodeKind::ConvTranspose2d);
}

namespace {
// A ConvTranspose of x [1, 4, 8, 8] by a constant weight [4, 2, 3, 3] with the given attributes.
std::string convTransposeModel(
    const std::string& file, const std::function<void(onnx::ModelProto&, onnx::NodeProto&)>& attributes)
{
    return writeModel(file, [&](onnx::ModelProto& m) {
        onnx::TensorProto* w = m.mutable_graph()->add_initializer();
        w->set_name("w");
        w->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : { 4, 2, 3, 3 })
            w->add_dims(d);
        for (int i = 0; i < 4 * 2 * 3 * 3; ++i)
            w->add_float_data(0.1f * static_cast<float>(i % 5));
        onnx::NodeProto* n = addNode(m, "ConvTranspose", "up", { "x", "w" }, "y");
        auto* stride = n->add_attribute();
        stride->set_name("strides");
        stride->set_type(onnx::AttributeProto::INTS);
        stride->add_ints(2);
        stride->add_ints(2);
        attributes(m, *n);
        addOutput(m, "y");
    });
}

void addInts(onnx::NodeProto& n, const std::string& name, std::vector<int64_t> values)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values)
        a->add_ints(v);
}

void addText(onnx::NodeProto& n, const std::string& name, const std::string& value)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
}

const Node& onlyConvTranspose(const Graph& g)
{
    const auto it = std::find_if(
        g.nodes().begin(), g.nodes().end(), [](const Node& n) { return n.kind == NodeKind::ConvTranspose2d; });
    EXPECT_NE(it, g.nodes().end());
    return *it;
}
} // namespace

TEST(OnnxImport, ConvTransposeSplitsTheTotalPaddingAsOnnxDefinesIt)
{
    // Full output (8 - 1) * 2 + 3 = 17; asking for 16 pads 1 in total: at the end for SAME_UPPER (whose output
    // is 8 * 2), at the beginning for output_shape without auto_pad.
    auto upper = importOnnx(convTransposeModel("ts_convt_same_upper.onnx",
        [](onnx::ModelProto&, onnx::NodeProto& n) { addText(n, "auto_pad", "SAME_UPPER"); }));
    ASSERT_TRUE(upper) << upper.error().toString();
    EXPECT_EQ(onlyConvTranspose(upper->graph).conv.padding, (std::array<int64_t, 4> { 0, 0, 1, 1 }));
    EXPECT_EQ(onlyConvTranspose(upper->graph).shape, (std::vector<int64_t> { 1, 2, 16, 16 }));
    auto shaped
        = importOnnx(convTransposeModel("ts_convt_output_shape.onnx", [](onnx::ModelProto&, onnx::NodeProto& n) {
              addInts(n, "output_shape", { 16, 18 });
          }));
    ASSERT_TRUE(shaped) << shaped.error().toString();
    // Height: 1 at the top. Width: 18 is one past the full output, a total of -1: a zero column at the right.
    EXPECT_EQ(onlyConvTranspose(shaped->graph).conv.padding, (std::array<int64_t, 4> { 1, 0, 0, -1 }));
    EXPECT_EQ(onlyConvTranspose(shaped->graph).shape, (std::vector<int64_t> { 1, 2, 16, 18 }));
}

TEST(OnnxImport, ConvTransposeRefusesWhatItDoesNotComputeNamingTheAttribute)
{
    auto oneD = importOnnx(convTransposeModel("ts_convt_1d.onnx", [](onnx::ModelProto& m, onnx::NodeProto&) {
        m.mutable_graph()
            ->mutable_input(0)
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim()
            ->RemoveLast();
    }));
    ASSERT_FALSE(oneD);
    EXPECT_EQ(oneD.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(oneD.error().message.find("node up (ConvTranspose, opset 13): a transposed convolution on a 3-D input "
                                        "[1, 4, 8]; only 2-D (NCHW) is supported"),
        std::string::npos)
        << oneD.error().message;

    auto padding
        = importOnnx(convTransposeModel("ts_convt_output_padding.onnx", [](onnx::ModelProto&, onnx::NodeProto& n) {
              addInts(n, "output_padding", { 1, 1, 1 });
          }));
    ASSERT_FALSE(padding);
    EXPECT_NE(padding.error().message.find("attribute output_padding: has 3 values"), std::string::npos)
        << padding.error().message;

    auto autoPad = importOnnx(convTransposeModel(
        "ts_convt_auto_pad.onnx", [](onnx::ModelProto&, onnx::NodeProto& n) { addText(n, "auto_pad", "SAME"); }));
    ASSERT_FALSE(autoPad);
    EXPECT_NE(autoPad.error().message.find("attribute auto_pad: unknown value 'SAME'"), std::string::npos)
        << autoPad.error().message;

    auto weight = importOnnx(convTransposeModel("ts_convt_group.onnx", [](onnx::ModelProto&, onnx::NodeProto& n) {
        addInts(n, "kernel_shape", { 3, 2 });
    }));
    ASSERT_FALSE(weight);
    EXPECT_NE(
        weight.error().message.find("kernel_shape [3, 2] differs from the weight's [4, 2, 3, 3]"), std::string::npos)
        << weight.error().message;
}
