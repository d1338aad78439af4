#include "core/search/autotvm/config_space.h"

#include "core/search/autotvm/python_json.h"
#include "core/support/assert.h"

#include <limits>

namespace ts::autotvm {

namespace {

    // A split written by an older TVM with its outer size ([1, 64] for an extent of 64) as the same split
    // written now ([-1, 64]): the sizes must make up the extent (an outer count that covers it with a tail,
    // for the policies that allow one). nullopt when `value` is not of that form.
    Expected<std::optional<std::string>> explicitOuterSplit(const Knob& knob, const nlohmann::json& value)
    {
        if (knob.extent() <= 0 || !value.is_array() || value.size() < 2)
            return std::optional<std::string>();
        int64_t inner = 1;
        for (size_t i = 0; i < value.size(); ++i)
            if (!value[i].is_number_integer() || value[i].get<int64_t>() < 1)
                return std::optional<std::string>();
            else if (i > 0)
                inner *= value[i].get<int64_t>();
        const int64_t outer = value[0].get<int64_t>();
        const bool tails = knob.policy() != toString(SplitPolicy::Factors);
        if (outer * inner != knob.extent() && !(tails && outer == (knob.extent() + inner - 1) / inner))
            return makeError(ErrorKind::InvalidArgument,
                "config entity: knob '" + knob.name() + "': split sizes " + detail::pythonJson(value) + " make "
                    + std::to_string(outer * inner) + ", not the axis extent " + std::to_string(knob.extent()));
        nlohmann::json inferred = value;
        inferred[0] = -1;
        return std::optional<std::string>(detail::pythonJson(inferred));
    }

    Expected<int64_t> entityIndex(const ConfigSpace& space, const nlohmann::json& entity)
    {
        if (!entity.is_array())
            return makeError(ErrorKind::Parse,
                "config entity: expected a list of [name, code, value], got " + detail::pythonJson(entity));
        std::vector<std::optional<size_t>> chosen(space.numKnobs());
        for (size_t item = 0; item < entity.size(); ++item) {
            const nlohmann::json& triple = entity[item];
            if (!triple.is_array() || triple.size() != 3 || !triple[0].is_string() || !triple[1].is_string())
                return makeError(ErrorKind::Parse,
                    "config entity item " + std::to_string(item) + ": expected [name, code, value], got "
                        + detail::pythonJson(triple));
            std::string name = triple[0].get<std::string>();
            std::string code = triple[1].get<std::string>();
            const Knob* knob = space.findKnob(name);
            if (!knob)
                return makeError(ErrorKind::NotFound, "config entity: knob '" + name + "' is not in the space");
            size_t k = size_t(knob - space.knobs().data());
            if (code != knobCode(knob->kind())) {
                std::string what = knobKindFromCode(code) ? "" : " (an unknown code)";
                return makeError(ErrorKind::InvalidArgument,
                    "config entity: knob '" + name + "' is \"" + knobCode(knob->kind()) + "\", the entity says \""
                        + code + "\"" + what);
            }
            if (chosen[k])
                return makeError(ErrorKind::InvalidArgument, "config entity: knob '" + name + "' is given twice");
            std::string value = detail::pythonJson(triple[2]);
            std::optional<size_t> at = knob->find(value);
            if (!at && knob->kind() == KnobKind::Split) {
                TS_TRY(const std::optional<std::string> inferred, explicitOuterSplit(*knob, triple[2]));
                if (inferred)
                    at = knob->find(*inferred);
            }
            if (!at)
                return makeError(ErrorKind::InvalidArgument,
                    "config entity: knob '" + name + "' has no value " + value + " (its " + std::to_string(knob->size())
                        + " values come from policy " + knob->policy() + ")");
            chosen[k] = *at;
        }
        std::vector<size_t> indexes;
        for (size_t k = 0; k < chosen.size(); ++k) {
            if (!chosen[k])
                return makeError(
                    ErrorKind::InvalidArgument, "config entity: knob '" + space.knob(k).name() + "' is missing");
            indexes.push_back(*chosen[k]);
        }
        return space.indexOf(indexes);
    }

} // namespace

Expected<void> ConfigSpace::add(Knob knob)
{
    if (findKnob(knob.name()))
        return makeError(ErrorKind::InvalidArgument, "knob '" + knob.name() + "' is defined twice");
    TS_ASSERT(knob.size() > 0) << "knob " << knob.name() << " has no entities";
    int64_t n = int64_t(knob.size());
    if (m_size > std::numeric_limits<int64_t>::max() / n)
        return makeError(
            ErrorKind::InvalidArgument, "knob '" + knob.name() + "' makes the space larger than 2^63 configs");
    m_size *= n;
    m_knobs.push_back(std::move(knob));
    return {};
}

const Knob& ConfigSpace::knob(size_t i) const
{
    TS_ASSERT(i < m_knobs.size()) << "knob " << i << " of " << m_knobs.size();
    return m_knobs[i];
}

const Knob* ConfigSpace::findKnob(std::string_view name) const
{
    for (const Knob& k : m_knobs)
        if (k.name() == name)
            return &k;
    return nullptr;
}

std::vector<size_t> ConfigSpace::knobIndexes(int64_t index) const
{
    TS_ASSERT(index >= 0 && index < m_size) << "config index " << index << " outside [0, " << m_size << ")";
    std::vector<size_t> out;
    out.reserve(m_knobs.size());
    for (const Knob& k : m_knobs) {
        out.push_back(size_t(index % int64_t(k.size())));
        index /= int64_t(k.size());
    }
    return out;
}

int64_t ConfigSpace::indexOf(const std::vector<size_t>& knobIndexes) const
{
    TS_ASSERT(knobIndexes.size() == m_knobs.size())
        << knobIndexes.size() << " positions for " << m_knobs.size() << " knobs";
    int64_t index = 0;
    int64_t stride = 1;
    for (size_t k = 0; k < m_knobs.size(); ++k) {
        TS_ASSERT(knobIndexes[k] < m_knobs[k].size())
            << "knob " << m_knobs[k].name() << ": position " << knobIndexes[k] << " of " << m_knobs[k].size();
        index += stride * int64_t(knobIndexes[k]);
        stride *= int64_t(m_knobs[k].size());
    }
    return index;
}

const KnobEntity& ConfigSpace::entity(int64_t index, size_t knob) const
{
    return this->knob(knob).entity(knobIndexes(index).at(knob));
}

std::string ConfigSpace::entityJson(int64_t index) const
{
    std::vector<size_t> positions = knobIndexes(index);
    std::string out = "[";
    for (size_t k = 0; k < m_knobs.size(); ++k) {
        if (k)
            out += ", ";
        out += "[" + detail::pythonJson(m_knobs[k].name()) + ", \"" + knobCode(m_knobs[k].kind()) + "\", "
            + m_knobs[k].valueJson(positions[k]) + "]";
    }
    return out + "]";
}

std::string ConfigSpace::configJson(int64_t index, const std::optional<std::string>& codeHash) const
{
    return "{\"index\": " + std::to_string(index) + ", \"code_hash\": "
        + (codeHash ? detail::pythonJson(*codeHash) : std::string("null")) + ", \"entity\": " + entityJson(index) + "}";
}

Expected<int64_t> ConfigSpace::parseEntity(std::string_view json) const
{
    auto entity = nlohmann::json::parse(json, nullptr, false);
    if (entity.is_discarded())
        return makeError(ErrorKind::Parse, "config entity: not JSON: " + std::string(json.substr(0, 200)));
    return entityIndex(*this, entity);
}

Expected<ParsedConfig> ConfigSpace::parseConfig(std::string_view json) const
{
    auto config = nlohmann::json::parse(json, nullptr, false);
    if (config.is_discarded() || !config.is_object() || !config.contains("entity"))
        return makeError(ErrorKind::Parse, "config: expected an object with an \"entity\" list");
    TS_TRY(int64_t index, entityIndex(*this, config["entity"]));
    ParsedConfig parsed { index, std::nullopt, std::nullopt };
    if (config.contains("index")) {
        if (!config["index"].is_number_integer())
            return makeError(ErrorKind::Parse, "config: \"index\" is not an integer");
        parsed.loggedIndex = config["index"].get<int64_t>();
    }
    if (config.contains("code_hash") && config["code_hash"].is_string())
        parsed.codeHash = config["code_hash"].get<std::string>();
    return parsed;
}

} // namespace ts::autotvm
