// Private to the ONNX importer (onnx_import.h): the converter's state and helpers, shared by the walk over the
// model (onnx_convert.cpp) and the per-operator conversions (onnx_ops.cpp).
#pragma once

#include "core/graph/onnx_import.h"

#include <functional>
#include <map>
#include <memory>
#include <onnx/onnx_pb.h>
#include <optional>
#include <set>

namespace ts::graph {

// A tensor known at import time: an initializer, a Constant node, or folded shape arithmetic. Values are held as
// doubles (int64 shape values up to 2^53 are exact); `integer` says the ONNX type was an integer or bool.
struct HostTensor {
    std::vector<int64_t> shape;
    std::vector<double> values;
    bool integer = false;

    int64_t size() const { return static_cast<int64_t>(values.size()); }
    std::vector<int64_t> ints() const;
};

Expected<HostTensor> hostTensor(const onnx::TensorProto& proto, const std::string& directory);
// A serialized TensorProto file (ONNX test data's input_0.pb); errors name the file.
Expected<HostTensor> readTensorFile(const std::string& path);
// As float32; a scalar (rank 0) becomes shape [1].
ir::Buffer toBuffer(const HostTensor& t);
std::shared_ptr<const ir::Buffer> sharedBuffer(const HostTensor& t);

class OnnxConverter {
public:
    OnnxConverter(const onnx::ModelProto& model, int64_t opset, std::string directory, OnnxImportOptions options,
        bool collectIssues);

    Expected<OnnxModel> run(const std::string& path);
    const std::vector<OnnxIssue>& issues() const { return m_issues; }
    int notChecked() const { return m_notChecked; }

    // ---- for the operator conversions (onnx_ops.cpp) ----
    struct Value {
        int node = -1; // a graph node, or
        std::optional<HostTensor> constant; // a value known now
    };

    int64_t opset() const { return m_opset; }
    Graph& graph() { return m_graph; }
    const onnx::NodeProto& node() const { return *m_node; }
    // The node's input k ("" or past the end: absent).
    bool hasInput(int k) const;
    const Value& input(int k) const;
    const HostTensor* constantInput(int k) const;
    // The value called `name` (any node's output), when known now.
    const HostTensor* constantNamed(const std::string& name) const;
    std::vector<int64_t> inputShape(int k) const;
    // The graph node of input k, making a Constant node for a value known now.
    int inputNode(int k);
    void setOutput(int k, Value value);
    // What output k has been set to.
    const Value& outputValue(int k) const { return m_values.at(m_node->output(k)); }
    void setOutput(int k, int node) { setOutput(k, Value { node, std::nullopt }); }
    void setOutput(int k, HostTensor constant) { setOutput(k, Value { -1, std::move(constant) }); }
    // Adds `node` over `inputs` (input k of this ONNX node each), or, when every input is known now, evaluates it
    // with the reference evaluator and returns the constant.
    Expected<Value> emit(Node node, const std::vector<int>& inputs);
    // As emit(), over values that are already graph nodes or constants.
    Expected<Value> emitOver(Node node, const std::vector<Value>& inputs);
    // The one consumer of this node's output k, or nullptr (several or none, or a graph output).
    const onnx::NodeProto* soleConsumer(int k) const;
    void skipNode(const onnx::NodeProto* node) { m_skipped.insert(node); }
    void alias(const std::string& name, const Value& value) { m_values[name] = value; }

    bool hasAttribute(const std::string& name) const;
    int64_t intAttribute(const std::string& name, int64_t fallback) const;
    double floatAttribute(const std::string& name, double fallback) const;
    std::string stringAttribute(const std::string& name, const std::string& fallback) const;
    std::vector<int64_t> intsAttribute(const std::string& name) const;
    const onnx::TensorProto* tensorAttribute(const std::string& name) const;
    const std::string& directory() const { return m_directory; }

    // An unsupported operator, attribute or value: the error that names this node.
    Error unsupported(const std::string& attribute, const std::string& message) const;
    // A model that breaks ONNX's own rules here (wrong input count, a shape that does not fit).
    Error invalid(const std::string& message) const;

private:
    Expected<void> convertNode(int index);

    const onnx::ModelProto& m_model;
    int64_t m_opset;
    std::string m_directory;
    OnnxImportOptions m_options;
    bool m_collect;
    Graph m_graph;
    std::map<std::string, Value> m_values;
    std::map<std::string, int> m_constantNodes; // value name -> its Constant node
    std::map<std::string, std::vector<const onnx::NodeProto*>> m_consumers;
    std::set<std::string> m_graphOutputs;
    std::set<const onnx::NodeProto*> m_skipped;
    std::set<std::string> m_poisoned;
    const onnx::NodeProto* m_node = nullptr;
    std::string m_nodeName;
    std::vector<OnnxIssue> m_issues;
    mutable std::optional<OnnxIssue> m_lastIssue; // what unsupported() or invalid() said last
    int m_notChecked = 0;
};

// The conversion of one op type; throws nothing, returns the error that names the node.
using OnnxOpConverter = std::function<Expected<void>(OnnxConverter&)>;
const std::map<std::string, OnnxOpConverter>& onnxOpConverters();

} // namespace ts::graph
