#!/usr/bin/env bash
# Runs schemathesis against a live daemon: the built `.build/debug/widgethost serve` on an ephemeral port, a
# virtual clock and a fresh data directory, with a bearer token (so the `ignored_auth` check runs too).
# Fails on any 5xx, any response that breaks the OpenAPI document, and every other check of `--checks all`.
#
# Usage: Tests/api/run-schemathesis.sh            (after `swift build`; `make test` runs it after `swift test`)
# Env:   SCHEMATHESIS_MAX_EXAMPLES (default 25), SCHEMATHESIS_MAX_TIME seconds (default 90)
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION=4.32.5
VENV=.build/schemathesis-venv
BINARY=.build/debug/widgethost
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-25}
MAX_TIME=${SCHEMATHESIS_MAX_TIME:-90}

[ -x "$BINARY" ] || { echo "run-schemathesis: $BINARY is missing; run swift build first" >&2; exit 2; }

# A venv under .build/, with the pinned schemathesis; reused while the version matches.
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $SCHEMATHESIS_VERSION\$"; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

DATA=$(mktemp -d "${TMPDIR:-/tmp}/widgethost-schemathesis.XXXXXX")
TOKEN="schemathesis-$RANDOM$RANDOM"
"$BINARY" serve --data-dir "$DATA/data" --port 0 --clock virtual --clock-start 2026-03-01T09:00:00Z \
    --time-zone Europe/Paris --token "$TOKEN" --log-level warning --json >"$DATA/stdout" 2>"$DATA/stderr" &
DAEMON=$!
stop_daemon() {
    kill -TERM "$DAEMON" 2>/dev/null || true
    wait "$DAEMON" 2>/dev/null || true
    rm -rf "$DATA"
}
trap stop_daemon EXIT

# The daemon prints {"listening": ..., "port": N, "url": ...} on stdout once it serves.
URL=""
for _ in $(seq 1 300); do
    URL=$(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$DATA/stdout" | head -n 1)
    [ -n "$URL" ] && break
    kill -0 "$DAEMON" 2>/dev/null || { echo "run-schemathesis: the daemon exited:" >&2; cat "$DATA/stderr" >&2; exit 1; }
    sleep 0.1
done
[ -n "$URL" ] || { echo "run-schemathesis: the daemon did not start" >&2; exit 1; }
echo "run-schemathesis: daemon at $URL (schemathesis $SCHEMATHESIS_VERSION, $MAX_EXAMPLES examples, ${MAX_TIME}s)"

status=0
"$VENV/bin/schemathesis" --no-color --config-file Tests/api/schemathesis.toml run "$URL/v1/openapi.json" \
    --header "Authorization: Bearer $TOKEN" \
    --checks all \
    --max-examples "$MAX_EXAMPLES" \
    --max-time "$MAX_TIME" \
    --workers 1 \
    --seed 20261129 \
    --request-timeout 20 \
    --generation-database none \
    --suppress-health-check all || status=$?

if grep -q '"level":"error"' "$DATA/stderr"; then
    echo "run-schemathesis: the daemon logged errors:" >&2
    grep '"level":"error"' "$DATA/stderr" | head -n 20 >&2
    status=1
fi
exit "$status"
