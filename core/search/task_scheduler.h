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
// Ties (all equal) are broken at random from the scheduler's seed. A task is dead when its search returns no
// new candidates (or after too many consecutive errors); dead tasks are never picked. A task stops early when
// its best has not improved for earlyStoppingTrials trials. next() returns -1 when no task is left.
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
    // Tasks with equal tags form a similarity group; empty: let the scheduler make one (similarityTag).
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
    int m_roundRobin = 0;
};

} // namespace ts::search
