// SketchTreeModel: a session's measured states under the sketches they came from.
//
// Three levels: the session's tasks; under each, its sketches as the search generates them for the host
// (search::generateSketches: the rules that made each, and the count and best of its measured states), and
// "other" for records that match no sketch (imported, or tuned with other rules); under each sketch, its
// measured states, cheapest first and failures last, each with what the annotation chose (tile sizes,
// compute locations, parallel / vectorize / unroll; search/annotation_summary.h) and its cost.
//
// The tree is built off the GUI thread (buildSketchTree in a session::JobTracker job: sketch generation, the
// store read of the session's records, replay and matching), from the SessionSnapshot it is given. While a
// live session gains trials the model rebuilds at most once a second; a rebuild of the same session reuses
// the previous build's sketches and replayed states, and only inserts rows (the new states at their places
// by cost, an "other" group when one appears), so views keep their expansion and selection. Another session
// (or another set of tasks) resets the model.
//
// Constraints (issue 41): given each task's constraints (setConstraints: the session's, or those a person is
// editing), the model marks each sketch the sketch rules remove and each measured state that breaks a constraint
// (ConstraintColumn says why, RemovedRole is true; constraint_marks.h). The marks are computed in a job of their own
// on the last build, again after each build and each change of the constraints; marksUpdated follows.
#pragma once

#include "core/record/measure_status.h"
#include "core/search/sketch.h"
#include "core/session/job_tracker.h"
#include "widgets/models/constraint_marks.h"
#include "widgets/models/session_snapshot.h"

#include <QAbstractItemModel>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ts::models {

// One measured state (a record of the session).
struct MeasuredState {
    int64_t recordId = 0;
    int trial = 0; // 1-based, the session's order
    double cost = 0.0; // mean seconds; 0 when it failed
    double gflops = 0.0;
    record::MeasureStatus status = record::MeasureStatus::Ok;
    std::string message;
    std::shared_ptr<const sched::State> state; // the record's steps replayed; null when they do not replay
    std::string error; // why `state` is null
    int sketch = -1; // index into the task's sketches; -1: none matches
    std::string tiles; // search::AnnotationSummary texts
    std::string computeAt;
    std::string annotations;

    bool ok() const { return status == record::MeasureStatus::Ok && cost > 0.0; }
};

// A sketch with its measured states, or the task's "other" group (index -1).
struct SketchGroup {
    int index = -1;
    std::string rules;
    std::string description; // search::toString(sketch): the rules and the loop nest with open tile sizes
    std::string computeAt; // the sketch's own compute locations
    std::shared_ptr<const sched::State> state; // the sketch's (open tile sizes); null for "other"
    std::vector<std::shared_ptr<const MeasuredState>> states; // cheapest first, failures last

    int failures() const;
    // The cheapest successful state, or null.
    const MeasuredState* best() const;
};

struct SketchTask {
    int task = 0; // index into the snapshot's tasks
    std::string name;
    double flops = 0.0;
    std::shared_ptr<const graph::Task> graphTask; // null when the session's tasks cannot be rebuilt
    std::string error; // why there are no sketches
    std::shared_ptr<const std::vector<search::Sketch>> sketches;
    std::vector<SketchGroup> groups; // one per sketch, in generation order; then "other" if it has states

    int measured() const;
    const MeasuredState* best() const;
};

struct SketchTree {
    int64_t sessionId = 0;
    std::string workspace;
    int trials = 0; // the snapshot's trials the tree holds (those whose records were read)
    std::vector<SketchTask> tasks;
};

// Builds the tree of `snapshot` (on a worker thread): the sketches of each task with a DAG, the session's
// records read from its workspace (read-only), replayed, summarized and matched to their sketches. A
// `previous` build of the same session lends its sketches and states; only the records it lacks are read
// and replayed. Errors: the workspace cannot be opened or read.
Expected<SketchTree> buildSketchTree(
    const SessionSnapshot& snapshot, const SketchTree* previous, const session::JobContext* context = nullptr);

class SketchTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        CostColumn,
        GflopsColumn,
        StatusColumn,
        ConstraintColumn, // what the constraints remove: a sketch's rule, a state's violation, a task's count
        TilesColumn,
        ComputeAtColumn,
        AnnotationsColumn,
        ColumnCount
    };
    enum Kind { TaskRow, SketchRow, StateRow };
    // Roles beyond Qt's: the row's Kind, and a state row's record id.
    static constexpr int KindRole = Qt::UserRole + 1;
    static constexpr int RecordIdRole = Qt::UserRole + 2;
    // bool: the constraints remove this sketch, or this state breaks one of them (views grey and strike it out).
    static constexpr int RemovedRole = Qt::UserRole + 3;

    explicit SketchTreeModel(QObject* parent = nullptr);
    ~SketchTreeModel() override;

    // Shows `snapshot` (null: nothing). The same session with more trials is rebuilt at most once per
    // throttle interval; another session at once.
    void setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot);
    // Minimum time between two rebuilds of the same session (1000 ms by default; tests shorten it).
    void setThrottleInterval(int ms) { m_throttleMs = ms; }
    // Applies a built tree now (the job's hand-off): inserts rows for the same session, resets otherwise.
    void applyTree(SketchTree tree);

    // A build is running or due.
    bool isBuilding() const { return m_job.isRunning() || m_timer.isActive() || m_pending; }

    // Each task's constraints, by the snapshot's task index (shorter or empty: none). A change marks the tree again,
    // in a job (marksUpdated); without any constraint the marks go at once.
    void setConstraints(std::vector<search::Constraints> constraints);
    const std::vector<search::Constraints>& constraints() const { return m_constraints; }
    // The marks shown (of the last build before the last change of the constraints, once marked).
    const ConstraintMarks& marks() const { return m_marks; }
    // Marks are being computed.
    bool isMarking() const { return m_marksJob.isRunning(); }
    // The last build's error ("" when it succeeded).
    QString error() const { return m_error; }
    int64_t sessionId() const { return m_sessionId; }
    int trials() const { return m_trials; }

    Kind kindAt(const QModelIndex& index) const;
    // The task of any row; null for invalid indexes and tasks without a DAG.
    std::shared_ptr<const graph::Task> taskAt(const QModelIndex& index) const;
    // The snapshot's task index of any row (-1 for invalid indexes).
    int taskIndexAt(const QModelIndex& index) const;
    // A sketch row's group, or a state row's.
    const SketchGroup* groupAt(const QModelIndex& index) const;
    // A state row's measured state, or null.
    std::shared_ptr<const MeasuredState> measuredAt(const QModelIndex& index) const;
    // The state row of a record, or an invalid index.
    QModelIndex indexOfRecord(int64_t recordId) const;
    QModelIndex taskIndex(int task) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // A build was applied (rows inserted, or the model reset).
    void treeUpdated();
    void errorOccurred(const QString& message);
    // New constraint marks are shown (or the marks were cleared).
    void marksUpdated();

private:
    // internalId: 0 for task rows; task + 1 for sketch rows; ((task + 1) << 32) | (group + 1) for state rows.
    static quintptr idOf(int task, int group);
    // What a build is of: the session, its workspace and how many tasks it has.
    struct Target {
        int64_t sessionId = -1;
        std::string workspace;
        size_t tasks = 0;
        bool operator==(const Target&) const = default;
    };
    void scheduleBuild();
    void startBuild();
    void onBuilt(Expected<SketchTree> tree);
    bool sameStructure(const SketchTree& tree) const;
    void insertNewRows(SketchTree tree);
    // Constraint marks (sketch_tree_marks.cpp).
    void startMarks();
    void applyMarks(ConstraintMarks marks);
    void emitAllDataChanged();
    QVariant markData(const QModelIndex& index, Kind kind, int role) const;
    QString markedToolTip(const QModelIndex& index, Kind kind, QString tip) const;

    std::vector<SketchTask> m_tasks; // what the rows show
    int64_t m_sessionId = -1;
    std::string m_workspace;
    int m_trials = 0;
    std::shared_ptr<const SketchTree> m_built; // the last build, lent to the next
    std::shared_ptr<const SessionSnapshot> m_snapshot; // the newest given
    Target m_building; // of the last build started
    int m_buildingTrials = 0; // the trials of the snapshot it builds
    bool m_pending = false; // a newer snapshot came in while a build ran
    int m_retries = 0;
    QString m_error;
    int m_throttleMs = 1000;
    QElapsedTimer m_sinceBuild;
    QTimer m_timer;
    session::JobTracker m_job;
    std::vector<search::Constraints> m_constraints;
    ConstraintMarks m_marks;
    session::JobTracker m_marksJob;
};

} // namespace ts::models
