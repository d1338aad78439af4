// AutoTVM's ConfigSpace: the ordered knobs of a template and the configs they span.
//
// Re-created from TVM v0.19.0 python/tvm/autotvm/task/space.py (ConfigSpace, ConfigEntity). The space's size
// is the product of its knobs' sizes (TVM's range_length). A config is a mixed-radix index whose FIRST knob
// is the fastest-varying digit: knob i gets `t % size_i`, then `t //= size_i` (ConfigSpace.get, point2knob).
// A config's entity is written as TVM's to_json_dict writes config.entity, in knob order and with Python's
// json.dumps spacing:
//   [["tile_y", "sp", [-1, 1, 8]], ["tile_x", "sp", [-1, 8, 2]], ["ann", "an", ["unroll", "vec"]],
//    ["ord", "re", [0, 2, 1, 3]], ["opt", "ot", 1]]
// parseEntity maps an imported log's config.entity back to the index in this space, or says which knob
// did not fit. Templates that declare a space and apply a config are in template.h; the tuners over a space
// in tuner.h and its implementations. Not here (yet): multi_filter (indexes a filter rejects).
//
// Library: ts_autotvm (core/search/autotvm/CMakeLists.txt). It links ts::support and, for the templates
// (template.h), ts::sched; not ts::search, so it does not pull in the cost models.
#pragma once

#include "core/search/autotvm/knob.h"
#include "core/support/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::autotvm {

// A config as a log's "config" object holds it ({"index": 172, "code_hash": null, "entity": [...]}).
struct ParsedConfig {
    int64_t index = 0; // the entity's index in this space
    std::optional<int64_t> loggedIndex; // the "index" the log wrote, when present
    std::optional<std::string> codeHash; // "code_hash" unless null
};

class ConfigSpace {
public:
    // Appends a knob (TVM's define_split / define_reorder / define_annotate / define_knob order). Fails on a
    // duplicate name or a size product beyond int64.
    Expected<void> add(Knob knob);

    size_t numKnobs() const { return m_knobs.size(); }
    const Knob& knob(size_t i) const;
    const std::vector<Knob>& knobs() const { return m_knobs; }
    const Knob* findKnob(std::string_view name) const; // nullptr when absent

    int64_t size() const { return m_size; } // product of knob sizes; 1 for an empty space

    // index <-> entity positions per knob (TVM's point2knob / knob2point). index must be in [0, size()).
    std::vector<size_t> knobIndexes(int64_t index) const;
    int64_t indexOf(const std::vector<size_t>& knobIndexes) const;
    const KnobEntity& entity(int64_t index, size_t knob) const;

    // The config's entity as TVM writes it (above), and the whole "config" object.
    std::string entityJson(int64_t index) const;
    std::string configJson(int64_t index, const std::optional<std::string>& codeHash = std::nullopt) const;

    // The index of a config.entity text. Errors: Parse for text that is not a list of [name, code, value];
    // NotFound for a knob this space lacks; InvalidArgument for a wrong kind code, a value the knob does not
    // enumerate, or a knob missing or given twice. Every message names the knob.
    Expected<int64_t> parseEntity(std::string_view json) const;
    // A whole "config" object; its entity as parseEntity reads it.
    Expected<ParsedConfig> parseConfig(std::string_view json) const;

private:
    std::vector<Knob> m_knobs;
    int64_t m_size = 1;
};

} // namespace ts::autotvm
