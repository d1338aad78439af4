#include "app/cli/arguments.h"

#include "core/support/strings.h"

#include <algorithm>

namespace ts::cli {

Expected<Arguments> Arguments::parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs)
{
    Arguments result;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            result.m_positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        std::string value;
        bool inlineValue = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end())
            return makeError(ErrorKind::InvalidArgument, "unknown option --" + name);
        if (spec->valueName.empty()) {
            if (inlineValue)
                return makeError(ErrorKind::InvalidArgument, "option --" + name + " takes no value");
            result.m_values[name] = "1";
            continue;
        }
        if (!inlineValue) {
            if (i + 1 >= args.size())
                return makeError(
                    ErrorKind::InvalidArgument, "option --" + name + " needs a value (" + spec->valueName + ")");
            value = args[++i];
        }
        result.m_values[name] = value;
    }
    return result;
}

std::string Arguments::value(const std::string& name, const std::string& fallback) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

Expected<int64_t> Arguments::intValue(const std::string& name, int64_t fallback) const
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    return parseInt(it->second, "--" + name);
}

std::string optionsHelp(const std::vector<OptionSpec>& specs)
{
    std::string out = "Options:\n";
    for (const OptionSpec& spec : specs) {
        std::string left = "  --" + spec.name + (spec.valueName.empty() ? "" : " " + spec.valueName);
        if (left.size() < 28)
            left.resize(28, ' ');
        else
            left += "  ";
        out += left + spec.help + "\n";
    }
    return out;
}

} // namespace ts::cli
