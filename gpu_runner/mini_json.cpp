#include "gpu_runner/mini_json.h"

#include <cstdlib>

namespace ts::gpurunner {

namespace {
    class Parser {
    public:
        explicit Parser(std::string_view text)
            : m_text(text)
        {
        }

        Expected<Json> document()
        {
            TS_TRY(Json value, parseValue(0));
            skipSpace();
            if (m_pos != m_text.size())
                return fail("text after the value");
            return value;
        }

    private:
        Error fail(const std::string& why) const
        {
            return makeError(ErrorKind::Parse, "JSON at byte " + std::to_string(m_pos) + ": " + why);
        }

        void skipSpace()
        {
            while (m_pos < m_text.size()
                && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
                ++m_pos;
        }

        bool literal(std::string_view word)
        {
            if (m_text.substr(m_pos, word.size()) != word)
                return false;
            m_pos += word.size();
            return true;
        }

        Expected<Json> parseValue(int depth)
        {
            if (depth > 64)
                return fail("nested too deeply");
            skipSpace();
            if (m_pos >= m_text.size())
                return fail("unexpected end");
            Json v;
            const char c = m_text[m_pos];
            if (c == '{') {
                v.kind = Json::Kind::Object;
                ++m_pos;
                skipSpace();
                if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                    ++m_pos;
                    return v;
                }
                while (true) {
                    skipSpace();
                    TS_TRY(std::string key, parseString());
                    skipSpace();
                    if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                        return fail("expected ':'");
                    ++m_pos;
                    TS_TRY(Json member, parseValue(depth + 1));
                    v.object[std::move(key)] = std::move(member);
                    skipSpace();
                    if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                        ++m_pos;
                        continue;
                    }
                    if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                        ++m_pos;
                        return v;
                    }
                    return fail("expected ',' or '}'");
                }
            }
            if (c == '[') {
                v.kind = Json::Kind::Array;
                ++m_pos;
                skipSpace();
                if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                    ++m_pos;
                    return v;
                }
                while (true) {
                    TS_TRY(Json element, parseValue(depth + 1));
                    v.array.push_back(std::move(element));
                    skipSpace();
                    if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                        ++m_pos;
                        continue;
                    }
                    if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                        ++m_pos;
                        return v;
                    }
                    return fail("expected ',' or ']'");
                }
            }
            if (c == '"') {
                v.kind = Json::Kind::String;
                TS_TRY(v.string, parseString());
                return v;
            }
            if (literal("true") || literal("false")) {
                v.kind = Json::Kind::Bool;
                v.boolean = c == 't';
                return v;
            }
            if (literal("null"))
                return v;
            const std::string number(m_text.substr(m_pos, std::min<size_t>(64, m_text.size() - m_pos)));
            char* end = nullptr;
            v.number = std::strtod(number.c_str(), &end);
            if (end == number.c_str())
                return fail("expected a value");
            v.kind = Json::Kind::Number;
            m_pos += static_cast<size_t>(end - number.c_str());
            return v;
        }

        Expected<std::string> parseString()
        {
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                return fail("expected a string");
            ++m_pos;
            std::string out;
            while (m_pos < m_text.size() && m_text[m_pos] != '"') {
                char c = m_text[m_pos++];
                if (c != '\\') {
                    out += c;
                    continue;
                }
                if (m_pos >= m_text.size())
                    break;
                c = m_text[m_pos++];
                switch (c) {
                case 'n':
                    out += '\n';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'u': {
                    if (m_pos + 4 > m_text.size())
                        return fail("short \\u escape");
                    const unsigned code = static_cast<unsigned>(
                        std::strtoul(std::string(m_text.substr(m_pos, 4)).c_str(), nullptr, 16));
                    m_pos += 4;
                    if (code < 0x80) {
                        out += static_cast<char>(code);
                    } else if (code < 0x800) {
                        out += static_cast<char>(0xC0 | (code >> 6));
                        out += static_cast<char>(0x80 | (code & 0x3F));
                    } else {
                        out += static_cast<char>(0xE0 | (code >> 12));
                        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                        out += static_cast<char>(0x80 | (code & 0x3F));
                    }
                    break;
                }
                default: // \" \\ \/
                    out += c;
                }
            }
            if (m_pos >= m_text.size())
                return fail("unterminated string");
            ++m_pos;
            return out;
        }

        std::string_view m_text;
        size_t m_pos = 0;
    };
} // namespace

const Json* Json::find(const std::string& key) const
{
    auto it = object.find(key);
    return it == object.end() ? nullptr : &it->second;
}

Expected<Json> parseJson(std::string_view text) { return Parser(text).document(); }

} // namespace ts::gpurunner
