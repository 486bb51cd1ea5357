"""The dashboard in a real browser: Debian's chromium, headless, driven by Selenium through chromium-driver against a
live daemon on a virtual clock (started by Tests/ui/run-ui-tests.sh, which passes UI_URL and UI_TOKEN).

What the page shows is checked against what the /v1 API answers at the same moment, so a test fails when the page
drops, invents or mislabels data. The tests run in order (each builds on the state the previous ones left) and save
a screenshot of each view to UI_SCREENSHOTS.
"""

import collections
import datetime
import json
import os
import time
import unittest
import urllib.error
import urllib.request
from zoneinfo import ZoneInfo

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ["UI_URL"]
TOKEN = os.environ["UI_TOKEN"]
SCREENSHOTS = os.environ.get("UI_SCREENSHOTS", ".build/ui-screenshots")
WAIT_SECONDS = 20


def api(method, path, body=None, token=TOKEN, headers=None):
    """Calls the API; returns (status, parsed JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, method=method, headers=headers or {})
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw, kind = response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, raw, kind = error.code, error.read(), error.headers.get("Content-Type", "")
    text = raw.decode()
    return status, (json.loads(text) if kind.startswith("application/json") and text else text)


def ok(method, path, body=None):
    status, payload = api(method, path, body)
    assert 200 <= status < 300, f"{method} {path} answered {status}: {payload}"
    return payload


def heat_grid(report, zone):
    """(weekday name, hour) -> taps, from an hour-bucketed report, as the heat map should count them."""
    names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    grid = collections.Counter()
    for row in report["rows"]:
        start = datetime.datetime.fromisoformat(row["bucketStart"].replace("Z", "+00:00")).astimezone(ZoneInfo(zone))
        grid[(names[start.weekday()], start.hour)] += row["taps"]
    return grid


class Dashboard(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                         "--disable-gpu", "--lang=en-US"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        cls.driver.set_page_load_timeout(60)

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()

    # MARK: helpers

    def wait_for(self, condition, message):
        """Waits until `condition()` is truthy (retrying through stale elements), returning its value."""
        def attempt(_):
            try:
                return condition()
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.2).until(attempt, message)

    def open_view(self, name):
        self.driver.get(f"{URL}/ui/#{name}")
        self.wait_for(lambda: self.driver.find_element(By.ID, f"view-{name}").is_displayed(), f"{name} view shown")
        self.wait_for_refresh()

    def wait_for_refresh(self):
        """Waits for one more completed refresh of the page (clock and view)."""
        before = int(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-refreshed") or 0)
        self.wait_for(lambda: int(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-refreshed") or 0)
                      > before, "a refresh")

    def screenshot(self, name):
        """Saves the whole page (the window grows to its height for the shot, up to 4000 px)."""
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(1400, min(max(height + 300, 1000), 4000))
        try:
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, name + ".png"))
        finally:
            self.driver.set_window_size(1400, 1000)

    def css(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    # MARK: tests, in order

    def test_01_token_and_widget_strip(self):
        """The page asks for the token; a widget placed through the API then appears with its timeline strip."""
        status, _ = api("GET", "/ui/", token=None)
        self.assertEqual(status, 200, "the page itself needs no token")
        self.assertEqual(api("GET", "/v1/instances", token=None)[0], 401, "the data does")
        ok("POST", "/v1/instances", {"kind": "Daily", "family": "systemSmall", "id": "daily"})
        ok("POST", "/v1/instances", {"kind": "ProjectProgress", "family": "systemMedium", "id": "thesis",
                                     "parameters": {"project": "proj-thesis"}})

        self.driver.get(URL + "/")
        self.assertTrue(self.driver.current_url.endswith("/ui/"), "/ redirects to /ui/")
        form = self.wait_for(lambda: (lambda f: f if f.is_displayed() else None)(
            self.driver.find_element(By.ID, "token-form")), "the token form")
        self.assertIn("missing bearer token", form.text)
        self.screenshot("token")
        self.driver.find_element(By.ID, "token-input").send_keys(TOKEN)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

        card = self.wait_for(lambda: self.css('article.instance[data-instance="daily"]'), "the daily card")[0]
        timeline = ok("GET", "/v1/instances/daily/timeline")
        entries = card.find_elements(By.CSS_SELECTOR, ".strip .entry")
        self.assertEqual([e.get_attribute("data-entry-date") for e in entries],
                         [e["date"] for e in timeline["entries"]], "one strip segment per timeline entry")
        state = ok("GET", "/v1/instances/daily")
        shown = card.find_elements(By.CSS_SELECTOR, ".strip .entry.shown")
        self.assertEqual(len(shown), 1)
        self.assertEqual(shown[0].get_attribute("data-entry-date"), state["currentEntry"]["date"])
        self.assertIn(state["currentEntry"]["content"]["title"], card.find_element(By.CSS_SELECTOR, ".shown-entry").text)
        self.assertIn("configuration-changed", card.find_element(By.CSS_SELECTOR, ".reloads").text)
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".budget-left").text, str(state["budget"]["remaining"]))
        kinds = [section.get_attribute("data-kind") for section in self.css("section.kind")]
        self.assertEqual(kinds, ["Daily", "ProjectProgress"], "grouped by kind")
        self.assertTrue(self.css('section.kind[data-kind="ProjectProgress"] .family[data-family="systemMedium"] '
                                 'article[data-instance="thesis"]'), "and by family")
        self.assertIn("Europe/Paris", self.driver.find_element(By.ID, "clock-zone").text)
        self.screenshot("widgets")

    def test_02_move_clock_past_midnight(self):
        """'to next midnight' moves the virtual clock; the entry the page shows changes to the new day's."""
        self.open_view("widgets")
        before = ok("GET", "/v1/instances/daily")["currentEntry"]["date"]
        shown = lambda: self.css('article[data-instance="daily"] .shown-entry')[0].get_attribute("data-entry-date")
        self.assertEqual(shown(), before)
        self.driver.find_element(By.ID, "clock-midnight").click()
        self.wait_for(lambda: shown() != before, "the shown entry changes")
        clock = ok("GET", "/v1/clock")
        local = datetime.datetime.fromisoformat(clock["now"].replace("Z", "+00:00")).astimezone(ZoneInfo("Europe/Paris"))
        self.assertEqual((local.hour, local.minute, local.second), (0, 0, 0), "exactly local midnight")
        self.assertEqual(local.date(), datetime.date(2026, 3, 3))
        after = ok("GET", "/v1/instances/daily")["currentEntry"]["date"]
        self.assertNotEqual(after, before)
        self.wait_for(lambda: shown() == after, "the page shows the API's entry")
        self.screenshot("widgets-after-midnight")

    def test_03_taps_heat_map_and_table_agree_with_the_report(self):
        """Posted taps: the heat map's cells and the counts table match /v1/taps/report, also under filters."""
        base = datetime.datetime(2026, 3, 2, 8, 15, tzinfo=datetime.timezone.utc)
        taps = []
        for index in range(30):
            at = base + datetime.timedelta(hours=index * 5 % 53, minutes=index)
            source = "link" if index % 3 == 0 else "widgetURL"
            url = f"myapp://task/task-{index % 4}" if index % 2 else "myapp://project/proj-thesis"
            instance = "daily" if index % 2 else "thesis"
            taps.append({"url": url, "instance": instance, "source": source,
                         "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")})
        ok("POST", "/v1/taps", {"taps": taps})

        self.open_view("taps")
        self.wait_for_refresh()
        self.check_heat_map("UTC")
        self.check_table("")

        Select(self.driver.find_element(By.NAME, "source")).select_by_value("link")
        self.wait_for_refresh()
        self.check_table("&source=link")
        self.assertLess(int(self.driver.find_element(By.ID, "taps-total").text.split()[0]), 30, "fewer than all")
        Select(self.driver.find_element(By.NAME, "source")).select_by_value("")

        Select(self.driver.find_element(By.NAME, "timeZone")).select_by_value("Europe/Paris")
        self.wait_for_refresh()
        self.check_heat_map("Europe/Paris")
        self.screenshot("taps")

    def check_heat_map(self, zone):
        report = ok("GET", f"/v1/taps/report?groupBy=&bucket=hour&timeZone={zone}")
        expected = dict(heat_grid(report, zone))
        self.assertEqual(sum(expected.values()), report["totalTaps"])

        def cells():
            # One script call reads every cell at once: the page replaces the chart on each refresh.
            found = self.driver.execute_script("""
                return [...document.querySelectorAll("#taps-heatmap rect.cell")].map((cell) =>
                    [cell.dataset.weekday, Number(cell.dataset.hour), Number(cell.dataset.taps)]);""")
            if len(found) != 7 * 24:
                return None
            return {(weekday, hour): count for weekday, hour, count in found if count}
        self.wait_for(lambda: cells() == expected, f"the heat map's cells agree with the report in {zone}")

    def check_table(self, filters):
        report = ok("GET", "/v1/taps/report?groupBy=route" + filters)
        expected = sorted((row["route"], row["taps"]) for row in report["rows"])

        def rows():
            found = self.driver.execute_script("""
                return [...document.querySelectorAll("#taps-table tr.report-row")].map((row) =>
                    [row.querySelector('[data-column="route"]').textContent,
                     Number(row.querySelector('[data-column="taps"]').textContent)]);""")
            return sorted(tuple(row) for row in found) == expected
        self.wait_for(rows, f"the table agrees with the report{filters}")
        total = self.driver.find_element(By.ID, "taps-total").text
        self.assertTrue(total.startswith(f"{report['totalTaps']} taps"), total)

    def test_04_broken_link_with_its_nearest_route(self):
        """A tap on a URL no route matches shows under broken links with the route it probably meant."""
        ok("POST", "/v1/taps", {"url": "myapp://task/42", "instance": "daily", "source": "widgetURL"})
        unmatched = ok("GET", "/v1/taps/unmatched")["urls"]
        broken = next(u for u in unmatched if u["url"] == "myapp://task/42")
        self.assertIn("nearestRoute", broken, "the API knows a near route")
        self.open_view("taps")
        row = self.wait_for(lambda: self.css('#taps-unmatched tr.unmatched[data-url="myapp://task/42"]'), "the row")[0]
        self.assertEqual(row.find_element(By.CSS_SELECTOR, ".nearest-route").text, broken["nearestRoute"]["route"])
        self.assertIn(broken["nearestRoute"]["explanation"][:40], row.text)
        self.screenshot("taps-broken-links")

    def test_05_stack_shows_its_top(self):
        """A stack's ranking: the top the API names is the one the page marks, with each instance's parts."""
        ok("POST", "/v1/stacks", {"id": "home", "instances": ["thesis", "daily"]})
        ranking = ok("GET", "/v1/stacks/home/ranking")
        self.open_view("stacks")
        card = self.wait_for(lambda: self.css('article.stack[data-stack="home"]'), "the stack")[0]
        self.assertEqual(card.find_element(By.CSS_SELECTOR, ".stack-top").text, ranking["top"])
        top_rows = card.find_elements(By.CSS_SELECTOR, "tr.top")
        self.assertEqual([r.get_attribute("data-instance") for r in top_rows], [ranking["top"]])
        shown = [r.get_attribute("data-instance") for r in card.find_elements(By.CSS_SELECTOR, "tr.ranked")]
        self.assertEqual(shown, [item["instance"] for item in ranking["instances"]], "in the API's order")
        for item in ranking["instances"]:
            row = card.find_element(By.CSS_SELECTOR, f'tr[data-instance="{item["instance"]}"]')
            self.assertEqual(row.find_element(By.CSS_SELECTOR, ".total").text, f'{item["total"]:.3f}')
            self.assertIn(f'({item["parts"]["tapCount"]} taps)', row.text)

        # A ranking at another time: the page asks the API for that instant.
        at = "2026-03-03T18:00:00Z"
        later = ok("GET", f"/v1/stacks/home/ranking?at={at}")
        field = self.driver.find_element(By.NAME, "at")
        field.send_keys(at)
        field.submit()
        self.wait_for(lambda: "2026-03-03 19:00:00" in self.css('article.stack[data-stack="home"]')[0].text,
                      "the ranking at the chosen time (shown in Paris time)")
        self.assertEqual(self.css('article.stack[data-stack="home"] .stack-top')[0].text, later["top"])
        self.screenshot("stacks")

    def test_06_activity_life(self):
        """An activity started, updated, gone stale, sent a push it ignored, and ended: the page shows its states as its
        history has them, and the ignored push with the reason."""
        started = ok("POST", "/v1/activities", {
            "attributesType": "DeliveryAttributes", "pushType": "token",
            "attributes": {"orderId": "ORD-2024-0001", "courierName": "Sam"},
            "content": {"state": {"status": "preparing", "etaMinutes": 30, "estimatedArrival": 794050200},
                        "staleDate": "2026-03-02T23:20:00Z"}})
        activity_id = started["id"]
        ok("POST", f"/v1/activities/{activity_id}/update", {
            "content": {"state": {"status": "onTheWay", "etaMinutes": 12, "estimatedArrival": 794050200},
                        "staleDate": "2026-03-02T23:30:00Z"},
            "alert": {"title": "On the way", "body": "Sam picked up your order"}})
        ok("POST", "/v1/clock/advance", {"seconds": 3600})
        # A push as APNs delivers it, whose content state does not decode: the device ignores it, with the reason.
        now = datetime.datetime.fromisoformat(ok("GET", "/v1/clock")["now"].replace("Z", "+00:00"))
        status, delivery = api("POST", "/v1/device/push?token=" + started["pushToken"], {"aps": {
            "event": "update", "timestamp": int(now.timestamp()),
            "content-state": {"status": "onTheWay", "etaMinutes": "12", "estimatedArrival": 794050200}}},
            headers={"apns-push-type": "liveactivity", "apns-topic": "com.example.delivery.push-type.liveactivity"})
        self.assertEqual(status, 200, delivery)
        self.assertFalse(delivery["applied"], delivery)
        ok("POST", f"/v1/activities/{activity_id}/end", {
            "content": {"state": {"status": "delivered", "etaMinutes": 0, "estimatedArrival": 794050200}},
            "dismissalPolicy": {"kind": "default"}})
        history = ok("GET", f"/v1/activities/{activity_id}")["history"]
        states = [event["state"] for event in history if event["kind"] == "state"]
        self.assertIn("stale", states, "the fixture went stale")

        self.open_view("activities")
        card = self.wait_for(lambda: self.css(f'article.activity[data-activity="{activity_id}"]'), "the activity")[0]
        shown = [row.get_attribute("data-state") for row in card.find_elements(By.CSS_SELECTOR, "tr.event.state")]
        self.assertEqual(shown, states)
        self.assertEqual(card.get_attribute("data-state"), ok("GET", f"/v1/activities/{activity_id}")["state"])
        self.assertIn("On the way", card.text, "the alert")
        ignored = [event["ignored"] for event in history if event["kind"] == "ignored"]
        self.assertEqual(len(ignored), 1, history)
        rows = card.find_elements(By.CSS_SELECTOR, "tr.event.ignored .ignored-reason")
        self.assertEqual([row.text for row in rows], [ignored[0]["reason"]])
        self.assertIn(ignored[0]["detail"], card.find_element(By.CSS_SELECTOR, "tr.event.ignored").text)
        self.assertIn("stale: ", card.find_element(By.CSS_SELECTOR, ".stale-spans").text)
        self.assertTrue(card.find_elements(By.CSS_SELECTOR, ".chart svg"), "the activity's chart")
        self.screenshot("activities")

    def test_07_polling_stops_while_hidden(self):
        """The page polls every 2 s while visible and not at all while the tab is hidden."""
        self.open_view("widgets")
        count = lambda: int(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-refreshed") or 0)
        self.wait_for_refresh()
        self.driver.execute_script("""
            Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
            document.dispatchEvent(new Event("visibilitychange"));""")
        time.sleep(2.5)  # a refresh already started may finish
        hidden_from = count()
        time.sleep(5)
        self.assertEqual(count(), hidden_from, "no refresh while hidden")
        self.driver.execute_script("""
            Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
            document.dispatchEvent(new Event("visibilitychange"));""")
        self.wait_for(lambda: count() > hidden_from, "refreshes again once visible")

    def test_08_csv_download_is_the_reports_csv(self):
        """The CSV button downloads the report's CSV under the current filters."""
        downloads = os.path.abspath(os.path.join(SCREENSHOTS, "downloads"))
        os.makedirs(downloads, exist_ok=True)
        for name in os.listdir(downloads):
            os.remove(os.path.join(downloads, name))
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        self.open_view("taps")
        Select(self.driver.find_element(By.NAME, "groupBy")).select_by_value("route,source")
        self.wait_for_refresh()
        self.driver.find_element(By.ID, "taps-csv").click()
        path = os.path.join(downloads, "taps.csv")
        self.wait_for(lambda: os.path.exists(path) and os.path.getsize(path) > 0, "the download")
        with open(path, encoding="utf-8", newline="") as file:
            downloaded = file.read()
        self.assertEqual(downloaded, ok("GET", "/v1/taps/report?groupBy=route,source&format=csv"))

    def test_09_no_errors_in_the_console(self):
        """Across every view, the page logged no error: no script error, no refused request, no CSP violation."""
        for name in ["widgets", "taps", "stacks", "activities"]:
            self.open_view(name)
            self.wait_for_refresh()
        # The token prompt of the first test answered 401 by design; everything after it must be clean.
        errors = [entry for entry in self.driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "401 (Unauthorized)" not in entry["message"]]
        self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
