// RaceRunner: a race (core/engine/race.h) driven from the GUI. The race runs on a worker thread of its own; the
// runner copies the race's state after each event and publishes an immutable RaceSnapshot at most every 100 ms
// (a round's end and the finish publish at once), coalesced into one queued call, so the GUI thread only ever
// draws the newest. Stored races are listed and loaded (nothing measured) in JobTracker jobs. GUI thread only.
#pragma once

#include "core/engine/race.h"
#include "core/graph/task_extraction.h"
#include "core/session/job_tracker.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ts::widgets {

struct RaceSnapshot {
    engine::RaceResult result;
    std::vector<std::string> phases; // per lane: "search", "measure", "model", "" (waiting), "done"
    std::vector<int> rounds; // per lane: rounds done
    bool live = false; // being raced now (false: finished, or loaded from the store)
    std::string error; // the race failed to start or run
    // The race's task (rebuilt from the lanes' origin for a loaded race; null when it cannot be).
    std::shared_ptr<const graph::Task> task;
};

class RaceRunner : public QObject {
    Q_OBJECT
public:
    explicit RaceRunner(QObject* parent = nullptr);
    ~RaceRunner() override; // cancels a live race and waits for its round in flight

    // Starts a race; false (and a message through errorOccurred) when one is running already.
    bool start(engine::RaceOptions options, std::shared_ptr<const graph::Task> task);
    void cancel();
    bool running() const { return m_worker.joinable() && !m_done.load(); }
    std::shared_ptr<const RaceSnapshot> current() const { return m_current; }

    // The workspace's races (newest first) and one race loaded from it; results come as signals.
    void listRaces(const QString& workspace);
    void loadRace(const QString& workspace, const QString& id);

Q_SIGNALS:
    void updated(); // current() changed
    void finished(const QString& status);
    void racesListed(const std::vector<engine::RaceInfo>& races);
    void raceLoaded(std::shared_ptr<const RaceSnapshot> race);
    void errorOccurred(const QString& message);

private:
    void publish(); // GUI thread
    void join();

    std::thread m_worker;
    std::unique_ptr<engine::Race> m_race;
    std::atomic<bool> m_done { false };
    std::mutex m_mutex; // guards m_latest, m_pending
    std::shared_ptr<const RaceSnapshot> m_latest;
    bool m_pending = false;
    std::chrono::steady_clock::time_point m_lastPublish;
    std::shared_ptr<const RaceSnapshot> m_current;
    session::JobTracker m_listJob;
    session::JobTracker m_loadJob;
};

} // namespace ts::widgets
