// TVM auto_scheduler's JSON encoding of steps (src/auto_scheduler/transform_step.cc, record format v0.6):
// ["SP", stage, iter, extent, [lengths], inner_to_outer], ["AN", stage, iter, annotation], ...
// An unknown extent writes as null and reads from null or TVM's 0. An unfilled split length (a sketch) writes
// and reads as null: TVM itself refuses to write one (its record writer checks every length), so no TVM log
// holds one, and TVM's reader rejects a null rather than misreading it.
// The table is in ../shared/reference/tuning-systems.md. Parsing checks every field's type and range and
// says which field of which step was wrong.
#pragma once

#include "core/schedule/step.h"
#include "core/support/error.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ts::sched {

nlohmann::json stepToJson(const Step& step);
Expected<Step> stepFromJson(const nlohmann::json& json);

// The step list as TVM writes it: [["SP", 2, 0, 1024, [2, 1, 4], 1], ["RE", ...], ...].
nlohmann::json stepsToJson(const std::vector<Step>& steps);
Expected<std::vector<Step>> stepsFromJson(const nlohmann::json& json);
std::string stepsToText(const std::vector<Step>& steps);
Expected<std::vector<Step>> parseSteps(std::string_view text);

} // namespace ts::sched
