// Stacks view: each Smart Stack's ranking at the chosen time (default now), with each score's parts and weights and
// why the top is what it is.
"use strict";

(function () {
  const view = {};
  WH.views.stacks = view;

  const number = (value, digits = 3) => (value === undefined || value === null ? "—" : Number(value).toFixed(digits));

  function decisionText(decision) {
    switch (decision.outcome) {
      case "kept-minimum-dwell": return `kept: ${decision.challenger} leads, but the top stays until ${WH.time(decision.until)}`;
      case "kept-within-margin": return `kept: ${decision.challenger} leads by ${number(decision.lead)}, within the margin`;
      case "rotated": return `rotated${decision.from ? " from " + decision.from : ""}`;
      default: return decision.outcome;
    }
  }

  function rankingTable(ranking) {
    const policy = ranking.policy;
    const header = WH.el("tr", {}, ["#", "instance", "kind · family", "total",
      `entry ×${policy.entryWeight}`, `donations ×${policy.donationWeight}`, `context ×${policy.contextWeight}`,
      `taps ×${policy.tapWeight}`, "eligible"].map((name) => WH.el("th", {}, name)));
    const rows = ranking.instances.map((item) => {
      const parts = item.parts;
      const entry = parts.entryState === "none" ? "none"
        : `${number(parts.entryNormalised)} (${parts.entryState}, score ${number(parts.entryScore, 2)}` +
          ` of ${number(parts.entryScale, 2)})`;
      const classes = ["ranked", item.instance === ranking.top ? "top" : "", item.eligible ? "" : "ineligible"];
      return WH.el("tr", { class: classes.join(" ").trim(), "data-instance": item.instance },
        WH.el("td", { class: "number" }, item.position), WH.el("td", {}, item.instance),
        WH.el("td", {}, `${item.kind} · ${item.family}`), WH.el("td", { class: "number total" }, number(item.total)),
        WH.el("td", {}, entry), WH.el("td", {}, `${number(parts.donation)} (${parts.donationCount})`),
        WH.el("td", { class: "number" }, number(parts.context)),
        WH.el("td", {}, `${number(parts.taps)} (${parts.tapCount} taps)`), WH.el("td", {}, item.eligible ? "yes" : "no"));
    });
    return WH.el("table", {}, WH.el("thead", {}, header), WH.el("tbody", {}, rows));
  }

  function card(ranking) {
    return WH.el("article", { class: "stack", "data-stack": ranking.stack },
      WH.el("h3", {}, ranking.stack),
      WH.el("p", {}, "Top at ", WH.time(ranking.evaluatedAt), ": ",
        WH.el("strong", { class: "stack-top" }, ranking.top || "(empty stack)"),
        ranking.topSince ? ` since ${WH.time(ranking.topSince)}` : "", " — ",
        WH.el("span", { class: "decision" }, decisionText(ranking.decision))),
      ranking.instances.length ? rankingTable(ranking) : "",
      WH.el("small", {}, `taps half-life ${ranking.policy.tapHalfLifeSeconds / 3600} h, donations half-life ` +
        `${ranking.policy.donationHalfLifeSeconds / 3600} h, minimum dwell ${ranking.policy.minimumDwellSeconds / 60} min, ` +
        `margin ${ranking.policy.hysteresisMargin}`));
  }

  view.setUp = function () {
    document.getElementById("stacks-form").addEventListener("submit", (event) => {
      event.preventDefault();
      WH.refreshNow();
    });
  };

  view.refresh = async function () {
    const error = document.getElementById("stacks-error");
    try {
      const at = document.getElementById("stacks-form").elements.at.value.trim();
      const list = await WH.api("/v1/stacks");
      const rankings = await Promise.all(list.stacks.map((stack) =>
        WH.api(`/v1/stacks/${encodeURIComponent(stack.id)}/ranking` + WH.query({ at }))));
      WH.fill(document.getElementById("stacks-list"), rankings.length ? rankings.map(card)
        : WH.el("p", { class: "empty" }, "No stack. Create one with POST /v1/stacks."));
      WH.showError(error, null);
    } catch (failure) {
      WH.showError(error, failure);
      throw failure;
    }
  };
})();
