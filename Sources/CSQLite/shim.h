#ifndef WIDGETHOST_CSQLITE_SHIM_H
#define WIDGETHOST_CSQLITE_SHIM_H

/* Debian's libsqlite3 is built with the pre-update hook; the header only declares it when this is
   defined. SharedState uses it to capture row changes (old and new values) per transaction. */
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer: not importable into Swift.
   Binding with it makes SQLite copy the bytes before sqlite3_bind_* returns. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/* SQLITE_STATIC: the caller keeps the bytes alive until the statement is reset or rebound. */
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/* sqlite3_db_config is variadic; the one option WidgetHost sets goes through this wrapper.
   Defensive mode refuses writes that could corrupt the file (writable_schema and friends). */
static inline int csqlite_enable_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

#endif
