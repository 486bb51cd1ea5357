#!/usr/bin/env bash
# Runs the dashboard's browser tests: Selenium (pinned, in a venv under .build/) driving Debian's chromium headless
# through chromium-driver, against the built `.build/debug/widgethost serve` on an ephemeral port, a virtual clock,
# a fresh data directory and a bearer token (which the tests type into the page, as a user would).
# Screenshots of every view go to .build/ui-screenshots/.
#
# Usage: Tests/ui/run-ui-tests.sh            (after `swift build`; `make test` runs it after schemathesis)
# Needs: chromium and chromium-driver (`make ui-deps` installs them), python3-venv (`make pydeps`).
set -euo pipefail
cd "$(dirname "$0")/../.."

SELENIUM_VERSION=4.51.0
VENV=.build/ui-venv
BINARY=.build/debug/widgethost
export UI_SCREENSHOTS=${UI_SCREENSHOTS:-.build/ui-screenshots}

[ -x "$BINARY" ] || { echo "run-ui-tests: $BINARY is missing; run swift build first" >&2; exit 2; }
for tool in chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "run-ui-tests: $tool is missing; run make ui-deps" >&2; exit 2; }
done

# A venv under .build/, with the pinned Selenium; reused while the version matches.
if ! "$VENV/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM_VERSION')" 2>/dev/null; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "selenium==$SELENIUM_VERSION"
fi

DATA=$(mktemp -d "${TMPDIR:-/tmp}/widgethost-ui.XXXXXX")
export UI_TOKEN="ui-$RANDOM$RANDOM"
# Monday 2 March 2026, 09:00 UTC (10:00 in Paris).
"$BINARY" serve --data-dir "$DATA/data" --port 0 --clock virtual --clock-start 2026-03-02T09:00:00Z \
    --time-zone Europe/Paris --token "$UI_TOKEN" --log-level warning --json >"$DATA/stdout" 2>"$DATA/stderr" &
DAEMON=$!
stop_daemon() {
    kill -TERM "$DAEMON" 2>/dev/null || true
    wait "$DAEMON" 2>/dev/null || true
    rm -rf "$DATA"
}
trap stop_daemon EXIT

# The daemon prints {"listening": ..., "port": N, "url": ...} on stdout once it serves.
UI_URL=""
for _ in $(seq 1 300); do
    UI_URL=$(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$DATA/stdout" | head -n 1)
    [ -n "$UI_URL" ] && break
    kill -0 "$DAEMON" 2>/dev/null || { echo "run-ui-tests: the daemon exited:" >&2; cat "$DATA/stderr" >&2; exit 1; }
    sleep 0.1
done
[ -n "$UI_URL" ] || { echo "run-ui-tests: the daemon did not start" >&2; exit 1; }
export UI_URL
echo "run-ui-tests: daemon at $UI_URL (selenium $SELENIUM_VERSION, $(chromium --version 2>/dev/null | head -n 1))"

status=0
"$VENV/bin/python" Tests/ui/test_dashboard.py -v || status=$?

if grep -q '"level":"error"' "$DATA/stderr"; then
    echo "run-ui-tests: the daemon logged errors:" >&2
    grep '"level":"error"' "$DATA/stderr" | head -n 20 >&2
    status=1
fi
echo "run-ui-tests: screenshots in $UI_SCREENSHOTS/"
exit "$status"
