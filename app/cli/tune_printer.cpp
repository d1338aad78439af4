#include "app/cli/tune_printer.h"

#include "core/support/strings.h"

#include <algorithm>
#include <iostream>
#include <unistd.h>

namespace ts::cli {

namespace {

    std::string padLeft(std::string text, size_t width)
    {
        return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
    }

    std::string padRight(std::string text, size_t width)
    {
        text.resize(std::max(width, text.size()), ' ');
        return text;
    }

    std::string milliseconds(double seconds) { return seconds > 0.0 ? formatFixed(seconds * 1e3, 3) : "-"; }

} // namespace

TunePrinter::TunePrinter(std::vector<int> ids)
    : m_ids(std::move(ids))
    , m_terminal(::isatty(STDERR_FILENO) != 0)
{
}

int TunePrinter::idOf(int task) const
{
    return task >= 0 && static_cast<size_t>(task) < m_ids.size() ? m_ids[static_cast<size_t>(task)] : task;
}

std::string TunePrinter::table(
    const std::vector<engine::TaskStatus>& tasks, double estimatedLatency, int trials, double elapsed) const
{
    size_t nameWidth = 4;
    for (const engine::TaskStatus& t : tasks)
        nameWidth = std::max(nameWidth, t.name.size());
    const std::string head = "|  ID | " + padRight("Task", nameWidth) + " | Latency (ms) | Speed (GFLOP/s) | Trials |";
    const std::string rule(head.size(), '-');
    std::string out = head + "\n" + rule + "\n";
    for (const engine::TaskStatus& t : tasks)
        out += "| " + padLeft(std::to_string(idOf(t.task)), 3) + " | " + padRight(t.name, nameWidth) + " | "
            + padLeft(milliseconds(t.bestCost), 12) + " | "
            + padLeft(t.bestCost > 0.0 ? formatFixed(t.gflops(), 2) : "-", 15) + " | "
            + padLeft(std::to_string(t.trials), 6) + " |" + (t.dead ? " stopped" : "") + "\n";
    out += rule + "\n";
    out += "Estimated total latency: " + milliseconds(estimatedLatency) + " ms  Trials: " + std::to_string(trials)
        + "  Used time: " + formatFixed(elapsed, 0) + " s\n";
    return out;
}

void TunePrinter::printProgress(const engine::BatchProgress& p)
{
    if (!m_terminal)
        return;
    std::cerr << "\r[round " << m_round + 1 << "] task " << idOf(p.task) << ": built " << p.built << "/" << p.total
              << ", measured " << p.done << "/" << p.total << ", best " << milliseconds(p.bestCost) << " ms   "
              << std::flush;
    m_progressShown = true;
}

void TunePrinter::clearProgress()
{
    if (!m_progressShown)
        return;
    std::cerr << "\r" << std::string(79, ' ') << "\r" << std::flush;
    m_progressShown = false;
}

void TunePrinter::note(const std::string& text)
{
    std::lock_guard lock(m_mutex);
    clearProgress();
    std::cout << std::flush;
    std::cerr << "tunescope-cli: " << text << "\n" << std::flush;
}

void TunePrinter::print(const engine::TuneEvent& event)
{
    std::lock_guard lock(m_mutex);
    if (const auto* p = std::get_if<engine::BatchProgress>(&event)) {
        printProgress(*p);
        return;
    }
    if (const auto* r = std::get_if<engine::RoundDone>(&event)) {
        clearProgress();
        m_round = r->round;
        std::cout << "\n" << table(r->tasks, r->estimatedLatency, r->totalTrials, r->elapsed);
        for (const engine::TaskStatus& t : r->tasks)
            if (t.dead && m_stoppedShown.insert(t.task).second)
                std::cout << "task " << idOf(t.task) << " (" << t.name << ") stopped: " << t.deadReason << "\n";
        // Shadow models: how each model (the session's first) ranked this round's candidates.
        if (!r->shadows.empty()) {
            std::cout << "round " << r->round << " ranked by";
            for (const engine::ShadowMetrics& m : r->shadows) {
                std::cout << (&m == &r->shadows.front() ? " " : "; ") << m.kind << (m.session ? " (session)" : "");
                if (!m.error.empty())
                    std::cout << " failed: " << m.error;
                else
                    std::cout << " pairwise " << formatFixed(m.pairwiseAccuracy, 3) << ", spearman "
                              << formatFixed(m.spearman, 3);
            }
            std::cout << " (" << r->shadows.front().samples << " measured)\n";
            m_shadows.insert(m_shadows.end(), r->shadows.begin(), r->shadows.end());
        }
        std::cout << std::flush;
        return;
    }
    if (const auto* b = std::get_if<engine::BestImproved>(&event)) {
        if (!b->remeasured)
            return; // the round's table shows it
        clearProgress();
        std::cout << "task " << idOf(b->task) << ": re-measured best " << formatFixed(b->cost * 1e3, 4) << " ms, "
                  << formatFixed(b->gflops, 2) << " GFLOP/s (record " << b->recordId << ")\n"
                  << std::flush;
        return;
    }
    if (const auto* f = std::get_if<engine::Finished>(&event)) {
        clearProgress();
        std::cout << "\n"
                  << table(f->tasks, f->estimatedLatency, f->totalTrials, f->elapsed) << f->status << ": "
                  << f->totalTrials << (f->totalTrials == 1 ? " trial" : " trials") << " in "
                  << formatFixed(f->elapsed, 1) << " s" << (f->message.empty() ? "" : "; " + f->message) << "\n";
        if (!m_shadows.empty()) {
            std::cout << "shadow models, mean over the rounds with 2 or more measured candidates:\n";
            for (const engine::ShadowSummary& s : engine::summarize(m_shadows))
                std::cout << "  " << s.kind << (s.session ? " (session)" : "") << ": "
                          << (s.error.empty() ? "pairwise accuracy " + formatFixed(s.meanPairwiseAccuracy, 3)
                                         + ", spearman " + formatFixed(s.meanSpearman, 3) + " over "
                                         + std::to_string(s.rounds) + " rounds"
                                              : "failed: " + s.error)
                          << "\n";
        }
        std::cout << std::flush;
        return;
    }
    if (const auto* m = std::get_if<engine::ModelSwitched>(&event)) {
        clearProgress();
        if (m->error.empty())
            std::cout << "model switched from " << m->from << " to " << m->to << " after " << m->trial
                      << " trials: trained on " << m->trainedOn << " records in " << formatFixed(m->seconds, 1)
                      << " s\n";
        else
            std::cout << "model not switched to " << m->to << " (keeping " << m->from << "): " << m->error << "\n";
        std::cout << std::flush;
        return;
    }
    // RecordMeasured, TaskSwitched, ModelUpdated: the GUI's; the table says enough here.
}

} // namespace ts::cli
