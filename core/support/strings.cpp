#include "core/support/strings.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace ts {

std::vector<std::string> split(std::string_view text, char separator)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t end = text.find(separator, start);
        parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

std::string toLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string formatFixed(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

Expected<int64_t> parseInt(std::string_view text, std::string_view what)
{
    int64_t value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
        return makeError(
            ErrorKind::InvalidArgument, std::string(what) + " must be an integer, got '" + std::string(text) + "'");
    if (ec == std::errc::result_out_of_range)
        return makeError(
            ErrorKind::InvalidArgument, std::string(what) + " is out of range: '" + std::string(text) + "'");
    return value;
}

std::string jsonQuoted(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                out += buffer;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

uint64_t fnv1a64(std::string_view text, uint64_t seed)
{
    uint64_t hash = seed;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

std::string toHex(uint64_t value, int digits)
{
    static const char* const kDigits = "0123456789abcdef";
    std::string out(static_cast<size_t>(digits), '0');
    for (int i = digits - 1; i >= 0 && value; --i, value >>= 4)
        out[static_cast<size_t>(i)] = kDigits[value & 0xf];
    return out;
}

} // namespace ts
