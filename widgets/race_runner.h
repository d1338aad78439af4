// RaceRunner: a race (core/engine/race.h) driven from the GUI. The race is a session::StreamingJob: it runs on a
// worker thread of its own, each event is folded into the race's state there, and an immutable RaceSnapshot is
// published at most every 100 ms (a round's end and the finish publish at once), coalesced into one queued call,
// so the GUI thread only ever draws the newest. Stored races are listed and loaded (nothing measured) in JobTracker
// jobs. GUI thread only.
#pragma once

#include "core/engine/race.h"
#include "core/graph/task_extraction.h"
#include "core/session/job_tracker.h"
#include "core/session/streaming_job.h"

#include <QObject>
#include <QString>

#include <memory>
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
    bool running() const { return m_race.isRunning(); }
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
    // What the race reports after each lane's event: the event and the race's state after it.
    struct Step {
        const engine::RaceEvent& event;
        const engine::RaceResult& result;
    };
    using RaceJob = session::StreamingJob<Step, RaceSnapshot>;
    static session::Publish fold(RaceSnapshot& race, const Step& step); // on the racing thread

    std::shared_ptr<const RaceSnapshot> m_current;
    RaceJob m_race;
    session::JobTracker m_listJob;
    session::JobTracker m_loadJob;
};

} // namespace ts::widgets
