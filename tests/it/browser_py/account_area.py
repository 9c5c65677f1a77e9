"""The account area end to end in headless Chromium (Debian's chromium and chromium-driver),
driven by Selenium. tests/it/browser.rs starts the server, a webhook receiver and a professional
account holding one key, then runs this script with a JSON file of what it made:

    {"origin", "base_path", "email", "password", "existing_key", "receiver_url", "screenshots"}

Every step asserts what a person would see; the browser's console must stay free of errors
(network refusals the step provokes aside). A screenshot of each page goes to `screenshots`.
Exits non-zero, saying which step failed, on the first failure."""

import json
import os
import sys
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException


def check(condition, message):
    """An assertion that `python -O` cannot remove."""
    if not condition:
        raise AssertionError(message)
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# Generous: the machines running the tests are shared and slow at random.
WAIT_SECS = 60


def find_binary(names):
    for name in names:
        for folder in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/bin", "/usr/lib/chromium"]:
            path = os.path.join(folder, name)
            if os.access(path, os.X_OK):
                return path
    sys.exit(f"none of {names} is installed (tests/run.sh installs Debian's chromium and chromium-driver)")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = find_binary(["chromium", "chromium-browser"])
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--disable-component-update"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=find_binary(["chromedriver"]))
    driver = webdriver.Chrome(options=options, service=service)
    # A page or a script that never finishes fails its step (Selenium would wait 300 s for a
    # page): the test's own deadline for this script is 240 s.
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    return driver


class Area:
    def __init__(self, driver, given):
        self.driver = driver
        self.origin = given["origin"]
        self.api = given["origin"] + given["base_path"]
        self.shots = given["screenshots"]
        # Lists are redrawn after each change: an element found a moment ago may be gone.
        self.wait = WebDriverWait(driver, WAIT_SECS, ignored_exceptions=[
            NoSuchElementException, StaleElementReferenceException])

    def open(self, path):
        self.driver.get(self.origin + path)
        self.wait.until(lambda d: d.execute_script("return document.readyState") == "complete")

    def testid(self, name, within=None):
        return (within or self.driver).find_element(By.CSS_SELECTOR, f'[data-testid="{name}"]')

    def testids(self, name, within=None):
        return (within or self.driver).find_elements(By.CSS_SELECTOR, f'[data-testid="{name}"]')

    def until(self, what, condition):
        try:
            return self.wait.until(lambda d: condition())
        except TimeoutException as failure:
            raise AssertionError(f"{what} (still not so after {WAIT_SECS} s; page {self.driver.current_url})") from failure

    def visible_text(self, name):
        element = self.testid(name)
        return element.text if element.is_displayed() else ""

    def screenshot(self, name):
        """The whole page: the window grows to its height for the picture."""
        os.makedirs(self.shots, exist_ok=True)
        size = self.driver.get_window_size()
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(size["width"], min(max(height + 120, size["height"]), 4000))
        self.driver.save_screenshot(os.path.join(self.shots, f"{name}.png"))
        self.driver.set_window_size(size["width"], size["height"])

    def console(self, allowed_statuses=()):
        """The console's errors since the last call, failing on any but refusals this step asked
        for (Chromium logs every 4xx answer to a fetch as an error)."""
        errors = []
        for entry in self.driver.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            expected = entry["source"] == "network" and any(
                f"status of {status}" in entry["message"] for status in allowed_statuses)
            if not expected:
                errors.append(entry["message"])
        check(not errors, f"console errors: {errors}")

    def call_api(self, key, path="/regions/DE21/profile"):
        request = urllib.request.Request(self.api + path, headers={"X-API-Key": key})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as refused:
            return refused.code, json.load(refused)


def signed_out_pages_go_to_sign_in(area):
    area.open("/account/api-keys")
    area.until("a signed-out visit to the keys page lands on the sign-in page",
               lambda: area.driver.current_url.endswith("/account/login"))
    area.console(allowed_statuses=[401])


def public_pages(area, given):
    area.open("/")
    base = area.testid("base-url").text
    check(base == area.api, f"the home page gives the base URL {base!r}, not {area.api!r}")
    area.screenshot("home")
    area.open("/docs")
    check(area.driver.find_element(By.ID, "op-getRegionProfile").is_displayed(), "the API reference does not show getRegionProfile")
    check(area.driver.find_element(By.ID, "schema-Profile").is_displayed(), "the API reference does not show the Profile schema")
    area.screenshot("docs")
    area.console()


def wrong_password_shows_one_generic_message(area, given):
    messages = set()
    for email, password in [(given["email"], "not-the-password"), ("nobody@example.org", "whatever-it-is")]:
        area.open("/account/login")
        area.testid("login-email").send_keys(email)
        area.testid("login-password").send_keys(password)
        area.testid("login-submit").click()
        area.until("a refused sign-in says so", lambda: area.visible_text("login-error"))
        messages.add(area.visible_text("login-error"))
    check(len(messages) == 1, f"a wrong password and an unknown email read differently: {messages}")
    area.screenshot("login-refused")
    area.console(allowed_statuses=[401])


def sign_in_with_the_keyboard(area, given):
    area.open("/account/login")
    area.screenshot("login")
    area.testid("login-email").click()
    area.driver.switch_to.active_element.send_keys(given["email"], Keys.TAB)
    area.driver.switch_to.active_element.send_keys(given["password"], Keys.ENTER)
    area.until("signing in lands on the keys page",
               lambda: area.driver.current_url.endswith("/account/api-keys"))


def key_rows(area):
    return {row.find_element(By.CSS_SELECTOR, '[data-testid="key-row-name"]').text: row
            for row in area.testids("key-row")}


def revoke(area, name):
    row = area.until(f"the key {name!r} is listed", lambda: key_rows(area).get(name))
    area.testid("key-revoke", within=row).click()
    area.until("revoking asks first", lambda: area.testid("confirm").is_displayed())
    area.testid("confirm").click()
    area.until(f"the key {name!r} shows as revoked", lambda: name in key_rows(area) and area.testid(
        "key-status", within=key_rows(area)[name]).text == "revoked")


def keys(area, given):
    area.until("the keys page lists the account's key", lambda: given["existing_key"] in key_rows(area))
    # A professional account holds one active key: a second is refused, and the page says why.
    area.testid("key-name").send_keys("one too many")
    area.testid("key-create").click()
    area.until("reaching the tier's key limit is explained",
               lambda: "allows 1 active key" in area.visible_text("key-error"))
    area.screenshot("api-keys-limit")
    area.console(allowed_statuses=[409])
    revoke(area, given["existing_key"])

    area.testid("key-name").clear()
    area.testid("key-name").send_keys("e2e analysis")
    area.testid("key-create").click()
    area.until("the new key is shown", lambda: area.visible_text("key-plaintext").startswith("sk_service_"))
    plaintext = area.visible_text("key-plaintext")
    page = area.driver.page_source
    check("will not see it again" in page, "the page does not say the key is shown once")
    check(area.testid("key-copy").is_displayed(), "the new key has no copy button")
    area.until("the new key is listed", lambda: "e2e analysis" in key_rows(area))
    area.screenshot("api-keys-created")

    status, answer = area.call_api(plaintext)
    check(status == 200 and answer["meta"]["access"] == "account", f"the new key was refused: {status} {answer}")
    for _ in range(4):
        area.call_api(plaintext, "/regions/FR10/profile")

    area.driver.refresh()
    area.until("the keys page reloads", lambda: "e2e analysis" in key_rows(area))
    check(plaintext not in area.driver.page_source, "the key is still on the page after a reload")
    check(not area.visible_text("key-plaintext"), "the key is still shown after a reload")
    area.console()
    return plaintext


def revoked_key_is_refused(area, plaintext):
    revoke(area, "e2e analysis")
    area.screenshot("api-keys-revoked")
    status, answer = area.call_api(plaintext)
    check(status == 401, f"a revoked key still works: {status} {answer}")
    area.console()


def webhooks(area, given):
    area.open("/account/webhooks")
    area.until("the event types are offered", lambda: area.driver.find_elements(By.ID, "event-webhook-test"))
    area.testid("hook-url").send_keys(given["receiver_url"])
    area.testid("hook-create").click()
    area.until("the signing secret is shown once", lambda: area.visible_text("hook-secret").startswith("whsec_"))
    secret = area.visible_text("hook-secret")
    row = area.until("the endpoint is listed", lambda: area.testids("hook-row"))[0]
    check(given["receiver_url"] in row.text, f"the webhook's row does not show its URL: {row.text!r}")
    check("closed" in area.testid("hook-breaker", within=row).text, "the new webhook's breaker is not shown closed")
    area.testid("hook-test", within=row).click()
    area.until("the test delivery is shown delivered, with its latency", lambda: any(
        r.find_element(By.CSS_SELECTOR, '[data-testid="delivery-status"]').text == "delivered" and " ms" in r.text
        for r in area.testids("delivery-row")))
    area.screenshot("webhooks")

    row = area.testids("hook-row")[0]
    area.testid("hook-toggle", within=row).click()
    area.until("disabling shows", lambda: area.testid("hook-status", within=area.testids("hook-row")[0]).text.startswith("disabled"))
    area.testid("hook-toggle", within=area.testids("hook-row")[0]).click()
    area.until("enabling shows", lambda: area.testid("hook-status", within=area.testids("hook-row")[0]).text == "enabled")

    area.testid("hook-rotate", within=area.testids("hook-row")[0]).click()
    area.until("rotating asks first", lambda: area.testid("confirm").is_displayed())
    area.testid("confirm").click()
    area.until("the new secret is shown once", lambda: area.visible_text("hook-secret").startswith("whsec_")
               and area.visible_text("hook-secret") != secret)
    rotated = area.visible_text("hook-secret")
    area.driver.refresh()
    area.until("the webhooks page reloads", lambda: area.testids("hook-row"))
    for shown in [secret, rotated]:
        check(shown not in area.driver.page_source, "a secret is still on the page after a reload")
    area.console()
    return secret


def usage(area, calls):
    area.open("/account/usage")
    area.until("the usage summary shows", lambda: "calls" in area.visible_text("usage-today"))
    bars = area.driver.find_elements(By.CSS_SELECTOR, '[data-testid="usage-chart"] rect.bar')
    check(len(bars) == 90, f"{len(bars)} bars, not one per day of 90")
    today = int(bars[-1].get_attribute("data-used"))
    check(today >= calls, f"today's bar shows {today} calls; at least {calls} were made")
    check(float(bars[-1].get_attribute("height")) > 0, "today's bar has no height")
    cap = area.driver.find_element(By.CSS_SELECTOR, '[data-testid="usage-chart"] .cap-label').text
    check("daily cap" in cap, f"the chart does not show the cap: {cap!r}")
    buckets = [r.text for r in area.testids("bucket-row")]
    for bucket in ["session-minute", "session-hour", "account-day"]:
        check(any(bucket in b for b in buckets), f"no {bucket} bucket in {buckets}")
    area.screenshot("usage")
    area.console()


def narrow_screen(area):
    area.driver.set_window_size(390, 844)
    # Each page is measured once its first API answer is drawn, which brings its widest content
    # (the keys' table; the usage chart and buckets, drawn in the same task as the summary): the
    # keys page then says "N active keys, M in all.", the usage page "... of N calls".
    for path, name, answered in [
        ("/account/api-keys", "api-keys-narrow",
         lambda: "in all" in area.driver.find_element(By.ID, "keys-status").text),
        ("/account/usage", "usage-narrow", lambda: "calls" in area.visible_text("usage-today")),
    ]:
        area.open(path)
        area.until(f"{path} shows its first API answer", answered)
        overflow = area.driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 0, f"{path} scrolls sideways by {overflow} px on a 390 px screen")
        area.screenshot(name)
    area.driver.set_window_size(1280, 1000)
    area.console()


def sign_out(area):
    area.open("/account/api-keys")
    area.testid("sign-out").click()
    area.until("signing out lands on the sign-in page", lambda: area.driver.current_url.endswith("/account/login"))
    area.open("/account/usage")
    area.until("after signing out the area asks to sign in again",
               lambda: area.driver.current_url.endswith("/account/login"))
    area.console(allowed_statuses=[401])


class Steps:
    """Names the step under way (`steps.name = ...`); on leaving, quits the browser, and after a
    failure first saves a screenshot of the page and exits non-zero saying which step failed."""

    def __init__(self, area):
        self.area = area
        self.name = "start"

    def __enter__(self):
        return self

    def __exit__(self, kind, failure, traceback):
        try:
            if failure is not None:
                self.area.screenshot("failure")
                print(f"step {self.name!r} failed: {failure!r}", file=sys.stderr)
        finally:
            self.area.driver.quit()
        if failure is not None:
            sys.exit(1)


def main():
    given = json.load(open(sys.argv[1]))
    area = Area(browser(), given)
    with Steps(area) as steps:
        for steps.name, run in [
            ("signed-out pages", lambda: signed_out_pages_go_to_sign_in(area)),
            ("public pages", lambda: public_pages(area, given)),
            ("wrong credentials", lambda: wrong_password_shows_one_generic_message(area, given)),
            ("sign in", lambda: sign_in_with_the_keyboard(area, given)),
        ]:
            run()
        steps.name = "API keys"
        plaintext = keys(area, given)
        steps.name = "revocation"
        revoked_key_is_refused(area, plaintext)
        steps.name = "webhooks"
        secret = webhooks(area, given)
        steps.name = "usage"
        usage(area, calls=5)
        steps.name = "narrow screen"
        narrow_screen(area)
        steps.name = "sign out"
        sign_out(area)
        print(json.dumps({"webhook_secret": secret}))


if __name__ == "__main__":
    main()
