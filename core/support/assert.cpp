#include "core/support/assert.h"

#include <cstdio>
#include <cstdlib>

namespace ts {

void internalError(const char* file, int line, const std::string& message)
{
    std::string full = std::string(file) + ":" + std::to_string(line) + ": internal error: " + message;
#ifndef NDEBUG
    std::fprintf(stderr, "%s\n", full.c_str());
    std::abort();
#else
    throw InternalError(full);
#endif
}

namespace detail {
    AssertFailure::AssertFailure(const char* file, int line, const char* condition)
        : m_file(file)
        , m_line(line)
    {
        m_stream << "assertion '" << condition << "' failed: ";
    }

    AssertFailure::~AssertFailure() noexcept(false)
    {
        std::string extra = m_stream.str();
        internalError(m_file, m_line, extra);
    }
} // namespace detail

} // namespace ts
