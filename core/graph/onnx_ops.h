// Private to the ONNX importer: the helpers its per-operator conversions share, and the conversions of the
// data-movement and constant operators (onnx_shape_ops.cpp) that the dispatch table (onnx_ops.cpp) lists.
#pragma once

#include "core/graph/onnx_convert.h"

#include <array>
#include <string>
#include <vector>

namespace ts::graph::onnx_ops {

using Value = OnnxConverter::Value;

std::string text(const std::vector<int64_t>& v);
int64_t product(const std::vector<int64_t>& shape, size_t from, size_t to);
// An axis attribute in [-rank, rank), as 0..rank-1; an error naming the attribute otherwise.
Expected<int> normaliseAxis(const OnnxConverter& c, const std::string& attribute, int64_t axis, size_t rank);
Node make(NodeKind kind);
Node reshapeNode(std::vector<int64_t> shape);
// The value of input k as integers, when known now.
Expected<std::vector<int64_t>> constantInts(const OnnxConverter& c, int k, const std::string& what);
// Axes from the attribute (before opset `inputSince`) or from input k (from that opset on).
Expected<std::vector<int64_t>> axesOf(const OnnxConverter& c, int64_t inputSince, int k);
// A 2-value attribute of positive integers (strides, dilations, kernel_shape), `fallback` when absent; an error
// naming the attribute for another count or a value below 1.
Expected<std::array<int64_t, 2>> pairAttribute(
    const OnnxConverter& c, const std::string& name, std::array<int64_t, 2> fallback);
// A 2-D window's explicit `pads` (top, left, bottom, right), all zero when absent; refused unless 4 values >= 0.
Expected<std::array<int64_t, 4>> explicitPads(const OnnxConverter& c);
// Sets output 0 to the value, or passes the error on.
Expected<void> output(OnnxConverter& c, Expected<Value> value);
// x[starts:ends:steps] on `axes`, with ONNX's clamping of the bounds.
Expected<Value> sliceOf(OnnxConverter& c, Value x, const std::vector<int64_t>& shape,
    const std::vector<int64_t>& starts, const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
    const std::vector<int64_t>& steps);

Expected<void> convertReshape(OnnxConverter& c);
Expected<void> convertFlatten(OnnxConverter& c);
Expected<void> convertSqueeze(OnnxConverter& c);
Expected<void> convertUnsqueeze(OnnxConverter& c);
Expected<void> convertTranspose(OnnxConverter& c);
Expected<void> convertConcat(OnnxConverter& c);
Expected<void> convertSlice(OnnxConverter& c);
Expected<void> convertSplit(OnnxConverter& c);
Expected<void> convertPad(OnnxConverter& c);
Expected<void> convertConstant(OnnxConverter& c);
Expected<void> convertShape(OnnxConverter& c);
Expected<void> convertGather(OnnxConverter& c);
Expected<void> convertCast(OnnxConverter& c);
Expected<void> convertConstantOfShape(OnnxConverter& c);
Expected<void> convertIdentity(OnnxConverter& c);
// onnx_conv_transpose.cpp
Expected<void> convertConvTranspose(OnnxConverter& c);

} // namespace ts::graph::onnx_ops
