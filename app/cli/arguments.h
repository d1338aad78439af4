// A small command-line parser: `--name value`, `--name=value` and `--flag`, with per-command help.
// Unknown options and missing values are errors that name the option.
#pragma once

#include "core/support/error.h"

#include <map>
#include <string>
#include <vector>

namespace ts::cli {

struct OptionSpec {
    std::string name; // without dashes
    std::string valueName; // empty for a flag
    std::string help;
};

class Arguments {
public:
    static Expected<Arguments> parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);

    bool has(const std::string& name) const { return m_values.count(name) > 0; }
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    Expected<int64_t> intValue(const std::string& name, int64_t fallback) const;
    const std::vector<std::string>& positional() const { return m_positional; }

private:
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_positional;
};

std::string optionsHelp(const std::vector<OptionSpec>& specs);

} // namespace ts::cli
