// Taps view: the hour × weekday heat map and the per-route series (the API's SVGs), the counts table, the broken
// links with the route each probably meant, and a CSV download, all under the same filters.
"use strict";

(function () {
  const view = {};
  WH.views.taps = view;
  let choicesLoaded = false;

  /** The report's query parameters from the filter form (empty fields left out). */
  function filters({ withGrouping = true } = {}) {
    const form = document.getElementById("taps-filters");
    const parameters = {};
    for (const name of ["route", "kind", "family", "source", "from", "to", "timeZone"]) {
      parameters[name] = form.elements[name].value.trim();
    }
    if (withGrouping) {
      parameters.groupBy = form.elements.groupBy.value;
      parameters.bucket = form.elements.bucket.value;
    }
    return parameters;
  }

  /** Fills a <select> with `values` after its first ("any") option, keeping the current choice. */
  function options(select, values) {
    const chosen = select.value;
    const first = select.options[0];
    WH.fill(select, first, values.map((value) => WH.el("option", { value }, value)));
    select.value = values.includes(chosen) ? chosen : "";
  }

  /** Route, kind, family, source and time-zone choices: from the route table, the catalog and the API document. */
  async function loadChoices() {
    const form = document.getElementById("taps-filters");
    const [routes, kinds, document_] = await Promise.all([
      WH.api("/v1/routes"), WH.api("/v1/kinds"), WH.api("/v1/openapi.json"),
    ]);
    options(form.elements.route, routes.routes.map((route) => route.name).concat(["(unmatched)"]));
    options(form.elements.kind, kinds.kinds.map((kind) => kind.kind));
    options(form.elements.family, [...new Set(kinds.kinds.flatMap((kind) => kind.families))].sort());
    const parameters = document_.paths["/v1/taps/report"].get.parameters;
    const values = (name) => (parameters.find((p) => p.name === name).schema.enum || []);
    options(form.elements.source, values("source"));
    options(form.elements.timeZone, values("timeZone").filter((zone) => zone !== "UTC"));
    choicesLoaded = true;
  }

  function reportTable(report) {
    const columns = report.groupBy.slice();
    if (report.bucket) columns.push("bucket");
    const header = WH.el("tr", {}, columns.map((column) => WH.el("th", {}, column)),
      WH.el("th", {}, "taps"), WH.el("th", {}, "suspicious"));
    const rows = report.rows.map((row) => WH.el("tr", { class: "report-row" },
      columns.map((column) => WH.el("td", { "data-column": column }, row[column] ?? "")),
      WH.el("td", { class: "number", "data-column": "taps" }, row.taps),
      WH.el("td", { class: "number", "data-column": "suspicious" }, row.suspicious)));
    return [WH.el("thead", {}, header), WH.el("tbody", {}, rows.length ? rows
      : WH.el("tr", {}, WH.el("td", { colspan: columns.length + 2, class: "empty" }, "no taps")))];
  }

  function unmatchedTable(list) {
    const header = WH.el("tr", {}, ["URL", "taps", "last tapped", "nearest route", "why"].map((name) =>
      WH.el("th", {}, name)));
    const rows = list.urls.map((url) => WH.el("tr", { class: "unmatched", "data-url": url.url },
      WH.el("td", {}, WH.el("code", {}, url.url)), WH.el("td", { class: "number" }, url.taps),
      WH.el("td", {}, WH.time(url.lastTapped)),
      WH.el("td", { class: "nearest-route" }, url.nearestRoute ? url.nearestRoute.route : "—"),
      WH.el("td", {}, url.nearestRoute ? url.nearestRoute.explanation : "no route is near")));
    return [WH.el("thead", {}, header), WH.el("tbody", {}, rows.length ? rows
      : WH.el("tr", {}, WH.el("td", { colspan: 5, class: "empty" }, "no broken links")))];
  }

  view.setUp = function () {
    const form = document.getElementById("taps-filters");
    form.addEventListener("change", () => WH.refreshNow());
    form.addEventListener("submit", (event) => { event.preventDefault(); WH.refreshNow(); });
    document.getElementById("taps-csv").addEventListener("click", async () => {
      try {
        const csv = await WH.api("/v1/taps/report" + WH.query({ ...filters(), format: "csv" }));
        const link = WH.el("a", { href: URL.createObjectURL(new Blob([csv], { type: "text/csv" })),
                                  download: "taps.csv" });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      } catch (error) {
        WH.showError(document.getElementById("taps-error"), error);
      }
    });
  };

  view.refresh = async function () {
    const error = document.getElementById("taps-error");
    try {
      if (!choicesLoaded) await loadChoices();
      const query = WH.query(filters());
      const range = filters({ withGrouping: false });
      const [report, unmatched, heatMap, series] = await Promise.all([
        WH.api("/v1/taps/report" + query),
        WH.api("/v1/taps/unmatched" + WH.query({ from: range.from, to: range.to, limit: 50 })),
        WH.svg("/v1/taps/heatmap.svg" + WH.query(range)),
        WH.svg("/v1/taps/series.svg" + WH.query({ ...range, bucket: filters().bucket })),
      ]);
      WH.fill(document.getElementById("taps-table"), reportTable(report));
      document.getElementById("taps-total").textContent =
        `${report.totalTaps} taps, ${report.totalSuspicious} suspicious`;
      WH.fill(document.getElementById("taps-unmatched"), unmatchedTable(unmatched));
      WH.fill(document.getElementById("taps-heatmap"), heatMap);
      WH.fill(document.getElementById("taps-series"), series);
      WH.showError(error, null);
    } catch (failure) {
      WH.showError(error, failure);
      throw failure;
    }
  };
})();
