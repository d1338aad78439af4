#include "widgets/models/prediction_rounds.h"

#include "core/store/metrics.h"

#include <algorithm>
#include <map>

namespace ts::models {

std::vector<PredictionRound> predictionRounds(const SessionSnapshot& snapshot, int rounds)
{
    if (rounds <= 0 || snapshot.trials.empty())
        return {};
    // Trials are in round order; the last round number seen is the newest.
    const int last = snapshot.trials.back().round;
    const int first = last - rounds + 1;
    std::map<int, PredictionRound> byRound;
    for (const TrialPoint& t : snapshot.trials) {
        if (t.round < first)
            continue;
        const bool fresh = !byRound.contains(t.round);
        PredictionRound& r = byRound[t.round];
        r.round = t.round;
        if (fresh || !t.manual) // the round's task is its search's, not a manual trial's
            r.task = t.task;
        if (!t.ok())
            ++r.failed;
        else if (!t.predicted)
            ++r.unpredicted;
        else {
            r.points.push_back(&t);
            r.randomPicks += t.random ? 1 : 0;
            r.manualPicks += t.manual ? 1 : 0;
        }
    }
    std::vector<PredictionRound> out;
    out.reserve(byRound.size());
    for (auto& [round, r] : byRound) {
        std::vector<double> predicted;
        std::vector<double> measured;
        for (const TrialPoint* p : r.points) {
            if (p->manual)
                continue;
            predicted.push_back(*p->predicted);
            measured.push_back(p->gflops);
        }
        r.pairwiseAccuracy = store::pairwiseAccuracy(predicted, measured);
        r.spearman = store::spearman(predicted, measured);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace ts::models
