// Private to core/store: what the table files behind Store share to turn statement rows into values.
#pragma once

#include "core/store/sqlite.h"

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

} // namespace ts::store::detail
