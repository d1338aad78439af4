// Small search tasks of the operators TuneScope tunes (matmul, conv2d NHWC + bias + relu, dense, depthwise,
// batch_matmul, softmax) on a 4-core target, for the search's tests; and value(), which unwraps an Expected or
// throws its message.
#pragma once

#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/search/search_task.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ts::testing {

using search::SearchTask;

template <typename T> inline T value(Expected<T> e)
{
    if (!e)
        throw std::runtime_error(e.error().message);
    return std::move(e).value();
}

inline SearchTask task(const std::string& name, std::vector<ir::Tensor> tensors)
{
    SearchTask t;
    t.name = name;
    t.dag = ir::ComputeDAG::create(tensors);
    t.target.cores = 4;
    t.flops = t.dag.flopCount();
    return t;
}

inline SearchTask matmul(int64_t n = 64, int64_t k = 32, int64_t m = 48)
{
    ir::Tensor a = ir::placeholder("A", { n, k });
    ir::Tensor b = ir::placeholder("B", { k, m });
    return task("matmul", { a, b, value(ops::matmul(a, b)) });
}

inline SearchTask conv2dNhwcBiasRelu()
{
    ir::Tensor data = ir::placeholder("data", { 1, 8, 8, 16 });
    ir::Tensor weight = ir::placeholder("weight", { 3, 3, 16, 16 });
    ir::Tensor bias = ir::placeholder("bias", { 16 });
    ops::Conv2dParams p;
    p.layout = ops::Layout::NHWC;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    ir::Tensor conv = value(ops::conv2d(data, weight, p));
    return task("conv2d_nhwc_bias_relu", { data, weight, bias, value(ops::relu(value(ops::biasAdd(conv, bias, 3)))) });
}

inline SearchTask dense()
{
    ir::Tensor x = ir::placeholder("x", { 4, 64 });
    ir::Tensor w = ir::placeholder("w", { 32, 64 });
    return task("dense", { x, w, value(ops::dense(x, w)) });
}

inline SearchTask depthwise()
{
    ir::Tensor data = ir::placeholder("data", { 1, 16, 8, 8 });
    ir::Tensor weight = ir::placeholder("weight", { 16, 1, 3, 3 });
    ops::Conv2dParams p;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    p.groups = 16;
    return task("depthwise", { data, weight, value(ops::depthwiseConv2d(data, weight, p)) });
}

inline SearchTask batchMatmul()
{
    ir::Tensor a = ir::placeholder("a", { 2, 16, 32 });
    ir::Tensor b = ir::placeholder("b", { 2, 24, 32 });
    return task("batch_matmul", { a, b, value(ops::batchMatmul(a, b)) });
}

inline SearchTask softmax()
{
    ir::Tensor x = ir::placeholder("x", { 8, 64 });
    return task("softmax", { x, value(ops::softmax(x)) });
}

} // namespace ts::testing
