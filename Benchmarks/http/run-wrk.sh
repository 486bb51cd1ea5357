#!/usr/bin/env bash
# HTTP load benchmark: the daemon's route-matching and entry-at-T endpoints (and /healthz, the server's own floor)
# against nginx's `return 200`, on the same machine in the same run, with wrk; then the daemon's resident memory
# with the demo catalog, idle and after the load. Prints the load average too: the figures move with it.
#
#   Benchmarks/http/run-wrk.sh            # 10 s per case, 50 connections, 2 wrk threads
#   DURATION=30s CONNECTIONS=50 Benchmarks/http/run-wrk.sh
#   THREADS=1 Benchmarks/http/run-wrk.sh   # the daemon's --threads (default: its own, the core count, at least 2)
#
# Installs wrk and nginx with apt-get when they are missing. Sends traffic to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-50}
DAEMON_PORT=${DAEMON_PORT:-18801}
NGINX_PORT=${NGINX_PORT:-18802}
THREADS=${THREADS:-}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

missing=""
command -v wrk >/dev/null || missing="$missing wrk"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
if [ -n "$missing" ]; then
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# The deployment build: the Swift runtime and Foundation linked in. `make release` prints its path last.
widgethost=$(make -s --no-print-directory release | tail -n 1)
work=$(mktemp -d)
cleanup() {
    [ -n "${daemon:-}" ] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
    [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/nginx"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx;
    proxy_temp_path $work/nginx;
    fastcgi_temp_path $work/nginx;
    uwsgi_temp_path $work/nginx;
    scgi_temp_path $work/nginx;
    server { listen 127.0.0.1:$NGINX_PORT; location / { return 200 '{"status":"ok"}'; } }
}
CONF
"$NGINX" -c "$work/nginx.conf" -p "$work"

"$widgethost" serve --data-dir "$work/data" --port "$DAEMON_PORT" --log-level error \
    ${THREADS:+--threads "$THREADS"} \
    > "$work/daemon.out" 2> "$work/daemon.err" &
daemon=$!
for _ in $(seq 1 100); do grep -q listening "$work/daemon.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
idle_rss=$(awk '/VmRSS/ {print $2}' "/proc/$daemon/status")
idle_anon=$(awk '/RssAnon/ {print $2}' "/proc/$daemon/status")

H=http://127.0.0.1:$DAEMON_PORT
curl -sf -X POST "$H/v1/instances" \
    -d '{"kind":"ProjectProgress","family":"systemSmall","id":"bench","parameters":{"project":"proj-thesis"}}' >/dev/null

names=() rates=() p99s=() notes=()
run() { # name url [script]
    local out
    if [ -n "${3:-}" ]; then
        out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$3" "$2")
    else
        out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$2")
    fi
    names+=("$1")
    rates+=("$(echo "$out" | awk '/Requests\/sec/ {print $2}')")
    p99s+=("$(echo "$out" | awk '$1 == "99%" {print $2}')")
    notes+=("$(echo "$out" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')")
}

echo "wrk -t2 -c$CONNECTIONS -d$DURATION, loopback, client and servers on the same $(nproc) cores" \
     "(daemon threads: ${THREADS:-default})"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run "nginx return 200" "http://127.0.0.1:$NGINX_PORT/"
run "widgethost GET /healthz (the server's floor)" "$H/healthz"
run "widgethost GET /v1/instances/{id}/entry?at=" "$H/v1/instances/bench/entry?at=2026-12-01T09:00:00Z"
run "widgethost POST /v1/routes/match" "$H/v1/routes/match" Benchmarks/http/match.lua
run "nginx return 200 (again)" "http://127.0.0.1:$NGINX_PORT/"
# The share is of nginx's mean over its two runs, which bracket the daemon's: the machine's load moves meanwhile.
nginx_mean=$(awk -v a="${rates[0]}" -v b="${rates[4]}" 'BEGIN {print (a + b) / 2}')
printf '%-44s %12s %10s %8s\n' "case" "requests/s" "p99" "of nginx"
for i in "${!names[@]}"; do
    share=$(awk -v a="${rates[$i]}" -v b="$nginx_mean" 'BEGIN {printf "%.0f%%", 100 * a / b}')
    printf '%-44s %12s %10s %8s %s\n' "${names[$i]}" "${rates[$i]}" "${p99s[$i]}" "$share" "${notes[$i]}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "daemon idle RSS with the demo catalog, before load: $((idle_rss / 1024)) MiB ($idle_rss KiB, of which" \
     "$idle_anon KiB anonymous; goal <= 30 MB)"
echo "daemon RSS after load: $(( $(awk '/VmRSS/ {print $2}' "/proc/$daemon/status") / 1024 )) MiB"
