#include "core/schedule/iter_graph.h"

#include "core/support/assert.h"

#include <algorithm>

namespace ts::sched {

std::vector<int64_t> passDownExtents(const Stage& stage, const std::vector<int64_t>& rootExtents)
{
    TS_ASSERT(static_cast<int>(rootExtents.size()) == stage.numRootNodes()) << "root extents of " << stage.op->name();
    std::vector<int64_t> extents(stage.nodes.size(), 1);
    std::copy(rootExtents.begin(), rootExtents.end(), extents.begin());
    for (const IterRelation& r : stage.relations) {
        if (r.kind == IterRelation::Kind::Split) {
            const int64_t parent = extents[static_cast<size_t>(r.parent)];
            const bool known = parent >= 0 && r.factor;
            const int64_t fixed = known ? std::min(parent, *r.factor) : -1;
            const int64_t ceiling = known ? (parent + *r.factor - 1) / *r.factor : -1;
            extents[static_cast<size_t>(r.inner)] = r.byFactor ? fixed : ceiling;
            extents[static_cast<size_t>(r.outer)] = r.byFactor ? ceiling : fixed;
        } else {
            int64_t product = 1;
            for (int node : r.fused) {
                const int64_t extent = extents[static_cast<size_t>(node)];
                product = product >= 0 && extent >= 0 ? product * extent : -1;
            }
            extents[static_cast<size_t>(r.result)] = product;
        }
    }
    return extents;
}

void passUpValues(const Stage& stage, const std::vector<int64_t>& extents, std::vector<ir::Expr>& values)
{
    values.resize(stage.nodes.size());
    for (auto r = stage.relations.rbegin(); r != stage.relations.rend(); ++r) {
        if (r->kind == IterRelation::Kind::Split) {
            const ir::Expr& outer = values[static_cast<size_t>(r->outer)];
            const ir::Expr& inner = values[static_cast<size_t>(r->inner)];
            TS_ASSERT(outer.defined() && inner.defined()) << "split of " << stage.nodes[size_t(r->parent)].name;
            TS_ASSERT(r->factor) << "unfilled split of " << stage.nodes[size_t(r->parent)].name;
            const int64_t step = r->byFactor ? *r->factor : extents[static_cast<size_t>(r->inner)];
            values[static_cast<size_t>(r->parent)] = outer * ir::intImm(step) + inner;
        } else {
            const ir::Expr fused = values[static_cast<size_t>(r->result)];
            TS_ASSERT(fused.defined()) << "fuse into " << stage.nodes[size_t(r->result)].name;
            int64_t stride = 1;
            for (size_t k = r->fused.size(); k-- > 0;) {
                const int node = r->fused[k];
                const int64_t extent = extents[static_cast<size_t>(node)];
                ir::Expr value = stride == 1 ? fused : ir::floorDiv(fused, ir::intImm(stride));
                if (k > 0)
                    value = ir::floorMod(value, ir::intImm(extent));
                values[static_cast<size_t>(node)] = value;
                stride *= extent;
            }
        }
    }
}

} // namespace ts::sched
