// TLP's features (zhaiyi000/tlp scripts/tlp_make_dataset.py, ../shared/reference/tuning-systems.md 1.5): a program
// is the sequence of its transform steps, read from the record's step list, not from lowered code. That is why
// they exist for every record with steps, including imported TVM records whose workload TuneScope cannot rebuild.
//
// One step becomes one token of `width()` values:
//   - a one-hot of the step's kind over the 14 kinds of Ansor's record format, in kStepKindNames order;
//   - then its arguments in record order, every integer as is, every list flattened, and the strings TLP
//     maps: a pragma "auto_unroll_max_step$N" -> 1 + the index of N in {0, 16, 64, 512, 1024} (0 for
//     another N or another pragma), a cache_write scope local/shared/global -> 1/2/3, a cache_read scope
//     "shared" -> 1 (other strings 0); a null (an unknown extent, an unfilled length) -> 0;
//   - zero-padded or cropped to `argValues` arguments.
// The sequence is zero-padded or cropped to `seqLen` tokens. TLP's CPU shape keeps 25 steps and 22 values per
// step; its one-hot had 11 slots because its kind table was built from the CPU records it read (11 kinds
// occur there). Ours is fixed over all 14 kinds, so a token's meaning never depends on which data came first,
// and keeps TLP's 11 argument values: 25 x 25 on the CPU. The GPU shape is TLP's 40 steps, 9 arguments.
// Values are raw (as TLP feeds them); models scale them (sign(x) log2(1 + |x|)).
#pragma once

#include "core/schedule/step.h"
#include "core/support/error.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ts::features {

inline constexpr int kStepKinds = 14;
inline constexpr std::array<std::string_view, kStepKinds> kStepKindNames
    = { "AN", "FU", "PR", "RE", "SP", "FSP", "FFSP", "SA", "CA", "CI", "CR", "CHR", "CHW", "RF" };

struct StepTokenShape {
    int seqLen = 25; // tokens kept (TLP's crop_seq_len on CPUs)
    int argValues = 11; // argument values kept per step
    int width() const { return kStepKinds + argValues; }
    static StepTokenShape cpu() { return {}; }
    static StepTokenShape gpu() { return { 40, 9 }; }
};

struct StepTokens {
    std::vector<float> values; // seqLen x width, row-major
    int steps = 0; // tokens that hold a step (the rest are padding): min(number of steps, seqLen)
};

// The names of a token's values: "kind.AN", ..., "kind.RF", "arg0", ..., "arg10".
std::vector<std::string> stepTokenNames(const StepTokenShape& shape = {});

// From TVM's JSON step list ([["SP", 2, 0, 1024, [8, 4, 2], 1], ...]). Error: not a list of lists that start
// with a known kind name.
Expected<StepTokens> stepTokens(const nlohmann::json& steps, const StepTokenShape& shape = {});
// From TuneScope's steps (written as JSON first, so both paths give the same tokens).
StepTokens stepTokens(std::span<const sched::Step> steps, const StepTokenShape& shape = {});

} // namespace ts::features
