// The system SQLite 3 C API, used by NetTapStore on Linux only (Apple platforms import the SDK's SQLite3 module).
// Needs the libsqlite3-dev package (scripts/test installs it when missing).
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
