#include "core/lower/lower.h"

namespace ts::lower {

Expected<LoweredFunc> lower(const sched::State& state, const LowerOptions& options)
{
    TS_CHECK(state.checkFilled()); // a sketch (unfilled split lengths) has no loops to lower yet
    TS_TRY(LoweredFunc func, scheduleOps(state));
    func.name = options.functionName;
    auto after = [&](const char* pass) {
        if (options.onPass)
            options.onPass(pass, func);
    };
    after("scheduleOps");
    func.body = simplify(func.body);
    after("simplify");
    func.body = hoistGuards(func.body);
    after("hoistGuards");
    func.body = unrollLoops(func.body);
    after("unrollLoops");
    func = flattenStorage(func);
    after("flattenStorage");
    func.body = simplify(func.body);
    after("simplify");
    return func;
}

Expected<sched::State> inferBound(const sched::State& state)
{
    TS_CHECK(state.checkFilled());
    std::vector<std::vector<int64_t>> extents;
    TS_CHECK(scheduleOps(state, &extents));
    sched::State out = state;
    for (int s = 0; s < out.numStages(); ++s)
        if (!out.stage(s).isPlaceholder())
            out.setIteratorExtents(s, extents[static_cast<size_t>(s)]);
    return out;
}

} // namespace ts::lower
