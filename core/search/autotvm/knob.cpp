#include "core/search/autotvm/knob.h"

#include "core/search/autotvm/python_json.h"
#include "core/support/assert.h"

namespace ts::autotvm {

namespace detail {

    namespace {

        void writePython(const nlohmann::json& value, std::string& out)
        {
            if (value.is_array()) {
                out += '[';
                for (size_t i = 0; i < value.size(); ++i) {
                    if (i)
                        out += ", ";
                    writePython(value[i], out);
                }
                out += ']';
            } else if (value.is_object()) {
                out += '{';
                bool first = true;
                for (const auto& [key, item] : value.items()) {
                    if (!first)
                        out += ", ";
                    first = false;
                    out += nlohmann::json(key).dump(-1, ' ', true);
                    out += ": ";
                    writePython(item, out);
                }
                out += '}';
            } else {
                out += value.dump(-1, ' ', true);
            }
        }

    } // namespace

    std::string pythonJson(const nlohmann::json& value)
    {
        std::string out;
        writePython(value, out);
        return out;
    }

} // namespace detail

namespace {

    nlohmann::json entityValue(const KnobEntity& entity)
    {
        return std::visit(
            [](const auto& e) -> nlohmann::json {
                using T = std::decay_t<decltype(e)>;
                if constexpr (std::is_same_v<T, SplitEntity>)
                    return e.size;
                else if constexpr (std::is_same_v<T, ReorderEntity>)
                    return e.perm;
                else if constexpr (std::is_same_v<T, AnnotateEntity>)
                    return e.anns.empty() && !e.anchors.empty() ? nlohmann::json(e.anchors) : nlohmann::json(e.anns);
                else
                    return nlohmann::json::parse(e.json);
            },
            entity);
    }

} // namespace

const char* knobCode(KnobKind kind)
{
    switch (kind) {
    case KnobKind::Split:
        return "sp";
    case KnobKind::Reorder:
        return "re";
    case KnobKind::Annotate:
        return "an";
    case KnobKind::Other:
        return "ot";
    }
    TS_ASSERT(false) << "unknown knob kind";
    return "";
}

std::optional<KnobKind> knobKindFromCode(std::string_view code)
{
    for (KnobKind kind : { KnobKind::Split, KnobKind::Reorder, KnobKind::Annotate, KnobKind::Other })
        if (code == knobCode(kind))
            return kind;
    return std::nullopt;
}

Knob::Knob(std::string name, KnobKind kind, std::string policy, std::vector<KnobEntity> entities, int64_t extent)
    : m_name(std::move(name))
    , m_kind(kind)
    , m_policy(std::move(policy))
    , m_entities(std::move(entities))
    , m_extent(extent)
{
    m_valueJson.reserve(m_entities.size());
    for (size_t i = 0; i < m_entities.size(); ++i) {
        m_valueJson.push_back(detail::pythonJson(entityValue(m_entities[i])));
        m_byValue.emplace(m_valueJson.back(), i); // keeps the first of equal entities
    }
}

const KnobEntity& Knob::entity(size_t i) const
{
    TS_ASSERT(i < m_entities.size()) << "knob " << m_name << ": entity " << i << " of " << m_entities.size();
    return m_entities[i];
}

const std::string& Knob::valueJson(size_t i) const
{
    TS_ASSERT(i < m_valueJson.size()) << "knob " << m_name << ": entity " << i << " of " << m_valueJson.size();
    return m_valueJson[i];
}

std::optional<size_t> Knob::find(const std::string& valueJson) const
{
    auto it = m_byValue.find(valueJson);
    if (it == m_byValue.end())
        return std::nullopt;
    return it->second;
}

Expected<Knob> makeOtherKnob(std::string name, const std::vector<std::string>& candidatesJson)
{
    if (candidatesJson.empty())
        return makeError(ErrorKind::InvalidArgument, "knob " + name + ": define_knob needs at least one candidate");
    std::vector<KnobEntity> entities;
    for (const std::string& text : candidatesJson) {
        auto value = nlohmann::json::parse(text, nullptr, false);
        if (value.is_discarded())
            return makeError(ErrorKind::Parse, "knob " + name + ": candidate '" + text + "' is not a JSON value");
        entities.push_back(OtherEntity { detail::pythonJson(value) });
    }
    return Knob(std::move(name), KnobKind::Other, "candidate", std::move(entities));
}

} // namespace ts::autotvm
