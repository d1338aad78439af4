#include "core/features/step_tokens.h"

#include "core/schedule/step_json.h"
#include "core/support/assert.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

namespace ts::features {

namespace {
    constexpr std::array<int, 5> kUnrollSteps = { 0, 16, 64, 512, 1024 };

    float stringValue(std::string_view kind, const std::string& text)
    {
        constexpr std::string_view unroll = "auto_unroll_max_step$";
        if (kind == "PR" && text.starts_with(unroll)) {
            const std::string number = text.substr(unroll.size());
            for (size_t i = 0; i < kUnrollSteps.size(); ++i)
                if (number == std::to_string(kUnrollSteps[i]))
                    return static_cast<float>(i + 1);
            return 0.0f;
        }
        if (kind == "CHW")
            return text == "local" ? 1.0f : text == "shared" ? 2.0f : text == "global" ? 3.0f : 0.0f;
        if (kind == "CHR")
            return text == "shared" ? 1.0f : 0.0f;
        return 0.0f;
    }

    // Appends the argument's values (a list flattened, recursively).
    void appendValues(std::string_view kind, const nlohmann::json& arg, std::vector<float>& out)
    {
        if (arg.is_array()) {
            for (const auto& item : arg)
                appendValues(kind, item, out);
        } else if (arg.is_number()) {
            out.push_back(arg.get<float>());
        } else if (arg.is_string()) {
            out.push_back(stringValue(kind, arg.get<std::string>()));
        } else if (arg.is_boolean()) {
            out.push_back(arg.get<bool>() ? 1.0f : 0.0f);
        } else {
            out.push_back(0.0f); // null: an unknown extent or an unfilled length
        }
    }
} // namespace

std::vector<std::string> stepTokenNames(const StepTokenShape& shape)
{
    std::vector<std::string> names;
    for (std::string_view kind : kStepKindNames)
        names.push_back("kind." + std::string(kind));
    for (int a = 0; a < shape.argValues; ++a)
        names.push_back("arg" + std::to_string(a));
    return names;
}

Expected<StepTokens> stepTokens(const nlohmann::json& steps, const StepTokenShape& shape)
{
    if (!steps.is_array())
        return makeError(ErrorKind::Parse, "TLP tokens: the steps are not a JSON list");
    const int width = shape.width();
    StepTokens tokens;
    tokens.values.assign(static_cast<size_t>(shape.seqLen) * static_cast<size_t>(width), 0.0f);
    std::vector<float> args;
    for (size_t s = 0; s < steps.size(); ++s) {
        const nlohmann::json& step = steps[s];
        if (!step.is_array() || step.empty() || !step[0].is_string())
            return makeError(ErrorKind::Parse, "TLP tokens: step " + std::to_string(s) + " is not [\"KIND\", ...]");
        const std::string kind = step[0].get<std::string>();
        const auto found = std::find(kStepKindNames.begin(), kStepKindNames.end(), kind);
        if (found == kStepKindNames.end())
            return makeError(
                ErrorKind::Parse, "TLP tokens: step " + std::to_string(s) + " has the unknown kind \"" + kind + "\"");
        if (static_cast<int>(s) >= shape.seqLen)
            continue; // cropped, but still checked
        float* token = tokens.values.data() + s * static_cast<size_t>(width);
        token[found - kStepKindNames.begin()] = 1.0f;
        args.clear();
        for (size_t a = 1; a < step.size(); ++a)
            appendValues(kind, step[a], args);
        std::copy_n(
            args.begin(), std::min<size_t>(args.size(), static_cast<size_t>(shape.argValues)), token + kStepKinds);
        tokens.steps = static_cast<int>(s) + 1;
    }
    return tokens;
}

StepTokens stepTokens(std::span<const sched::Step> steps, const StepTokenShape& shape)
{
    nlohmann::json json = nlohmann::json::array(); // the steps written one by one, not copied first: a hot path
    for (const sched::Step& step : steps)
        json.push_back(sched::stepToJson(step));
    auto tokens = stepTokens(json, shape);
    TS_ASSERT(static_cast<bool>(tokens)) << "TuneScope's own steps always tokenize";
    return std::move(tokens).value();
}

} // namespace ts::features
