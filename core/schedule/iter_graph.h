// Walks a stage's iterator graph (split and fuse relations, see state.h) the way TVM's InferBound and
// MakeLoopNest do: extents pass down from the op's axes to the leaf iterators, index values pass up from
// the leaf loop variables to the axes.
#pragma once

#include "core/ir/expr.h"
#include "core/schedule/state.h"

#include <vector>

namespace ts::sched {

// Extent of every node, given the extents of the root nodes (the op's axes, then reduce axes). A split by
// factor f of extent P gives inner min(P, f) and outer ceil(P / f); by nparts the other way round; a fuse
// gives the product. -1 (unknown) below an unfilled split length.
std::vector<int64_t> passDownExtents(const Stage& stage, const std::vector<int64_t>& rootExtents);

// Value of every node, given values for the leaf nodes (nodeValues[leaf] defined) and all extents:
// parent = outer * step + inner for splits, div/mod of the fused value for fuses. Roots are nodes
// 0 .. numRootNodes-1. Every split must be filled.
void passUpValues(const Stage& stage, const std::vector<int64_t>& extents, std::vector<ir::Expr>& nodeValues);

} // namespace ts::sched
