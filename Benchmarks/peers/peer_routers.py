#!/usr/bin/env python3
"""Times falcon's CompiledRouter and werkzeug's Map on the tables and URL mixes that
`widgethost-bench routes --export Benchmarks/peers/data` generates, and prints their matches per
second beside WidgetHost's (read from data/widgethost-results.json, written by the same run).

    python3 -m venv Benchmarks/peers/.venv
    Benchmarks/peers/.venv/bin/pip install falcon werkzeug
    make bench-build
    .build/static/release/widgethost-bench routes --export Benchmarks/peers/data
    Benchmarks/peers/.venv/bin/python Benchmarks/peers/peer_routers.py

Peers route paths only, so each URL `scheme://host/path` is given to them as `/scheme/host/path`
(the generator writes both forms); query rules are ours alone. A URL counts as matched when the
router finds the route the generator expects.
"""
import json
import os
import re
import sys
import time
from importlib.metadata import version

from falcon.routing import CompiledRouter
from werkzeug.exceptions import NotFound
from werkzeug.routing import Map, Rule

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


class Resource:
    """A falcon resource needs a responder; the name identifies the route."""

    def __init__(self, name):
        self.name = name

    def on_get(self, req, resp, **params):
        pass


def load(size):
    routes, urls = [], []
    with open(os.path.join(DATA, f"routes-{size}.tsv"), encoding="utf-8") as handle:
        for line in handle:
            kind, first, second = line.rstrip("\n").split("\t")
            if kind == "R":
                routes.append((first, second))
            else:
                urls.append((first, None if second == "-" else second))
    return routes, urls


def werkzeug_template(template):
    return re.sub(r"\{(\w+)(?::int)?\}", lambda m: f"<int:{m.group(1)}>" if ":int" in m.group(0) else f"<{m.group(1)}>", template)


def time_router(find, urls, minimum_seconds=0.5):
    """Matches per second in the fastest pass over the URLs (this thread's CPU time), passes
    repeated until they have had minimum_seconds: timed as widgethost-bench times WidgetHost
    (the fastest of many samples of about a millisecond; a pass here takes 2-20 ms)."""
    for path, _ in urls:  # warm-up (falcon compiles on first find)
        find(path)
    best, total = float("inf"), 0
    while total < minimum_seconds * 1e9:
        start = time.thread_time_ns()
        for path, _ in urls:
            find(path)
        elapsed = time.thread_time_ns() - start
        total += elapsed
        best = min(best, elapsed)
    return len(urls) / (best / 1e9)


def main():
    ours = {}
    results_path = os.path.join(DATA, "widgethost-results.json")
    if os.path.exists(results_path):
        with open(results_path, encoding="utf-8") as handle:
            for row in json.load(handle):
                ours[int(row["routes"])] = 1e9 / row["mix"]
    sizes = sorted(int(name[7:-4]) for name in os.listdir(DATA) if name.startswith("routes-") and name.endswith(".tsv"))
    if not sizes:
        sys.exit("no data: run `widgethost-bench routes --export Benchmarks/peers/data` first")

    print(f"falcon {version('falcon')} CompiledRouter, werkzeug {version('werkzeug')} Map; Python {sys.version.split()[0]}")
    print("| routes | WidgetHost matches/s | falcon matches/s | werkzeug matches/s | falcon agrees | werkzeug agrees |")
    print("|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        routes, urls = load(size)
        falcon_router = CompiledRouter()
        for name, template in routes:
            falcon_router.add_route(template, Resource(name))
        werkzeug_map = Map([Rule(werkzeug_template(template), endpoint=name) for name, template in routes])
        adapter = werkzeug_map.bind("localhost")

        def falcon_find(path):
            found = falcon_router.find(path)
            return found[0].name if found else None

        def werkzeug_find(path):
            try:
                return adapter.match(path)[0]
            except NotFound:
                return None

        falcon_agrees = sum(falcon_find(path) == expected for path, expected in urls) / len(urls)
        werkzeug_agrees = sum(werkzeug_find(path) == expected for path, expected in urls) / len(urls)
        falcon_rate = time_router(falcon_find, urls)
        werkzeug_rate = time_router(werkzeug_find, urls, minimum_seconds=0.5 if size <= 1000 else 1.0)
        ours_rate = f"{ours[size]:,.0f}" if size in ours else "-"
        print(f"| {size:,} | {ours_rate} | {falcon_rate:,.0f} | {werkzeug_rate:,.0f} | {falcon_agrees:.0%} | {werkzeug_agrees:.0%} |")


if __name__ == "__main__":
    main()
