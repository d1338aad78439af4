// Group 2 of the per-store features: accesses, touched regions per loop level, lines, reuse, stride
// (store_access.h says how the regions are bounded fast).
#include "core/features/store_access.h"

#include "core/features/index_ranges.h"
#include "core/lower/arith_analyzer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ts::features::detail {

namespace {

    using ir::Expr;
    using ir::ExprKind;
    using ir::ExprNode;
    using lower::arith::Interval;

    // Every buffer access of one store: the buffer, how, and its index lists (borrowed from the store).
    struct Access {
        const ir::BufferVar* buffer = nullptr;
        AccessType type = AccessType::Unknown;
        std::vector<std::pair<const Expr*, size_t>> lists; // first index, count
        uint64_t loopMask = 0; // loops (by depth) whose variable an index uses
        size_t dims = 0; // indices per list (the first list's count)
        size_t firstId = 0; // IndexRanges id of the first list's first index
    };

    std::vector<Touch>& touchesOf(TouchMap& map, const ir::BufferVar* buffer)
    {
        for (auto& [b, touches] : map)
            if (b == buffer)
                return touches;
        return map.emplace_back(buffer, std::vector<Touch> {}).second;
    }

    // Reads in pre-order; a buffer read after it was written is ReadWrite and keeps the write's indices.
    void collectReads(const Expr& e, std::vector<Access>& accesses)
    {
        const ExprNode& n = *e;
        if (n.kind == ExprKind::BufferLoad) {
            auto it = std::find_if(
                accesses.begin(), accesses.end(), [&](const Access& a) { return a.buffer == n.buffer.get(); });
            if (it == accesses.end()) {
                accesses.push_back({ n.buffer.get(), AccessType::Read, {}, 0 });
                it = accesses.end() - 1;
            } else if (it->type == AccessType::Write) {
                it->type = AccessType::ReadWrite;
            }
            if (it->type != AccessType::ReadWrite)
                it->lists.emplace_back(n.operands.data(), n.operands.size());
        }
        for (const Expr& operand : n.operands)
            collectReads(operand, accesses);
    }

    // The smallest distance in elements between consecutive values of loop `depth`'s variable over the access's
    // indices, 0 when no index uses it. Exact coefficients from the linear form (Ansor approximates them by
    // pattern). `forms` caches the linear forms of the indices, by IndexRanges id.
    int64_t computeStride(const Access& access, const IndexRanges& ranges,
        std::vector<std::optional<lower::arith::Linear>>& forms, const Loop& loop, size_t depth)
    {
        const std::vector<int64_t>& shape = access.buffer->shape;
        if (shape.empty())
            return 1;
        // A buffer's own strides where lowering set them (a local buffer stored with its vectorized axis
        // innermost, storage_align's padding): the stride the generated code walks, not the logical one.
        const std::vector<int64_t>& strides = access.buffer->strides;
        const bool ownStrides = strides.size() == access.dims;
        const lower::arith::Analyzer plain;
        int64_t best = std::numeric_limits<int64_t>::max();
        bool found = false;
        for (size_t k = 0; k < access.lists.size(); ++k) {
            int64_t shapeStride = 1;
            for (int d = static_cast<int>(access.dims) - 1; d >= 0; --d) {
                const size_t id = access.firstId + k * access.dims + static_cast<size_t>(d);
                const bool uses = depth < 64 ? (ranges.loopMask(id) >> depth & 1) != 0
                                             : ir::usesVar(ranges.expr(id), loop.var.get());
                if (!uses) {
                    shapeStride *= d < static_cast<int>(shape.size()) ? shape[static_cast<size_t>(d)] : 1;
                    continue;
                }
                if (!forms[id])
                    forms[id] = plain.linear(ranges.expr(id));
                bool pure = true;
                const int64_t coef = forms[id]->coefficientOf(loop.var.get(), &pure);
                const int64_t c = pure && coef != 0 ? std::abs(coef) : 1; // inside floordiv/floormod: 1
                best = std::min(best, c * (ownStrides ? strides[static_cast<size_t>(d)] : shapeStride));
                found = true;
                break;
            }
        }
        return found ? best : 0;
    }

    void computeReuse(const Access& access, const std::vector<Loop>& loops, const TouchMaps& touch, AccessFeature& f)
    {
        double disIter = 1.0;
        double disBytes = -1.0;
        for (int i = static_cast<int>(loops.size()) - 1; i >= 0; --i) {
            const Loop& loop = loops[static_cast<size_t>(i)];
            const TouchMap& touched = touch.at(loop.node);
            const auto extent = static_cast<double>(loop.extent);
            auto sumBytes = [&](bool perElement) {
                double sum = 0.0;
                for (const auto& [buffer, touches] : touched)
                    for (const Touch& t : touches)
                        sum += (perElement ? static_cast<double>(t.elements) : 1.0) * t.bytes;
                return sum;
            };
            if (i < 64 && (access.loopMask >> i & 1) != 0) {
                disIter *= extent;
                disBytes = sumBytes(true);
            } else { // the loop does not move the access: each iteration reads it again
                if (disBytes < 0)
                    disBytes = sumBytes(false);
                f.reuse = ReuseType::LoopMultipleRead;
                f.reuseDisIter = disIter;
                f.reuseDisBytes = disBytes;
                f.reuseCt = extent;
                return;
            }
            const auto& mine = std::find_if(touched.begin(), touched.end(), [&](const auto& entry) {
                return entry.first == access.buffer;
            })->second;
            const int serial = static_cast<int>(mine.size()) - 1;
            if (serial > 0) { // earlier statements in this loop touched it too
                double least = std::numeric_limits<double>::max();
                for (const Touch& t : mine)
                    least = std::min(least, static_cast<double>(t.elements));
                f.reuse = ReuseType::SerialMultipleReadWrite;
                f.reuseDisIter = least / extent;
                f.reuseDisBytes = sumBytes(true) / extent;
                f.reuseCt = serial;
                return;
            }
        }
        f.reuse = ReuseType::NoReuse;
        f.reuseDisIter = f.reuseDisBytes = f.reuseCt = 0.0;
    }

} // namespace

StoreAccesses storeAccesses(
    const lower::StmtNode& s, const std::vector<Loop>& loops, double outerProd, int cacheLine, TouchMaps& touch)
{
    const int depth = static_cast<int>(loops.size());
    std::vector<Access> accesses;
    accesses.push_back({ s.buffer.get(), AccessType::Write, { { s.indices.data(), s.indices.size() } }, 0 });
    collectReads(s.value, accesses);

    // Index d of list k of an access is IndexRanges id access.firstId + k * dims + d.
    IndexRanges ranges(loops);
    for (Access& access : accesses) {
        access.firstId = ranges.size();
        access.dims = access.lists.front().second;
        for (const auto& [first, count] : access.lists)
            for (size_t d = 0; d < access.dims; ++d) {
                const size_t id = ranges.add(first[d]);
                access.loopMask |= ranges.loopMask(id);
            }
    }

    StoreAccesses out;
    out.bytesPerLevel.reserve(static_cast<size_t>(depth));
    std::vector<std::vector<int64_t>> regions(accesses.size()); // at the current level
    std::vector<int64_t> elementsOf(accesses.size());
    ranges.start();
    for (int i = depth - 1; i >= 0; --i) {
        const Loop& loop = loops[static_cast<size_t>(i)];
        ranges.enterLevel(static_cast<size_t>(i));
        TouchMap& touched = touch[loop.node];
        double memBytes = 0.0;
        for (size_t a = 0; a < accesses.size(); ++a) {
            const Access& access = accesses[a];
            const size_t dims = access.dims;
            std::vector<int64_t>& region = regions[a];
            bool moved = i == depth - 1;
            for (size_t id = access.firstId; !moved && id < access.firstId + access.lists.size() * dims; ++id)
                moved = ranges.movesAt(id, static_cast<size_t>(i));
            if (!moved) { // the same region as one level in
                touchesOf(touched, access.buffer)
                    .push_back({ access.type, elementsOf[a], ir::bytesOf(access.buffer->dtype) });
                memBytes += static_cast<double>(elementsOf[a]) * ir::bytesOf(access.buffer->dtype);
                continue;
            }
            region.assign(dims, 0);
            for (size_t d = 0; d < dims; ++d) {
                int64_t lo = std::numeric_limits<int64_t>::max();
                int64_t hi = std::numeric_limits<int64_t>::min();
                for (size_t k = 0; k < access.lists.size(); ++k) {
                    const Interval b = ranges.bound(access.firstId + k * dims + d);
                    const int64_t full = d < access.buffer->shape.size() ? access.buffer->shape[d] : 1;
                    lo = std::min(lo, b.bounded ? b.lo : 0);
                    hi = std::max(hi, b.bounded ? b.hi : full - 1);
                }
                region[d] = hi - lo + 1;
            }
            int64_t elements = 1;
            for (int64_t r : region)
                elements *= r;
            elements = std::max<int64_t>(0, elements);
            elementsOf[a] = elements;
            const int bytes = ir::bytesOf(access.buffer->dtype);
            touchesOf(touched, access.buffer).push_back({ access.type, elements, bytes });
            memBytes += static_cast<double>(elements) * bytes;
        }
        out.bytesPerLevel.push_back(memBytes);
    }

    std::vector<std::optional<lower::arith::Linear>> forms(ranges.size());
    for (size_t a = 0; a < accesses.size(); ++a) {
        const Access& access = accesses[a];
        const std::vector<int64_t>& shape = access.buffer->shape;
        const int elementBytes = ir::bytesOf(access.buffer->dtype);
        AccessFeature f;
        f.type = access.type;
        f.bytes = outerProd * elementBytes;
        if (depth == 0) {
            f.uniqueBytes = elementBytes;
            f.lines = f.uniqueLines = 1.0;
        } else {
            const TouchMap& outer = touch.at(loops.front().node);
            const auto mine = std::find_if(
                outer.begin(), outer.end(), [&](const auto& entry) { return entry.first == access.buffer; });
            f.uniqueBytes = static_cast<double>(mine->second.front().elements) * elementBytes;
            int64_t stride = 0;
            double reduceRatio = 1.0; // iterations of the loops inside the first one that moves the access
            int i = depth - 1;
            for (; i >= 0; --i) {
                stride = computeStride(access, ranges, forms, loops[static_cast<size_t>(i)], static_cast<size_t>(i));
                if (stride != 0)
                    break;
                reduceRatio *= static_cast<double>(loops[static_cast<size_t>(i)].extent);
            }
            f.lines = std::max(
                1.0, outerProd / reduceRatio * std::min(1.0, static_cast<double>(stride) * elementBytes / cacheLine));
            f.stride = i == depth - 1 ? static_cast<double>(stride) : 0.0;
            double continuous = elementBytes;
            const std::vector<int64_t>& region = regions[a]; // at the outermost level
            for (int d = static_cast<int>(std::min(region.size(), shape.size())) - 1; d >= 0; --d) {
                if (region[static_cast<size_t>(d)] == shape[static_cast<size_t>(d)]) {
                    continuous *= static_cast<double>(region[static_cast<size_t>(d)]);
                    break;
                }
            }
            f.uniqueLines = std::max(1.0, f.uniqueBytes / std::min(continuous, double(cacheLine)));
        }
        computeReuse(access, loops, touch, f);
        const double divisor = f.reuseCt > 0.5 ? f.reuseCt : 0.5; // no reuse: Ansor's factor of two
        f.bytesDReuseCt = f.bytes / divisor;
        f.uniqueBytesDReuseCt = f.uniqueBytes / divisor;
        f.linesDReuseCt = f.lines / divisor;
        f.uniqueLinesDReuseCt = f.uniqueLines / divisor;
        out.features.push_back(f);
    }
    return out;
}

} // namespace ts::features::detail
