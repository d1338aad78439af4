// Store: the sources table, one row per imported file with what it held and what it added.
#include "core/store/store.h"
#include "core/store/store_rows.h"

namespace ts::store {

namespace {

    constexpr const char* kSourceColumns = "SELECT id, path, format, content_hash, bytes, lines, comments, records, "
                                           "duplicates, malformed, imported_at FROM sources";

    SourceInfo readSource(const Statement& s)
    {
        return SourceInfo { s.getInt(0), s.getText(1), s.getText(2), s.getInt(3), s.getInt(4), s.getInt(5), s.getInt(6),
            s.getInt(7), s.getInt(8), s.getInt(9), s.getDouble(10) };
    }

} // namespace

Expected<int64_t> Store::saveSource(const SourceInfo& source)
{
    TS_TRY(Statement save,
        m_db.prepare(source.id == 0
                ? "INSERT INTO sources (path, format, content_hash, bytes, lines, comments, records, duplicates, "
                  "malformed, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
                : "UPDATE sources SET path = ?, format = ?, content_hash = ?, bytes = ?, lines = ?, comments = ?, "
                  "records = ?, duplicates = ?, malformed = ?, imported_at = ? WHERE id = ?"));
    save.bindAll(source.path, source.format, source.contentHash, source.bytes, source.lines, source.comments,
        source.records, source.duplicates, source.malformed, source.importedAt);
    if (source.id == 0)
        return detail::insertedId(save);
    save.bind(11, source.id);
    TS_CHECK(save.run());
    if (m_db.changes() == 0)
        return makeError(ErrorKind::NotFound, path() + ": no imported source " + std::to_string(source.id));
    return source.id;
}

Expected<std::vector<SourceInfo>> Store::sources()
{
    TS_TRY(Statement s, m_db.prepare(std::string(kSourceColumns) + " ORDER BY id"));
    return detail::collect(s, [](const Statement& row) { return readSource(row); });
}

} // namespace ts::store
