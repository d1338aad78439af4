// Small string helpers shared by printers and command-line parsing (GCC 12 has no std::format).
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

template <typename Range, typename Fn> std::string join(const Range& range, std::string_view separator, Fn&& toText)
{
    std::string out;
    bool first = true;
    for (const auto& item : range) {
        if (!first)
            out += separator;
        first = false;
        out += toText(item);
    }
    return out;
}

template <typename Range> std::string join(const Range& range, std::string_view separator)
{
    return join(range, separator, [](const auto& v) {
        std::ostringstream s;
        s << v;
        return s.str();
    });
}

std::vector<std::string> split(std::string_view text, char separator);
std::string toLower(std::string_view text);
// Fixed-point number with `decimals` digits: formatFixed(3.14159, 2) == "3.14".
std::string formatFixed(double value, int decimals);
// Parses a whole string as a base-10 integer; rejects trailing text, empty input and overflow.
Expected<int64_t> parseInt(std::string_view text, std::string_view what);
// Quotes a string for JSON or DOT output (escapes quotes, backslashes and control characters).
std::string jsonQuoted(std::string_view text);
// 64-bit FNV-1a hash: stable across runs and platforms.
uint64_t fnv1a64(std::string_view text, uint64_t seed = 0xcbf29ce484222325ULL);
std::string toHex(uint64_t value, int digits = 16);

} // namespace ts
