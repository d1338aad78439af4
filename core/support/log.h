// Minimal leveled logging to stderr. TS_LOG(Info) << "compiled " << n << " candidates";
// The level comes from TUNESCOPE_LOG (error, warn, info, debug); default warn, so tools print only results.
#pragma once

#include <sstream>

namespace ts {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

LogLevel logLevel();
void setLogLevel(LogLevel level);

namespace detail {
    class LogLine {
    public:
        explicit LogLine(LogLevel level)
            : m_level(level)
        {
        }
        ~LogLine();
        template <typename T> LogLine& operator<<(const T& value)
        {
            m_stream << value;
            return *this;
        }

    private:
        LogLevel m_level;
        std::ostringstream m_stream;
    };
} // namespace detail

} // namespace ts

#define TS_LOG(level)                                                                                                  \
    if (::ts::LogLevel::level > ::ts::logLevel()) {                                                                    \
    } else                                                                                                             \
        ::ts::detail::LogLine(::ts::LogLevel::level)
