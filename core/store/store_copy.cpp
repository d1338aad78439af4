// Store::copyFrom: a whole workspace into an empty one, across backends (copy-workspace). Rows keep their ids,
// so everything that names a record, a session or a model by id (session settings, steering histories,
// exported keys) means the same thing on both sides; task_summary is rebuilt by the target's own triggers.
#include "core/store/store.h"
#include "core/store/store_rows.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

namespace ts::store {

namespace {

    // A table and its columns, each with its type: i integer, r real, t text, b blob. Parents before children.
    struct TableCopy {
        const char* name;
        const char* columns;
        const char* types;
        int fromVersion;
        bool hasId;
    };

    constexpr TableCopy kTables[] = {
        { "devices", "id, kind, name, target, target_host, hardware_params, properties", "ittttt t", 1, true },
        { "tasks", "id, kind, key, name, dag_text, flops, rebuildable", "iitttri", 1, true },
        { "networks", "id, name, batch, layout", "itit", 1, true },
        { "network_tasks", "network_id, task_id, position, weight", "iiii", 1, false },
        { "sessions", "id, policy, cost_model, seed, settings, device_id, started_at, ended_at, status", "ittitirrt", 1,
            true },
        { "sources",
            "id, path, format, content_hash, bytes, lines, comments, records, duplicates, malformed, imported_at",
            "ittiiiiiiir", 1, true },
        { "cost_models", "id, kind, name, settings, training_summary, weights, created_at", "itttt br", 2, true },
        { "records",
            "id, task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, costs, mean_cost, "
            "error_no, all_cost, timestamp, extra, fingerprint, predicted_score, predicted_by, batch_rank, message",
            "iiiiiiitit rirrtiriit", 3, true },
    };

    std::string typesOf(const TableCopy& table)
    {
        std::string types;
        for (char c : std::string_view(table.types))
            if (c != ' ')
                types += c;
        return types;
    }

    void copyValue(const Statement& from, Statement& to, int column, char type)
    {
        if (from.isNull(column)) {
            to.bindNull(column + 1);
            return;
        }
        switch (type) {
        case 'i':
            to.bind(column + 1, from.getInt(column));
            break;
        case 'r':
            to.bind(column + 1, from.getDouble(column));
            break;
        case 'b':
            to.bind(column + 1, from.getBlob(column));
            break;
        default:
            to.bind(column + 1, from.getText(column));
        }
    }

} // namespace

Expected<std::vector<std::pair<std::string, int64_t>>> Store::copyFrom(Store& source)
{
    if (source.m_version != m_version)
        return makeError(ErrorKind::InvalidArgument,
            source.path() + " has schema version " + std::to_string(source.m_version) + " and " + path() + " "
                + std::to_string(m_version) + "; open both with this TuneScope first (it migrates them)");
    for (const char* table : { "devices", "tasks", "sessions", "records" }) {
        TS_TRY(int64_t rows, m_db.queryInt(std::string("SELECT count(*) FROM ") + table));
        if (rows != 0)
            return makeError(ErrorKind::InvalidArgument,
                path() + ": not empty (" + std::to_string(rows) + " rows in " + table
                    + "); copy-workspace writes into a new workspace only, nothing was changed");
    }
    std::vector<std::pair<std::string, int64_t>> copied;
    TS_TRY(Transaction transaction, begin());
    constexpr int kPage = 8192;
    for (const TableCopy& table : kTables) {
        if (m_version < table.fromVersion && std::string_view(table.name) == "cost_models")
            continue;
        std::string columns = table.columns;
        std::string types = typesOf(table);
        TS_ASSERT(split(columns, ',').size() == types.size()) << table.name << ": a type per column";
        if (std::string_view(table.name) == "records" && m_version < 3) {
            // Older schemas lack the later columns of records.
            const size_t keep = m_version >= 2 ? types.size() - 1 : types.size() - 4;
            std::vector<std::string> names = split(columns, ',');
            names.resize(keep);
            columns = join(names, ",");
            types.resize(keep);
        }
        const std::string placeholders = join(std::vector<std::string>(types.size(), "?"), ", ");
        TS_TRY(Statement insert,
            m_db.prepare(
                std::string("INSERT INTO ") + table.name + " (" + columns + ") VALUES (" + placeholders + ")"));
        int64_t rows = 0;
        const std::string select = "SELECT " + columns + " FROM " + table.name;
        // Every row `read` gives, inserted; the last row's first column (its id) in `last`.
        auto copyRows = [&](Statement& read, int64_t& last) -> Expected<int64_t> {
            int64_t n = 0;
            for (;;) {
                TS_TRY(bool row, read.step());
                if (!row)
                    return n;
                for (size_t c = 0; c < types.size(); ++c)
                    copyValue(read, insert, static_cast<int>(c), types[c]);
                TS_CHECK(insert.run());
                last = read.getInt(0);
                ++n;
            }
        };
        if (!table.hasId) {
            TS_TRY(Statement read, source.m_db.prepare(select));
            int64_t last = 0;
            TS_TRY(rows, copyRows(read, last));
        } else {
            // Keyset pages by id: a PostgreSQL result is held whole, so a million records are read in slices.
            TS_TRY(Statement read, source.m_db.prepare(select + " WHERE id > ? ORDER BY id LIMIT ?"));
            for (int64_t after = 0;;) {
                read.bindAll(after, static_cast<int64_t>(kPage));
                TS_TRY(int64_t inPage, copyRows(read, after));
                rows += inPage;
                if (inPage < kPage)
                    break;
            }
            if (m_db.backend() == Backend::Postgres) {
                // Rows came with their ids: the identity continues after the largest.
                const std::string name = table.name;
                TS_CHECK(m_db.exec("SELECT setval(pg_get_serial_sequence('" + name + "', 'id'), COALESCE(max(id), 1), "
                    + "max(id) IS NOT NULL) FROM " + name));
            }
        }
        copied.emplace_back(table.name, rows);
    }
    TS_CHECK(transaction.commit());
    return copied;
}

} // namespace ts::store
