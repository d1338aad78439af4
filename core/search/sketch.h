// Sketch generation (Ansor's derivation rules, sketch_policy.cc and sketch_policy_rules.cc).
//
// A worklist of (state, stage) pairs starts from the initial state at the last stage. At each pair every
// rule, in the order of sketchRules(), is asked its condition: Skip, Apply (the rule's states join the
// worklist and later rules are still tried: a branch) or ApplyAndSkipRest. A pair whose stage is below 0 is
// a finished sketch. Sketches are deduplicated by their step history.
//
// How to add a rule: a class deriving from SketchRule in sketch_rules.cpp (condition and apply, the stage
// each produced state continues at), a line in sketchRules() where it belongs in the order, a line in the
// table of docs/search.md, and a test in tests/core/sketch_rules_test.cpp pinning a DAG's sketches.
#pragma once

#include "core/schedule/state.h"
#include "core/search/search_task.h"
#include "core/search/search_utils.h"

#include <memory>
#include <string>
#include <vector>

namespace ts::search {

// A sketch: a state whose tile sizes are open. Unfilled split lengths are open; so are the splits listed in
// `openSplits`, filled with a placeholder 1 because a later step (rfactor) needs them filled to replay (TVM
// keeps such a split's lengths undefined in the history while its stages were built with 1; our states are
// always their replayed history, so the sketch names them instead).
struct Sketch {
    sched::State state;
    std::vector<int> openSplits; // step indices
    std::string rules; // the rules that made it, for people: "MultiLevelTilingWithFusion(2), AlwaysInline"
};

enum class RuleResult { Skip, Apply, ApplyAndSkipRest };

class SketchRule {
public:
    virtual ~SketchRule() = default;
    virtual std::string name() const = 0;
    virtual RuleResult condition(const SearchTask& task, const SearchParams& params, const sched::State& state,
        const StateAnalysis& analysis, int stage) const = 0;
    // The states the rule makes, each with the stage its derivation continues at.
    virtual std::vector<std::pair<sched::State, int>> apply(const SearchTask& task, const SearchParams& params,
        const sched::State& state, const StateAnalysis& analysis, int stage) const = 0;
};

// The rules for the target's kind in Ansor's order: the CPU's, or the GPU's (docs/gpu.md).
const std::vector<std::unique_ptr<SketchRule>>& sketchRules(const target::Target& target);

Expected<std::vector<Sketch>> generateSketches(const SearchTask& task, const SearchParams& params = {});

// A sketch as the CLI and the GUI show it: the rules that made it, then the loop nest with "?" tile sizes.
std::string toString(const Sketch& sketch);

} // namespace ts::search
