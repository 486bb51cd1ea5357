#!/bin/sh
# widgethost-bench postgres on a throwaway PostgreSQL cluster: initdb in a temporary directory (default settings:
# fsync on, synchronous_commit on), listening only on a Unix socket there, removed at the end.
# Usage: Benchmarks/postgres-bench.sh [taps|outbox|push] [that case's options, e.g. taps --taps 1000000]
#   taps:   widgethost-bench postgres (tap ingestion and reports, SQLite beside PostgreSQL)
#   outbox: widgethost-bench outbox (push outbox to nginx: 1 sender on SQLite, 1 and 2 on PostgreSQL)
#   push:   widgethost-bench push-postgres (the planner into the outbox, claim + record, SQLite beside PostgreSQL)
#   none named: taps and outbox, with their defaults (options alone, as before, go to taps)
# Runs the server as `postgres` (or `nobody`) through runuser when run as root: PostgreSQL refuses root.
set -eu
cd "$(dirname "$0")/.."
what=all
case "${1:-}" in
    taps|outbox|push) what=$1; shift ;;
    "") ;;
    *) what=taps ;;
esac
bin="${WIDGETHOST_POSTGRES_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
[ -x "$bin/initdb" ] || { echo "PostgreSQL server binaries not found: make pg-deps" >&2; exit 1; }
dir="$(mktemp -d /tmp/widgethost-pgbench-XXXXXX)"
as=""
if [ "$(id -u)" = 0 ]; then
    user=postgres; id postgres >/dev/null 2>&1 || user=nobody
    chown "$user" "$dir"; as="runuser -u $user --"
fi
cleanup() { $as "$bin/pg_ctl" -D "$dir/data" stop -m fast -w >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT INT TERM
$as "$bin/initdb" -D "$dir/data" -U widgethost --auth=trust --encoding=UTF8 --locale=C >/dev/null
$as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses='' -k $dir -p 5432 -c shared_buffers=256MB" start >/dev/null
$as "$bin/createdb" -h "$dir" -p 5432 -U widgethost bench
# `make bench-build` builds the benchmarks as the daemon is deployed and prints the binary's path last.
bench=$(make -s --no-print-directory bench-build | tail -n 1)
url="postgresql:///bench?host=$dir&port=5432&user=widgethost"
if [ "$what" = push ]; then
    "$bench" push-postgres --postgres "$url" "$@"
    exit 0
fi
[ "$what" = outbox ] || "$bench" postgres --postgres "$url" "$@"
if [ "$what" != taps ]; then
    [ "$what" = outbox ] || echo
    $as "$bin/createdb" -h "$dir" -p 5432 -U widgethost outbox
    "$bench" outbox --postgres "postgresql:///outbox?host=$dir&port=5432&user=widgethost" "$@"
fi
