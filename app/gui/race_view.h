// The Race view: AutoTVM against Ansor (or any two policies) on one task, live or replayed from the workspace
// (core/engine/race.h, widgets/race_runner.h). It shows both curves on one plot, each lane's search-space
// size, trials, best and failures, what each search is doing now (a sentence for teaching), how many trials
// each needed to reach the other's best, and opens a lane's best program in the code view (through the
// selection). A stored race plays back over ten seconds, without measuring, with play/pause and a slider.
#pragma once

#include "app/gui/view_registry.h"
#include "widgets/race_runner.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;
class QCustomPlot;

namespace ts::app {

class RaceView : public QWidget {
    Q_OBJECT
public:
    explicit RaceView(ViewContext& context, QWidget* parent = nullptr);

    widgets::RaceRunner& runner() { return m_runner; }
    // Starts a race on the task (the dialog's work, without the dialog; tests and the New race dialog use it).
    bool startRace(std::shared_ptr<const graph::Task> task, engine::RaceOptions options);
    // Trials shown (replay: the play head; live: all).
    int position() const { return m_position; }
    QCustomPlot* plot() const { return m_plot; }
    QString laneText(int lane) const;
    QString summaryText() const;

    // What a policy's search does in a phase, for people (teaching text).
    static QString explain(search::PolicyKind policy, const std::string& phase);

private:
    void newRace();
    void showSnapshot(std::shared_ptr<const widgets::RaceSnapshot> snapshot);
    void redraw();
    void showBest(int lane);
    void replaySelected();
    void step();

    ViewContext& m_context;
    widgets::RaceRunner m_runner;
    std::shared_ptr<const widgets::RaceSnapshot> m_shown;
    int m_position = 0; // trials drawn
    bool m_replaying = false;
    QCustomPlot* m_plot = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_lanes[2] = { nullptr, nullptr };
    QPushButton* m_best[2] = { nullptr, nullptr };
    QLabel* m_summary = nullptr;
    QPushButton* m_cancel = nullptr;
    QComboBox* m_stored = nullptr;
    QPushButton* m_play = nullptr;
    QSlider* m_slider = nullptr;
    QTimer* m_timer = nullptr;
    session::JobTracker m_bestJob;
};

} // namespace ts::app
