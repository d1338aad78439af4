// A small JSON reader for the runner's bundles (the runner depends on nothing but the C++ library and, at
// run time, the CUDA driver and NVRTC, so it cannot use the engine's JSON library). Objects, arrays,
// strings with the usual escapes (\uXXXX below 0x80 and surrogate-free BMP characters as UTF-8), numbers,
// true, false, null. Errors name the byte offset.
#pragma once

#include "core/support/error.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ts::gpurunner {

struct Json {
    enum class Kind { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    double number = 0.0;
    std::string string;
    std::vector<Json> array;
    std::map<std::string, Json> object;

    // The member named `key`, or null when there is none (or this is not an object).
    const Json* find(const std::string& key) const;
};

Expected<Json> parseJson(std::string_view text);

} // namespace ts::gpurunner
