// Live Activities and pushes view: each activity's life (states, updates, alerts, stale spans, ignored pushes with
// the reason, its chart), the pushes that reached no activity, the push planner's outbox and decisions, and the
// token registry of a device.
"use strict";

(function () {
  const view = {};
  WH.views.activities = view;
  /** The most activities drawn (newest first): each costs three requests per refresh. */
  const shownActivities = 10;

  /** The spans the activity spent stale: from each change to `stale` until the next state change (or now). */
  function staleSpans(history, now) {
    const spans = [];
    let start = null;
    for (const event of history) {
      if (event.kind !== "state") continue;
      if (event.state === "stale" && start === null) start = event.at;
      else if (event.state !== "stale" && start !== null) { spans.push([start, event.at]); start = null; }
    }
    if (start !== null) spans.push([start, now]);
    return spans;
  }

  function what(event) {
    switch (event.kind) {
      case "state": return WH.el("span", { class: "state-" + event.state }, event.state);
      case "content": return [WH.el("code", {}, WH.summary(event.content.state, 140)),
        event.content.staleDate ? ` (stale at ${WH.time(event.content.staleDate)})` : ""];
      case "alert": return `“${event.alert.title}”: ${event.alert.body}`;
      case "token": return WH.el("code", {}, event.token);
      case "ignored": return [WH.el("strong", { class: "ignored-reason" }, event.ignored.reason), ": ",
        event.ignored.detail, event.ignored.event ? ` (event ${event.ignored.event})` : ""];
      default: return event.kind;
    }
  }

  function historyTable(history) {
    const header = WH.el("tr", {}, ["at", "by", "kind", "what"].map((name) => WH.el("th", {}, name)));
    const rows = history.map((event) => WH.el("tr", { class: "event " + event.kind, "data-kind": event.kind,
                                                      "data-state": event.state || "" },
      WH.el("td", {}, WH.time(event.at)), WH.el("td", {}, event.source), WH.el("td", {}, event.kind),
      WH.el("td", {}, what(event))));
    return WH.el("table", { class: "history" }, WH.el("thead", {}, header), WH.el("tbody", {}, rows));
  }

  function card(activity, chart, tokens) {
    const history = activity.history || [];
    const spans = staleSpans(history, WH.clock.now);
    return WH.el("article", { class: "activity", "data-activity": activity.id, "data-state": activity.state },
      WH.el("h3", {}, `${activity.attributesType} `, WH.el("small", {}, activity.id)),
      WH.el("p", {}, "now ", WH.el("strong", { class: "activity-state state-" + activity.state }, activity.state),
        ` · started by ${activity.startedBy} at ${WH.time(activity.startsAt)} · push ${activity.pushType}`,
        activity.endedAt ? ` · ended ${WH.time(activity.endedAt)}` : "",
        activity.dismissesAt ? ` · dismissed at ${WH.time(activity.dismissesAt)}` : ""),
      WH.el("p", {}, "attributes ", WH.el("code", {}, WH.summary(activity.attributes, 160)), WH.el("br"),
        "content ", WH.el("code", {}, WH.summary(activity.content.state, 160)),
        activity.content.staleDate ? ` · stale at ${WH.time(activity.content.staleDate)}` : ""),
      WH.el("p", { class: "stale-spans" }, spans.length ? "stale: " + spans.map(([from, to]) =>
        `${WH.time(from)} → ${WH.time(to)}`).join(", ") : "never stale"),
      WH.el("div", { class: "chart" }, chart),
      historyTable(history),
      tokens.tokens.length ? WH.el("p", { class: "tokens" }, "tokens: ", tokens.tokens.map((token) =>
        WH.el("code", { title: JSON.stringify(token) }, token.token.slice(0, 16) + "… "))) : "");
  }

  function pushTable(rows, columns, empty) {
    if (!rows.length) return WH.el("p", { class: "empty" }, empty);
    return WH.el("table", {}, WH.el("thead", {}, WH.el("tr", {}, columns.map(([name]) => WH.el("th", {}, name)))),
      WH.el("tbody", {}, rows.map((row) => WH.el("tr", {}, columns.map(([, cell]) => WH.el("td", {}, cell(row)))))));
  }

  async function refreshPlanner() {
    const [outbox, decisions, unaddressed] = await Promise.all([
      WH.api("/v1/push/outbox?limit=20"), WH.api("/v1/push/decisions?limit=20"),
      WH.api("/v1/device/pushes/unaddressed"),
    ]);
    WH.fill(document.getElementById("activities-outbox"),
      WH.el("h3", {}, `Outbox: ${outbox.pending} pending, ${outbox.delivered} delivered, ${outbox.failed} failed`),
      pushTable(outbox.pushes, [
        ["due", (p) => WH.time(p.dueAt)], ["activity", (p) => p.activityId], ["event", (p) => p.event],
        ["priority", (p) => p.priority], ["status", (p) => p.status], ["attempts", (p) => p.attempts],
        ["result", (p) => p.lastResult || ""],
      ], "The outbox is empty."),
      WH.el("h3", {}, "Pushes that reached no activity"),
      pushTable(unaddressed.events, [
        ["at", (e) => WH.time(e.at)], ["reason", (e) => e.ignored ? e.ignored.reason : e.kind],
        ["detail", (e) => e.ignored ? e.ignored.detail : ""],
      ], "None."));
    WH.fill(document.getElementById("activities-decisions"),
      WH.el("h3", {}, "Planner decisions (newest)"),
      pushTable(decisions.decisions, [
        ["at", (d) => WH.time(d.at)], ["activity", (d) => d.activityId], ["decision", (d) => d.kind],
        ["reason", (d) => d.reason], ["priority", (d) => d.priority ?? ""], ["due", (d) => WH.time(d.dueAt)],
      ], "No decision yet."));
  }

  view.setUp = function () {
    document.getElementById("tokens-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const device = event.target.elements.device.value.trim();
      const target = document.getElementById("activities-tokens");
      try {
        const list = await WH.api("/v1/push/tokens" + WH.query({ device }));
        WH.fill(target, pushTable(list.tokens, [
          ["token", (t) => WH.el("code", {}, t.token.slice(0, 24) + "…")], ["kind", (t) => t.kind],
          ["type / activity", (t) => t.activityId || t.attributesType || (t.widgetKinds || []).join(", ")],
          ["registered", (t) => WH.time(t.registeredAt)], ["usable", (t) => (t.usable ? "yes" : "no")],
          ["why not", (t) => t.invalidReason || (t.replacedAt ? "replaced " + WH.time(t.replacedAt) : "")],
        ], "No token registered for this device."));
      } catch (error) {
        WH.fill(target, WH.el("p", { class: "error" }, `${error.code}: ${error.message}`));
      }
    });
  };

  view.refresh = async function () {
    const error = document.getElementById("activities-error");
    try {
      const list = await WH.api("/v1/activities");
      const shown = list.activities.slice(0, shownActivities);
      const cards = await Promise.all(shown.map(async (summary) => {
        const id = encodeURIComponent(summary.id);
        const [activity, chart, tokens] = await Promise.all([
          WH.api(`/v1/activities/${id}`), WH.svg(`/v1/activities/${id}/chart.svg`), WH.api(`/v1/activities/${id}/tokens`),
        ]);
        return card(activity, chart, tokens);
      }));
      WH.fill(document.getElementById("activities-list"), cards.length ? cards
        : WH.el("p", { class: "empty" }, "No Live Activity. Start one with POST /v1/activities."),
        list.activities.length > shownActivities
          ? WH.el("p", {}, `…and ${list.activities.length - shownActivities} older ones.`) : "");
      await refreshPlanner();
      WH.showError(error, null);
    } catch (failure) {
      WH.showError(error, failure);
      throw failure;
    }
  };
})();
