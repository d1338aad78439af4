#include "core/store/tvm_log.h"

#include "core/schedule/step_json.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>

namespace ts::store {

namespace {

    using Json = nlohmann::json;

    // Largest plausible values: beyond these a field is garbage, not a measurement.
    constexpr double kMaxSeconds = 1e12;

    enum class FloatStyle { Tvm, Python };

    std::string shortest(double value, std::chars_format format)
    {
        char buffer[64];
        const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, format);
        return std::string(buffer, result.ptr);
    }

    // Python's repr of a float: decimal for 1e-4 <= |x| < 1e16, always with a fraction; else scientific.
    std::string pythonFloat(double value)
    {
        if (!std::isfinite(value))
            return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
        const double magnitude = std::fabs(value);
        if (value == 0.0 || (magnitude >= 1e-4 && magnitude < 1e16)) {
            std::string text = shortest(value, std::chars_format::fixed);
            if (text.find('.') == std::string::npos)
                text += ".0";
            return text;
        }
        return shortest(value, std::chars_format::scientific);
    }

    std::string dump(const Json& json, FloatStyle style)
    {
        switch (json.type()) {
        case Json::value_t::array: {
            std::string out = "[";
            bool first = true;
            for (const Json& item : json) {
                if (!first)
                    out += ", ";
                first = false;
                out += dump(item, style);
            }
            return out + "]";
        }
        case Json::value_t::object: {
            std::string out = "{";
            bool first = true;
            for (const auto& [key, value] : json.items()) {
                if (!first)
                    out += ", ";
                first = false;
                out += Json(key).dump() + ": " + dump(value, style);
            }
            return out + "}";
        }
        case Json::value_t::number_float: {
            const double v = json.get<double>();
            return style == FloatStyle::Tvm ? formatTvmDouble(v) : pythonFloat(v);
        }
        default:
            return json.dump(-1, ' ', false, Json::error_handler_t::replace);
        }
    }

    std::string describe(const Json& json)
    {
        switch (json.type()) {
        case Json::value_t::null:
            return "null";
        case Json::value_t::boolean:
            return "a boolean";
        case Json::value_t::string:
            return "a string";
        case Json::value_t::array:
            return "a list of " + std::to_string(json.size());
        case Json::value_t::object:
            return "an object";
        case Json::value_t::number_float:
            return "a real number";
        default:
            return "an integer";
        }
    }

    Error fieldError(const std::string& field, const std::string& expected, const Json& got)
    {
        return Error { ErrorKind::Parse, field + " must be " + expected + ", got " + describe(got) };
    }

    Expected<std::string> readString(const Json& json, const std::string& field)
    {
        if (!json.is_string())
            return fieldError(field, "a string", json);
        return json.get<std::string>();
    }

    Expected<int64_t> readInt(const Json& json, const std::string& field, int64_t lo, int64_t hi)
    {
        if (!json.is_number_integer())
            return fieldError(field, "an integer", json);
        if (json.is_number_unsigned() && json.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
            return makeError(ErrorKind::Parse, field + " is out of range");
        const int64_t v = json.get<int64_t>();
        if (v < lo || v > hi)
            return makeError(ErrorKind::Parse,
                field + " is " + std::to_string(v) + ", outside " + std::to_string(lo) + ".." + std::to_string(hi));
        return v;
    }

    Expected<double> readSeconds(const Json& json, const std::string& field)
    {
        if (!json.is_number())
            return fieldError(field, "a number", json);
        const double v = json.get<double>();
        if (!std::isfinite(v) || v < 0 || v > kMaxSeconds)
            return makeError(ErrorKind::Parse, field + " is " + formatTvmDouble(v) + ", not a time in seconds");
        return v;
    }

    // [costs, error_no, all_cost, timestamp]: the same in every format.
    Expected<void> readResult(const Json& r, const std::string& field, LogRecord& out)
    {
        if (!r.is_array() || r.size() != 4)
            return fieldError(field, "[costs, error_no, all_cost, timestamp]", r);
        if (!r[0].is_array())
            return fieldError(field + "[0] (costs)", "a list of numbers", r[0]);
        for (size_t i = 0; i < r[0].size(); ++i) {
            TS_TRY(double cost, readSeconds(r[0][i], field + "[0][" + std::to_string(i) + "] (a cost)"));
            out.result.costs.push_back(cost);
        }
        TS_TRY(int64_t errorNo, readInt(r[1], field + "[1] (error_no)", INT64_MIN, INT64_MAX));
        TS_TRY(out.result.status, record::measureStatusFromInt(errorNo, field + "[1] (error_no)"));
        TS_TRY(out.result.allCost, readSeconds(r[2], field + "[2] (all_cost)"));
        TS_TRY(out.result.timestamp, readSeconds(r[3], field + "[3] (timestamp)"));
        return {};
    }

    Expected<LogRecord> parseAnsor(const Json& record)
    {
        LogRecord out;
        out.kind = RecordKind::Ansor;
        for (const auto& [key, value] : record.items())
            if (key != "i" && key != "r" && key != "v")
                return makeError(
                    ErrorKind::Parse, "unknown key \"" + key + "\" (an auto_scheduler record has i, r, v)");
        if (!record.contains("r"))
            return makeError(ErrorKind::Parse, "no \"r\" (result) field");
        out.version = "v0.1";
        if (record.contains("v")) {
            TS_TRY(out.version, readString(record["v"], "v (version)"));
        }
        const Json& input = record["i"];
        if (!input.is_array() || input.size() != 2)
            return fieldError("i", "[task, state]", input);
        const Json& task = input[0];
        if (!task.is_array() || task.size() < 2 || task.size() == 4 || task.size() > 6)
            return fieldError("i[0] (task)", "a list of 2, 3, 5 or 6 fields", task);
        TS_TRY(out.workloadKey, readString(task[0], "i[0][0] (workload key)"));
        const Json key = Json::parse(out.workloadKey, nullptr, false);
        if (key.is_discarded() || !key.is_array() || key.empty() || !key[0].is_string())
            return makeError(
                ErrorKind::Parse, "i[0][0] (workload key) is not the JSON text [\"name or hash\", args...]");
        out.taskName = key[0].get<std::string>();
        TS_TRY(out.target, readString(task[1], "i[0][1] (target)"));
        if (out.target.empty())
            return makeError(ErrorKind::Parse, "i[0][1] (target) is empty");
        if (task.size() >= 3) {
            const Json& hw = task[2];
            if (!hw.is_array() || hw.size() != 8)
                return fieldError("i[0][2] (hardware params)", "a list of 8 integers", hw);
            HardwareParams params {};
            for (size_t i = 0; i < 8; ++i) {
                TS_TRY(params[i],
                    readInt(hw[i], "i[0][2][" + std::to_string(i) + "] (a hardware param)", -1, INT64_C(1) << 40));
            }
            out.hardwareParams = params;
        }
        if (task.size() >= 5) {
            TS_TRY(out.targetHost, readString(task[3], "i[0][3] (target_host)"));
            TS_TRY(int64_t layout, readInt(task[4], "i[0][4] (layout_rewrite_option)", 0, 2));
            out.layoutRewriteOption = static_cast<int>(layout);
        }
        if (task.size() == 6) {
            if (!task[5].is_array())
                return fieldError("i[0][5] (task input names)", "a list of strings", task[5]);
            for (size_t i = 0; i < task[5].size(); ++i) {
                TS_TRY(std::string name, readString(task[5][i], "i[0][5][" + std::to_string(i) + "]"));
                out.inputNames.push_back(std::move(name));
            }
        }
        const Json& state = input[1];
        if (!state.is_array() || state.size() != 2 || !state[0].is_array())
            return fieldError("i[1] (state)", "[[], steps]", state);
        if (!state[0].empty())
            return makeError(ErrorKind::Parse, "i[1][0] (stages) must be [] (TVM never writes stages)");
        auto steps = sched::stepsFromJson(state[1]);
        if (!steps)
            return makeError(ErrorKind::Parse, "i[1][1] (steps): " + steps.error().message);
        out.steps = dump(state[1], FloatStyle::Tvm);
        out.stepCount = static_cast<int>(steps->size());
        TS_CHECK(readResult(record["r"], "r", out));
        return out;
    }

    // {"index", "code_hash", "entity"}, or the older {"i", "c", "e", "t"}; normalized to the new names.
    Expected<void> readConfig(const Json& config, const std::string& field, LogRecord& out)
    {
        if (!config.is_object())
            return fieldError(field, "an object {index, code_hash, entity}", config);
        auto pick = [&](const char* name, const char* old) -> const Json* {
            if (config.contains(name))
                return &config[name];
            if (config.contains(old))
                return &config[old];
            return nullptr;
        };
        const Json* index = pick("index", "i");
        const Json* entity = pick("entity", "e");
        const Json* codeHash = pick("code_hash", "c");
        if (!index || !entity)
            return makeError(ErrorKind::Parse, field + " lacks its index or entity");
        TS_TRY(int64_t indexValue, readInt(*index, field + ".index", 0, INT64_MAX));
        if (!entity->is_array())
            return fieldError(field + ".entity", "a list of [knob, kind, value]", *entity);
        for (size_t i = 0; i < entity->size(); ++i) {
            const Json& knob = (*entity)[i];
            const std::string where = field + ".entity[" + std::to_string(i) + "]";
            if (!knob.is_array() || knob.size() < 3 || !knob[0].is_string() || !knob[1].is_string())
                return fieldError(where, "[knob name, kind, value...]", knob);
            const std::string kind = knob[1].get<std::string>();
            if (kind != "sp" && kind != "re" && kind != "an" && kind != "ot")
                return makeError(ErrorKind::Parse, where + ": unknown knob kind \"" + kind + "\" (sp, re, an, ot)");
        }
        // Written in TVM's key order by formatAutoTvmLine; stored in this fixed text.
        std::string text = "{\"index\": " + std::to_string(indexValue)
            + ", \"code_hash\": " + (codeHash ? dump(*codeHash, FloatStyle::Python) : "null")
            + ", \"entity\": " + dump(*entity, FloatStyle::Python);
        if (config.contains("t"))
            text += ", \"t\": " + dump(config["t"], FloatStyle::Python);
        out.steps = text + "}";
        out.stepCount = static_cast<int>(entity->size());
        return {};
    }

    std::string versionText(const Json& v)
    {
        if (v.is_string())
            return v.get<std::string>();
        if (v.is_number())
            return pythonFloat(v.get<double>());
        return "";
    }

    Expected<void> readAutoTvmTask(const Json& target, const Json& name, const Json& args, const Json& kwargs,
        const std::string& field, LogRecord& out)
    {
        TS_TRY(out.target, readString(target, field + "[0] (target)"));
        TS_TRY(out.taskName, readString(name, field + "[1] (task name)"));
        if (!args.is_array())
            return fieldError(field + "[2] (task args)", "a list", args);
        if (!kwargs.is_object())
            return fieldError(field + "[3] (task kwargs)", "an object", kwargs);
        out.autoTvmArgs = dump(args, FloatStyle::Python);
        out.autoTvmKwargs = dump(kwargs, FloatStyle::Python);
        out.workloadKey = "[" + Json(out.taskName).dump() + ", " + out.autoTvmArgs + ", " + out.autoTvmKwargs + "]";
        return {};
    }

    Expected<LogRecord> parseAutoTvmV1(const Json& record)
    {
        LogRecord out;
        out.kind = RecordKind::AutoTvm;
        out.version = record.contains("v") ? versionText(record["v"]) : "0.1";
        const Json& input = record["i"];
        if (!input.is_array() || input.size() != 6)
            return fieldError("i", "[target, task name, args, kwargs, workload, config]", input);
        TS_CHECK(readAutoTvmTask(input[0], input[1], input[2], input[3], "i", out));
        out.autoTvmWorkload = dump(input[4], FloatStyle::Python);
        TS_CHECK(readConfig(input[5], "i[5] (config)", out));
        if (!record.contains("r"))
            return makeError(ErrorKind::Parse, "no \"r\" (result) field");
        TS_CHECK(readResult(record["r"], "r", out));
        return out;
    }

    Expected<LogRecord> parseAutoTvmV2(const Json& record)
    {
        LogRecord out;
        out.kind = RecordKind::AutoTvm;
        out.version = record.contains("version") ? versionText(record["version"]) : "0.2";
        for (const auto& [key, value] : record.items())
            if (key != "input" && key != "config" && key != "result" && key != "version" && key != "tvm_version")
                return makeError(ErrorKind::Parse,
                    "unknown key \"" + key
                        + "\" (an AutoTVM v0.2 record has input, "
                          "config, result, version, tvm_version)");
        const Json& input = record["input"];
        if (!input.is_array() || input.size() != 4)
            return fieldError("input", "[target, task name, args, kwargs]", input);
        TS_CHECK(readAutoTvmTask(input[0], input[1], input[2], input[3], "input", out));
        if (!record.contains("config") || !record.contains("result"))
            return makeError(ErrorKind::Parse, "an AutoTVM v0.2 record needs config and result");
        TS_CHECK(readConfig(record["config"], "config", out));
        TS_CHECK(readResult(record["result"], "result", out));
        if (record.contains("tvm_version")) {
            TS_TRY(out.tvmVersion, readString(record["tvm_version"], "tvm_version"));
        }
        return out;
    }

    std::string joinCosts(const std::vector<double>& costs, FloatStyle style)
    {
        return "[" + join(costs, ", ", [&](double c) {
            return style == FloatStyle::Tvm ? formatTvmDouble(c) : pythonFloat(c);
        }) + "]";
    }

} // namespace

std::string formatTvmDouble(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    return shortest(value, std::chars_format::general);
}

Expected<std::optional<LogRecord>> parseLogLine(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line.empty() || line[0] == '#' || line[0] == ' ')
        return std::optional<LogRecord>();
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return std::optional<LogRecord>();
    if (line.size() > kMaxLogLineBytes)
        return makeError(ErrorKind::Parse,
            "the line is " + std::to_string(line.size()) + " bytes, over the " + std::to_string(kMaxLogLineBytes)
                + "-byte limit of a record");
    Json record;
    try {
        record = Json::parse(line.begin(), line.end());
    } catch (const Json::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error ..." -> from "column".
        std::string what = e.what();
        if (const size_t column = what.find("column"); column != std::string::npos)
            what = what.substr(column);
        else if (const size_t bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        return makeError(ErrorKind::Parse, "not valid JSON: " + what);
    }
    if (!record.is_object())
        return fieldError("a record", "a JSON object", record);
    Expected<LogRecord> parsed = makeError(ErrorKind::Parse, "");
    if (record.contains("input"))
        parsed = parseAutoTvmV2(record);
    else if (!record.contains("i"))
        return makeError(ErrorKind::Parse, "neither an auto_scheduler record (\"i\", \"r\", \"v\") nor an AutoTVM one");
    else if (record["i"].is_array() && !record["i"].empty() && record["i"][0].is_string())
        parsed = parseAutoTvmV1(record);
    else
        parsed = parseAnsor(record);
    if (!parsed)
        return parsed.error();
    return std::optional<LogRecord>(std::move(parsed).value());
}

std::string formatAnsorLine(const LogRecord& r)
{
    std::string task = "[" + Json(r.workloadKey).dump() + ", " + Json(r.target).dump();
    if (r.hardwareParams) {
        task += ", " + dump(Json(*r.hardwareParams), FloatStyle::Tvm) + ", " + Json(r.targetHost).dump() + ", "
            + std::to_string(r.layoutRewriteOption) + ", " + dump(Json(r.inputNames), FloatStyle::Tvm);
    }
    task += "]";
    return "{\"i\": [" + task + ", [[], " + r.steps + "]], \"r\": [" + joinCosts(r.result.costs, FloatStyle::Tvm) + ", "
        + std::to_string(record::toInt(r.result.status)) + ", " + formatTvmDouble(r.result.allCost) + ", "
        + std::to_string(static_cast<int64_t>(r.result.timestamp)) + "], \"v\": \"v0.6\"}";
}

std::string formatAutoTvmLine(const LogRecord& r)
{
    std::string out = "{\"input\": [" + Json(r.target).dump() + ", " + Json(r.taskName).dump() + ", " + r.autoTvmArgs
        + ", " + r.autoTvmKwargs + "], \"config\": " + r.steps + ", \"result\": ["
        + joinCosts(r.result.costs, FloatStyle::Python) + ", " + std::to_string(record::toInt(r.result.status)) + ", "
        + pythonFloat(r.result.allCost) + ", " + pythonFloat(r.result.timestamp) + "], \"version\": 0.2";
    if (!r.tvmVersion.empty())
        out += ", \"tvm_version\": " + Json(r.tvmVersion).dump();
    return out + "}";
}

Expected<std::string> pythonJsonText(std::string_view json)
{
    const Json value = Json::parse(json, nullptr, false);
    if (value.is_discarded())
        return makeError(ErrorKind::Parse, "not JSON: " + std::string(json.substr(0, 80)));
    return dump(value, FloatStyle::Python);
}

std::string formatLogLine(const LogRecord& record)
{
    return record.kind == RecordKind::Ansor ? formatAnsorLine(record) : formatAutoTvmLine(record);
}

Expected<AutoTvmTaskKey> parseAutoTvmKey(std::string_view key)
{
    const Json json = Json::parse(key.begin(), key.end(), nullptr, false);
    if (json.is_discarded() || !json.is_array() || json.size() != 3 || !json[0].is_string() || !json[1].is_array()
        || !json[2].is_object())
        return makeError(ErrorKind::Parse, "an AutoTVM task key must be [name, [args...], {kwargs}]");
    // readAutoTvmTask wrote args and kwargs this way: reading and writing them again gives the same text.
    return AutoTvmTaskKey { json[0].get<std::string>(), dump(json[1], FloatStyle::Python),
        dump(json[2], FloatStyle::Python) };
}

int64_t fingerprint(const LogRecord& r)
{
    // The fields that make a record, each followed by a separator that cannot occur inside JSON text.
    std::string text;
    for (const std::string* part : { &r.workloadKey, &r.target, &r.targetHost, &r.steps, &r.autoTvmArgs })
        text += *part + '\x1f';
    text += std::to_string(static_cast<int>(r.kind)) + '\x1f';
    if (r.hardwareParams)
        text += join(*r.hardwareParams, ",");
    text += '\x1f' + joinCosts(r.result.costs, FloatStyle::Tvm) + '\x1f'
        + std::to_string(record::toInt(r.result.status)) + '\x1f' + formatTvmDouble(r.result.allCost) + '\x1f'
        + formatTvmDouble(r.result.timestamp);
    return static_cast<int64_t>(fnv1a64(text));
}

} // namespace ts::store
