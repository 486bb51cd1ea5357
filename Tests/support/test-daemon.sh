# Sourced by the scripts that test a live daemon (Tests/api/run-schemathesis.sh, Tests/ui/run-ui-tests.sh).
#
# start_test_daemon NAME CLOCK_START: starts the built `.build/debug/widgethost serve` on an ephemeral port, a
# virtual clock from CLOCK_START (Europe/Paris), a fresh data directory and a random bearer token; stops it and
# removes the directory when the script exits. Sets DAEMON (pid), DATA (the directory), TOKEN and URL.
# check_daemon_log NAME: prints the daemon's error lines and returns 1 when it logged any.

BINARY=.build/debug/widgethost

start_test_daemon() {
    local name=$1 clock_start=$2
    [ -x "$BINARY" ] || { echo "$name: $BINARY is missing; run swift build first" >&2; exit 2; }
    DATA=$(mktemp -d "${TMPDIR:-/tmp}/widgethost-$name.XXXXXX")
    TOKEN="$name-$RANDOM$RANDOM"
    "$BINARY" serve --data-dir "$DATA/data" --port 0 --clock virtual --clock-start "$clock_start" \
        --time-zone Europe/Paris --token "$TOKEN" --log-level warning --json >"$DATA/stdout" 2>"$DATA/stderr" &
    DAEMON=$!
    trap stop_test_daemon EXIT

    # The daemon prints {"listening": ..., "port": N, "url": ...} on stdout once it serves.
    URL=""
    for _ in $(seq 1 300); do
        URL=$(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$DATA/stdout" | head -n 1)
        [ -n "$URL" ] && break
        kill -0 "$DAEMON" 2>/dev/null || { echo "$name: the daemon exited:" >&2; cat "$DATA/stderr" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$URL" ] || { echo "$name: the daemon did not start" >&2; exit 1; }
}

stop_test_daemon() {
    kill -TERM "$DAEMON" 2>/dev/null || true
    wait "$DAEMON" 2>/dev/null || true
    rm -rf "$DATA"
}

check_daemon_log() {
    if grep -q '"level":"error"' "$DATA/stderr"; then
        echo "$1: the daemon logged errors:" >&2
        grep '"level":"error"' "$DATA/stderr" | head -n 20 >&2
        return 1
    fi
}
