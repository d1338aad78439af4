// ONNX's own backend test data (Debian's libonnx-testdata) as the oracle for operator semantics: every case
// whose model TuneScope imports is evaluated on the case's inputs twice, by the reference evaluator and by the
// generated code (the graph executor: each group compiled by LLVM with its default schedule), and both are
// compared with its expected outputs (rtol 1e-3, atol 1e-5, as ONNX's backend tests compare). A case TuneScope
// cannot import is skipped with the reason counted; a case it imports but computes wrongly fails the test. A
// convolution's weight and bias given as graph inputs are bound as constants, as exported models hold them
// (initializers); integer indices that only Gather reads (embedding lookups) stay run-time inputs, given to the
// reference evaluator and the generated code as float32 whole numbers, as a model's token ids are.
#include "core/graph/graph_evaluator.h"
#include "core/graph/onnx_import.h"
#include "core/graph/task_extraction.h"
#include "core/runtime/graph_executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <onnx/onnx_pb.h>
#include <set>

using namespace ts;
using namespace ts::graph;
namespace fs = std::filesystem;

namespace {
const fs::path kTestData = "/usr/share/libonnx-testdata/data";

struct Tally {
    int ran = 0;
    int passed = 0; // by the reference evaluator and the generated code both
    int unsupported = 0;
    std::vector<std::string> failures;
    std::set<std::string> passedCases; // cases whose every data set passed
    int runTimeIndices = 0; // data sets that gave Gather its indices at run time
    std::map<std::string, int> reasons; // first words of the unsupported message, for the summary
};

std::vector<fs::path> sortedFiles(const fs::path& dir, const std::string& prefix)
{
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().rfind(prefix, 0) == 0)
            out.push_back(e.path());
    std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
        // input_10 after input_9
        const std::string x = a.filename().string(), y = b.filename().string();
        return x.size() != y.size() ? x.size() < y.size() : x < y;
    });
    return out;
}

void skip(Tally& tally, const Error& error)
{
    ++tally.unsupported;
    // "node n (Op, opset 13), attribute a: ..." counts under "Op"; file-level reasons under their first words.
    std::string reason = error.message;
    const size_t paren = reason.find(" (");
    if (reason.find("node ") != std::string::npos && paren != std::string::npos)
        reason = reason.substr(paren + 2, reason.find(',', paren) - paren - 2);
    else
        reason = reason.substr(reason.find(": ") + 2, 40);
    ++tally.reasons[reason];
}

// Graph inputs that give a convolution's weight or bias (inputs 1 and 2 of Conv and ConvTranspose): the importer
// takes a layer's parameters as constants only. And those that only Gather reads, as its indices: run-time ids.
struct SpecialInputs {
    std::set<std::string> parameters;
    std::set<std::string> indices;
};

SpecialInputs specialInputs(const std::string& modelPath)
{
    SpecialInputs out;
    onnx::ModelProto model;
    std::ifstream in(modelPath, std::ios::binary);
    if (!model.ParseFromIstream(&in))
        return out;
    std::map<std::string, bool> onlyIndices;
    for (const onnx::NodeProto& n : model.graph().node()) {
        if (n.op_type() == "Conv" || n.op_type() == "ConvTranspose")
            for (int k = 1; k < n.input_size() && k < 3; ++k)
                out.parameters.insert(n.input(k));
        for (int k = 0; k < n.input_size(); ++k) {
            const bool index = n.op_type() == "Gather" && k == 1 && n.input(0) != n.input(1);
            auto [it, added] = onlyIndices.emplace(n.input(k), index);
            it->second = it->second && index;
        }
    }
    for (const auto& [name, only] : onlyIndices)
        if (only)
            out.indices.insert(name);
    return out;
}

void runCase(const fs::path& dir, Tally& tally)
{
    const std::string name = dir.filename().string();
    const std::string modelPath = (dir / "model.onnx").string();
    auto declared = onnxInputs(modelPath);
    if (!declared) {
        skip(tally, declared.error());
        return;
    }
    const SpecialInputs special = specialInputs(modelPath);
    bool failed = false;
    int ran = 0;
    for (const fs::path& set : sortedFiles(dir, "test_data_set_")) {
        // Inputs that are not float tensors (shapes, axes) and convolution parameters are bound when the model is
        // imported; the other float ones, and integer indices only Gather reads, are the graph's inputs.
        const std::vector<fs::path> files = sortedFiles(set, "input_");
        OnnxImportOptions options;
        std::vector<fs::path> floats;
        bool indices = false;
        for (size_t k = 0; k < files.size() && k < declared->size(); ++k) {
            const OnnxInput& in = (*declared)[k];
            const bool ids = (in.type == "INT64" || in.type == "INT32") && special.indices.count(in.name);
            indices = indices || ids;
            if ((in.type == "FLOAT" && !special.parameters.count(in.name)) || ids)
                floats.push_back(files[k]);
            else
                options.boundInputs[in.name] = files[k].string();
        }
        auto model = importOnnx(modelPath, options);
        if (!model) {
            skip(tally, model.error());
            return;
        }
        std::vector<ir::Buffer> inputs;
        for (const fs::path& f : floats) {
            auto b = readOnnxTensor(f.string());
            if (!b) {
                tally.failures.push_back(name + ": " + b.error().message);
                return;
            }
            // ONNX test data writes scalars with rank 0; TuneScope's tensors have rank >= 1.
            if (b->shape().empty())
                *b = ir::Buffer({ 1 }, (*b)[0]);
            inputs.push_back(std::move(*b));
        }
        ++tally.ran;
        ++ran;
        tally.runTimeIndices += indices ? 1 : 0;
        auto values = evaluateGraph(model->graph, inputs);
        if (!values) {
            tally.failures.push_back(name + ": " + values.error().message);
            failed = true;
            continue;
        }
        // The same model as generated code: every group compiled with its default schedule, and run.
        auto compiled = [&]() -> Expected<std::vector<ir::Buffer>> {
            TS_TRY(Partition partition, partitionGraph(model->graph));
            runtime::ExecutorOptions executorOptions;
            executorOptions.outputs = model->outputs;
            TS_TRY(runtime::GraphExecutor executor,
                runtime::GraphExecutor::build(model->graph, partition, nullptr, executorOptions));
            TS_CHECK(executor.setInputs(inputs));
            executor.run();
            std::vector<ir::Buffer> out;
            for (int node : model->outputs) {
                TS_TRY(ir::Buffer b, executor.value(node));
                out.push_back(std::move(b));
            }
            return out;
        }();
        if (!compiled) {
            tally.failures.push_back(name + " (generated code): " + compiled.error().message);
            failed = true;
            continue;
        }
        bool ok = true;
        const std::vector<fs::path> outputs = sortedFiles(set, "output_");
        for (size_t o = 0; o < outputs.size() && o < model->outputs.size() && ok; ++o) {
            auto expected = readOnnxTensor(outputs[o].string());
            for (const auto& [by, got] : { std::pair<const char*, const ir::Buffer*> { "reference evaluator",
                                               &(*values)[static_cast<size_t>(model->outputs[o])] },
                     std::pair<const char*, const ir::Buffer*> { "generated code", &(*compiled)[o] } }) {
                const std::string what = name + ": output " + std::to_string(o) + " by the " + by;
                if (!expected || expected->size() != got->size()) {
                    tally.failures.push_back(what + " has " + std::to_string(got->size()) + " elements, expected "
                        + (expected ? std::to_string(expected->size()) : expected.error().message));
                    ok = false;
                    break;
                }
                const std::vector<int64_t> wantShape
                    = expected->shape().empty() ? std::vector<int64_t> { 1 } : expected->shape();
                if (got->shape() != wantShape) {
                    tally.failures.push_back(what + " has shape " + std::to_string(got->shape().size())
                        + "-D, not the expected " + std::to_string(wantShape.size()) + "-D");
                    ok = false;
                    break;
                }
                ir::Buffer reshaped(wantShape);
                std::copy(got->data(), got->data() + got->size(), reshaped.data());
                ir::Buffer want(wantShape);
                std::copy(expected->data(), expected->data() + expected->size(), want.data());
                const double error = ir::maxRelativeError(reshaped, want, 1e-3, 1e-5);
                if (!(error <= 1.0)) {
                    tally.failures.push_back(what + " differs (error " + std::to_string(error) + " of the tolerance)");
                    ok = false;
                    break;
                }
            }
        }
        if (ok)
            ++tally.passed;
        else
            failed = true;
    }
    if (ran > 0 && !failed)
        tally.passedCases.insert(name);
}

Tally runFolder(const std::string& folder)
{
    Tally tally;
    std::vector<fs::path> cases;
    for (const auto& e : fs::directory_iterator(kTestData / folder))
        if (fs::exists(e.path() / "model.onnx"))
            cases.push_back(e.path());
    std::sort(cases.begin(), cases.end());
    for (const fs::path& dir : cases)
        runCase(dir, tally);
    std::printf("ONNX test data, %s: %zu cases; %d imported data sets ran, %d passed, %zu failed; %d cases skipped as "
                "unsupported\n",
        folder.c_str(), cases.size(), tally.ran, tally.passed, tally.failures.size(), tally.unsupported);
    std::vector<std::pair<int, std::string>> reasons;
    for (const auto& [reason, count] : tally.reasons)
        reasons.emplace_back(count, reason);
    std::sort(reasons.rbegin(), reasons.rend());
    std::string line;
    for (size_t i = 0; i < reasons.size() && i < 25; ++i)
        line += reasons[i].second + " " + std::to_string(reasons[i].first) + ", ";
    std::printf("  most common reasons to skip: %s\n", line.c_str());
    std::printf("  %d of the data sets that ran gave Gather its indices at run time\n", tally.runTimeIndices);
    return tally;
}

std::string listed(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines)
        out += "  " + l + "\n";
    return out;
}
} // namespace

TEST(OnnxTestData, NodeCasesTuneScopeImportsComputeTheExpectedOutputs)
{
    ASSERT_TRUE(fs::exists(kTestData / "node")) << "libonnx-testdata is not installed (./setup.sh deps)";
    const Tally tally = runFolder("node");
    EXPECT_TRUE(tally.failures.empty()) << tally.failures.size() << " cases fail:\n" << listed(tally.failures);
    // A floor, so that losing operators is seen (the count printed above is the figure).
    EXPECT_GE(tally.passed, 150);
    // Every 2-D ConvTranspose case (1-D and 3-D are refused).
    for (const char* name : { "test_convtranspose", "test_convtranspose_autopad_same", "test_convtranspose_dilations",
             "test_convtranspose_kernel_shape", "test_convtranspose_output_shape", "test_convtranspose_pad",
             "test_convtranspose_pads", "test_convtranspose_with_kernel" })
        EXPECT_TRUE(tally.passedCases.count(name)) << name;
    // Gather with its indices as a run-time input (ops::take), negative ones included.
    for (const char* name :
        { "test_gather_0", "test_gather_1", "test_gather_2d_indices", "test_gather_negative_indices" })
        EXPECT_TRUE(tally.passedCases.count(name)) << name;
    EXPECT_GE(tally.runTimeIndices, 4);
}

TEST(OnnxTestData, PyTorchConvertedModulesComputeTheExpectedOutputs)
{
    // Whole PyTorch modules (opset 6 mostly: legacy broadcasting) and small models.
    Tally all;
    for (const char* folder : { "pytorch-converted", "pytorch-operator", "simple" }) {
        const Tally tally = runFolder(folder);
        all.passed += tally.passed;
        all.failures.insert(all.failures.end(), tally.failures.begin(), tally.failures.end());
    }
    EXPECT_TRUE(all.failures.empty()) << all.failures.size() << " cases fail:\n" << listed(all.failures);
    EXPECT_GE(all.passed, 40);
}
