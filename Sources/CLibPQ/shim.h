#ifndef WIDGETHOST_CLIBPQ_SHIM_H
#define WIDGETHOST_CLIBPQ_SHIM_H

/* libpq, PostgreSQL's C client library (Debian: libpq-dev, headers in /usr/include/postgresql). */
#include <libpq-fe.h>

/* PQresultErrorField's field codes are single characters defined in postgres_ext.h as macros of char
   literals ('C', 'M', ...), which Swift imports; these name the two WidgetHost reads so a call site never
   spells a bare character. */
static inline int clibpq_field_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int clibpq_field_primary_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }

#endif
