#!/bin/sh
# widgethost-bench postgres on a throwaway PostgreSQL cluster: initdb in a temporary directory (default settings:
# fsync on, synchronous_commit on), listening only on a Unix socket there, removed at the end.
# Usage: Benchmarks/postgres-bench.sh [widgethost-bench postgres options, e.g. --taps 1000000]
#        Benchmarks/postgres-bench.sh push [widgethost-bench push-postgres options, e.g. --changes 4000]
# Runs the server as `postgres` (or `nobody`) through runuser when run as root: PostgreSQL refuses root.
set -eu
cd "$(dirname "$0")/.."
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
swift build -c release --product widgethost-bench
bench=postgres
if [ "${1:-}" = push ]; then bench=push-postgres; shift; fi
.build/release/widgethost-bench "$bench" --postgres "postgresql:///bench?host=$dir&port=5432&user=widgethost" "$@"
