// Private to core/store: reads a file's lines in 64 KB blocks, so a file with a huge line (or no newline
// at all) costs bounded memory: past kMaxLogLineBytes a line's text is dropped and only its length is kept.
#pragma once

#include <cstdint>
#include <istream>
#include <string>

namespace ts::store::detail {

class LineReader {
public:
    struct Line {
        std::string text; // without the newline; empty when tooLong
        int64_t length = 0; // bytes, without the newline
        bool tooLong = false; // over kMaxLogLineBytes
    };

    explicit LineReader(std::istream& in)
        : m_in(in)
    {
    }

    // False at the end of the file.
    bool next(Line& line);
    int64_t bytesRead() const { return m_bytes; }

private:
    std::istream& m_in;
    char m_buffer[1 << 16];
    size_t m_pos = 0;
    size_t m_size = 0;
    int64_t m_bytes = 0;
};

} // namespace ts::store::detail
