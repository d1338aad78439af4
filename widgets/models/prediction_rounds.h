// How well the session's cost model predicted its latest rounds: for each round, its measured trials that
// carry a prediction, split into the model's picks and the eps-greedy random picks, and the round's ranking
// metrics (TenSet's pairwise accuracy and Spearman's rho, core/store/metrics.h) of the predicted score
// against the measured throughput. A round measures one task, so its GFLOP/s are comparable. Failed
// measurements have no throughput: they are counted, never ranked. A manual trial (a person's state, measured
// before the round it is numbered with, maybe of another task) is drawn with its round but not ranked: the model
// did not pick it. Plain C++, no Qt.
#pragma once

#include "widgets/models/session_snapshot.h"

#include <vector>

namespace ts::models {

struct PredictionRound {
    int round = 0;
    int task = 0;
    std::vector<const TrialPoint*> points; // ok() and predicted, in trial order (into the snapshot)
    int failed = 0; // measurements that failed
    int unpredicted = 0; // succeeded without a predicted score
    int randomPicks = 0; // of `points`
    int manualPicks = 0; // of `points`: not in the metrics
    double pairwiseAccuracy = 0.0; // over `points` but the manual ones; 0.5 for fewer than 2
    double spearman = 0.0; // over `points` but the manual ones; 0 for fewer than 2 or no spread
};

// The last `rounds` rounds of `snapshot` (those with trials), oldest first. The pointers point into
// `snapshot`, which must outlive the result.
std::vector<PredictionRound> predictionRounds(const SessionSnapshot& snapshot, int rounds);

} // namespace ts::models
