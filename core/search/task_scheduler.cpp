#include "core/search/task_scheduler.h"

#include "core/record/measure_result.h"
#include "core/support/assert.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ts::search {

namespace {
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    // Ansor's golden-ratio base for the size part of a similarity tag.
    constexpr double kSimilarityLogBase = 1.618;
    // next2 for a task without a similarity group (TVM's 1e30, times beta).
    constexpr double kNoGroupCost = 1e30;
    // A task leaves its group after this many rounds more than any other member (TVM's 5).
    constexpr int kGroupGraceRounds = 5;

    // The best cost as the scheduler keeps it: infinity for "none yet" (TVM's 1e10 included).
    double normalizedCost(double cost) { return (std::isnan(cost) || cost >= record::kFailedCost) ? kInfinity : cost; }

    // FLOPS of a task's best; 0 while it has none.
    double bestFlops(const SchedulerTask& task, const TaskProgress& progress)
    {
        return std::isfinite(progress.bestCost) ? task.flops / progress.bestCost : 0.0;
    }
} // namespace

const char* toString(SchedulerStrategy strategy)
{
    switch (strategy) {
    case SchedulerStrategy::RoundRobin:
        return "round-robin";
    case SchedulerStrategy::Gradient:
        return "gradient";
    }
    return "?";
}

std::string similarityTag(const std::string& opTags, double flops)
{
    if (opTags.empty())
        return {};
    const auto size = static_cast<long long>(std::floor(std::log(flops + 1.0) / std::log(kSimilarityLogBase)));
    return opTags + "_" + std::to_string(size);
}

TaskScheduler::TaskScheduler(std::vector<SchedulerTask> tasks, SchedulerOptions options)
    : m_tasks(std::move(tasks))
    , m_progress(m_tasks.size())
    , m_options(options)
    , m_rng(options.seed)
    , m_groupOf(m_tasks.size(), -1)
{
    TS_ASSERT(m_options.alpha >= 0.0 && m_options.alpha <= 1.0) << "alpha " << m_options.alpha << " not in [0, 1]";
    TS_ASSERT(m_options.beta > 0.0) << "beta " << m_options.beta << " must be > 0";
    TS_ASSERT(m_options.backwardWindow >= 1) << "backward window " << m_options.backwardWindow << " must be >= 1";

    std::map<std::string, int> groupOfTag;
    for (size_t i = 0; i < m_tasks.size(); ++i) {
        SchedulerTask& task = m_tasks[i];
        TS_ASSERT(task.weight >= 0) << "task " << i << " (" << task.name << ") has weight " << task.weight;
        if (task.tag.empty())
            task.tag = similarityTag(task.name, task.flops);
        if (task.tag.empty())
            continue;
        auto [it, inserted] = groupOfTag.try_emplace(task.tag, static_cast<int>(m_groups.size()));
        if (inserted)
            m_groups.emplace_back();
        m_groupOf[i] = it->second;
        m_groups[static_cast<size_t>(it->second)].push_back(static_cast<int>(i));
    }
}

bool TaskScheduler::inWarmUp() const
{
    return std::any_of(
        m_progress.begin(), m_progress.end(), [](const TaskProgress& p) { return !p.dead && p.rounds == 0; });
}

int TaskScheduler::next()
{
    const int count = static_cast<int>(m_tasks.size());
    for (int i = 0; i < count; ++i) {
        const TaskProgress& p = m_progress[static_cast<size_t>(i)];
        if (!p.dead && p.rounds == 0)
            return i;
    }

    if (m_options.strategy == SchedulerStrategy::RoundRobin) {
        for (int step = 0; step < count; ++step) {
            const int i = (m_roundRobin + step) % count;
            if (!m_progress[static_cast<size_t>(i)].dead) {
                m_roundRobin = (i + 1) % count;
                return i;
            }
        }
        return -1;
    }

    const std::vector<double> grads = gradients();
    std::vector<int> live;
    for (int i = 0; i < count; ++i)
        if (!m_progress[static_cast<size_t>(i)].dead)
            live.push_back(i);
    if (live.empty())
        return -1;
    int best = live.front();
    bool allEqual = true;
    for (int i : live) {
        const double g = grads[static_cast<size_t>(i)];
        if (g != grads[static_cast<size_t>(live.front())])
            allEqual = false;
        if (g < grads[static_cast<size_t>(best)])
            best = i;
    }
    if (allEqual)
        return live[static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(live.size()) - 1))];
    return best;
}

double TaskScheduler::gradient(int task) const
{
    const auto index = static_cast<size_t>(task);
    const SchedulerTask& info = m_tasks[index];
    const TaskProgress& p = m_progress[index];
    const double g = p.bestCost;
    const double chain = static_cast<double>(info.weight);
    if (!std::isfinite(g))
        return chain > 0.0 ? -kInfinity : 0.0;

    double backward = 0.0;
    const auto window = static_cast<size_t>(m_options.backwardWindow);
    if (p.bestHistory.size() > window) {
        const double now = p.bestHistory.back();
        const double before = p.bestHistory[p.bestHistory.size() - 1 - window];
        if (std::isfinite(now) && std::isfinite(before))
            backward = (now - before) / static_cast<double>(window);
    }

    const double rounds = static_cast<double>(std::max(p.rounds, 1));
    const double next1 = g - g / rounds;

    double next2 = m_options.beta * kNoGroupCost;
    const int group = m_groupOf[index];
    if (group >= 0 && m_groups[static_cast<size_t>(group)].size() > 1) {
        double groupBest = 0.0;
        for (int j : m_groups[static_cast<size_t>(group)])
            groupBest
                = std::max(groupBest, bestFlops(m_tasks[static_cast<size_t>(j)], m_progress[static_cast<size_t>(j)]));
        if (groupBest > 0.0)
            next2 = m_options.beta * info.flops / groupBest;
    }

    const double forward = std::min(next1, next2) - g;
    return chain * (m_options.alpha * backward + (1.0 - m_options.alpha) * forward);
}

std::vector<double> TaskScheduler::gradients() const
{
    std::vector<double> grads(m_tasks.size(), std::numeric_limits<double>::quiet_NaN());
    for (size_t i = 0; i < m_tasks.size(); ++i)
        if (!m_progress[i].dead)
            grads[i] = gradient(static_cast<int>(i));
    return grads;
}

void TaskScheduler::recordRound(int task, int trials, double bestCost)
{
    TS_ASSERT(task >= 0 && static_cast<size_t>(task) < m_tasks.size()) << "no task " << task;
    TS_ASSERT(trials >= 0) << "negative trial count " << trials;
    TaskProgress& p = m_progress[static_cast<size_t>(task)];
    p.trials += trials;
    p.rounds += 1;
    const double cost = normalizedCost(bestCost);
    if (cost < p.bestCost) {
        p.bestCost = cost;
        p.trialsAtLastImprovement = p.trials;
    }
    p.bestHistory.push_back(p.bestCost);

    const int patience = m_options.earlyStoppingTrials;
    if (!p.dead && patience > 0 && p.trials - p.trialsAtLastImprovement > patience) {
        p.dead = true;
        p.deadReason = "early stopping: no improvement in the last "
            + std::to_string(p.trials - p.trialsAtLastImprovement) + " trials (limit " + std::to_string(patience) + ")";
    }
    adjustSimilarityGroup(task);
}

void TaskScheduler::markDead(int task, std::string reason)
{
    TS_ASSERT(task >= 0 && static_cast<size_t>(task) < m_tasks.size()) << "no task " << task;
    TaskProgress& p = m_progress[static_cast<size_t>(task)];
    if (p.dead)
        return; // the first reason stays
    p.dead = true;
    p.deadReason = std::move(reason);
}

void TaskScheduler::restore(int task, int trials, int rounds, double bestCost)
{
    TS_ASSERT(task >= 0 && static_cast<size_t>(task) < m_tasks.size()) << "no task " << task;
    TS_ASSERT(trials >= 0 && rounds >= 0)
        << "restore of task " << task << ": " << trials << " trials, " << rounds << " rounds";
    TaskProgress& p = m_progress[static_cast<size_t>(task)];
    TS_ASSERT(p.rounds == 0 && p.trials == 0 && p.bestHistory.empty())
        << "restore of task " << task << " after it was tuned or restored";
    p.trials = trials;
    p.rounds = rounds;
    p.bestCost = normalizedCost(bestCost);
    p.trialsAtLastImprovement = trials;
    if (rounds > 0)
        p.bestHistory.push_back(p.bestCost);
}

double TaskScheduler::objective() const
{
    double sum = 0.0;
    for (size_t i = 0; i < m_tasks.size(); ++i)
        if (m_tasks[i].weight > 0) // 0 * infinity would be NaN
            sum += static_cast<double>(m_tasks[i].weight) * m_progress[i].bestCost;
    return sum;
}

void TaskScheduler::adjustSimilarityGroup(int task)
{
    const int group = m_groupOf[static_cast<size_t>(task)];
    if (group < 0)
        return;
    std::vector<int>& members = m_groups[static_cast<size_t>(group)];
    if (members.size() <= 1)
        return;
    double groupBest = 0.0;
    int othersMaxRounds = 0;
    for (int j : members) {
        const auto index = static_cast<size_t>(j);
        groupBest = std::max(groupBest, bestFlops(m_tasks[index], m_progress[index]));
        if (j != task)
            othersMaxRounds = std::max(othersMaxRounds, m_progress[index].rounds);
    }
    const auto index = static_cast<size_t>(task);
    const double own = bestFlops(m_tasks[index], m_progress[index]);
    if (own < groupBest / m_options.beta && m_progress[index].rounds > kGroupGraceRounds + othersMaxRounds) {
        members.erase(std::find(members.begin(), members.end(), task));
        m_groupOf[index] = -1;
    }
}

} // namespace ts::search
