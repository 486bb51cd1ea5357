# WidgetHost: `make demo` runs the daemon on its embedded defaults, `make test` builds and runs the tests.
# Both first install the Debian packages the C modules need, when they are missing.

SWIFT      ?= swift
APT_PKGS   := libpcre2-dev libsqlite3-dev libmicrohttpd-dev pkg-config
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BENCH_CASE ?= all

.PHONY: all deps build test demo bench fixtures clean

all: build

# Installs only what is missing, so a machine that has everything does no network I/O.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

test: build
	$(SWIFT) test

demo: build
	.build/debug/widgethost demo

# Loads Fixtures/ into a container: `make fixtures DATA=./data`.
DATA ?= ./data
fixtures: build
	.build/debug/widgethost fixtures load --data-dir $(DATA)

bench: deps
	$(SWIFT) build -c release --product widgethost-bench
	.build/release/widgethost-bench $(BENCH_CASE)

clean:
	rm -rf .build
