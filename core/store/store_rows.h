// Private to core/store: what the table files behind Store share to turn statement rows into values.
#pragma once

#include "core/store/database.h"

#include <vector>

namespace ts::store::detail {

// Every row of a statement, each read by `read`.
template <typename Read> auto collect(Statement& s, Read read) -> Expected<std::vector<decltype(read(s))>>
{
    std::vector<decltype(read(s))> out;
    for (;;) {
        TS_TRY(bool row, s.step());
        if (!row)
            return out;
        out.push_back(read(s));
    }
}

// Runs an INSERT ... RETURNING id and answers the id.
inline Expected<int64_t> insertedId(Statement& insert)
{
    TS_TRY(bool row, insert.step());
    if (!row)
        return makeError(ErrorKind::Internal, "an INSERT ... RETURNING id returned no row");
    const int64_t id = insert.getInt(0);
    insert.reset();
    return id;
}

// Runs an INSERT ... ON CONFLICT DO NOTHING RETURNING id; when another process added the same row since the
// caller looked (two sessions starting at once on a shared workspace), runs `find` (bound, SELECT id) for it.
inline Expected<int64_t> insertedOrFound(Statement& insert, Statement& find, const std::string& what)
{
    TS_TRY(bool inserted, insert.step());
    Statement& row = inserted ? insert : find;
    if (!inserted) {
        insert.reset();
        TS_TRY(bool found, find.step());
        if (!found)
            return makeError(ErrorKind::Internal, what + " neither added nor found");
    }
    const int64_t id = row.getInt(0);
    row.reset();
    return id;
}

} // namespace ts::store::detail
