#include "core/support/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ts {

namespace {
    LogLevel levelFromEnvironment()
    {
        const char* value = std::getenv("TUNESCOPE_LOG");
        if (!value)
            return LogLevel::Warn;
        if (!std::strcmp(value, "error"))
            return LogLevel::Error;
        if (!std::strcmp(value, "info"))
            return LogLevel::Info;
        if (!std::strcmp(value, "debug"))
            return LogLevel::Debug;
        return LogLevel::Warn;
    }

    std::atomic<LogLevel>& currentLevel()
    {
        static std::atomic<LogLevel> level { levelFromEnvironment() };
        return level;
    }
} // namespace

LogLevel logLevel() { return currentLevel().load(std::memory_order_relaxed); }
void setLogLevel(LogLevel level) { currentLevel().store(level, std::memory_order_relaxed); }

namespace detail {
    LogLine::~LogLine()
    {
        static const char* const kNames[] = { "error", "warn", "info", "debug" };
        std::string line
            = std::string("[tunescope ") + kNames[static_cast<int>(m_level)] + "] " + m_stream.str() + "\n";
        std::fputs(line.c_str(), stderr);
    }
} // namespace detail

} // namespace ts
