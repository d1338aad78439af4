// Group 2 of Ansor's per-store features (per_store_features.h): the buffers one store writes and reads, the
// region of each that every loop level around the store touches, bytes, cache lines, reuse and stride.
// Private to the features module (per_store_features.cpp walks the loops and calls storeAccesses per store).
//
// Speed: the ranges of the indices per loop level come from IndexRanges (index_ranges.h), which bounds each
// leaf of an index once per level that moves it instead of each index at every level.
#pragma once

#include "core/lower/stmt.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ts::features::detail {

enum class AccessType { Read = 0, Write = 1, ReadWrite = 2, Unknown = 3 };
enum class ReuseType { LoopMultipleRead = 0, SerialMultipleReadWrite = 1, NoReuse = 2 };

struct AccessFeature {
    AccessType type = AccessType::Unknown;
    double bytes = 0, uniqueBytes = 0, lines = 0, uniqueLines = 0;
    ReuseType reuse = ReuseType::NoReuse;
    double reuseDisIter = 0, reuseDisBytes = 0, reuseCt = 0;
    double bytesDReuseCt = 0, uniqueBytesDReuseCt = 0, linesDReuseCt = 0, uniqueLinesDReuseCt = 0;
    double stride = 0;
};

// A loop around the store, outermost first.
struct Loop {
    ir::Expr var;
    int64_t extent = 1;
    lower::ForKind kind = lower::ForKind::Serial;
    const lower::StmtNode* node = nullptr;
};

// What one loop's body touched, per buffer, in visiting order (Ansor's for_touch_regions).
struct Touch {
    AccessType type;
    int64_t elements;
    int bytes;
};
using TouchMap = std::vector<std::pair<const ir::BufferVar*, std::vector<Touch>>>;
using TouchMaps = std::unordered_map<const lower::StmtNode*, TouchMap>;

struct StoreAccesses {
    std::vector<AccessFeature> features; // the write, then the buffers read, in pre-order
    std::vector<double> bytesPerLevel; // bytes touched at each loop level, innermost loop first
};

// The store `s` inside `loops`: adds what it touches to each loop's entry of `touched` and returns its
// accesses' features. `outerProd` is the product of the loops' extents.
StoreAccesses storeAccesses(
    const lower::StmtNode& s, const std::vector<Loop>& loops, double outerProd, int cacheLine, TouchMaps& touched);

} // namespace ts::features::detail
