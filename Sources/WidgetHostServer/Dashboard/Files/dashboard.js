// WidgetHost dashboard: the shared part. Talks to the daemon's /v1 API only (same origin), with the token the user
// typed once (kept in this tab's sessionStorage, never in a cookie or a URL). Each view registers itself in
// WH.views; the one shown is refreshed every 2 seconds while the tab is visible, and not at all while it is hidden.
"use strict";

const WH = {
  views: {},
  pollMilliseconds: 2000,
  tokenKey: "widgethost.token",
  clock: null,
};

/** Creates an element: WH.el("td", {class: "x", "data-id": id}, "text", child, ...). Text is never parsed as HTML. */
WH.el = function (tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
};

/** Replaces the children of `element` with `children`. */
WH.fill = function (element, ...children) {
  element.replaceChildren();
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) element.append(child);
  }
  return element;
};

/** An API error: the daemon's stable code and message, or the HTTP status. */
class APIRequestError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Calls the API: `path` under the daemon, JSON body for `body`; answers parsed JSON, or text for other types. */
WH.api = async function (path, { method = "GET", body, accept } = {}) {
  const headers = {};
  const token = sessionStorage.getItem(WH.tokenKey);
  if (token) headers["Authorization"] = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (accept) headers["Accept"] = accept;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store",
  });
  const type = response.headers.get("Content-Type") || "";
  const payload = type.startsWith("application/json") ? await response.json() : await response.text();
  if (!response.ok) {
    const code = payload && payload.code ? payload.code : "http_" + response.status;
    const message = payload && payload.message ? payload.message : String(payload).slice(0, 200);
    if (response.status === 401) WH.askForToken(message);
    throw new APIRequestError(response.status, code, message);
  }
  return payload;
};

/** A query string from an object, leaving out empty values. */
WH.query = function (parameters) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== "") search.append(name, value);
  }
  const text = search.toString();
  return text ? "?" + text : "";
};

/** Fetches an SVG from the API (with the token, which an <img> could not send) and returns it as a DOM node. */
WH.svg = async function (path) {
  const text = await WH.api(path, { accept: "image/svg+xml" });
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.nodeName !== "svg") throw new APIRequestError(0, "bad_svg", "the chart is not an SVG document");
  root.querySelectorAll("script, foreignObject").forEach((node) => node.remove());
  return document.importNode(root, true);
};

/** `2026-03-01T09:00:00Z` as `2026-03-01 09:00:00 UTC`, or in the daemon's zone when it is known. */
WH.time = function (iso, { zone } = {}) {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const timeZone = zone || (WH.clock && WH.clock.timeZone) || "UTC";
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
    second: "2-digit", hourCycle: "h23",
  }).formatToParts(date);
  const part = (type) => (parts.find((p) => p.type === type) || {}).value;
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}:${part("second")}`;
};

/** A short one-line text of a JSON value: its scalar members, `key: value`, comma-separated. */
WH.summary = function (value, limit = 80) {
  let text;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    text = Object.entries(value)
      .filter(([, member]) => member === null || typeof member !== "object")
      .map(([key, member]) => `${key}: ${member}`).join(", ");
  } else {
    text = JSON.stringify(value);
  }
  return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
};

/** Shows an error in a view's error line (or clears it with null). */
WH.showError = function (element, error) {
  if (!error) { element.hidden = true; element.textContent = ""; return; }
  element.hidden = false;
  element.textContent = error.code ? `${error.code}: ${error.message}` : String(error.message || error);
};

// MARK: the token

WH.askForToken = function (reason) {
  const form = document.getElementById("token-form");
  form.hidden = false;
  document.getElementById("token-reason").textContent = reason ? `(The API said: ${reason}.)` : "";
};

function setUpToken() {
  const form = document.getElementById("token-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = document.getElementById("token-input");
    const value = input.value.trim();
    if (value) sessionStorage.setItem(WH.tokenKey, value);
    else sessionStorage.removeItem(WH.tokenKey);
    input.value = "";
    form.hidden = true;
    WH.refreshNow();
  });
  document.getElementById("token-forget").addEventListener("click", () => {
    sessionStorage.removeItem(WH.tokenKey);
    WH.askForToken("The token was forgotten.");
  });
}

// MARK: the clock

/** Seconds from `now` to the next midnight in `zone` (checked, so a daylight-saving day still lands on 00:00). */
WH.secondsToMidnight = function (now, zone) {
  const clock = (date) => {
    const parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    }).formatToParts(date);
    const get = (type) => Number((parts.find((p) => p.type === type) || {}).value);
    return get("hour") * 3600 + get("minute") * 60 + get("second");
  };
  let seconds = 86400 - clock(now);
  for (let tries = 0; tries < 3; tries++) {
    const local = clock(new Date(now.getTime() + seconds * 1000));
    if (local === 0) break;
    seconds += local > 43200 ? 86400 - local : -local;
  }
  return seconds;
};

async function refreshClock() {
  const clock = await WH.api("/v1/clock");
  WH.clock = clock;
  document.getElementById("clock-now").textContent = WH.time(clock.now);
  document.getElementById("clock-zone").textContent = `${clock.timeZone}, ${clock.mode} clock`;
  document.getElementById("clock-controls").hidden = clock.mode !== "virtual";
}

async function moveClock(action) {
  const status = document.getElementById("clock-error");
  try {
    const now = new Date(WH.clock.now);
    let change;
    if (action === "midnight") {
      change = await WH.api("/v1/clock/advance", {
        method: "POST", body: { seconds: WH.secondsToMidnight(now, WH.clock.timeZone) },
      });
    } else if (action === "to") {
      const text = document.getElementById("clock-target").value.trim();
      change = await WH.api("/v1/clock", { method: "PUT", body: { now: text } });
    } else {
      change = await WH.api("/v1/clock/advance", { method: "POST", body: { seconds: Number(action) } });
    }
    WH.showError(status, null);
    document.getElementById("clock-last").textContent =
      `moved to ${WH.time(change.now)}; ${change.reloads.length} reload(s) ran`;
  } catch (error) {
    WH.showError(status, error);
  }
  WH.refreshNow();
}

function setUpClock() {
  for (const button of document.querySelectorAll("[data-clock]")) {
    button.addEventListener("click", () => moveClock(button.dataset.clock));
  }
  document.getElementById("clock-form").addEventListener("submit", (event) => {
    event.preventDefault();
    moveClock("to");
  });
}

// MARK: views and polling

function currentViewName() {
  const name = location.hash.replace(/^#/, "");
  return WH.views[name] ? name : "widgets";
}

function showView() {
  const name = currentViewName();
  for (const section of document.querySelectorAll("main > section")) {
    section.hidden = section.dataset.view !== name;
  }
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("current", link.getAttribute("href") === "#" + name);
  }
  WH.refreshNow();
}

let refreshing = null;
let again = false;

/** Refreshes the clock and the current view now; a request during a refresh runs one more after it. */
WH.refreshNow = async function () {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    const line = document.getElementById("refresh-status");
    try {
      await refreshClock();
      await WH.views[currentViewName()].refresh();
      line.textContent = "updated " + new Date().toLocaleTimeString();
      line.classList.remove("failed");
      document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
    } catch (error) {
      line.textContent = error.code ? `${error.code}: ${error.message}` : String(error.message || error);
      line.classList.add("failed");
    }
  })();
  await refreshing;
  refreshing = null;
  if (again) { again = false; return WH.refreshNow(); }
};

function startPolling() {
  // A timer per tick rather than setInterval: a slow refresh never stacks up behind itself.
  const tick = async () => {
    if (document.visibilityState === "visible") await WH.refreshNow();
    setTimeout(tick, WH.pollMilliseconds);
  };
  setTimeout(tick, WH.pollMilliseconds);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") WH.refreshNow();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  setUpToken();
  setUpClock();
  for (const view of Object.values(WH.views)) if (view.setUp) view.setUp();
  window.addEventListener("hashchange", showView);
  showView();
  startPolling();
});
