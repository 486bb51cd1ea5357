#ifndef WIDGETHOST_CLIBPQ_H
#define WIDGETHOST_CLIBPQ_H

/* libpq, PostgreSQL's C client library: its declarations (Debian: libpq-dev, in /usr/include/postgresql), with
   libpq.so.5 opened on first use instead of linked (CLazyLibrary), so a daemon on SQLite never maps it. */
#include <postgresql/libpq-fe.h>
#include <stddef.h>

/* Loads libpq unless it is loaded. Returns 0, or -1 with a message naming the library in `error`. Call it before
   any other libpq function (PostgresConnection does): a call without a loaded libpq ends the process. */
int clibpq_load(char *error, size_t capacity);

/* PQresultErrorField's field codes are single characters defined in postgres_ext.h as macros of char
   literals ('C', 'M', ...), which Swift imports; these name the two WidgetHost reads so a call site never
   spells a bare character. */
static inline int clibpq_field_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int clibpq_field_primary_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }

#endif
