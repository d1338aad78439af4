// Test-only: the raw SQLite connection behind a Store, for tests and benchmarks that check pragmas, damage
// a file on purpose or time a query the Store does not offer. Product code goes through Store's methods.
#pragma once

#include "core/store/store.h"

namespace ts::store {

class StoreTestAccess {
public:
    static Connection& connection(Store& store) { return store.m_db; }
};

inline Connection& testConnection(Store& store) { return StoreTestAccess::connection(store); }

} // namespace ts::store
