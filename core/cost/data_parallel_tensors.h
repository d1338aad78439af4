// The collectives of data_parallel.h on LibTorch tensors, for the one file that trains the networks
// (neural_network.cpp); they live in data_parallel.cpp with the rest of the c10d adapter. Private to core/cost.
// at::Tensor is only declared here, so this header pulls in no LibTorch header.
#pragma once

#include "core/cost/data_parallel.h"

#include <vector>

namespace at {
class Tensor;
}

namespace ts::cost {

// Sums (or maxes) a tensor over the ranks, in place. Every rank passes a tensor of the same shape.
Expected<void> allReduceTensor(
    DataParallelGroup& group, at::Tensor& tensor, DataParallelGroup::Reduce op = DataParallelGroup::Reduce::Sum);

// Rank 0's values of `tensors` (parameters, buffers) to every rank, in one message.
Expected<void> broadcastTensors(DataParallelGroup& group, const std::vector<at::Tensor>& tensors);

// Sums the gradients of `parameters` over the ranks, in one message whose tail says which ranks had a gradient:
// a parameter no rank reached keeps none (as training alone: Adam skips it), the others get the sum.
Expected<void> allReduceGradients(DataParallelGroup& group, const std::vector<at::Tensor>& parameters);

} // namespace ts::cost
