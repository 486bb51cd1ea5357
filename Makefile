# WidgetHost: `make demo` runs the daemon on its embedded defaults, `make test` builds and runs the tests
# (Swift tests, then schemathesis against the live daemon).
# Both first install the Debian packages the C modules need, when they are missing.

SWIFT      ?= swift
APT_PKGS   := libpcre2-dev libsqlite3-dev libmicrohttpd-dev pkg-config libcurl4-openssl-dev libssl-dev openssl libpq-dev
# The PostgreSQL server the tests start a throwaway cluster of (initdb in a temporary directory, Docs/postgres.md);
# only `make test` and `make pg-deps` install it: building and running the daemon need only libpq.
PG_APT_PKGS := postgresql
# The dashboard's browser tests (Tests/ui/) drive Debian's chromium through chromium-driver; only `make test` and
# `make ui-test` install them.
UI_APT_PKGS := chromium chromium-driver
# The apns benchmark's throughput server (and the HTTP benchmark's peer); only `make bench` installs it.
BENCH_APT_PKGS := nginx
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BENCH_CASE ?= all

.PHONY: all deps pydeps ui-deps bench-deps pg-deps build test api-test ui-test example-test demo release bench-build bench fixtures clean

# A user's package over this checkout: its own widget, intent, tables, tests and daemon (Docs/testing-intents.md).
EXAMPLE := Examples/HabitTracker

all: build

# Installs the Debian packages named in $(1) that are missing, so a machine that has everything does no network I/O.
define install_missing
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install_missing,$(APT_PKGS))

# The API test (Tests/api/run-schemathesis.sh) installs schemathesis into a venv under .build/; Debian's python3
# needs python3-venv for that. Installed only when missing.
pydeps:
	@python3 -c 'import venv, ensurepip' 2>/dev/null || { \
		echo "installing: python3 python3-venv"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3 python3-venv; \
	}

# The browser and its driver for the dashboard's tests, installed only when missing.
ui-deps:
	$(call install_missing,$(UI_APT_PKGS))

# nginx for the apns benchmark's throughput server, installed only when missing.
bench-deps:
	$(call install_missing,$(BENCH_APT_PKGS))

# PostgreSQL's server binaries for the tests that need a real server, installed only when missing.
pg-deps:
	$(call install_missing,$(PG_APT_PKGS))

build: deps
	$(SWIFT) build

# Swift tests, then schemathesis against the live daemon (fails on any 5xx or response that breaks the OpenAPI
# document), then the dashboard in a headless browser (about 30 s).
test: build pydeps ui-deps pg-deps
	$(SWIFT) test --no-parallel
	$(MAKE) example-test
	Tests/api/run-schemathesis.sh
	Tests/ui/run-ui-tests.sh

# Builds the example package in its own .build (a path dependency on this checkout) and runs its tests, which
# include its daemon answering over HTTP. A first build compiles WidgetHost again for the example (a few minutes
# on two cores); after that it is incremental.
example-test: deps
	cd $(EXAMPLE) && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build

api-test: build pydeps
	Tests/api/run-schemathesis.sh

# The dashboard's browser tests alone (Selenium in .build/ui-venv, screenshots in .build/ui-screenshots/).
ui-test: build pydeps ui-deps
	Tests/ui/run-ui-tests.sh

# The daemon on its embedded defaults: ./data (fixtures loaded on first start), 127.0.0.1:8787, Routes/.
demo: build
	.build/debug/widgethost serve

# The daemon to deploy: optimized, with the Swift runtime and Foundation linked in (no Swift toolchain needed where
# it runs; about 6 MB less resident memory than linking them as shared libraries), in a build directory of its own,
# which the benchmarks share (`bench-build`) and the tests' debug build leaves alone. Prints the binary's path.
RELEASE_DIR := .build/static
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_DIR)
release: deps
	$(RELEASE_BUILD) --product widgethost
	@echo "$(RELEASE_DIR)/release/widgethost"

# Loads Fixtures/ into a container: `make fixtures DATA=./data`.
DATA ?= ./data
fixtures: build
	.build/debug/widgethost fixtures load --data-dir $(DATA)

# The benchmarks, built as the daemon is deployed (optimized, the Swift runtime linked in) and beside it, so they
# measure the code as it runs there. Prints the binary's path.
bench-build: deps
	$(RELEASE_BUILD) --product widgethost-bench
	@echo "$(RELEASE_DIR)/release/widgethost-bench"

bench: deps pydeps bench-deps bench-build
	$(RELEASE_DIR)/release/widgethost-bench $(BENCH_CASE)

clean:
	rm -rf .build $(EXAMPLE)/.build
