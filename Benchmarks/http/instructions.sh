#!/usr/bin/env bash
# The daemon's user-space instructions per request, counted by valgrind's callgrind: the hot endpoints and /healthz,
# each over one keep-alive connection, after a warm-up. The counts repeat from run to run, whatever else the machine
# is doing, so they tell a change to the request path apart where wrk's rates (run-wrk.sh) move by a third between
# runs. They leave out the kernel (about 40 % of the daemon's CPU under wrk), and valgrind counts a `rep stosb` once
# per byte: libmicrohttpd's clearing of each connection's memory (`connectionMemoryLimit`, 16 KiB) shows as about
# 24k instructions of memset a request, which costs the processor a few hundred cycles.
#
#   Benchmarks/http/instructions.sh              # 2000 requests per endpoint
#   REQUESTS=5000 Benchmarks/http/instructions.sh
#   WIDGETHOST=/tmp/widgethost-before Benchmarks/http/instructions.sh   # another build of the daemon, to compare
#
# Measures the deployment build (`make release`), with its debug information stripped from a copy: valgrind 3.19
# cannot read the DWARF 5 the toolchain writes. Installs valgrind (and binutils, for objcopy) with apt-get when
# missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
REQUESTS=${REQUESTS:-2000}
PORT=${PORT:-18803}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
missing=""
command -v valgrind >/dev/null || missing="$missing valgrind"
command -v objcopy >/dev/null || missing="$missing binutils"
if [ -n "$missing" ]; then
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi

# `make release` builds the deployment build and prints its path last.
WIDGETHOST=${WIDGETHOST:-$(make -s --no-print-directory release | tail -n 1)}
work=$(mktemp -d)
cleanup() {
    [ -n "${daemon:-}" ] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
objcopy --strip-debug "$WIDGETHOST" "$work/widgethost"

(cd "$work" && exec valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$work/widgethost" serve --data-dir "$work/data" --port "$PORT" --log-level error \
    > "$work/daemon.out" 2> "$work/daemon.err") &
daemon=$!
for _ in $(seq 1 600); do grep -q listening "$work/daemon.out" 2>/dev/null && break; sleep 0.2; done
grep -q listening "$work/daemon.out" || { cat "$work/daemon.err" >&2; exit 1; }

# Sends `count` requests of one kind on one connection; checks the last answer's status.
send() { # method path body count
    python3 - "$PORT" "$@" <<'PY'
import http.client, sys
port, method, path, body, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] or None, int(sys.argv[5])
connection = http.client.HTTPConnection("127.0.0.1", port)
headers = {"Content-Type": "application/json"} if body else {}
for _ in range(count):
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
if not 200 <= response.status < 300:
    sys.exit(f"{method} {path}: {response.status}")
PY
}

send POST /v1/instances \
    '{"kind":"ProjectProgress","family":"systemSmall","id":"bench","parameters":{"project":"proj-thesis"}}' 1
dumps=0
# Prints a row: instructions per request of one kind, warmed up, counters zeroed, `REQUESTS` sent, counters dumped.
measure() { # name method path body
    local name=$1
    shift
    send "$@" 200
    callgrind_control -z "$daemon" >/dev/null 2>&1
    send "$@" "$REQUESTS"
    callgrind_control -d "$daemon" >/dev/null 2>&1
    dumps=$((dumps + 1))
    local file="$work/callgrind.out.$dumps"
    for _ in $(seq 1 50); do [ -s "$file" ] && grep -q '^summary:' "$file" && break; sleep 0.2; done
    printf '%-44s %14s\n' "$name" "$(awk -v n="$REQUESTS" '/^summary:/ {printf "%d", $2 / n}' "$file")"
}

echo "callgrind, $WIDGETHOST, $REQUESTS requests per endpoint on one keep-alive connection"
printf '%-44s %14s\n' "endpoint" "instructions"
measure "GET /healthz (the server's floor)" GET /healthz ''
measure "GET /v1/instances/{id}/entry?at=" GET '/v1/instances/bench/entry?at=2026-12-01T09:00:00Z' ''
measure "POST /v1/routes/match" POST /v1/routes/match '{"url":"myapp://task/task-3?source=homescreen"}'
echo "(each includes about 24k of memset counted byte by byte; see the head of this script)"
