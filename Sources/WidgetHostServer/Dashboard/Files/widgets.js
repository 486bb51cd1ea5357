// Widgets view: placed instances by kind and family, each with its timeline strip (entries, the one shown now,
// past and next reloads), its budget and the doctor's diagnostics.
"use strict";

(function () {
  const view = {};
  WH.views.widgets = view;

  /** The strip's span: from the first entry (or the earliest reload shown) to past the last entry and the next reload. */
  function span(entries, reloads, nextReload, now) {
    const times = entries.map((entry) => Date.parse(entry.date));
    times.push(now);
    for (const reload of reloads) times.push(Date.parse(reload.ranAt));
    if (nextReload) times.push(Date.parse(nextReload.dueAt));
    let start = Math.min(...times);
    let end = Math.max(...times);
    const margin = Math.max((end - start) * 0.04, 60_000);
    return { start: start - margin, end: end + margin };
  }

  /** The timeline strip: one segment per entry (from its date to the next one's), a now line, reload marks. */
  function strip(instance, timeline, reloads, now) {
    const entries = timeline ? timeline.entries : [];
    const range = span(entries, reloads, instance.nextReload, now);
    const position = (time) => (100 * (time - range.start)) / (range.end - range.start);
    const shownDate = instance.currentEntry ? instance.currentEntry.date : null;
    const bar = WH.el("div", { class: "strip", "data-instance": instance.id });
    entries.forEach((entry, index) => {
      const from = Date.parse(entry.date);
      const to = index + 1 < entries.length ? Date.parse(entries[index + 1].date) : range.end;
      const shown = entry.date === shownDate;
      const segment = WH.el("div", {
        class: "entry" + (shown ? " shown" : ""), "data-entry-date": entry.date,
        title: `${WH.time(entry.date)}\n${WH.summary(entry.content, 400)}`,
      }, WH.el("span", {}, WH.time(entry.date).slice(11, 16)));
      segment.style.left = position(from) + "%";
      segment.style.width = Math.max(position(to) - position(from), 0.4) + "%";
      bar.append(segment);
    });
    for (const reload of reloads) {
      const mark = WH.el("div", { class: "reload-mark", title: `${reload.reason} at ${WH.time(reload.ranAt)}` });
      mark.style.left = position(Date.parse(reload.ranAt)) + "%";
      bar.append(mark);
    }
    if (instance.nextReload) {
      const next = instance.nextReload;
      const mark = WH.el("div", {
        class: "reload-mark next" + (next.deferredByBudget ? " deferred" : ""),
        title: `next: ${next.reason} at ${WH.time(next.dueAt)}`,
      });
      mark.style.left = position(Date.parse(next.dueAt)) + "%";
      bar.append(mark);
    }
    const nowLine = WH.el("div", { class: "now-line", title: "now " + WH.time(new Date(now).toISOString()) });
    nowLine.style.left = position(now) + "%";
    bar.append(nowLine);
    const axis = WH.el("div", { class: "strip-axis" },
      WH.el("span", {}, WH.time(new Date(range.start).toISOString()).slice(0, 16)),
      WH.el("span", { class: "legend" }, WH.el("i", { class: "key shown" }), "shown ", WH.el("i", { class: "key now" }),
        "now ", WH.el("i", { class: "key reload" }), "reload ", WH.el("i", { class: "key next" }), "next reload"),
      WH.el("span", {}, WH.time(new Date(range.end).toISOString()).slice(0, 16)));
    return WH.el("div", { class: "timeline" }, bar, axis);
  }

  function budget(instance) {
    const b = instance.budget;
    const meter = WH.el("meter", { min: 0, max: b.limit, value: b.used, low: b.limit * 0.7, high: b.limit * 0.9,
                                    optimum: 0 });
    return WH.el("div", { class: "budget" },
      WH.el("strong", {}, "Budget "), meter,
      ` ${b.used} used, `, WH.el("span", { class: "budget-left" }, String(b.remaining)),
      ` left of ${b.limit} per ${Math.round(b.windowSeconds / 3600)} h`,
      b.remaining === 0 ? ` (next allowed ${WH.time(b.nextAllowedReload)})` : "");
  }

  function reloadList(instance, reloads) {
    const rows = reloads.slice(0, 8).map((reload) => WH.el("tr", {},
      WH.el("td", {}, WH.time(reload.ranAt)), WH.el("td", { class: "reason" }, reload.reason),
      WH.el("td", {}, reload.chargedInstanceIds.includes(instance.id) ? "charged" : "free"),
      WH.el("td", {}, reload.outcome)));
    const next = instance.nextReload;
    return WH.el("div", { class: "reloads" },
      WH.el("strong", {}, "Reloads"),
      next ? WH.el("p", { class: "next-reload" },
        `next: ${next.reason} at ${WH.time(next.dueAt)}`, next.deferredByBudget ? " (deferred by the budget)" : "")
        : WH.el("p", {}, "no reload scheduled"),
      rows.length ? WH.el("table", {}, WH.el("thead", {}, WH.el("tr", {},
        WH.el("th", {}, "ran at"), WH.el("th", {}, "reason"), WH.el("th", {}, "budget"), WH.el("th", {}, "outcome"))),
      WH.el("tbody", {}, rows)) : "");
  }

  function diagnostics(instance) {
    if (!instance.diagnostics.length) return WH.el("p", { class: "diagnostics ok" }, "The doctor finds nothing wrong.");
    return WH.el("ul", { class: "diagnostics" }, instance.diagnostics.map((finding) =>
      WH.el("li", { class: "severity-" + finding.severity, "data-code": finding.code },
        WH.el("strong", {}, `${finding.severity} ${finding.code}: `), finding.message)));
  }

  function card(instance, timeline, reloads, now) {
    const entry = instance.currentEntry;
    return WH.el("article", { class: "instance", "data-instance": instance.id },
      WH.el("h3", {}, instance.id, WH.el("small", {}, ` ${instance.kind} · ${instance.family}`)),
      strip(instance, timeline, reloads, now),
      WH.el("div", { class: "shown-entry", "data-entry-date": entry ? entry.date : "" },
        WH.el("strong", {}, "Shown now: "),
        entry ? [WH.el("time", {}, WH.time(entry.date)), " — ", WH.el("code", {}, WH.summary(entry.content, 160))]
          : "no timeline yet"),
      WH.el("div", { class: "instance-facts" }, budget(instance), reloadList(instance, reloads)),
      diagnostics(instance));
  }

  async function details(id) {
    const [state, timeline, reloads] = await Promise.all([
      WH.api(`/v1/instances/${encodeURIComponent(id)}`),
      WH.api(`/v1/instances/${encodeURIComponent(id)}/timeline`).catch((error) => {
        if (error.code === "timeline_unavailable" || error.status === 409) return null;
        throw error;
      }),
      WH.api(`/v1/instances/${encodeURIComponent(id)}/reloads?limit=20`),
    ]);
    return { state, timeline, reloads: reloads.reloads };
  }

  view.refresh = async function () {
    const root = document.getElementById("widgets-list");
    const error = document.getElementById("widgets-error");
    try {
      const list = await WH.api("/v1/instances");
      const all = await Promise.all(list.instances.map((instance) => details(instance.id)));
      const now = Date.parse(WH.clock.now);
      const byKind = new Map();
      for (const item of all) {
        const key = item.state.kind;
        if (!byKind.has(key)) byKind.set(key, new Map());
        const families = byKind.get(key);
        if (!families.has(item.state.family)) families.set(item.state.family, []);
        families.get(item.state.family).push(item);
      }
      const groups = [...byKind.keys()].sort().map((kind) => WH.el("section", { class: "kind", "data-kind": kind },
        WH.el("h2", {}, kind),
        [...byKind.get(kind).keys()].sort().map((family) => WH.el("div", { class: "family", "data-family": family },
          WH.el("h4", {}, family),
          byKind.get(kind).get(family).map((item) => card(item.state, item.timeline, item.reloads, now))))));
      WH.fill(root, groups.length ? groups : WH.el("p", { class: "empty" },
        "No widget is placed. Place one with POST /v1/instances."));
      WH.showError(error, null);
    } catch (failure) {
      WH.showError(error, failure);
      throw failure;
    }
  };
})();
