// Internal invariants: TS_ASSERT(cond) << "message".
//
// A failed assertion is a bug in TuneScope, never bad user input (that is an Error, see error.h). In debug
// builds it prints and aborts so the debugger stops at the fault; in release builds it throws InternalError,
// which the session boundary (CLI main, GUI job runner) reports instead of taking the process down.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace ts {

class InternalError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

[[noreturn]] void internalError(const char* file, int line, const std::string& message);

namespace detail {
    class AssertFailure {
    public:
        AssertFailure(const char* file, int line, const char* condition);
        [[noreturn]] ~AssertFailure() noexcept(false);
        template <typename T> AssertFailure& operator<<(const T& value)
        {
            m_stream << value;
            return *this;
        }

    private:
        const char* m_file;
        int m_line;
        std::ostringstream m_stream;
    };
} // namespace detail

} // namespace ts

#define TS_ASSERT(cond)                                                                                                \
    if (cond) {                                                                                                        \
    } else                                                                                                             \
        ::ts::detail::AssertFailure(__FILE__, __LINE__, #cond)
