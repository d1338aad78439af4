// Little-endian integers in the byte blobs the cost models save (private to core/cost): the random model's
// Rng words, the xgb model's counters, the pack-sum booster's header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ts::cost::le {

// Appends the low `count` bytes of `value`, least significant first.
inline void put(std::vector<uint8_t>& out, uint64_t value, int count = 8)
{
    for (int i = 0; i < count; ++i)
        out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// The `count` bytes at `offset` as an integer, least significant first. The caller checks the size.
inline uint64_t get(std::span<const uint8_t> in, size_t offset, int count = 8)
{
    uint64_t value = 0;
    for (int i = 0; i < count; ++i)
        value |= static_cast<uint64_t>(in[offset + static_cast<size_t>(i)]) << (8 * i);
    return value;
}

} // namespace ts::cost::le
