// The workspace schema, as forward migrations. Each entry takes a database from version i to i + 1 inside
// one transaction and is never edited once released: a change is a new entry. The first is the schema of
// TuneScope's first store; later ones say what they add.
#include "core/store/store.h"

#include <string>

namespace ts::store::schema {

namespace {

    // Version 1: devices, tasks, networks, sessions, imported sources, records, and the per-task summary
    // that triggers keep up to date.
    constexpr const char* kVersion1 = R"sql(
CREATE TABLE devices (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('cpu', 'gpu')),
    name TEXT NOT NULL,
    target TEXT NOT NULL,
    target_host TEXT NOT NULL DEFAULT '',
    hardware_params TEXT NOT NULL DEFAULT '',
    properties TEXT NOT NULL DEFAULT '{}',
    UNIQUE (target, target_host, hardware_params)
);

CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    kind INTEGER NOT NULL CHECK (kind IN (0, 1)),
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    dag_text TEXT NOT NULL DEFAULT '',
    flops REAL NOT NULL DEFAULT 0,
    rebuildable INTEGER NOT NULL DEFAULT 0,
    UNIQUE (kind, key)
);

CREATE TABLE networks (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    batch INTEGER NOT NULL,
    layout TEXT NOT NULL,
    UNIQUE (name, batch, layout)
);

CREATE TABLE network_tasks (
    network_id INTEGER NOT NULL REFERENCES networks (id) ON DELETE CASCADE,
    task_id INTEGER NOT NULL REFERENCES tasks (id),
    position INTEGER NOT NULL,
    weight INTEGER NOT NULL CHECK (weight >= 1),
    PRIMARY KEY (network_id, task_id)
) WITHOUT ROWID;

CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    policy TEXT NOT NULL,
    cost_model TEXT NOT NULL DEFAULT '',
    seed INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL DEFAULT '{}',
    device_id INTEGER REFERENCES devices (id),
    started_at REAL NOT NULL,
    ended_at REAL,
    status TEXT NOT NULL DEFAULT 'running'
);

CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    format TEXT NOT NULL,
    content_hash INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    lines INTEGER NOT NULL,
    comments INTEGER NOT NULL,
    records INTEGER NOT NULL,
    duplicates INTEGER NOT NULL,
    malformed INTEGER NOT NULL,
    imported_at REAL NOT NULL
);

CREATE TABLE records (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks (id),
    device_id INTEGER NOT NULL REFERENCES devices (id),
    session_id INTEGER REFERENCES sessions (id),
    source_id INTEGER REFERENCES sources (id),
    source_line INTEGER,
    kind INTEGER NOT NULL CHECK (kind IN (0, 1)),
    steps TEXT NOT NULL,
    step_count INTEGER NOT NULL,
    costs TEXT NOT NULL,
    mean_cost REAL NOT NULL,
    error_no INTEGER NOT NULL,
    all_cost REAL NOT NULL,
    timestamp REAL NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}',
    fingerprint INTEGER
);
-- Best records and the tuning curve of a task on a device; counts per status.
CREATE INDEX records_by_task ON records (task_id, device_id, error_no, mean_cost);
CREATE INDEX records_by_task_trial ON records (task_id, device_id, id);
CREATE INDEX records_by_session ON records (session_id) WHERE session_id IS NOT NULL;
CREATE INDEX records_by_source ON records (source_id) WHERE source_id IS NOT NULL;
CREATE UNIQUE INDEX records_by_fingerprint ON records (fingerprint) WHERE fingerprint IS NOT NULL;

CREATE TABLE task_summary (
    task_id INTEGER NOT NULL REFERENCES tasks (id),
    device_id INTEGER NOT NULL REFERENCES devices (id),
    records INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    best_record_id INTEGER,
    best_cost REAL,
    PRIMARY KEY (task_id, device_id)
) WITHOUT ROWID;

CREATE TRIGGER records_summary_insert AFTER INSERT ON records BEGIN
    INSERT INTO task_summary (task_id, device_id, records, failures, best_record_id, best_cost)
    VALUES (NEW.task_id, NEW.device_id, 1, NEW.error_no != 0,
            CASE WHEN NEW.error_no = 0 THEN NEW.id END, CASE WHEN NEW.error_no = 0 THEN NEW.mean_cost END)
    ON CONFLICT (task_id, device_id) DO UPDATE SET
        records = records + 1,
        failures = failures + (NEW.error_no != 0),
        best_record_id = CASE WHEN NEW.error_no = 0 AND (best_cost IS NULL OR NEW.mean_cost < best_cost)
                              THEN NEW.id ELSE best_record_id END,
        best_cost = CASE WHEN NEW.error_no = 0 AND (best_cost IS NULL OR NEW.mean_cost < best_cost)
                         THEN NEW.mean_cost ELSE best_cost END;
END;

CREATE TRIGGER records_summary_delete AFTER DELETE ON records BEGIN
    UPDATE task_summary SET records = records - 1, failures = failures - (OLD.error_no != 0)
        WHERE task_id = OLD.task_id AND device_id = OLD.device_id;
    UPDATE task_summary SET (best_record_id, best_cost) =
        (SELECT id, mean_cost FROM records
         WHERE task_id = OLD.task_id AND device_id = OLD.device_id AND error_no = 0
         ORDER BY mean_cost, id LIMIT 1)
        WHERE task_id = OLD.task_id AND device_id = OLD.device_id AND best_record_id = OLD.id;
    DELETE FROM task_summary WHERE task_id = OLD.task_id AND device_id = OLD.device_id AND records = 0;
END;
)sql";

    // Version 2: cost models, and on each record the score a model predicted for it and its rank in the
    // measured batch (what "predicted vs measured" plots need).
    constexpr const char* kVersion2 = R"sql(
CREATE TABLE cost_models (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    training_summary TEXT NOT NULL DEFAULT '{}',
    weights BLOB,
    created_at REAL NOT NULL
);
ALTER TABLE records ADD COLUMN predicted_score REAL;
ALTER TABLE records ADD COLUMN predicted_by INTEGER REFERENCES cost_models (id);
ALTER TABLE records ADD COLUMN batch_rank INTEGER;
CREATE INDEX records_by_model ON records (predicted_by) WHERE predicted_by IS NOT NULL;
)sql";

    // Version 3: why a record failed (MeasureResult::message), NULL when it did not or nobody said (TVM logs
    // carry no message).
    constexpr const char* kVersion3 = R"sql(
ALTER TABLE records ADD COLUMN message TEXT;
)sql";

    constexpr const char* kMigrations[] = { kVersion1, kVersion2, kVersion3 };
    static_assert(std::size(kMigrations) == kSchemaVersion);

} // namespace

Expected<int> migrate(Connection& db, int to)
{
    for (;;) {
        // BEGIN IMMEDIATE takes the write lock up front (waiting for it through the busy timeout), so the
        // version read next cannot change before this transaction commits.
        TS_TRY(Transaction transaction, Transaction::begin(db));
        TS_TRY(int64_t current, db.queryInt("PRAGMA user_version"));
        if (current >= to)
            return static_cast<int>(current); // already there: another connection migrated it meanwhile
        const int version = static_cast<int>(current);
        auto applied = db.exec(kMigrations[version]);
        if (!applied)
            return makeError(ErrorKind::Io,
                "migrating the schema from version " + std::to_string(version) + " to " + std::to_string(version + 1)
                    + ": " + applied.error().message);
        TS_CHECK(db.exec("PRAGMA user_version = " + std::to_string(version + 1)));
        if (version == 0)
            TS_CHECK(db.exec("PRAGMA application_id = " + std::to_string(kApplicationId)));
        TS_CHECK(transaction.commit());
    }
}

} // namespace ts::store::schema
