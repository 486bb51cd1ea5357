/* libpq's functions PostgresStore calls, defined here under their own names: each calls libpq's, resolved by
   CLazyLibrary when clibpq_load first ran, and typed as libpq-fe.h declares it. */
#include "CLibPQ.h"

#include <CLazyLibrary.h>

#define CLIBPQ_FUNCTIONS(X) \
    X(PQconnectdbParams) X(PQconninfoParse) X(PQconninfoFree) X(PQfinish) X(PQstatus) X(PQtransactionStatus) \
    X(PQerrorMessage) X(PQsetNoticeProcessor) X(PQexec) X(PQprepare) X(PQexecPrepared) X(PQresultStatus) \
    X(PQresultErrorField) X(PQclear) X(PQcmdTuples) X(PQntuples) X(PQnfields) X(PQfname) X(PQgetvalue) \
    X(PQgetlength) X(PQgetisnull) X(PQfreemem)

CLAZY_LIBRARY_DEFINE(clibpq_library, "libpq.so.5", CLIBPQ_FUNCTIONS);

#define PQ_CALL(name) CLAZY_LIBRARY_CALL(clibpq_library, name)

int clibpq_load(char *error, size_t capacity) { return clazy_library_load(&clibpq_library, error, capacity); }

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return PQ_CALL(PQconnectdbParams)(keywords, values, expand_dbname);
}
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    return PQ_CALL(PQconninfoParse)(conninfo, errmsg);
}
void PQconninfoFree(PQconninfoOption *options) { PQ_CALL(PQconninfoFree)(options); }
void PQfinish(PGconn *conn) { PQ_CALL(PQfinish)(conn); }
ConnStatusType PQstatus(const PGconn *conn) { return PQ_CALL(PQstatus)(conn); }
PGTransactionStatusType PQtransactionStatus(const PGconn *conn) { return PQ_CALL(PQtransactionStatus)(conn); }
char *PQerrorMessage(const PGconn *conn) { return PQ_CALL(PQerrorMessage)(conn); }
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return PQ_CALL(PQsetNoticeProcessor)(conn, proc, arg);
}
PGresult *PQexec(PGconn *conn, const char *query) { return PQ_CALL(PQexec)(conn, query); }
PGresult *PQprepare(PGconn *conn, const char *name, const char *query, int count, const Oid *types) {
    return PQ_CALL(PQprepare)(conn, name, query, count, types);
}
PGresult *PQexecPrepared(PGconn *conn, const char *name, int count, const char *const *values, const int *lengths,
                         const int *formats, int resultFormat) {
    return PQ_CALL(PQexecPrepared)(conn, name, count, values, lengths, formats, resultFormat);
}
ExecStatusType PQresultStatus(const PGresult *result) { return PQ_CALL(PQresultStatus)(result); }
char *PQresultErrorField(const PGresult *result, int code) { return PQ_CALL(PQresultErrorField)(result, code); }
void PQclear(PGresult *result) { PQ_CALL(PQclear)(result); }
char *PQcmdTuples(PGresult *result) { return PQ_CALL(PQcmdTuples)(result); }
int PQntuples(const PGresult *result) { return PQ_CALL(PQntuples)(result); }
int PQnfields(const PGresult *result) { return PQ_CALL(PQnfields)(result); }
char *PQfname(const PGresult *result, int field) { return PQ_CALL(PQfname)(result, field); }
char *PQgetvalue(const PGresult *result, int row, int field) { return PQ_CALL(PQgetvalue)(result, row, field); }
int PQgetlength(const PGresult *result, int row, int field) { return PQ_CALL(PQgetlength)(result, row, field); }
int PQgetisnull(const PGresult *result, int row, int field) { return PQ_CALL(PQgetisnull)(result, row, field); }
void PQfreemem(void *memory) { PQ_CALL(PQfreemem)(memory); }
