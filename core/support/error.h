// Expected failures as values: Error{kind, message} and Expected<T>.
//
// Bad input, a candidate that fails to compile, an I/O problem: these return an Expected carrying an Error
// whose message says what was wrong and where. Bugs use TS_ASSERT (assert.h) instead. std::expected is
// C++23; this is the small subset TuneScope needs.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ts {

enum class ErrorKind {
    InvalidArgument, // a value out of range, an impossible shape, an unknown name
    NotFound, // a named thing that does not exist
    Parse, // malformed text (a log line, a step list)
    Io, // file system or database
    Unsupported, // valid request that this build or device cannot serve
    Internal, // a broken invariant reported across a boundary
};

const char* toString(ErrorKind kind);

struct Error {
    ErrorKind kind = ErrorKind::Internal;
    std::string message;

    // "invalid argument: batch must be >= 1"
    std::string toString() const;
};

inline Error makeError(ErrorKind kind, std::string message) { return Error { kind, std::move(message) }; }

template <typename T> class [[nodiscard]] Expected {
public:
    Expected(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    {
    }
    Expected(Error error)
        : m_data(std::in_place_index<1>, std::move(error))
    {
    }

    bool hasValue() const { return m_data.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T& value() &;
    const T& value() const&;
    // By value: `for (auto& x : f().value())` must not dangle on the temporary Expected.
    T value() &&;
    const Error& error() const { return std::get<1>(m_data); }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::variant<T, Error> m_data;
};

template <> class [[nodiscard]] Expected<void> {
public:
    Expected() = default;
    Expected(Error error)
        : m_error(std::move(error))
        , m_ok(false)
    {
    }
    bool hasValue() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

[[noreturn]] void failOnErrorAccess(const Error& error);

template <typename T> T& Expected<T>::value() &
{
    if (!hasValue())
        failOnErrorAccess(error());
    return std::get<0>(m_data);
}
template <typename T> const T& Expected<T>::value() const&
{
    if (!hasValue())
        failOnErrorAccess(error());
    return std::get<0>(m_data);
}
template <typename T> T Expected<T>::value() &&
{
    if (!hasValue())
        failOnErrorAccess(error());
    return std::get<0>(std::move(m_data));
}

} // namespace ts

// Propagates an error from an Expected-returning call: `TS_TRY(auto x, parse(line));`
#define TS_TRY_CONCAT_(a, b) a##b
#define TS_TRY_CONCAT(a, b) TS_TRY_CONCAT_(a, b)
#define TS_TRY_IMPL(tmp, decl, expr)                                                                                   \
    auto tmp = (expr);                                                                                                 \
    if (!tmp)                                                                                                          \
        return tmp.error();                                                                                            \
    decl = std::move(tmp).value()
#define TS_TRY(decl, expr) TS_TRY_IMPL(TS_TRY_CONCAT(ts_try_, __LINE__), decl, expr)

// Propagates the error of an Expected<void> (or any Expected whose value is not needed).
#define TS_CHECK(expr)                                                                                                 \
    do {                                                                                                               \
        auto ts_check_result = (expr);                                                                                 \
        if (!ts_check_result)                                                                                          \
            return ts_check_result.error();                                                                            \
    } while (false)
