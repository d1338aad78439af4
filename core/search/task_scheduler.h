// The task scheduler: which task of a network the next measurement round goes to (Ansor's TaskScheduler,
// python/tvm/auto_scheduler/task_scheduler.py; ../shared/reference/tuning-systems.md 1.3.7).
//
// The objective is the weighted sum of the tasks' best latencies (weight = occurrences in the network).
// First a warm-up: one round per task in order. Then "round-robin" takes the live tasks in turn, and
// "gradient" takes the live task with the most negative gradient estimate of the objective:
//   chain    = (f(g) - f(g - delta e_i)) / delta                          (= w_i for the weighted sum)
//   backward = (h_i[r-1] - h_i[r-1-window]) / window  over the task's best-cost history per round, 0 if short
//   next1    = g_i - g_i / t_i                                            (t_i: the task's rounds so far)
//   next2    = beta * flops_i / max_{j in group(i)} (flops_j / g_j)     (beta * 1e30 without a group)
//   forward  = min(next1, next2) - g_i
//   grad_i   = chain * (alpha * backward + (1 - alpha) * forward)
// Ties (all equal) are broken at random from the scheduler's seed, among the live tasks. A task is dead when
// its search returns no new candidates (or after too many consecutive errors); dead tasks are never picked.
// A task stops early (becomes dead) when its best has not improved for more than earlyStoppingTrials trials
// (TVM's strict ">"). next() returns -1 when no task is left.
//
// Decisions where TVM's code gives no usable answer (docs/search.md, "Task scheduler"):
// - No best yet. TVM starts every best at 1e10 and kills a task that has none after the warm-up. Here a
//   task without a successful measurement keeps best = infinity and stays live (the session kills it after
//   its consecutive-error limit), and its gradient is -infinity: an objective that is infinite because of
//   it can only fall by tuning it, so it is picked first (the lowest index among several). In a group it
//   adds 0 to the best FLOPS, as 1e10 nearly does in TVM. A best >= record::kFailedCost counts as none.
// - chain is exactly w_i (the objective is always the weighted sum), not a finite difference that would be
//   NaN while some other task has no best.
// - backward is 0 when either end of its window is infinite (no rate can be read from it), and reads the
//   last window+1 entries of the history; a restored task's history starts with its restored best, so after
//   a resume the backward term returns once `window` rounds are recorded (TVM's indexing by round count
//   leaves it 0 for the rest of a resumed run).
// - restore cannot know when the restored best was found; the early-stopping count starts at the restore.
// - Similarity groups shrink as in TVM: after a round, a task in a group of two or more that has had more
//   than 5 rounds more than every other member and still reaches less than 1/beta of the group's best
//   FLOPS leaves its group for good.
// - next() is pure in the warm-up (the first live task with no round), so each next() is to be followed by
//   recordRound() or markDead() for that task.
//
// Plain state, one thread, no measurement: the session feeds it each round's outcome, so tests can drive it
// with a synthetic history.
#pragma once

#include "core/support/rng.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ts::search {

enum class SchedulerStrategy { RoundRobin, Gradient };
const char* toString(SchedulerStrategy strategy);

struct SchedulerOptions {
    SchedulerStrategy strategy = SchedulerStrategy::Gradient;
    double alpha = 0.2;
    double beta = 2.0;
    int backwardWindow = 3;
    // Per task: stop a task whose best has not improved for this many trials; <= 0: never.
    int earlyStoppingTrials = 0;
    uint64_t seed = 1;
};

struct SchedulerTask {
    std::string name;
    int weight = 1;
    double flops = 0.0; // of one run
    // Tasks with equal tags form a similarity group; empty: the scheduler makes one with
    // similarityTag(name, flops), so tasks of one kind and a similar size group together. A tag no other
    // task has keeps a task out of every group.
    std::string tag;
};

// Ansor's similarity tag: the op tags joined, then floor(log_1.618(flops + 1)).
std::string similarityTag(const std::string& opTags, double flops);

struct TaskProgress {
    int trials = 0; // measured candidates (failures included)
    int rounds = 0;
    double bestCost = std::numeric_limits<double>::infinity(); // seconds; infinity until one succeeds
    int trialsAtLastImprovement = 0;
    std::vector<double> bestHistory; // best cost after each round
    bool dead = false;
    std::string deadReason; // "no new candidates", "150 consecutive errors", "early stopping: ..."
};

class TaskScheduler {
public:
    TaskScheduler(std::vector<SchedulerTask> tasks, SchedulerOptions options = {});

    // The task for the next round, or -1 when every task is dead.
    int next();
    // The outcome of a round of `task`: its trials, and its best cost so far (infinity while none succeeded).
    void recordRound(int task, int trials, double bestCost);
    // A task whose search gave no new candidates, or which failed too often.
    void markDead(int task, std::string reason);
    // Resume: a task's state as the store knows it, before any round of this session.
    void restore(int task, int trials, int rounds, double bestCost);

    // Sum of weight * best cost (seconds) over tasks; infinity while some task has no best.
    double objective() const;
    // The gradient of every task as next() would compute it now (NaN for dead tasks); for tests and views.
    std::vector<double> gradients() const;
    bool inWarmUp() const;

    const std::vector<SchedulerTask>& tasks() const { return m_tasks; }
    const std::vector<TaskProgress>& progress() const { return m_progress; }
    const SchedulerOptions& options() const { return m_options; }

private:
    std::vector<SchedulerTask> m_tasks;
    std::vector<TaskProgress> m_progress;
    SchedulerOptions m_options;
    Rng m_rng;
    int m_roundRobin = 0; // the task round-robin considers first
    std::vector<int> m_groupOf; // task -> its similarity group, -1 when in none
    std::vector<std::vector<int>> m_groups; // group -> its tasks, in order

    double gradient(int task) const;
    void adjustSimilarityGroup(int task);
};

} // namespace ts::search
