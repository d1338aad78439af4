#include "core/support/error.h"

#include "core/support/assert.h"

namespace ts {

const char* toString(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::InvalidArgument:
        return "invalid argument";
    case ErrorKind::NotFound:
        return "not found";
    case ErrorKind::Parse:
        return "parse error";
    case ErrorKind::Io:
        return "i/o error";
    case ErrorKind::Unsupported:
        return "unsupported";
    case ErrorKind::Internal:
        return "internal error";
    }
    return "error";
}

std::string Error::toString() const { return std::string(ts::toString(kind)) + ": " + message; }

void failOnErrorAccess(const Error& error)
{
    internalError(__FILE__, __LINE__, "value() called on an Expected holding an error: " + error.toString());
}

} // namespace ts
