// ResNet-18/50, MobileNet-V2, SqueezeNet 1.1 and VGG-11 as torchvision defines them (224x224 inputs).
#include "core/graph/models/models.h"

namespace ts::graph::models {

std::vector<int64_t> imageShape(ops::Layout layout, int64_t batch, int64_t channels, int64_t size)
{
    return layout == ops::Layout::NCHW ? std::vector<int64_t> { batch, channels, size, size }
                                       : std::vector<int64_t> { batch, size, size, channels };
}

namespace {
    // conv + folded batch norm (bias) + optional relu
    int convBn(Graph& g, int x, int64_t channels, int64_t kernel, int64_t stride, int64_t padding, bool relu)
    {
        int y = g.biasAdd(g.conv2d(x, channels, kernel, stride, padding));
        return relu ? g.relu(y) : y;
    }

    int basicBlock(Graph& g, int x, int64_t planes, int64_t stride)
    {
        const int64_t inChannels = g.shape(x)[static_cast<size_t>(g.channelAxis())];
        int out = convBn(g, x, planes, 3, stride, 1, true);
        out = convBn(g, out, planes, 3, 1, 1, false);
        int identity = x;
        if (stride != 1 || inChannels != planes)
            identity = convBn(g, x, planes, 1, stride, 0, false);
        return g.relu(g.add(out, identity));
    }

    int bottleneck(Graph& g, int x, int64_t planes, int64_t stride)
    {
        const int64_t inChannels = g.shape(x)[static_cast<size_t>(g.channelAxis())];
        int out = convBn(g, x, planes, 1, 1, 0, true);
        out = convBn(g, out, planes, 3, stride, 1, true);
        out = convBn(g, out, planes * 4, 1, 1, 0, false);
        int identity = x;
        if (stride != 1 || inChannels != planes * 4)
            identity = convBn(g, x, planes * 4, 1, stride, 0, false);
        return g.relu(g.add(out, identity));
    }

    // Global average pool, flatten and the classifier.
    int classifier(Graph& g, int x, int64_t classes)
    {
        int pooled = g.globalAvgPool2d(x);
        const int64_t channels = g.shape(pooled)[static_cast<size_t>(g.channelAxis())];
        int flat = g.reshape(pooled, { g.batch(), channels }, "flatten");
        return g.biasAdd(g.dense(flat, classes));
    }
} // namespace

Graph resnet(int depth, int64_t batch, ops::Layout layout)
{
    Graph g("resnet-" + std::to_string(depth), layout, batch);
    int x = g.input("data", imageShape(layout, batch, 3, 224));
    x = convBn(g, x, 64, 7, 2, 3, true);
    x = g.maxPool2d(x, 3, 2, 1);
    const int blocks18[] = { 2, 2, 2, 2 };
    const int blocks50[] = { 3, 4, 6, 3 };
    const int* blocks = depth == 18 ? blocks18 : blocks50;
    for (int stage = 0; stage < 4; ++stage) {
        const int64_t planes = int64_t { 64 } << stage;
        for (int b = 0; b < blocks[stage]; ++b) {
            const int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
            x = depth == 18 ? basicBlock(g, x, planes, stride) : bottleneck(g, x, planes, stride);
        }
    }
    classifier(g, x, 1000);
    return g;
}

Graph mobilenetV2(int64_t batch, ops::Layout layout)
{
    Graph g("mobilenet-v2", layout, batch);
    int x = g.input("data", imageShape(layout, batch, 3, 224));
    x = g.clip(convBn(g, x, 32, 3, 2, 1, false), 0.0, 6.0, "relu6");
    struct Setting {
        int64_t expand, channels, repeats, stride;
    };
    const Setting settings[] = { { 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 }, { 6, 96, 3, 1 },
        { 6, 160, 3, 2 }, { 6, 320, 1, 1 } };
    for (const Setting& s : settings) {
        for (int64_t r = 0; r < s.repeats; ++r) {
            const int64_t stride = r == 0 ? s.stride : 1;
            const int64_t inChannels = g.shape(x)[static_cast<size_t>(g.channelAxis())];
            int y = x;
            if (s.expand != 1)
                y = g.clip(convBn(g, y, inChannels * s.expand, 1, 1, 0, false), 0.0, 6.0, "relu6");
            y = g.clip(g.biasAdd(g.depthwiseConv2d(y, 3, stride, 1)), 0.0, 6.0, "relu6");
            y = convBn(g, y, s.channels, 1, 1, 0, false);
            x = (stride == 1 && inChannels == s.channels) ? g.add(y, x) : y;
        }
    }
    x = g.clip(convBn(g, x, 1280, 1, 1, 0, false), 0.0, 6.0, "relu6");
    classifier(g, x, 1000);
    return g;
}

Graph squeezenet11(int64_t batch, ops::Layout layout)
{
    Graph g("squeezenet-1.1", layout, batch);
    auto fire = [&](int x, int64_t squeeze, int64_t expand1, int64_t expand3) {
        int s = g.relu(g.biasAdd(g.conv2d(x, squeeze, 1, 1, 0)));
        int e1 = g.relu(g.biasAdd(g.conv2d(s, expand1, 1, 1, 0)));
        int e3 = g.relu(g.biasAdd(g.conv2d(s, expand3, 3, 1, 1)));
        return g.concat({ e1, e3 });
    };
    int x = g.input("data", imageShape(layout, batch, 3, 224));
    x = g.relu(g.biasAdd(g.conv2d(x, 64, 3, 2, 0)));
    x = g.maxPool2d(x, 3, 2, 0);
    x = fire(x, 16, 64, 64);
    x = fire(x, 16, 64, 64);
    x = g.maxPool2d(x, 3, 2, 0);
    x = fire(x, 32, 128, 128);
    x = fire(x, 32, 128, 128);
    x = g.maxPool2d(x, 3, 2, 0);
    x = fire(x, 48, 192, 192);
    x = fire(x, 48, 192, 192);
    x = fire(x, 64, 256, 256);
    x = fire(x, 64, 256, 256);
    x = g.relu(g.biasAdd(g.conv2d(x, 1000, 1, 1, 0)));
    x = g.globalAvgPool2d(x);
    g.reshape(x, { batch, 1000 }, "flatten");
    return g;
}

Graph vgg11(int64_t batch, ops::Layout layout)
{
    Graph g("vgg-11", layout, batch);
    int x = g.input("data", imageShape(layout, batch, 3, 224));
    const int64_t config[] = { 64, 0, 128, 0, 256, 256, 0, 512, 512, 0, 512, 512, 0 }; // 0 = max pool
    for (int64_t channels : config)
        x = channels ? g.relu(g.biasAdd(g.conv2d(x, channels, 3, 1, 1))) : g.maxPool2d(x, 2, 2, 0);
    // The 7x7 adaptive average pool is the identity at 224x224 inputs.
    const int64_t features = g.shape(x)[1] * g.shape(x)[2] * g.shape(x)[3];
    x = g.reshape(x, { batch, features }, "flatten");
    x = g.relu(g.biasAdd(g.dense(x, 4096)));
    x = g.relu(g.biasAdd(g.dense(x, 4096)));
    g.biasAdd(g.dense(x, 1000));
    return g;
}

} // namespace ts::graph::models
