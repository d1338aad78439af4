// Private to core/search/autotvm: JSON text as Python's json.dumps writes it with its defaults (", " between
// items, ": " after keys, non-ASCII escaped), which is how TVM writes log lines. nlohmann::json's dump() is
// compact, so a re-serialised entity would not match the log's text without this.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ts::autotvm::detail {

std::string pythonJson(const nlohmann::json& value);

} // namespace ts::autotvm::detail
