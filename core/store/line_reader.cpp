#include "core/store/line_reader.h"

#include "core/store/tvm_log.h"

#include <cstring>

namespace ts::store::detail {

bool LineReader::next(Line& line)
{
    line.text.clear();
    line.tooLong = false;
    line.length = 0;
    for (;;) {
        if (m_pos == m_size) {
            if (!m_in)
                return line.length > 0;
            m_in.read(m_buffer, sizeof(m_buffer));
            m_size = static_cast<size_t>(m_in.gcount());
            m_pos = 0;
            m_bytes += static_cast<int64_t>(m_size);
            if (m_size == 0)
                return line.length > 0;
        }
        const char* start = m_buffer + m_pos;
        const auto* newline = static_cast<const char*>(std::memchr(start, '\n', m_size - m_pos));
        const size_t n = newline ? static_cast<size_t>(newline - start) : m_size - m_pos;
        line.length += static_cast<int64_t>(n);
        if (!line.tooLong && line.text.size() + n <= kMaxLogLineBytes)
            line.text.append(start, n);
        else {
            line.tooLong = true;
            line.text.clear();
        }
        m_pos += n;
        if (newline) {
            ++m_pos;
            return true;
        }
    }
}

} // namespace ts::store::detail
