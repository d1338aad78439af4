// Store: the tasks table (one row per workload) and the networks that group tasks with weights.
#include "core/store/store.h"
#include "core/store/store_rows.h"
#include "core/support/assert.h"

namespace ts::store {

TaskInfo taskInfoOf(const std::string& name, const std::string& workloadKey, const std::string& dagText, double flops)
{
    TaskInfo info;
    info.kind = RecordKind::Ansor;
    info.key = workloadKey;
    info.name = name;
    info.dagText = dagText;
    info.flops = flops;
    info.rebuildable = true;
    return info;
}

bool isOwnTaskKey(const std::string& key)
{
    return !key.empty() && key.find_first_not_of("0123456789abcdef") == std::string::npos;
}

namespace {

    TaskInfo readTask(const Statement& s)
    {
        TaskInfo task { s.getInt(0), static_cast<RecordKind>(s.getInt(1)), s.getText(2), s.getText(3), s.getText(4),
            s.getDouble(5), s.getInt(6) != 0 };
        // Workspaces written before taskInfoOf marked TuneScope's own tasks rebuildable hold them with 0.
        task.rebuildable = task.rebuildable || (task.kind == RecordKind::Ansor && isOwnTaskKey(task.key));
        return task;
    }

    constexpr const char* kTaskColumns = "SELECT id, kind, key, name, dag_text, flops, rebuildable FROM tasks";

} // namespace

Expected<int64_t> Store::addTask(const TaskInfo& task)
{
    TS_TRY(Statement * find, cached("SELECT id FROM tasks WHERE kind = ? AND key = ?"));
    find->bindAll(static_cast<int64_t>(task.kind), task.key);
    TS_TRY(bool found, find->step());
    if (found) {
        const int64_t id = find->getInt(0);
        // A cached statement left on a row keeps its read transaction open: this connection's later writes
        // would then fail (SQLITE_BUSY_SNAPSHOT) once another connection commits.
        find->reset();
        return id;
    }
    TS_TRY(Statement * insert,
        cached("INSERT INTO tasks (kind, key, name, dag_text, flops, rebuildable) VALUES (?, ?, ?, ?, ?, ?) "
               "ON CONFLICT (kind, key) DO NOTHING RETURNING id"));
    insert->bindAll(static_cast<int64_t>(task.kind), task.key, task.name, task.dagText, task.flops,
        static_cast<int64_t>(task.rebuildable));
    find->bindAll(static_cast<int64_t>(task.kind), task.key);
    return detail::insertedOrFound(*insert, *find, path() + ": task " + task.name);
}

Expected<std::vector<TaskInfo>> Store::tasks()
{
    TS_TRY(Statement s, m_db.prepare(std::string(kTaskColumns) + " ORDER BY id"));
    return detail::collect(s, [](const Statement& row) { return readTask(row); });
}

Expected<std::optional<TaskInfo>> Store::findTask(const std::string& key)
{
    TS_TRY(Statement s, m_db.prepare(std::string(kTaskColumns) + " WHERE key = ? ORDER BY id LIMIT 1"));
    s.bind(1, key);
    TS_TRY(bool row, s.step());
    if (!row)
        return std::optional<TaskInfo>();
    return std::optional<TaskInfo>(readTask(s));
}

Expected<int64_t> Store::addNetwork(const NetworkInfo& network)
{
    TS_TRY(Transaction transaction, begin());
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO networks (name, batch, layout) VALUES (?, ?, ?) "
                     "ON CONFLICT (name, batch, layout) DO UPDATE SET name = excluded.name RETURNING id"));
    insert.bindAll(network.name, network.batch, network.layout);
    TS_TRY(bool row, insert.step());
    TS_ASSERT(row);
    const int64_t id = insert.getInt(0);
    insert.reset();
    TS_CHECK(m_db.exec("DELETE FROM network_tasks WHERE network_id = " + std::to_string(id)));
    TS_TRY(Statement member,
        m_db.prepare("INSERT INTO network_tasks (network_id, task_id, position, weight) VALUES (?, ?, ?, ?)"));
    for (size_t i = 0; i < network.tasks.size(); ++i) {
        member.bindAll(id, network.tasks[i].taskId, static_cast<int64_t>(i), network.tasks[i].weight);
        TS_CHECK(member.run());
    }
    TS_CHECK(transaction.commit());
    return id;
}

Expected<std::vector<NetworkInfo>> Store::networks()
{
    TS_TRY(Statement s, m_db.prepare("SELECT id, name, batch, layout FROM networks ORDER BY id"));
    TS_TRY(std::vector<NetworkInfo> out, detail::collect(s, [](const Statement& row) {
        return NetworkInfo { row.getInt(0), row.getText(1), row.getInt(2), row.getText(3), {} };
    }));
    TS_TRY(Statement members,
        m_db.prepare("SELECT task_id, weight FROM network_tasks WHERE network_id = ? ORDER BY position"));
    for (NetworkInfo& n : out) {
        members.bind(1, n.id);
        TS_TRY(n.tasks, detail::collect(members, [](const Statement& row) {
            return NetworkInfo::Member { row.getInt(0), static_cast<int>(row.getInt(1)) };
        }));
    }
    return out;
}

} // namespace ts::store
