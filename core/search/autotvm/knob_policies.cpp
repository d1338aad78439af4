// makeReorderKnob and makeAnnotateKnob: ReorderSpace and AnnotateSpace of TVM's space.py.
#include "core/search/autotvm/knob.h"

#include <algorithm>
#include <numeric>

namespace ts::autotvm {

namespace {

    using Chain = std::vector<int>;

    // ReorderSpace._merge_dfs: at each step only the first chain with the most axes left may give its next axis
    // (TVM's `i == np.argmax(remaining)`), so a merge has exactly one result; TVM keeps it a list all the same.
    void mergeDfs(const std::vector<Chain>& chains, size_t size, std::vector<size_t>& taken, Chain& stack,
        std::vector<Chain>& merged)
    {
        if (stack.size() == size) {
            merged.push_back(stack);
            return;
        }
        size_t argmax = 0;
        for (size_t x = 1; x < chains.size(); ++x)
            if (chains[x].size() - taken[x] > chains[argmax].size() - taken[argmax])
                argmax = x;
        for (size_t i = 0; i < chains.size(); ++i) {
            if (taken[i] < chains[i].size() && i == argmax) {
                stack.push_back(chains[i][taken[i]]);
                ++taken[i];
                mergeDfs(chains, size, taken, stack, merged);
                --taken[i];
                stack.pop_back();
            }
        }
    }

    std::vector<Chain> mergeChains(const std::vector<Chain>& chains)
    {
        size_t size = 0;
        for (const Chain& c : chains)
            size += c.size();
        std::vector<size_t> taken(chains.size(), 0);
        Chain stack;
        std::vector<Chain> merged;
        mergeDfs(chains, size, taken, stack, merged);
        return merged;
    }

    Chain concat(Chain a, const Chain& b)
    {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }

} // namespace

const char* toString(ReorderPolicy policy)
{
    switch (policy) {
    case ReorderPolicy::Identity:
        return "identity";
    case ReorderPolicy::All:
        return "all";
    case ReorderPolicy::IntervalAll:
        return "interval_all";
    case ReorderPolicy::Candidate:
        return "candidate";
    case ReorderPolicy::Interleave:
        return "interleave";
    case ReorderPolicy::InterleaveCuda:
        return "interleave_cuda";
    }
    return "?";
}

Expected<Knob> makeReorderKnob(std::string name, int numAxes, const ReorderOptions& options)
{
    auto fail = [&](const std::string& what) {
        return makeError(ErrorKind::InvalidArgument, "reorder knob " + name + ": " + what);
    };
    if (numAxes < 1)
        return fail("needs at least one axis");
    auto checkAxes = [&](const std::vector<Chain>& chains) {
        for (const Chain& c : chains)
            for (int axis : c)
                if (axis < 0 || axis >= numAxes)
                    return false;
        return true;
    };
    Chain identity(numAxes);
    std::iota(identity.begin(), identity.end(), 0);
    std::vector<KnobEntity> entities;
    switch (options.policy) {
    case ReorderPolicy::Identity:
        entities.push_back(ReorderEntity { identity });
        break;
    case ReorderPolicy::All: {
        Chain perm = identity; // itertools.permutations order is lexicographic for a sorted input
        do
            entities.push_back(ReorderEntity { perm });
        while (std::next_permutation(perm.begin(), perm.end()));
        break;
    }
    case ReorderPolicy::IntervalAll: {
        auto [begin, end] = options.interval;
        if (begin < 0 || begin > end || end > numAxes)
            return fail("interval [" + std::to_string(begin) + ", " + std::to_string(end) + ") is not within "
                + std::to_string(numAxes) + " axes");
        Chain perm = identity;
        do
            entities.push_back(ReorderEntity { perm });
        while (std::next_permutation(perm.begin() + begin, perm.begin() + end));
        break;
    }
    case ReorderPolicy::Candidate:
        if (!checkAxes(options.candidate))
            return fail("a candidate names an axis outside [0, " + std::to_string(numAxes) + ")");
        for (const Chain& c : options.candidate)
            entities.push_back(ReorderEntity { c });
        break;
    case ReorderPolicy::Interleave:
    case ReorderPolicy::InterleaveCuda: {
        if (!checkAxes(options.spatial) || !checkAxes(options.reduce))
            return fail("a chain names an axis outside [0, " + std::to_string(numAxes) + ")");
        std::vector<Chain> outer, inner;
        for (const Chain& c : options.spatial) {
            if (c.empty())
                return fail("an empty spatial chain");
            outer.emplace_back(c.begin(), c.end() - 1);
            inner.push_back({ c.back() });
        }
        if (options.policy == ReorderPolicy::Interleave) {
            inner.insert(inner.end(), options.reduce.begin(), options.reduce.end());
            for (const Chain& o : mergeChains(outer))
                for (const Chain& i : mergeChains(inner))
                    entities.push_back(ReorderEntity { concat(o, i) });
        } else {
            Chain innermost;
            for (const Chain& c : inner)
                innermost.push_back(c.front());
            for (const Chain& o : mergeChains(outer))
                for (const Chain& r : mergeChains(options.reduce))
                    entities.push_back(ReorderEntity { concat(concat(o, r), innermost) });
        }
        break;
    }
    }
    if (entities.empty())
        return fail("no order is left");
    return Knob(std::move(name), KnobKind::Reorder, toString(options.policy), std::move(entities));
}

namespace {

    std::vector<std::string> fused(int numAxes, std::vector<std::string> tail)
    {
        std::vector<std::string> anns(numAxes - tail.size(), "fuse");
        anns.insert(anns.end(), tail.begin(), tail.end());
        return anns;
    }

    void annotateDfs(const std::vector<std::string>& choices, int numAxes, std::vector<std::string>& stack,
        std::vector<KnobEntity>& entities)
    {
        if (int(stack.size()) == numAxes) {
            if (std::count(stack.begin(), stack.end(), "vec") <= 1) // only one axis is vectorised
                entities.push_back(AnnotateEntity { stack, {} });
            return;
        }
        for (const std::string& ann : choices) {
            stack.push_back(ann);
            annotateDfs(choices, numAxes, stack, entities);
            stack.pop_back();
        }
    }

    void combinationsDfs(int numAxes, int k, int next, std::vector<int>& stack, std::vector<KnobEntity>& entities)
    {
        if (int(stack.size()) == k) {
            entities.push_back(AnnotateEntity { {}, stack });
            return;
        }
        for (int axis = next; axis < numAxes; ++axis) {
            stack.push_back(axis);
            combinationsDfs(numAxes, k, axis + 1, stack, entities);
            stack.pop_back();
        }
    }

} // namespace

Expected<Knob> makeAnnotateKnob(std::string name, int numAxes, const AnnotateOptions& options)
{
    auto fail = [&](const std::string& what) {
        return makeError(ErrorKind::InvalidArgument, "annotate knob " + name + ": " + what);
    };
    if (numAxes < 0)
        return fail("a negative axis count");
    const std::string& policy = options.policy;
    std::vector<KnobEntity> entities;
    if (policy == "bind_gpu") {
        if (numAxes >= 6)
            entities.push_back(AnnotateEntity {
                fused(
                    numAxes, { "blockIdx.z", "blockIdx.y", "blockIdx.x", "threadIdx.z", "threadIdx.y", "threadIdx.x" }),
                {} });
        else if (numAxes >= 4)
            entities.push_back(
                AnnotateEntity { fused(numAxes, { "blockIdx.y", "blockIdx.x", "threadIdx.y", "threadIdx.x" }), {} });
        else if (numAxes >= 2)
            entities.push_back(AnnotateEntity { fused(numAxes, { "blockIdx.x", "threadIdx.x" }), {} });
        else
            return fail("bind_gpu needs at least 2 axes");
    } else if (policy == "bind_gpu_virtual") {
        if (numAxes >= 9)
            entities.push_back(AnnotateEntity { fused(numAxes,
                                                    { "blockIdx.z", "blockIdx.y", "blockIdx.x", "vthread", "vthread",
                                                        "vthread", "threadIdx.z", "threadIdx.y", "threadIdx.x" }),
                {} });
        else if (numAxes >= 6)
            entities.push_back(AnnotateEntity {
                fused(numAxes, { "blockIdx.y", "blockIdx.x", "vthread", "vthread", "threadIdx.y", "threadIdx.x" }),
                {} });
        else if (numAxes >= 3)
            entities.push_back(AnnotateEntity { fused(numAxes, { "blockIdx.x", "vthread", "threadIdx.x" }), {} });
        else
            return fail("bind_gpu_virtual needs at least 3 axes");
    } else if (policy == "locate_cache") {
        if (options.numAnchor < 0 || options.numAnchor > numAxes)
            return fail("locate_cache cannot choose " + std::to_string(options.numAnchor) + " of "
                + std::to_string(numAxes) + " axes");
        std::vector<int> stack;
        combinationsDfs(numAxes, options.numAnchor, 0, stack, entities);
    } else {
        // policy.replace("try", "none").split("_")
        std::string spelled = policy;
        for (size_t at = spelled.find("try"); at != std::string::npos; at = spelled.find("try", at + 4))
            spelled.replace(at, 3, "none");
        std::vector<std::string> choices;
        size_t start = 0;
        while (true) {
            size_t end = spelled.find('_', start);
            choices.push_back(spelled.substr(start, end == std::string::npos ? std::string::npos : end - start));
            if (end == std::string::npos)
                break;
            start = end + 1;
        }
        for (const std::string& ann : choices)
            if (ann != "none" && ann != "unroll" && ann != "vec")
                return fail("unknown policy '" + policy + "'");
        std::vector<std::string> stack;
        annotateDfs(choices, numAxes, stack, entities);
    }
    if (entities.empty())
        return fail("no annotation is left (policy " + policy + ", " + std::to_string(numAxes) + " axes)");
    return Knob(std::move(name), KnobKind::Annotate, policy, std::move(entities));
}

} // namespace ts::autotvm
