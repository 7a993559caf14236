// The SQLite C API (pkg-config sqlite3), seen by Swift as the `CSQLite` module.
#include <sqlite3.h>
