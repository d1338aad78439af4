#include "core/graph/onnx_convert.h"

#include "core/graph/graph_evaluator.h"
#include "core/ops/shape_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ts::graph {

std::vector<int64_t> HostTensor::ints() const
{
    std::vector<int64_t> out;
    out.reserve(values.size());
    for (double v : values)
        out.push_back(static_cast<int64_t>(v));
    return out;
}

namespace {
    // A tensor's values, from its raw bytes (little-endian T) or from its typed field.
    template <typename T, typename Field>
    void readValues(bool hasRaw, const std::string& raw, const Field& field, std::vector<double>& out)
    {
        if (!hasRaw) {
            out.assign(field.begin(), field.end());
            return;
        }
        const size_t n = raw.size() / sizeof(T);
        out.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            T v;
            std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
            out.push_back(static_cast<double>(v));
        }
    }

    Expected<std::string> externalData(const onnx::TensorProto& proto, const std::string& directory)
    {
        std::string location;
        int64_t offset = 0;
        int64_t length = -1;
        for (const onnx::StringStringEntryProto& e : proto.external_data()) {
            if (e.key() == "location")
                location = e.value();
            else if (e.key() == "offset")
                offset = std::stoll(e.value());
            else if (e.key() == "length")
                length = std::stoll(e.value());
        }
        if (location.empty() || location.find("..") != std::string::npos)
            return makeError(ErrorKind::InvalidArgument,
                "tensor " + proto.name() + ": external data without a location inside the model's folder");
        const std::string file = (std::filesystem::path(directory) / location).string();
        std::ifstream in(file, std::ios::binary);
        if (!in)
            return makeError(ErrorKind::NotFound, "tensor " + proto.name() + ": cannot open its external data " + file);
        in.seekg(0, std::ios::end);
        const int64_t size = in.tellg();
        if (length < 0)
            length = size - offset;
        if (offset < 0 || offset + length > size)
            return makeError(
                ErrorKind::InvalidArgument, "tensor " + proto.name() + ": external data range is outside " + file);
        std::string raw(static_cast<size_t>(length), '\0');
        in.seekg(offset);
        in.read(raw.data(), length);
        return raw;
    }
} // namespace

Expected<HostTensor> hostTensor(const onnx::TensorProto& proto, const std::string& directory)
{
    HostTensor t;
    int64_t count = 1;
    for (int64_t d : proto.dims()) {
        if (d < 0)
            return makeError(ErrorKind::InvalidArgument, "tensor " + proto.name() + " has a negative dimension");
        t.shape.push_back(d);
        count *= d;
    }
    std::string raw = proto.raw_data();
    if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
        TS_TRY(raw, externalData(proto, directory));
    }
    const bool hasRaw = !raw.empty() || proto.has_raw_data() || proto.data_location() == onnx::TensorProto::EXTERNAL;
    using P = onnx::TensorProto;
    switch (proto.data_type()) {
    case P::FLOAT:
        readValues<float>(hasRaw, raw, proto.float_data(), t.values);
        break;
    case P::DOUBLE:
        readValues<double>(hasRaw, raw, proto.double_data(), t.values);
        break;
    case P::INT64:
        readValues<int64_t>(hasRaw, raw, proto.int64_data(), t.values);
        break;
    // The narrower integer types are stored in int32_data when not raw.
    case P::INT32:
        readValues<int32_t>(hasRaw, raw, proto.int32_data(), t.values);
        break;
    case P::INT16:
        readValues<int16_t>(hasRaw, raw, proto.int32_data(), t.values);
        break;
    case P::INT8:
        readValues<int8_t>(hasRaw, raw, proto.int32_data(), t.values);
        break;
    case P::UINT16:
        readValues<uint16_t>(hasRaw, raw, proto.int32_data(), t.values);
        break;
    case P::UINT8:
    case P::BOOL:
        readValues<uint8_t>(hasRaw, raw, proto.int32_data(), t.values);
        break;
    default:
        return makeError(ErrorKind::Unsupported,
            "tensor " + proto.name() + " has ONNX data type "
                + onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(proto.data_type()))
                + " (TuneScope computes in float32 and reads float, double and integer tensors)");
    }
    t.integer = proto.data_type() != P::FLOAT && proto.data_type() != P::DOUBLE;
    if (static_cast<int64_t>(t.values.size()) != count)
        return makeError(ErrorKind::InvalidArgument,
            "tensor " + proto.name() + " holds " + std::to_string(t.values.size()) + " values for shape "
                + ops::shapeText(t.shape));
    return t;
}

Expected<HostTensor> readTensorFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::NotFound, path + ": cannot open the tensor file");
    onnx::TensorProto proto;
    if (!proto.ParseFromIstream(&in))
        return makeError(ErrorKind::InvalidArgument, path + ": not a serialized ONNX TensorProto");
    return hostTensor(proto, std::filesystem::path(path).parent_path().string());
}

ir::Buffer toBuffer(const HostTensor& t)
{
    ir::Buffer b(t.shape.empty() ? std::vector<int64_t> { 1 } : t.shape);
    for (int64_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<float>(t.values[static_cast<size_t>(i)]);
    return b;
}

std::shared_ptr<const ir::Buffer> sharedBuffer(const HostTensor& t)
{
    return std::make_shared<ir::Buffer>(toBuffer(t));
}

OnnxConverter::OnnxConverter(
    const onnx::ModelProto& model, int64_t opset, std::string directory, OnnxImportOptions options, bool collectIssues)
    : m_model(model)
    , m_opset(opset)
    , m_directory(std::move(directory))
    , m_options(options)
    , m_collect(collectIssues)
    , m_graph(model.graph().name().empty() ? "onnx" : model.graph().name(), ops::Layout::NCHW, options.batch)
{
}

bool OnnxConverter::hasInput(int k) const { return k >= 0 && k < m_node->input_size() && !m_node->input(k).empty(); }

const OnnxConverter::Value& OnnxConverter::input(int k) const { return m_values.at(m_node->input(k)); }

const HostTensor* OnnxConverter::constantInput(int k) const
{
    if (!hasInput(k))
        return nullptr;
    const Value& v = input(k);
    return v.constant ? &*v.constant : nullptr;
}

const HostTensor* OnnxConverter::constantNamed(const std::string& name) const
{
    auto it = m_values.find(name);
    return it != m_values.end() && it->second.constant ? &*it->second.constant : nullptr;
}

std::vector<int64_t> OnnxConverter::inputShape(int k) const
{
    const Value& v = input(k);
    return v.constant ? v.constant->shape : m_graph.shape(v.node);
}

int OnnxConverter::inputNode(int k)
{
    const std::string& name = m_node->input(k);
    const Value& v = m_values.at(name);
    if (!v.constant)
        return v.node;
    auto it = m_constantNodes.find(name);
    if (it != m_constantNodes.end())
        return it->second;
    const int id = m_graph.constant(name, sharedBuffer(*v.constant));
    m_constantNodes[name] = id;
    return id;
}

void OnnxConverter::setOutput(int k, Value value)
{
    if (k < m_node->output_size() && !m_node->output(k).empty())
        m_values[m_node->output(k)] = std::move(value);
}

Expected<OnnxConverter::Value> OnnxConverter::emit(Node node, const std::vector<int>& inputs)
{
    std::vector<Value> values;
    for (int k : inputs) {
        if (!hasInput(k))
            return invalid("input " + std::to_string(k) + " is missing");
        values.push_back(input(k));
    }
    // Constant inputs of a graph node become one Constant node per initializer (inputNode), however often used.
    bool allConstant = true;
    for (const Value& v : values)
        allConstant = allConstant && v.constant.has_value();
    if (allConstant)
        return emitOver(std::move(node), values);
    std::vector<Value> nodes;
    for (size_t i = 0; i < inputs.size(); ++i)
        nodes.push_back(Value { inputNode(inputs[i]), std::nullopt });
    return emitOver(std::move(node), nodes);
}

namespace {
    // Shape arithmetic on known values, computed exactly in double (int64 sentinels such as INT64_MAX in slice
    // bounds would not survive float32): reshapes, concatenation and the binary arithmetic ops, with ONNX's
    // integer division (truncating). Other ops fold through the reference evaluator.
    std::optional<HostTensor> foldExactly(const Node& node, const std::vector<OnnxConverter::Value>& inputs)
    {
        bool integer = true;
        for (const OnnxConverter::Value& v : inputs)
            integer = integer && v.constant->integer;
        switch (node.kind) {
        case NodeKind::Reshape: {
            HostTensor t = *inputs[0].constant;
            t.shape = node.shape;
            return t;
        }
        case NodeKind::Concat: {
            HostTensor t;
            t.integer = integer;
            const std::vector<int64_t>& first = inputs[0].constant->shape;
            if (first.empty())
                return std::nullopt;
            const size_t axis = static_cast<size_t>(node.axis);
            t.shape = first;
            t.shape[axis] = 0;
            int64_t outer = 1;
            for (size_t d = 0; d < axis; ++d)
                outer *= first[d];
            for (const OnnxConverter::Value& v : inputs) {
                if (v.constant->shape.size() != first.size())
                    return std::nullopt;
                t.shape[axis] += v.constant->shape[axis];
            }
            for (int64_t o = 0; o < outer; ++o)
                for (const OnnxConverter::Value& v : inputs) {
                    const int64_t chunk = v.constant->size() / std::max<int64_t>(outer, 1);
                    const auto begin = v.constant->values.begin() + o * chunk;
                    t.values.insert(t.values.end(), begin, begin + chunk);
                }
            return t;
        }
        case NodeKind::Add:
        case NodeKind::Subtract:
        case NodeKind::Multiply:
        case NodeKind::Divide: {
            const HostTensor& a = *inputs[0].constant;
            const HostTensor& b = *inputs[1].constant;
            if (a.size() != 1 && b.size() != 1 && a.shape != b.shape)
                return std::nullopt; // general broadcasting: the evaluator's
            HostTensor t = a.size() >= b.size() ? a : b;
            t.integer = integer;
            for (int64_t i = 0; i < t.size(); ++i) {
                const double x = a.values[static_cast<size_t>(a.size() == 1 ? 0 : i)];
                const double y = b.values[static_cast<size_t>(b.size() == 1 ? 0 : i)];
                double r = node.kind == NodeKind::Add ? x + y
                    : node.kind == NodeKind::Subtract ? x - y
                    : node.kind == NodeKind::Multiply ? x * y
                                                      : x / y;
                if (integer && node.kind == NodeKind::Divide)
                    r = y == 0.0 ? 0.0 : std::trunc(r);
                t.values[static_cast<size_t>(i)] = r;
            }
            return t;
        }
        default:
            return std::nullopt;
        }
    }
} // namespace

Expected<OnnxConverter::Value> OnnxConverter::emitOver(Node node, const std::vector<Value>& inputs)
{
    if (node.name.empty())
        node.name = m_nodeName;
    bool allConstant = !inputs.empty();
    bool allInteger = true;
    for (const Value& v : inputs) {
        allConstant = allConstant && v.constant.has_value();
        allInteger = allInteger && v.constant && v.constant->integer;
    }
    if (!allConstant) {
        node.inputs.clear();
        for (const Value& v : inputs) {
            node.inputs.push_back(v.constant ? m_graph.constant("const", sharedBuffer(*v.constant)) : v.node);
        }
        const int id = m_graph.addNode(std::move(node));
        if (id < 0)
            return *m_graph.error();
        return Value { id, std::nullopt };
    }
    if (std::optional<HostTensor> exact = foldExactly(node, inputs))
        return Value { -1, std::move(*exact) };
    // Fold: the node evaluated on the known values, as the reference evaluator computes it.
    std::vector<ir::Buffer> buffers;
    for (const Value& v : inputs)
        buffers.push_back(toBuffer(*v.constant));
    std::vector<const ir::Buffer*> pointers;
    for (const ir::Buffer& b : buffers)
        pointers.push_back(&b);
    auto folded = evaluateNode(node, pointers);
    if (!folded)
        return folded.error().kind == ErrorKind::Unsupported ? unsupported("", folded.error().message)
                                                             : invalid(folded.error().message);
    const ir::Buffer& result = *folded;
    HostTensor t;
    t.shape = result.shape();
    t.integer = allInteger;
    for (int64_t i = 0; i < result.size(); ++i)
        t.values.push_back(allInteger ? std::round(result[i]) : result[i]);
    return Value { -1, std::move(t) };
}

const onnx::NodeProto* OnnxConverter::soleConsumer(int k) const
{
    if (k >= m_node->output_size())
        return nullptr;
    const std::string& name = m_node->output(k);
    if (m_graphOutputs.count(name))
        return nullptr;
    auto it = m_consumers.find(name);
    if (it == m_consumers.end() || it->second.size() != 1)
        return nullptr;
    return it->second.front();
}

namespace {
    const onnx::AttributeProto* findAttribute(const onnx::NodeProto& node, const std::string& name)
    {
        for (const onnx::AttributeProto& a : node.attribute())
            if (a.name() == name)
                return &a;
        return nullptr;
    }
} // namespace

bool OnnxConverter::hasAttribute(const std::string& name) const { return findAttribute(*m_node, name) != nullptr; }

int64_t OnnxConverter::intAttribute(const std::string& name, int64_t fallback) const
{
    const onnx::AttributeProto* a = findAttribute(*m_node, name);
    return a ? a->i() : fallback;
}

double OnnxConverter::floatAttribute(const std::string& name, double fallback) const
{
    const onnx::AttributeProto* a = findAttribute(*m_node, name);
    return a ? a->f() : fallback;
}

std::string OnnxConverter::stringAttribute(const std::string& name, const std::string& fallback) const
{
    const onnx::AttributeProto* a = findAttribute(*m_node, name);
    return a ? a->s() : fallback;
}

std::vector<int64_t> OnnxConverter::intsAttribute(const std::string& name) const
{
    const onnx::AttributeProto* a = findAttribute(*m_node, name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : std::vector<int64_t> {};
}

const onnx::TensorProto* OnnxConverter::tensorAttribute(const std::string& name) const
{
    const onnx::AttributeProto* a = findAttribute(*m_node, name);
    return a && a->has_t() ? &a->t() : nullptr;
}

Error OnnxConverter::unsupported(const std::string& attribute, const std::string& message) const
{
    m_lastIssue = OnnxIssue { m_nodeName, m_node->op_type(), attribute, m_opset, message };
    return makeError(ErrorKind::Unsupported, m_lastIssue->text());
}

Error OnnxConverter::invalid(const std::string& message) const
{
    m_lastIssue = OnnxIssue { m_nodeName, m_node->op_type(), "", m_opset, message };
    return makeError(ErrorKind::InvalidArgument, m_lastIssue->text());
}

Expected<void> OnnxConverter::convertNode(int index)
{
    const onnx::NodeProto& n = m_model.graph().node(index);
    m_node = &n;
    m_nodeName = n.name().empty() ? "#" + std::to_string(index) : n.name();
    if (!n.domain().empty() && n.domain() != "ai.onnx")
        return unsupported("", "operators of domain '" + n.domain() + "' are not supported");
    const auto& table = onnxOpConverters();
    auto it = table.find(n.op_type());
    if (it == table.end())
        return unsupported("", "TuneScope has no conversion for this operator");
    for (int k = 0; k < n.input_size(); ++k)
        if (!n.input(k).empty() && !m_values.count(n.input(k)))
            return invalid("input '" + n.input(k) + "' is not produced before this node");
    TS_CHECK(it->second(*this));
    if (n.output_size() > 0 && !n.output(0).empty() && !m_values.count(n.output(0)))
        return makeError(ErrorKind::Internal, m_nodeName + ": the conversion produced no output");
    return {};
}

Expected<OnnxModel> OnnxConverter::run(const std::string& path)
{
    const onnx::GraphProto& g = m_model.graph();
    if (m_options.batch < 1 || m_options.batch > 4096)
        return makeError(ErrorKind::InvalidArgument, "--batch must be 1..4096");
    for (const onnx::TensorProto& init : g.initializer()) {
        auto t = hostTensor(init, m_directory);
        if (!t)
            return makeError(t.error().kind, path + ": initializer " + t.error().message);
        m_values[init.name()] = Value { -1, std::move(*t) };
    }
    OnnxModel out;
    out.opset = m_opset;
    out.producer
        = m_model.producer_name() + (m_model.producer_version().empty() ? "" : " " + m_model.producer_version());
    for (const auto& [name, file] : m_options.boundInputs) {
        auto t = readTensorFile(file);
        if (!t)
            return makeError(t.error().kind, path + ": input " + name + " is bound to " + t.error().message);
        m_values[name] = Value { -1, std::move(*t) };
    }
    for (const onnx::ValueInfoProto& o : g.output())
        m_graphOutputs.insert(o.name());
    for (const onnx::NodeProto& n : g.node())
        for (const std::string& name : n.input())
            if (!name.empty())
                m_consumers[name].push_back(&n);
    for (const onnx::ValueInfoProto& in : g.input()) {
        if (m_values.count(in.name()))
            continue; // an initializer listed as an input too (IR version < 4), or a bound input
        const onnx::TypeProto& type = in.type();
        if (!type.has_tensor_type())
            return makeError(ErrorKind::Unsupported, path + ": input " + in.name() + " is not a tensor");
        const int elem = type.tensor_type().elem_type();
        // Integer ids (token ids) are accepted where they only index: every reader is a Gather that takes them as
        // its indices. They are held as float32 whole numbers (Node::indexBound).
        const bool ids = (elem == onnx::TensorProto::INT64 || elem == onnx::TensorProto::INT32)
            && !m_graphOutputs.count(in.name()) && m_consumers.count(in.name())
            && std::all_of(m_consumers[in.name()].begin(), m_consumers[in.name()].end(), [&](const onnx::NodeProto* n) {
                   return n->op_type() == "Gather" && n->input_size() == 2 && n->input(1) == in.name()
                       && n->input(0) != in.name();
               });
        if (elem != onnx::TensorProto::FLOAT && elem != onnx::TensorProto::DOUBLE && !ids)
            return makeError(ErrorKind::Unsupported,
                path + ": input " + in.name() + " has type "
                    + onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(elem))
                    + "; TuneScope's graph inputs are float tensors, or integer ids that only Gather's indices read");
        std::vector<int64_t> shape;
        const auto& dims = type.tensor_type().shape().dim();
        for (int d = 0; d < dims.size(); ++d) {
            if (dims[d].has_dim_value() && dims[d].dim_value() > 0)
                shape.push_back(dims[d].dim_value());
            else if (d == 0)
                shape.push_back(m_options.batch);
            else
                return makeError(ErrorKind::Unsupported,
                    path + ": input " + in.name() + " has a symbolic dimension '" + dims[d].dim_param() + "' at axis "
                        + std::to_string(d) + "; only the first (batch) dimension may be symbolic");
        }
        if (shape.empty())
            shape.push_back(1); // a scalar
        const int id = m_graph.input(in.name(), shape);
        if (id < 0)
            return *m_graph.error();
        m_values[in.name()] = Value { id, std::nullopt };
        out.inputNames.push_back(in.name());
        out.inputs.push_back(id);
    }

    for (int i = 0; i < g.node_size(); ++i) {
        const onnx::NodeProto& n = g.node(i);
        if (m_skipped.count(&n))
            continue;
        bool poisoned = false;
        for (const std::string& name : n.input())
            poisoned = poisoned || m_poisoned.count(name);
        if (poisoned) {
            ++m_notChecked;
            for (const std::string& name : n.output())
                m_poisoned.insert(name);
            continue;
        }
        std::optional<Graph> before;
        std::map<std::string, int> constantsBefore;
        if (m_collect) {
            before = m_graph;
            constantsBefore = m_constantNodes;
        }
        m_lastIssue.reset();
        auto converted = convertNode(i);
        if (!converted) {
            if (!m_collect)
                return makeError(converted.error().kind, path + ": " + converted.error().message);
            m_issues.push_back(m_lastIssue
                    ? *m_lastIssue
                    : OnnxIssue { m_nodeName, n.op_type(), "", m_opset, converted.error().message });
            for (const std::string& name : n.output())
                m_poisoned.insert(name);
            m_graph = std::move(*before);
            m_constantNodes = std::move(constantsBefore);
        }
    }
    if (!m_issues.empty())
        return makeError(ErrorKind::Unsupported, path + ": " + m_issues.front().text());
    for (const onnx::ValueInfoProto& o : g.output()) {
        auto it = m_values.find(o.name());
        if (it == m_values.end())
            return makeError(ErrorKind::InvalidArgument, path + ": output " + o.name() + " is never produced");
        if (it->second.constant)
            return makeError(ErrorKind::Unsupported,
                path + ": output " + o.name() + " is a constant (it does not depend on any input)");
        out.outputNames.push_back(o.name());
        out.outputs.push_back(it->second.node);
    }
    if (m_graph.error())
        return *m_graph.error();
    out.graph = m_graph;
    return out;
}

} // namespace ts::graph
