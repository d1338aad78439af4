// The oracle: computes any ComputeDAG on real buffers with naive loops.
//
// Every later measurement checks a compiled kernel's output against this. It is deliberately simple:
// expressions are compiled to a small tree once per op and interpreted for every output element, in double
// precision, storing float32. Out-of-bounds reads and unsupported dtypes are reported as errors, not UB.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/support/error.h"

#include <cstdint>
#include <vector>

namespace ts::ir {

// A dense row-major float32 tensor.
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(std::vector<int64_t> shape, float fill = 0.0f);

    const std::vector<int64_t>& shape() const { return m_shape; }
    int64_t size() const { return static_cast<int64_t>(m_data.size()); }
    float* data() { return m_data.data(); }
    const float* data() const { return m_data.data(); }
    float& operator[](int64_t i) { return m_data[static_cast<size_t>(i)]; }
    float operator[](int64_t i) const { return m_data[static_cast<size_t>(i)]; }
    // Element at a multi-index (checked).
    float& at(const std::vector<int64_t>& index);
    float at(const std::vector<int64_t>& index) const;

private:
    int64_t offsetOf(const std::vector<int64_t>& index) const;
    std::vector<int64_t> m_shape;
    std::vector<float> m_data;
};

// Uniform values in [-1, 1), deterministic in (seed, placeholder position): one buffer per placeholder in
// stage order.
std::vector<Buffer> randomInputs(const ComputeDAG& dag, uint64_t seed);

// Evaluates every compute op. `inputs` holds one buffer per placeholder, in stage order. Returns one buffer
// per op (placeholders included, as given), indexed by stage id.
Expected<std::vector<Buffer>> evaluate(const ComputeDAG& dag, const std::vector<Buffer>& inputs);

// Elements `offsets` (row-major) of one compute stage only, each evaluated on demand with its producers'
// elements memoized: the reference for tasks too large to evaluate whole (a 1024^3 matmul checks 256
// sampled outputs in microseconds instead of computing 10^9 multiply-adds).
Expected<std::vector<float>> evaluateAt(
    const ComputeDAG& dag, const std::vector<Buffer>& inputs, int stage, const std::vector<int64_t>& offsets);

// The values randomInputs gives placeholder number `ordinal` (0-based, stage order): a kernel runner fills
// its argument buffers with these without having the DAG.
void fillRandomInput(float* data, int64_t size, uint64_t seed, int ordinal);

// Largest |a - b| / (atol + rtol * |b|) over all elements; <= 1 means "close".
double maxRelativeError(const Buffer& a, const Buffer& b, double rtol = 1e-4, double atol = 1e-5);

} // namespace ts::ir
