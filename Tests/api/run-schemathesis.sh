#!/usr/bin/env bash
# Runs schemathesis against a live daemon: the built `.build/debug/widgethost serve` on an ephemeral port, a
# virtual clock and a fresh data directory, with a bearer token (so the `ignored_auth` check runs too).
# Fails on any 5xx, any response that breaks the OpenAPI document, and every other check of `--checks all`.
#
# Usage: Tests/api/run-schemathesis.sh            (after `swift build`; `make test` runs it after `swift test`)
# Env:   SCHEMATHESIS_MAX_EXAMPLES (default 25), SCHEMATHESIS_MAX_TIME seconds (default 90)
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/support/test-daemon.sh

SCHEMATHESIS_VERSION=4.32.5
VENV=.build/schemathesis-venv
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-25}
MAX_TIME=${SCHEMATHESIS_MAX_TIME:-90}

# A venv under .build/, with the pinned schemathesis; reused while the version matches.
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $SCHEMATHESIS_VERSION\$"; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

start_test_daemon run-schemathesis 2026-03-01T09:00:00Z
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

check_daemon_log run-schemathesis || status=1
exit "$status"
