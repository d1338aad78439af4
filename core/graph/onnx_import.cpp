#include "core/graph/onnx_import.h"

#include "core/graph/onnx_convert.h"
#include "core/ops/shape_check.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <set>
#include <sstream>

namespace ts::graph {

std::string OnnxIssue::text() const
{
    std::string out = "node " + node + " (" + opType + ", opset " + std::to_string(opset) + ")";
    if (!attribute.empty())
        out += ", attribute " + attribute;
    return out + ": " + message;
}

bool isOnnxPath(const std::string& name) { return name.size() > 5 && name.compare(name.size() - 5, 5, ".onnx") == 0; }

namespace {
    Error fileError(const std::string& path, const std::string& message)
    {
        return makeError(ErrorKind::InvalidArgument, path + ": " + message);
    }

    Expected<onnx::ModelProto> readModel(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return makeError(ErrorKind::NotFound, path + ": cannot open the ONNX model");
        onnx::ModelProto model;
        if (!model.ParseFromIstream(&in))
            return fileError(path, "not an ONNX model (the protobuf does not parse)");
        try {
            onnx::checker::check_model(model);
        } catch (const std::exception& e) {
            std::string message = e.what();
            if (message.size() > 400)
                message = message.substr(0, 400) + "...";
            return fileError(path, "ONNX's checker rejects the model: " + message);
        }
        return model;
    }

    Expected<int64_t> defaultOpset(const onnx::ModelProto& model, const std::string& path)
    {
        for (const onnx::OperatorSetIdProto& set : model.opset_import())
            if (set.domain().empty() || set.domain() == "ai.onnx") {
                const int64_t v = set.version();
                if (v < 6 || v > 17)
                    return fileError(path,
                        "opset " + std::to_string(v)
                            + " is not supported (TuneScope imports opsets 6-17; convert it "
                              "with onnx.version_converter)");
                return v;
            }
        return fileError(path, "the model imports no default-domain opset");
    }
} // namespace

Expected<OnnxModel> importOnnx(const std::string& path, const OnnxImportOptions& options)
{
    TS_TRY(const onnx::ModelProto model, readModel(path));
    TS_TRY(const int64_t opset, defaultOpset(model, path));
    OnnxConverter converter(model, opset, std::filesystem::path(path).parent_path().string(), options, false);
    TS_TRY(OnnxModel out, converter.run(path));
    // Named after the file ("resnet18"), not the exporter's graph name ("torch_jit").
    out.graph.rename(std::filesystem::path(path).stem().string());
    return out;
}

Expected<std::vector<OnnxInput>> onnxInputs(const std::string& path)
{
    TS_TRY(const onnx::ModelProto model, readModel(path));
    std::vector<OnnxInput> out;
    std::set<std::string> initializers;
    for (const onnx::TensorProto& init : model.graph().initializer())
        initializers.insert(init.name());
    for (const onnx::ValueInfoProto& in : model.graph().input()) {
        if (initializers.count(in.name()))
            continue;
        OnnxInput input;
        input.name = in.name();
        if (in.type().has_tensor_type()) {
            const auto& t = in.type().tensor_type();
            input.type = onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(t.elem_type()));
            for (const auto& d : t.shape().dim())
                input.shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
        } else
            input.type = "not a tensor";
        out.push_back(std::move(input));
    }
    return out;
}

Expected<OnnxCheck> checkOnnx(const std::string& path, const OnnxImportOptions& options)
{
    TS_TRY(const onnx::ModelProto model, readModel(path));
    TS_TRY(const int64_t opset, defaultOpset(model, path));
    OnnxConverter converter(model, opset, std::filesystem::path(path).parent_path().string(), options, true);
    auto converted = converter.run(path);
    if (!converted && converter.issues().empty())
        return converted.error();
    OnnxCheck check;
    check.opset = opset;
    check.nodes = model.graph().node_size();
    check.issues = converter.issues();
    check.notChecked = converter.notChecked();
    return check;
}

Expected<ir::Buffer> readOnnxTensor(const std::string& path)
{
    TS_TRY(HostTensor t, readTensorFile(path));
    return toBuffer(t);
}

} // namespace ts::graph
