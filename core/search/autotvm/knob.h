// AutoTVM's knobs: the transform spaces a template declares on its ConfigSpace (config_space.h).
//
// Re-created from TVM v0.19.0 python/tvm/autotvm/task/space.py. A knob is a named, ordered list of entities;
// the order is TVM's enumeration order, because a log's config.index is a mixed-radix number over those
// positions. The four kinds and the code each writes in a log's config.entity:
// - split    "sp": SplitEntity sizes, the first one -1 (the outer part, inferred): ["tile_x", "sp", [-1, 4, 8]]
//                  (policy "candidate" keeps the candidates as given); logs of older TVM versions write the
//                  outer size itself ([2, 4, 8] for an extent of 64), which a config entity accepts too;
// - reorder  "re": a permutation of axis positions:                                 ["ord", "re", [0, 2, 1]]
// - annotate "an": one annotation per axis ("none", "unroll", "vec", "blockIdx.x", "vthread", "fuse", ...),
//                  or for policy "locate_cache" the chosen anchor axes as integers:  ["ann", "an", ["unroll", "vec"]]
// - other    "ot": any JSON value from define_knob's candidate list:                 ["unroll_kw", "ot", false]
// Axes are given by count (and, for reorder, by position), not as loop variables: applying an entity to a
// schedule is the template's job, which is not here yet.
//
// Split policy "verbose" enumerates the union of factors and powers of two in the order TVM iterates a Python
// set of ints (CPython's hash table order, reproduced by verboseSplitFactors), not in ascending order: a
// log's index depends on it (conv2d_NCHWc.x86's tile_ow of extent 112 starts [32, 1, 2, 64, 4, ...]).
//
// How to add a knob kind: an entity struct in KnobEntity, its code in knobCode and knobKindFromCode, its value
// in entityValue (knob.cpp), a make...Knob factory, and a case in the autotvm_space_test enumeration tests.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace ts::autotvm {

enum class KnobKind {
    Split,
    Reorder,
    Annotate,
    Other,
};

// The code TVM writes for a kind in config.entity: "sp", "re", "an", "ot".
const char* knobCode(KnobKind kind);
std::optional<KnobKind> knobKindFromCode(std::string_view code);

struct SplitEntity {
    std::vector<int64_t> size; // size[0] == -1 except for policy "candidate"
    bool operator==(const SplitEntity&) const = default;
};

struct ReorderEntity {
    std::vector<int> perm;
    bool operator==(const ReorderEntity&) const = default;
};

struct AnnotateEntity {
    std::vector<std::string> anns; // one per axis; empty for locate_cache
    std::vector<int> anchors; // locate_cache only: the axes the caches attach at
    bool operator==(const AnnotateEntity&) const = default;
};

struct OtherEntity {
    std::string json; // the value as TVM's json.dumps writes it: 1, false, "auto", [1, 2]
    bool operator==(const OtherEntity&) const = default;
};

using KnobEntity = std::variant<SplitEntity, ReorderEntity, AnnotateEntity, OtherEntity>;

// One knob: a name, a kind, the policy it was made with, and its entities in TVM's order.
class Knob {
public:
    // `extent`: a split knob's axis extent (0 for other kinds and the candidate policy).
    Knob(std::string name, KnobKind kind, std::string policy, std::vector<KnobEntity> entities, int64_t extent = 0);

    const std::string& name() const { return m_name; }
    KnobKind kind() const { return m_kind; }
    const std::string& policy() const { return m_policy; }
    int64_t extent() const { return m_extent; }
    size_t size() const { return m_entities.size(); }
    const KnobEntity& entity(size_t i) const;
    const std::vector<KnobEntity>& entities() const { return m_entities; }

    // The entity's value as TVM writes it in a log (the third element of ["name", "sp", value]).
    const std::string& valueJson(size_t i) const;
    // The first entity whose value text is `valueJson` (canonical text, as valueJson gives it).
    std::optional<size_t> find(const std::string& valueJson) const;

private:
    std::string m_name;
    KnobKind m_kind;
    std::string m_policy;
    std::vector<KnobEntity> m_entities;
    int64_t m_extent = 0;
    std::vector<std::string> m_valueJson;
    std::unordered_map<std::string, size_t> m_byValue;
};

// --- split (cfg.define_split) ---

enum class SplitPolicy {
    Factors, // divisors of the extent; no tail by default
    Power2, // powers of two <= extent; tails allowed by default
    Verbose, // both (Python set order); tails allowed by default
    Candidate, // SplitOptions::candidate as given
};
const char* toString(SplitPolicy policy);

struct SplitOptions {
    SplitPolicy policy = SplitPolicy::Factors;
    int numOutputs = 0; // TVM's num_outputs; required (>= 1)
    int64_t maxFactor = int64_t(1) << 31; // inner factors above this are not tried
    std::optional<bool> noTail; // TVM's no_tail: default true for Factors, false otherwise
    std::vector<std::vector<int64_t>> candidate; // Candidate only; each numOutputs long
    std::function<bool(const SplitEntity&)> filter; // TVM's filter: keeps entities it accepts
};

Expected<Knob> makeSplitKnob(std::string name, int64_t extent, const SplitOptions& options);

// The inner factors TVM tries for an extent, in its order: divisors ascending (get_factors), powers of two
// ascending (get_pow2s), and for "verbose" their union as CPython iterates set(divisors) | set(pow2s).
std::vector<int64_t> splitFactors(int64_t extent);
std::vector<int64_t> splitPow2s(int64_t extent);
std::vector<int64_t> verboseSplitFactors(int64_t extent);

// --- reorder (cfg.define_reorder) ---

enum class ReorderPolicy {
    Identity, // [0, 1, ..., n-1]
    All, // every permutation, lexicographic (itertools.permutations)
    IntervalAll, // every permutation of [begin, end), the rest in place
    Candidate, // ReorderOptions::candidate as given (axis positions)
    Interleave, // merge spatial chains' outer parts, then their innermost parts with the reduce chains
    InterleaveCuda, // spatial outer parts, reduce chains, then spatial innermost parts
};
const char* toString(ReorderPolicy policy);

struct ReorderOptions {
    ReorderPolicy policy = ReorderPolicy::Identity;
    std::pair<int, int> interval; // IntervalAll: [begin, end)
    std::vector<std::vector<int>> candidate; // Candidate: permutations of the axis positions
    std::vector<std::vector<int>> spatial; // Interleave*: chains of axis positions, outer to inner
    std::vector<std::vector<int>> reduce;
};

Expected<Knob> makeReorderKnob(std::string name, int numAxes, const ReorderOptions& options);

// --- annotate (cfg.define_annotate) ---

// policy is TVM's string: "none", "unroll", "vec", "try_unroll", "try_vec", "try_unroll_vec" (any "_"-joined
// list of none/unroll/vec/try, "try" meaning "none"; at most one axis gets "vec"), "bind_gpu",
// "bind_gpu_virtual", or "locate_cache" (every choice of numAnchor axes, itertools.combinations order).
struct AnnotateOptions {
    std::string policy = "none";
    int numAnchor = 0; // locate_cache only
};

Expected<Knob> makeAnnotateKnob(std::string name, int numAxes, const AnnotateOptions& options);

// --- other (cfg.define_knob) ---

// Each candidate is a JSON value (text: "1", "false", "\"auto\""); it is stored as TVM would write it.
Expected<Knob> makeOtherKnob(std::string name, const std::vector<std::string>& candidatesJson);

} // namespace ts::autotvm
