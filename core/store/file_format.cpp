#include "core/store/file_format.h"

#include "core/store/tvm_log.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>

namespace ts::store {

namespace {

    using Json = nlohmann::json;

    bool startsWith(std::string_view text, std::string_view prefix)
    {
        return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
    }

    bool isDigits(std::string_view text)
    {
        return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
    }

    bool isBase64(std::string_view text)
    {
        return !text.empty()
            && text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
            == std::string_view::npos;
    }

    // NUL bytes, or more than 1 in 100 bytes a control character that text does not hold.
    bool looksBinary(std::string_view head)
    {
        size_t control = 0;
        for (const char c : head) {
            const auto byte = static_cast<unsigned char>(c);
            if (byte == 0)
                return true;
            if (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r' && byte != '\f' && byte != '\v'
                && byte != 0x1b)
                ++control;
        }
        return control * 100 > head.size();
    }

    // [shash, base64 module]: a MetaSchedule workload line.
    bool isWorkloadLine(const Json& line)
    {
        return line.is_array() && line.size() == 2 && line[0].is_string() && isDigits(line[0].get<std::string>())
            && line[1].is_string() && isBase64(line[1].get<std::string>());
    }

    // [workload index, [trace, run_secs, target, args_info]]: a MetaSchedule tuning-record line.
    bool isTuningRecordLine(const Json& line)
    {
        if (!line.is_array() || line.size() != 2 || !line[0].is_number_integer() || line[0].get<int64_t>() < 0)
            return false;
        const Json& record = line[1];
        if (!record.is_array() || record.size() != 4)
            return false;
        const Json& trace = record[0];
        return trace.is_array() && trace.size() == 2 && trace[0].is_array() && trace[1].is_array()
            && (record[1].is_null() || record[1].is_array()) && (record[2].is_null() || record[2].is_object())
            && (record[3].is_null() || record[3].is_array());
    }

    // A first line too long to hold whole: told apart by how it starts.
    FileFormat sniffLongLine(std::string_view line)
    {
        if (startsWith(line, "[\"")) {
            const size_t close = line.find('"', 2);
            if (close != std::string_view::npos && isDigits(line.substr(2, close - 2))
                && startsWith(line.substr(close), "\",\"") && isBase64(line.substr(close + 3, 64)))
                return FileFormat::MetaScheduleWorkloads;
        }
        if (startsWith(line, "[")) {
            const size_t comma = line.find(',');
            if (comma != std::string_view::npos && isDigits(line.substr(1, comma - 1))
                && startsWith(line.substr(comma), ",[[["))
                return FileFormat::MetaScheduleTuningRecords;
        }
        return FileFormat::TextLog;
    }

    FileFormat sniffFirstLine(std::string_view head, bool complete)
    {
        size_t start = 0;
        while (start < head.size()) {
            const size_t end = std::min(head.find('\n', start), head.size());
            std::string_view line = head.substr(start, end - start);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            if (line.find_first_not_of(" \t") == std::string_view::npos) {
                start = end + 1;
                continue;
            }
            if (line[0] != '[')
                return FileFormat::TextLog;
            if (end == head.size() && !complete)
                return sniffLongLine(line);
            const Json json = Json::parse(line.begin(), line.end(), nullptr, false);
            if (isWorkloadLine(json))
                return FileFormat::MetaScheduleWorkloads;
            if (isTuningRecordLine(json))
                return FileFormat::MetaScheduleTuningRecords;
            return FileFormat::TextLog;
        }
        return FileFormat::TextLog;
    }

} // namespace

FileSniff sniffHead(std::string_view head, bool complete)
{
    FileSniff sniff;
    if (head.empty() && complete) {
        sniff.format = FileFormat::Empty;
        return sniff;
    }
    struct Magic {
        std::string_view bytes;
        FileFormat format;
    };
    static constexpr Magic kMagics[] = {
        { std::string_view("\x1f\x8b", 2), FileFormat::Gzip },
        { std::string_view("PK\x03\x04", 4), FileFormat::Zip },
        { std::string_view("\xfd"
                           "7zXZ\0",
              6),
            FileFormat::Xz },
        { std::string_view("BZh", 3), FileFormat::Bzip2 },
        { std::string_view("\x28\xb5\x2f\xfd", 4), FileFormat::Zstd },
        { std::string_view("SQLite format 3\0", 16), FileFormat::Sqlite },
    };
    for (const Magic& magic : kMagics)
        if (startsWith(head, magic.bytes)) {
            sniff.format = magic.format;
            sniff.binary = true;
            // A workspace's application_id is the big-endian 32-bit number at offset 68 of the header.
            if (magic.format == FileFormat::Sqlite && head.size() >= 72
                && std::memcmp(head.data() + 68, "TSdb", 4) == 0)
                sniff.format = FileFormat::Workspace;
            return sniff;
        }
    sniff.binary = looksBinary(head.substr(0, 1 << 16));
    if (!sniff.binary)
        sniff.format = sniffFirstLine(head, complete);
    return sniff;
}

Expected<FileSniff> sniffFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, "cannot open " + path + ": " + std::strerror(errno));
    // One byte more than a record line may hold: a first line that does not end in it is too long anyway.
    std::string head(kMaxLogLineBytes + 1, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (in.bad())
        return makeError(ErrorKind::Io, path + ": read error");
    const bool complete = static_cast<size_t>(in.gcount()) < head.size();
    head.resize(static_cast<size_t>(in.gcount()));
    return sniffHead(head, complete);
}

Expected<int64_t> countNonEmptyLines(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, "cannot open " + path + ": " + std::strerror(errno));
    char buffer[1 << 16];
    int64_t lines = 0;
    bool inLine = false; // the current line has a byte other than '\r'
    while (in) {
        in.read(buffer, sizeof(buffer));
        const auto n = static_cast<size_t>(in.gcount());
        for (size_t i = 0; i < n; ++i) {
            if (buffer[i] == '\n') {
                lines += inLine;
                inLine = false;
            } else if (buffer[i] != '\r') {
                inLine = true;
            }
        }
    }
    if (in.bad())
        return makeError(ErrorKind::Io, path + ": read error");
    return lines + inLine;
}

} // namespace ts::store
