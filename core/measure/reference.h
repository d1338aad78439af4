// The expected outputs of a task, from the reference evaluator (core/ir), for the correctness check of
// every measured candidate. Small tasks are evaluated whole; large ones at a fixed sample of output
// elements (evaluateAt), so that a 1024^3 matmul is checked in microseconds, not minutes.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/support/error.h"

#include <optional>
#include <string>
#include <vector>

namespace ts::measure {

struct Reference {
    std::vector<std::string> outputs; // op names
    std::vector<std::vector<int64_t>> offsets; // checked elements per output (all of them when whole)
    std::vector<std::vector<float>> values;
};

// Tasks up to `wholeFlops` are evaluated whole; larger ones at `samples` elements per output.
Expected<Reference> computeReference(
    const ir::ComputeDAG& dag, uint64_t seed, int samples = 512, double wholeFlops = 2e7);

// Compares kernel outputs (named) with the reference: nullopt when close (|a - b| <= atol + rtol * |b|),
// else a message naming the output, the element and both values.
std::optional<std::string> compareWithReference(const Reference& reference, const std::vector<std::string>& names,
    const std::vector<std::vector<float>>& outputs, double rtol, double atol);

} // namespace ts::measure
