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
. Tests/support/test-daemon.sh

SELENIUM_VERSION=4.51.0
VENV=.build/ui-venv
export UI_SCREENSHOTS=${UI_SCREENSHOTS:-.build/ui-screenshots}

for tool in chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "run-ui-tests: $tool is missing; run make ui-deps" >&2; exit 2; }
done

# A venv under .build/, with the pinned Selenium; reused while the version matches.
if ! "$VENV/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM_VERSION')" 2>/dev/null; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "selenium==$SELENIUM_VERSION"
fi

# Monday 2 March 2026, 09:00 UTC (10:00 in Paris).
start_test_daemon run-ui-tests 2026-03-02T09:00:00Z
export UI_TOKEN=$TOKEN UI_URL=$URL
echo "run-ui-tests: daemon at $UI_URL (selenium $SELENIUM_VERSION, $(chromium --version 2>/dev/null | head -n 1))"

status=0
"$VENV/bin/python" Tests/ui/test_dashboard.py -v || status=$?

check_daemon_log run-ui-tests || status=1
echo "run-ui-tests: screenshots in $UI_SCREENSHOTS/"
exit "$status"
