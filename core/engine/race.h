// A race: two (or more) search policies tune the same task with the same budget, one round each in turn, so
// that every policy meets the same machine conditions (a round measures alone: no other lane searches or
// measures meanwhile). Each lane is an ordinary TuningSession in the workspace, a fresh start (it does not
// resume from earlier records), marked in its settings as
//   "race": {"id": "race-1732406400123-1", "lane": 0, "policies": ["ansor", "autotvm-xgb"], "trials": 500}
// so that a race is replayed from the store without measuring anything (loadRace), e.g. in a classroom.
//
// What a race shows: each lane's curve (best GFLOP/s after each trial), its space size and what its search
// does, and how many trials each lane needed to reach every other lane's final best (the Ansor paper's
// "measurements to match" figure).
//
// Determinism: lanes take turns in lane order; a lane's candidates depend on its seed and on what it measured,
// so policies that do not learn from measurements (random, autotvm-random, autotvm-grid) propose the same
// candidates for the same seed, run after run.
#pragma once

#include "core/engine/tuning_session.h"
#include "core/store/store.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ts::engine {

struct RaceOptions {
    TuneTask task;
    std::vector<search::PolicyKind> policies { search::PolicyKind::Ansor, search::PolicyKind::AutotvmXgb };
    int trials = 500; // per lane
    int measuresPerRound = 64;
    uint64_t seed = 1; // every lane's
    std::string model = "xgb"; // the cost model of Ansor-family lanes
    int searchThreads = 0;
    measure::MeasureOptions measure;
    std::string workspace; // empty: Store::defaultWorkspacePath()
    std::string origin; // as TuneOptions::origin
};

// One lane's state, after each of its trials.
struct RaceLane {
    search::PolicyKind policy = search::PolicyKind::Ansor;
    int64_t sessionId = 0;
    double flops = 0.0;
    search::SpaceSize space;
    std::string description; // what its search does in a round
    // bestGflops[i]: the best GFLOP/s after trial i + 1 (0 until one succeeds).
    std::vector<double> bestGflops;
    int64_t bestRecordId = 0;
    int errors = 0;
    std::string status = "running"; // then the session's: finished, cancelled, failed
    std::string message;

    double best() const { return bestGflops.empty() ? 0.0 : bestGflops.back(); }
    // The first trial (1-based) at which this lane reached `gflops`, or nullopt.
    std::optional<int> trialsToReach(double gflops) const;
};

struct RaceResult {
    std::string id;
    std::string taskName;
    int trials = 0; // per lane, as asked
    uint64_t seed = 1;
    std::vector<RaceLane> lanes;
};

// What a lane did, as it happens (on the racing thread): the lane index and the session's event.
struct RaceEvent {
    int lane = 0;
    TuneEvent event;
};
using RaceSink = std::function<void(const RaceEvent&, const RaceResult&)>;

class Race {
public:
    Race(RaceOptions options, RaceSink sink);
    // Runs the whole race on this thread. Errors: bad options (fewer than two policies, a policy that cannot tune
    // the task, e.g. no AutoTVM template fits), a workspace that cannot be opened.
    Expected<RaceResult> run();
    // Stops after the round in flight; the lanes are stored as cancelled. Any thread.
    void cancel() { m_cancelled = true; }

private:
    RaceOptions m_options;
    RaceSink m_sink;
    std::atomic<bool> m_cancelled { false };
};

struct RaceInfo {
    std::string id;
    std::string taskName;
    std::vector<std::string> policies;
    std::vector<int64_t> sessionIds; // by lane
    double startedAt = 0.0;
    std::string status; // the lanes': "finished" when all are
};

// The races a workspace holds, newest first.
Expected<std::vector<RaceInfo>> listRaces(store::Store& store);
// A stored race, rebuilt from its lanes' records (nothing is measured). NotFound for an unknown id.
Expected<RaceResult> loadRace(store::Store& store, const std::string& id);

} // namespace ts::engine
