#include "core/schedule/step_json.h"

#include <limits>

namespace ts::sched {

namespace {
    using Json = nlohmann::json;

    Json encode(const AnnotationStep& s) { return { s.kCode, s.stageId, s.iterId, static_cast<int>(s.annotation) }; }
    Json encode(const FuseStep& s) { return { s.kCode, s.stageId, s.fusedIds }; }
    Json encode(const PragmaStep& s) { return { s.kCode, s.stageId, s.iterId, s.pragma }; }
    Json encode(const ReorderStep& s) { return { s.kCode, s.stageId, s.afterIds }; }
    // An unknown extent is null (TVM writes 0, read here as unknown too). TVM cannot write an unfilled length
    // (its writer checks every length is set) nor read one; null is JSON's None, and TVM's reader rejects it.
    Json encode(const SplitStep& s)
    {
        Json lengths = Json::array();
        for (const SplitLength& length : s.lengths)
            lengths.push_back(length ? Json(*length) : Json(nullptr));
        return { s.kCode, s.stageId, s.iterId, s.extent ? Json(*s.extent) : Json(nullptr), lengths,
            s.innerToOuter ? 1 : 0 };
    }
    Json encode(const FollowSplitStep& s) { return { s.kCode, s.stageId, s.iterId, s.srcStepId, s.nSplit }; }
    Json encode(const FollowFusedSplitStep& s)
    {
        return { s.kCode, s.stageId, s.iterId, s.srcStepIds, s.level, s.factorOrNparts ? 1 : 0 };
    }
    Json encode(const StorageAlignStep& s) { return { s.kCode, s.stageId, s.iterId, s.factor, s.offset }; }
    Json encode(const ComputeAtStep& s) { return { s.kCode, s.stageId, s.targetStageId, s.targetIterId }; }
    Json encode(const ComputeInlineStep& s) { return { s.kCode, s.stageId }; }
    Json encode(const ComputeRootStep& s) { return { s.kCode, s.stageId }; }
    Json encode(const CacheReadStep& s) { return { s.kCode, s.stageId, s.scope, s.readerStageIds }; }
    Json encode(const CacheWriteStep& s) { return { s.kCode, s.stageId, s.scope }; }
    Json encode(const RfactorStep& s) { return { s.kCode, s.stageId, s.iterId, s.factorIterId }; }

    // Reads fields of one step array, remembering the first problem.
    class Fields {
    public:
        Fields(const Json& json, size_t expected)
            : m_json(json)
        {
            if (json.size() != expected)
                m_error = "has " + std::to_string(json.size()) + " fields, expected " + std::to_string(expected);
        }
        bool ok() const { return m_error.empty(); }
        Error error() const
        {
            return makeError(ErrorKind::Parse, "step " + m_json.dump().substr(0, 120) + ": " + m_error);
        }

        int integer(size_t i, int64_t lo = 0, int64_t hi = std::numeric_limits<int>::max())
        {
            return static_cast<int>(integer64(i, lo, hi));
        }
        int64_t integer64(size_t i, int64_t lo = 0, int64_t hi = std::numeric_limits<int64_t>::max())
        {
            if (!ok())
                return 0;
            const Json& v = m_json[i];
            if (!v.is_number_integer()) {
                m_error = "field " + std::to_string(i) + " is not an integer";
                return 0;
            }
            const int64_t x = v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)
                ? std::numeric_limits<int64_t>::max()
                : v.get<int64_t>();
            if (x < lo || x > hi) {
                m_error = "field " + std::to_string(i) + " = " + v.dump() + " out of range [" + std::to_string(lo)
                    + ", " + std::to_string(hi) + "]";
                return 0;
            }
            return x;
        }
        std::vector<int> integers(size_t i)
        {
            std::vector<int> out;
            for (int64_t x : integers64(i, 0, std::numeric_limits<int>::max()))
                out.push_back(static_cast<int>(x));
            return out;
        }
        std::vector<int64_t> integers64(size_t i, int64_t lo, int64_t hi)
        {
            std::vector<int64_t> out;
            for (const std::optional<int64_t>& x : list(i, lo, hi, false))
                out.push_back(*x);
            return out;
        }
        std::string text(size_t i)
        {
            if (!ok())
                return {};
            if (!m_json[i].is_string()) {
                m_error = "field " + std::to_string(i) + " is not a string";
                return {};
            }
            return m_json[i].get<std::string>();
        }
        // null or TVM's 0: unknown.
        std::optional<int64_t> optionalExtent(size_t i)
        {
            if (ok() && m_json[i].is_null())
                return std::nullopt;
            const int64_t x = integer64(i, 0);
            return x > 0 ? std::optional<int64_t>(x) : std::nullopt;
        }
        // Split lengths: integers in [lo, hi], null where unfilled.
        std::vector<SplitLength> lengths(size_t i, int64_t lo, int64_t hi) { return list(i, lo, hi, true); }

    private:
        // A list of integers in [lo, hi] (and nulls, where allowed).
        std::vector<std::optional<int64_t>> list(size_t i, int64_t lo, int64_t hi, bool nullAllowed)
        {
            std::vector<std::optional<int64_t>> out;
            if (!ok())
                return out;
            const Json& v = m_json[i];
            if (!v.is_array()) {
                m_error = "field " + std::to_string(i) + " is not a list";
                return out;
            }
            for (const Json& x : v) {
                if (x.is_null() && nullAllowed) {
                    out.push_back(std::nullopt);
                    continue;
                }
                if (!x.is_number_integer() || x.get<int64_t>() < lo || x.get<int64_t>() > hi) {
                    m_error = "field " + std::to_string(i) + " holds " + x.dump() + ", not an integer in range";
                    return {};
                }
                out.push_back(x.get<int64_t>());
            }
            return out;
        }

        const Json& m_json;
        std::string m_error;
    };

    template <typename T> Expected<Step> finish(Fields& f, T step)
    {
        if (!f.ok())
            return f.error();
        return Step { std::move(step) };
    }

    constexpr int64_t kMaxLength = int64_t(1) << 40;
} // namespace

Json stepToJson(const Step& step)
{
    return std::visit([](const auto& s) { return encode(s); }, step);
}

Expected<Step> stepFromJson(const Json& json)
{
    if (!json.is_array() || json.empty() || !json[0].is_string())
        return makeError(ErrorKind::Parse, "step " + json.dump().substr(0, 120) + " is not [\"CODE\", ...]");
    const std::string code = json[0].get<std::string>();
    if (code == "AN") {
        Fields f(json, 4);
        return finish(f,
            AnnotationStep {
                f.integer(1), f.integer(2), static_cast<Annotation>(f.integer(3, 0, kNumAnnotations - 1)) });
    }
    if (code == "FU") {
        Fields f(json, 3);
        return finish(f, FuseStep { f.integer(1), f.integers(2) });
    }
    if (code == "PR") {
        Fields f(json, 4);
        return finish(f, PragmaStep { f.integer(1), f.integer(2), f.text(3) });
    }
    if (code == "RE") {
        Fields f(json, 3);
        return finish(f, ReorderStep { f.integer(1), f.integers(2) });
    }
    if (code == "SP") {
        Fields f(json, 6);
        SplitStep s { f.integer(1), f.integer(2), f.optionalExtent(3), f.lengths(4, 1, kMaxLength), false };
        s.innerToOuter = f.integer(5, 0, 1) == 1;
        return finish(f, s);
    }
    if (code == "FSP") {
        Fields f(json, 5);
        return finish(f, FollowSplitStep { f.integer(1), f.integer(2), f.integer(3), f.integer(4, 1) });
    }
    if (code == "FFSP") {
        Fields f(json, 6);
        FollowFusedSplitStep s { f.integer(1), f.integer(2), f.integers(3), f.integer(4), true };
        s.factorOrNparts = f.integer(5, 0, 1) == 1;
        return finish(f, s);
    }
    if (code == "SA") {
        Fields f(json, 5);
        return finish(f, StorageAlignStep { f.integer(1), f.integer(2), f.integer(3, 1), f.integer(4) });
    }
    if (code == "CA") {
        Fields f(json, 4);
        return finish(f, ComputeAtStep { f.integer(1), f.integer(2), f.integer(3) });
    }
    if (code == "CI") {
        Fields f(json, 2);
        return finish(f, ComputeInlineStep { f.integer(1) });
    }
    if (code == "CR") {
        Fields f(json, 2);
        return finish(f, ComputeRootStep { f.integer(1) });
    }
    if (code == "CHR") {
        Fields f(json, 4);
        return finish(f, CacheReadStep { f.integer(1), f.text(2), f.integers(3) });
    }
    if (code == "CHW") {
        Fields f(json, 3);
        return finish(f, CacheWriteStep { f.integer(1), f.text(2) });
    }
    if (code == "RF") {
        Fields f(json, 4);
        return finish(f, RfactorStep { f.integer(1), f.integer(2), f.integer(3) });
    }
    return makeError(ErrorKind::Parse, "unknown step code \"" + code.substr(0, 40) + "\"");
}

Json stepsToJson(const std::vector<Step>& steps)
{
    Json out = Json::array();
    for (const Step& step : steps)
        out.push_back(stepToJson(step));
    return out;
}

Expected<std::vector<Step>> stepsFromJson(const Json& json)
{
    if (!json.is_array())
        return makeError(ErrorKind::Parse, "a step list must be a JSON list");
    std::vector<Step> steps;
    for (size_t i = 0; i < json.size(); ++i) {
        auto step = stepFromJson(json[i]);
        if (!step)
            return makeError(ErrorKind::Parse, "step " + std::to_string(i) + ": " + step.error().message);
        steps.push_back(std::move(step).value());
    }
    return steps;
}

std::string stepsToText(const std::vector<Step>& steps) { return stepsToJson(steps).dump(); }

Expected<std::vector<Step>> parseSteps(std::string_view text)
{
    Json json = Json::parse(text.begin(), text.end(), nullptr, false);
    if (json.is_discarded())
        return makeError(ErrorKind::Parse, "the step list is not valid JSON");
    return stepsFromJson(json);
}

} // namespace ts::sched
