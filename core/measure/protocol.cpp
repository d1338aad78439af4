#include "core/measure/protocol.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ts::measure {

namespace {
    constexpr uint32_t kMagic = 0x54535231; // "TSR1"
    constexpr uint64_t kMaxMessage = uint64_t(1) << 34;

    class Writer {
    public:
        template <typename T> void put(T v)
        {
            const char* p = reinterpret_cast<const char*>(&v);
            m_bytes.insert(m_bytes.end(), p, p + sizeof v);
        }
        void bytes(const char* p, size_t n)
        {
            put<uint64_t>(n);
            m_bytes.insert(m_bytes.end(), p, p + n);
        }
        std::vector<char> take() { return std::move(m_bytes); }

    private:
        std::vector<char> m_bytes;
    };

    class Reader {
    public:
        explicit Reader(const std::vector<char>& bytes)
            : m_bytes(bytes)
        {
        }
        template <typename T> T get()
        {
            T v {};
            if (m_pos + sizeof v > m_bytes.size()) {
                m_ok = false;
                return v;
            }
            std::memcpy(&v, m_bytes.data() + m_pos, sizeof v);
            m_pos += sizeof v;
            return v;
        }
        std::vector<char> bytes()
        {
            const uint64_t n = get<uint64_t>();
            if (!m_ok || n > m_bytes.size() - m_pos) {
                m_ok = false;
                return {};
            }
            std::vector<char> out(
                m_bytes.begin() + static_cast<long>(m_pos), m_bytes.begin() + static_cast<long>(m_pos + n));
            m_pos += n;
            return out;
        }
        bool ok() const { return m_ok && m_pos == m_bytes.size(); }

    private:
        const std::vector<char>& m_bytes;
        size_t m_pos = 0;
        bool m_ok = true;
    };

    template <typename T> void putVector(Writer& w, const std::vector<T>& v)
    {
        w.bytes(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
    template <typename T> std::vector<T> getVector(Reader& r)
    {
        std::vector<char> raw = r.bytes();
        std::vector<T> out(raw.size() / sizeof(T));
        std::memcpy(out.data(), raw.data(), out.size() * sizeof(T));
        return out;
    }
} // namespace

std::vector<char> encode(const RunRequest& q)
{
    Writer w;
    putVector(w, q.object);
    w.bytes(q.symbol.data(), q.symbol.size());
    putVector(w, q.argElements);
    w.put<int32_t>(q.numInputs);
    w.put<uint64_t>(q.seed);
    w.put<int32_t>(q.threads);
    w.put<int32_t>(q.timing.number);
    w.put<int32_t>(q.timing.repeat);
    w.put<int32_t>(q.timing.minRepeatMs);
    w.put<int32_t>(q.timing.warmup);
    w.put<uint8_t>(q.timing.flushCache ? 1 : 0);
    w.put<uint8_t>(q.timing.shrinkSlow ? 1 : 0);
    w.put<uint8_t>(q.hasSetup ? 1 : 0);
    return w.take();
}

Expected<RunRequest> decodeRequest(const std::vector<char>& bytes)
{
    Reader r(bytes);
    RunRequest q;
    q.object = r.bytes();
    const std::vector<char> symbol = r.bytes();
    q.symbol.assign(symbol.begin(), symbol.end());
    q.argElements = getVector<int64_t>(r);
    q.numInputs = r.get<int32_t>();
    q.seed = r.get<uint64_t>();
    q.threads = r.get<int32_t>();
    q.timing.number = r.get<int32_t>();
    q.timing.repeat = r.get<int32_t>();
    q.timing.minRepeatMs = r.get<int32_t>();
    q.timing.warmup = r.get<int32_t>();
    q.timing.flushCache = r.get<uint8_t>() != 0;
    q.timing.shrinkSlow = r.get<uint8_t>() != 0;
    q.hasSetup = r.get<uint8_t>() != 0;
    if (!r.ok())
        return makeError(ErrorKind::Parse, "malformed run request");
    return q;
}

std::vector<char> encode(const RunReply& a)
{
    Writer w;
    w.put<int32_t>(record::toInt(a.status));
    putVector(w, a.costs);
    w.bytes(a.message.data(), a.message.size());
    w.put<uint64_t>(a.outputs.size());
    for (const auto& o : a.outputs)
        putVector(w, o);
    w.put<double>(a.waited);
    return w.take();
}

Expected<RunReply> decodeReply(const std::vector<char>& bytes)
{
    Reader r(bytes);
    RunReply a;
    const int32_t status = r.get<int32_t>();
    a.costs = getVector<double>(r);
    const std::vector<char> message = r.bytes();
    a.message.assign(message.begin(), message.end());
    const uint64_t n = r.get<uint64_t>();
    for (uint64_t i = 0; i < n && i < 4096; ++i)
        a.outputs.push_back(getVector<float>(r));
    a.waited = r.get<double>();
    if (!r.ok())
        return makeError(ErrorKind::Parse, "malformed run reply");
    TS_TRY(a.status, record::measureStatusFromInt(status, "the reply's status"));
    return a;
}

bool writeMessage(int fd, const std::vector<char>& payload)
{
    std::vector<char> frame(12);
    const uint32_t magic = kMagic;
    const uint64_t length = payload.size();
    std::memcpy(frame.data(), &magic, 4);
    std::memcpy(frame.data() + 4, &length, 8);
    frame.insert(frame.end(), payload.begin(), payload.end());
    size_t sent = 0;
    while (sent < frame.size()) {
        const ssize_t n = ::send(fd, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += static_cast<size_t>(n);
    }
    return true;
}

ReadStatus readMessage(int fd, std::vector<char>& payload, int64_t deadlineMs, int cancelFd)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(deadlineMs);
    auto readExactly = [&](char* out, size_t size) -> ReadStatus {
        size_t got = 0;
        while (got < size) {
            int timeout = -1;
            if (deadlineMs >= 0) {
                const auto left
                    = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
                if (left <= 0)
                    return ReadStatus::TimedOut;
                timeout = static_cast<int>(std::min<int64_t>(left, 1 << 30));
            }
            pollfd p[2] = { { fd, POLLIN, 0 }, { cancelFd, POLLIN, 0 } };
            const int ready = ::poll(p, cancelFd >= 0 ? 2 : 1, timeout);
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready == 0)
                return ReadStatus::TimedOut;
            if (cancelFd >= 0 && (p[1].revents & POLLIN))
                return ReadStatus::Cancelled;
            const ssize_t n = ::read(fd, out + got, size - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return ReadStatus::Closed;
            got += static_cast<size_t>(n);
        }
        return ReadStatus::Ok;
    };
    char header[12];
    if (ReadStatus s = readExactly(header, sizeof header); s != ReadStatus::Ok)
        return s;
    uint32_t magic;
    uint64_t length;
    std::memcpy(&magic, header, 4);
    std::memcpy(&length, header + 4, 8);
    if (magic != kMagic || length > kMaxMessage)
        return ReadStatus::Malformed;
    payload.resize(length);
    return readExactly(payload.data(), length);
}

} // namespace ts::measure
