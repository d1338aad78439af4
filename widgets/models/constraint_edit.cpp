#include "widgets/models/constraint_edit.h"

#include "core/schedule/state.h"

#include <algorithm>

namespace ts::models {

search::Constraints withoutConstraint(const search::Constraints& constraints, int index)
{
    // Line by line in describe()'s order: splits, unroll, vector length, parallel extent, forbidden rules, required.
    search::Constraints out = constraints;
    if (index < 0)
        return out;
    auto line = static_cast<size_t>(index);
    if (line < out.splits.size()) {
        out.splits.erase(out.splits.begin() + static_cast<std::ptrdiff_t>(line));
        return out;
    }
    line -= out.splits.size();
    for (search::Bound* bound : { &out.unroll, &out.vectorize, &out.parallel }) {
        if (bound->empty())
            continue;
        if (line == 0) {
            *bound = {};
            return out;
        }
        --line;
    }
    for (std::vector<std::string>* rules : { &out.forbid, &out.require }) {
        if (line < rules->size()) {
            rules->erase(rules->begin() + static_cast<std::ptrdiff_t>(line));
            return out;
        }
        line -= rules->size();
    }
    return out;
}

search::Constraints withConstraint(const search::Constraints& constraints, const search::Constraints& added)
{
    search::Constraints out = constraints;
    for (const search::SplitConstraint& split : added.splits) {
        auto same = std::find_if(out.splits.begin(), out.splits.end(), [&](const search::SplitConstraint& s) {
            return s.stage == split.stage && s.iter == split.iter && s.part == split.part;
        });
        if (same != out.splits.end())
            same->bound = split.bound;
        else
            out.splits.push_back(split);
    }
    if (!added.unroll.empty())
        out.unroll = added.unroll;
    if (!added.vectorize.empty())
        out.vectorize = added.vectorize;
    if (!added.parallel.empty())
        out.parallel = added.parallel;
    // A rule cannot be both forbidden and required: the one added last is what the person wants.
    auto addRule = [](std::vector<std::string>& into, std::vector<std::string>& other, const std::string& rule) {
        std::erase(other, rule);
        if (std::find(into.begin(), into.end(), rule) == into.end())
            into.push_back(rule);
    };
    for (const std::string& rule : added.forbid)
        addRule(out.forbid, out.require, rule);
    for (const std::string& rule : added.require)
        addRule(out.require, out.forbid, rule);
    return out;
}

std::vector<SplitStage> splitStages(const ir::ComputeDAG& dag)
{
    const sched::State state = sched::State::initial(dag);
    std::vector<SplitStage> out;
    for (int s = 0; s < state.numStages(); ++s) {
        const sched::Stage& stage = state.stage(s);
        if (stage.isPlaceholder())
            continue;
        SplitStage entry { stage.op->name(), {} };
        for (const sched::Iterator& iter : stage.iters)
            entry.loops.push_back(SplitLoop { iter.name, iter.extent });
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<int64_t> divisors(int64_t extent)
{
    std::vector<int64_t> out;
    std::vector<int64_t> upper;
    for (int64_t d = 1; d * d <= extent; ++d)
        if (extent % d == 0) {
            out.push_back(d);
            if (d != extent / d)
                upper.push_back(extent / d);
        }
    out.insert(out.end(), upper.rbegin(), upper.rend());
    return out;
}

} // namespace ts::models
