#include "core/graph/model_zoo.h"

#include "core/graph/models/models.h"
#include "core/graph/onnx_import.h"

namespace ts::graph {

const std::vector<NetworkInfo>& networks()
{
    static const std::vector<NetworkInfo> kNetworks = {
        { "resnet-18", "ResNet-18 (He et al.), 224x224 ImageNet classifier", true, 1.82 },
        { "resnet-50", "ResNet-50 v1.5, 224x224 ImageNet classifier", true, 4.1 },
        { "mobilenet-v2", "MobileNet-V2 (Sandler et al.), 224x224, width 1.0", true, 0.30 },
        { "squeezenet-1.1", "SqueezeNet 1.1, 224x224", true, 0.0 },
        { "vgg-11", "VGG-11 (configuration A), 224x224", true, 0.0 },
        { "bert-base", "BERT-base encoder: 12 layers, hidden 768, 12 heads, sequence 128", false, 0.0 },
        { "bert-tiny", "BERT-tiny encoder: 2 layers, hidden 128, 2 heads, sequence 128", false, 0.0 },
    };
    return kNetworks;
}

const NetworkInfo* findNetwork(const std::string& name)
{
    for (const NetworkInfo& info : networks())
        if (info.name == name)
            return &info;
    return nullptr;
}

Expected<Graph> buildNetwork(const std::string& name, int64_t batch, ops::Layout layout)
{
    if (isOnnxPath(name)) {
        if (layout != ops::Layout::NCHW)
            return makeError(ErrorKind::InvalidArgument,
                name + ": an ONNX model keeps its own layout (NCHW); --layout NHWC applies to built-in networks");
        OnnxImportOptions options;
        options.batch = batch;
        TS_TRY(OnnxModel model, importOnnx(name, options));
        return model.graph;
    }
    const NetworkInfo* info = findNetwork(name);
    if (!info) {
        std::string known;
        for (const NetworkInfo& n : networks())
            known += (known.empty() ? "" : ", ") + n.name;
        return makeError(ErrorKind::NotFound, "unknown network '" + name + "' (known: " + known + ")");
    }
    if (batch < 1 || batch > 4096)
        return makeError(ErrorKind::InvalidArgument, "batch must be between 1 and 4096, got " + std::to_string(batch));
    if (!info->imageLayouts && layout != ops::Layout::NCHW)
        return makeError(ErrorKind::InvalidArgument, name + " has no image layout; --layout applies to CNNs only");

    Graph graph = [&] {
        if (name == "resnet-18")
            return models::resnet(18, batch, layout);
        if (name == "resnet-50")
            return models::resnet(50, batch, layout);
        if (name == "mobilenet-v2")
            return models::mobilenetV2(batch, layout);
        if (name == "squeezenet-1.1")
            return models::squeezenet11(batch, layout);
        if (name == "vgg-11")
            return models::vgg11(batch, layout);
        if (name == "bert-base")
            return models::bert(name, batch, 128, 12, 768, 12, 3072);
        return models::bert(name, batch, 128, 2, 128, 2, 512);
    }();
    if (graph.error())
        return *graph.error();
    return graph;
}

} // namespace ts::graph
