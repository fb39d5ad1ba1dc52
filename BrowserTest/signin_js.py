#!/usr/bin/env python3
"""Drives the server's Sign in with Apple JS (appleid.auth.js) in headless Chromium, from pages of a
small relying party served here on another loopback port: Apple's documentation page (meta tags,
popup, the <div> button) with only the script's host changed, init/signIn in redirect and popup
mode, both DOM events, every error value, a message from a wrong origin, validation errors, the
dev-uri override and the button's attributes. Then screenshots the button gallery.

Usage: signin_js.py --siwa URL --siwa-data-dir DIR --artifacts DIR
"""
import argparse
import html
import json
import os
import sys
import threading
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_signin import chromium_driver

TIMEOUT = 20
HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = """window.events = [];
['AppleIDSignInOnSuccess', 'AppleIDSignInOnFailure'].forEach(function (name) {
  document.addEventListener(name, function (event) { window.events.push({type: name, detail: event.detail}); });
});"""
START = """window.outcome = null;
AppleID.auth.signIn(arguments[0]).then(function (r) { window.outcome = {ok: r}; }, function (e) { window.outcome = {error: e}; });"""


class RelyingParty:
    """The web page's own server: Apple's documentation page, test pages and the form_post callback."""

    def __init__(self, siwa, facts):
        self.siwa = siwa
        self.facts = facts
        handler = self.handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.callback = self.origin + "/callback"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def script(self, locale="en_US"):
        return f"{self.siwa}/appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js"

    def documentation_page(self):
        with open(os.path.join(HERE, "pages", "apple-documentation.html")) as file:
            page = file.read()
        page = page.replace("https://appleid.cdn-apple.com", self.siwa)  # the one change: the script's host
        values = {"[CLIENT_ID]": self.facts["services_id"], "[SCOPES]": "name email", "[REDIRECT_URI]": self.callback,
                  "[STATE]": "doc-state", "[NONCE]": "doc-nonce"}
        for placeholder, value in values.items():
            page = page.replace(placeholder, html.escape(value))
        return page

    def blank_page(self, query):
        """No meta tags: the script, a button from the query's data-* attributes, a load listener."""
        locale = query.pop("locale", ["en_US"])[0]
        metas = "".join(f'<meta name="{html.escape(k)}" content="{html.escape(v[0])}">' for k, v in query.items() if k.startswith("appleid-"))
        data = " ".join(f'{html.escape(k)}="{html.escape(v[0])}"' for k, v in query.items() if k.startswith("data-"))
        return (f"<!doctype html><html><head>{metas}<script>window.loadedEvents = 0;"
                f"document.addEventListener('AppleIDSigInLoaded', function () {{ window.loadedEvents += 1; }});</script>"
                f'<script src="{self.script(locale)}"></script></head>'
                f'<body><div id="appleid-signin" {data}></div></body></html>')

    def handler(self):
        party = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, body):
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/documentation":
                    return self.answer(party.documentation_page())
                if url.path == "/blank":
                    return self.answer(party.blank_page(urllib.parse.parse_qs(url.query)))
                self.send_error(404)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                fields = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
                self.answer(f'<!doctype html><pre id="result">{html.escape(json.dumps(fields))}</pre>')

        return Handler


class Session:
    def __init__(self, driver, party, facts):
        self.driver = driver
        self.wait = WebDriverWait(driver, TIMEOUT)
        self.party = party
        self.facts = facts
        self.main = None

    def open(self, path):
        self.driver.get(self.party.origin + path)
        self.wait.until(lambda d: d.execute_script("return !!(window.AppleID && window.AppleID.auth)"))
        self.main = self.driver.current_window_handle
        self.driver.execute_script(EVENTS)

    def init(self, **options):
        config = {"clientId": self.facts["services_id"], "redirectURI": self.party.callback, "scope": "name email",
                  "state": "js-state", "nonce": "js-nonce"}
        config.update(options)
        self.driver.execute_script("AppleID.auth.init(arguments[0]);", config)

    def popup(self):
        self.wait.until(lambda d: len(d.window_handles) == 2)
        handle = next(h for h in self.driver.window_handles if h != self.main)
        self.driver.switch_to.window(handle)
        return handle

    def back(self):
        self.driver.switch_to.window(self.main)

    def outcome(self):
        self.wait.until(lambda d: d.execute_script("return window.outcome !== null"))
        return self.driver.execute_script("return window.outcome")

    def events(self):
        return self.driver.execute_script("return window.events")

    def sign_in(self, user):
        """Apple ID, password, two-factor code, then consent or the returning user's confirmation."""
        wait = self.wait
        wait.until(EC.any_of(EC.presence_of_element_located((By.ID, "apple_id")),
                             EC.presence_of_element_located((By.CSS_SELECTOR, "button[name=action][value=approve]"))))
        if not self.driver.find_elements(By.ID, "apple_id"):  # still signed in at the Apple ID server: confirm only
            self.driver.find_element(By.CSS_SELECTOR, "button[name=action][value=approve]").click()
            return
        self.driver.find_element(By.ID, "apple_id").send_keys(user["apple_id"])
        self.driver.find_element(By.ID, "password").send_keys(user["password"])
        self.driver.find_element(By.CSS_SELECTOR, "button[name=action][value=sign-in]").click()
        wait.until(EC.any_of(EC.presence_of_element_located((By.ID, "development-code")),
                             EC.presence_of_element_located((By.CSS_SELECTOR, "button[name=action][value=approve]"))))
        codes = self.driver.find_elements(By.ID, "development-code")
        if codes:
            self.driver.find_element(By.ID, "code").send_keys(codes[0].text.strip())
            self.driver.find_element(By.CSS_SELECTOR, "button[name=action][value=verify]").click()
        approve = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "button[name=action][value=approve]")))
        shares = self.driver.find_elements(By.CSS_SELECTOR, "input[name=email][value=share]")
        if shares:
            shares[0].click()
        approve.click()


def start_popup(s, prepare=""):
    """A fresh page, init in popup mode, signIn() with its outcome kept in window.outcome."""
    s.open("/blank")
    s.init(usePopup=True)
    s.driver.execute_script(prepare + START)


def close_popup(s):
    s.popup()
    s.driver.close()
    s.back()


def query(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def documentation_page_popup(s, users):
    """Apple's page unchanged but for the host: meta tags, popup, the button, the success event."""
    s.open("/documentation")
    button = s.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#appleid-signin [role=button]")))
    expect(button.get_attribute("aria-label") == "Sign in with Apple", "the legacy 'sign in' type gives the sign-in title")
    # Headless windows have no real size: record what the script asks window.open for.
    s.driver.execute_script("var open = window.open; window.open = function (url, name, features) {"
                            " window.features = features; return open.apply(window, arguments); };")
    button.click()
    features = s.wait.until(lambda d: d.execute_script("return window.features"))
    expect("width=700" in features and "height=700" in features, f"popup features {features}")
    s.popup()
    parameters = query(s.driver.current_url)
    expect(s.driver.execute_script("return window.name") == "Apple authentication", "popup window name")
    expect(parameters.get("response_mode") == "web_message" and parameters.get("m") == "22", f"popup URL {parameters}")
    expect(parameters.get("client_id") == s.facts["services_id"] and parameters.get("scope") == "name email"
           and parameters.get("state") == "doc-state" and parameters.get("nonce") == "doc-nonce", "meta tags reach the URL")
    s.sign_in(users[1])
    s.back()
    s.wait.until(lambda d: len(d.execute_script("return window.events")) == 1)
    event = s.events()[0]
    expect(event["type"] == "AppleIDSignInOnSuccess", f"event {event['type']}")
    authorization = event["detail"]["authorization"]
    expect(authorization["code"] and authorization["id_token"].count(".") == 2 and authorization["state"] == "doc-state",
           "code, id_token and state in the success event")
    expect(event["detail"].get("user", {}).get("email") == users[1]["email"], "user on the first authorization")


def redirect_mode(s, users):
    s.open("/blank")
    s.init()
    s.driver.execute_script("AppleID.auth.signIn();")
    s.wait.until(EC.url_contains("/auth/authorize"))
    url = s.driver.current_url
    names = [pair.split("=")[0] for pair in urllib.parse.urlsplit(url).query.split("&")]
    expect(names == ["client_id", "redirect_uri", "response_type", "state", "scope", "nonce", "response_mode", "frame_id", "m", "v"],
           f"parameter order {names}")
    parameters = query(url)
    expect(parameters["response_mode"] == "form_post" and parameters["m"] == "11" and parameters["v"] == "1.5.6", f"{parameters}")
    expect(len(parameters["frame_id"]) == 36 and parameters["frame_id"][14] == "4", "frame_id is a UUID v4")
    s.sign_in(users[0])
    result = json.loads(s.wait.until(EC.presence_of_element_located((By.ID, "result"))).text)
    expect(result.get("code") and result.get("id_token") and result.get("state") == "js-state", f"form_post fields {sorted(result)}")


def popup_success_without_user(s, users):
    start_popup(s)
    s.popup()
    s.sign_in(users[0])
    s.back()
    outcome = s.outcome()
    expect("ok" in outcome and outcome["ok"]["authorization"]["state"] == "js-state", f"popup result {outcome}")
    expect("user" not in outcome["ok"], "no user after the first authorization")
    expect([e["type"] for e in s.events()] == ["AppleIDSignInOnSuccess"], "one success event")


def failure(s, expected):
    outcome = s.outcome()
    expect(outcome.get("error") == {"error": expected}, f"rejection {outcome} (expected {expected})")
    s.wait.until(lambda d: any(e["type"] == "AppleIDSignInOnFailure" and e["detail"] == {"error": expected}
                               for e in d.execute_script("return window.events")))


def cancel_pressed(s, users):
    start_popup(s)
    s.popup()
    s.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "button[name=action][value=cancel]"))).click()
    s.back()
    failure(s, "user_cancelled_authorize")


def popup_closed(s, users):
    start_popup(s)
    close_popup(s)
    failure(s, "popup_closed_by_user")


def popup_blocked(s, users):
    start_popup(s, "window.open = function () { return null; };")
    failure(s, "popup_blocked_by_browser")


def second_sign_in(s, users):
    start_popup(s, "window.first = null; AppleID.auth.signIn().catch(function (e) { window.first = e; });")
    s.wait.until(lambda d: d.execute_script("return window.first") == {"error": "user_trigger_new_signin_flow"})
    expect(s.events() == [{"type": "AppleIDSignInOnFailure", "detail": {"error": "user_trigger_new_signin_flow"}}], "failure event")
    close_popup(s)
    failure(s, "popup_closed_by_user")


def wrong_origin_ignored(s, users):
    start_popup(s)
    s.popup()
    frame = query(s.driver.current_url)["frame_id"]
    s.back()
    forged = json.dumps({"method": "oauthDone", "frame_id": frame, "data": {"authorization": {"code": "forged", "state": "js-state"}}})
    s.driver.execute_script("window.postMessage(arguments[0], '*');", forged)
    close_popup(s)
    failure(s, "popup_closed_by_user")  # the forged answer from the page's own origin did not count


def wrong_frame_ignored(s, users):
    """A message from the right origin (the Apple ID server's own page) for another frame_id is ignored."""
    start_popup(s)
    s.popup()
    frame = query(s.driver.current_url)["frame_id"]
    other = frame[:-1] + ("0" if frame[-1] != "0" else "1")
    forged = json.dumps({"method": "oauthDone", "frame_id": other, "data": {"authorization": {"code": "forged", "state": "js-state"}}})
    s.driver.execute_script("window.opener.postMessage(arguments[0], '*');", forged)
    s.driver.close()
    s.back()
    failure(s, "popup_closed_by_user")  # the server-origin answer for another frame did not count
    expect([e["type"] for e in s.events()] == ["AppleIDSignInOnFailure"], f"no success event: {s.events()}")


def validation_errors(s, users):
    s.open("/blank")
    cases = [
        ("AppleID.auth.signIn()", 'The "init" function must be called first.'),
        ("AppleID.auth.init({})", 'The "clientId" should be a string.'),
        ("AppleID.auth.init({clientId: 'a'})", 'The "redirectURI" should be a string.'),
        ("AppleID.auth.init({clientId: 'a', redirectURI: 'b', scope: 5})", 'The "scope" should be a string.'),
        ("AppleID.auth.init({clientId: 'a', redirectURI: 'b'}); AppleID.auth.signIn('x')", 'The "signinConfig" must be "object".'),
    ]
    for code, message in cases:
        thrown = s.driver.execute_script(f"try {{ {code}; return null; }} catch (e) {{ return e.message; }}")
        expect(thrown == message, f"{code} threw {thrown!r}")
    expect(s.driver.execute_script("return window.loadedEvents") == 1, "AppleIDSigInLoaded once")


def dev_uri_override(s, users):
    s.open("/blank?appleid-signin-client-id=" + urllib.parse.quote(s.facts["services_id"])
           + "&appleid-signin-redirect-uri=" + urllib.parse.quote(s.party.callback)
           + "&appleid-signin-use-popup=true&appleid-signin-dev-uri=" + urllib.parse.quote("http://127.0.0.1:9"))
    s.driver.execute_script("window.open = function (url) { window.opened = url; return null; };" + START)
    failure(s, "popup_blocked_by_browser")
    opened = s.driver.execute_script("return window.opened")
    expect(opened.startswith("http://127.0.0.1:9/auth/authorize?") and query(opened)["m"] == "21", f"dev-uri: {opened}")


def button_attributes(s, users):
    s.open("/blank?data-mode=left-align&data-type=continue&data-color=white&data-border=false&data-width=200&data-height=40")
    button = s.driver.find_element(By.CSS_SELECTOR, "#appleid-signin [role=button]")
    style = s.driver.execute_script(
        "var s = getComputedStyle(arguments[0]); return [s.width, s.height, s.backgroundColor, s.borderTopStyle];", button)
    expect(button.get_attribute("tabindex") == "0" and button.get_attribute("aria-label") == "Continue with Apple", "attributes")
    expect(style == ["200px", "40px", "rgb(255, 255, 255)", "none"], f"style {style}")
    s.open("/blank?data-mode=logo-only&data-height=44")
    style = s.driver.execute_script(
        "var s = getComputedStyle(document.querySelector('#appleid-signin [role=button]')); return [s.width, s.height, s.borderTopStyle];")
    expect(style == ["44px", "44px", "solid"], f"logo-only style {style}")
    s.open("/blank?locale=de_DE&data-type=sign-up")
    label = s.driver.find_element(By.CSS_SELECTOR, "#appleid-signin [role=button]").get_attribute("aria-label")
    expect(label == "Mit Apple registrieren", f"localized title {label!r}")
    s.init(usePopup=True)
    s.driver.execute_script("window.open = function (url) { window.opened = url; return null; };")
    s.driver.find_element(By.CSS_SELECTOR, "#appleid-signin [role=button]").click()
    s.wait.until(lambda d: d.execute_script("return !!window.opened"))
    expect(query(s.driver.execute_script("return window.opened"))["m"] == "12", "a click after init sends m=12")


def screenshot_gallery(driver, siwa, artifacts):
    wait = WebDriverWait(driver, 120)
    shots = []
    for locale in ["", "ar_SA", "iw_IL", "th_TH", "ja_JP", "zh_CN", "ko_KR", "en_US", "ru_RU"]:
        driver.set_window_size(1400, 900)
        driver.get(f"{siwa}/appleid/button/gallery" + (f"?locale={locale}" if locale else ""))
        wait.until(lambda d: d.execute_script("return document.body.getAttribute('data-rendered') === 'true'"))
        wait.until(lambda d: d.execute_script("return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"))
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1400, min(height + 140, 16000))
        name = os.path.join(artifacts, f"button-gallery{'-' + locale if locale else ''}.png")
        driver.save_screenshot(name)
        shots.append(name)
    driver.set_window_size(1000, 900)
    return shots


def admin(siwa, facts, path, body):
    request = urllib.request.Request(
        siwa + path, data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {facts['admin_token']}", "Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request, timeout=10).read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--siwa-data-dir", required=True)
    parser.add_argument("--artifacts", required=True)
    args = parser.parse_args()
    with open(os.path.join(args.siwa_data_dir, "demo.json")) as file:
        facts = json.load(file)
    siwa = args.siwa.rstrip("/")
    party = RelyingParty(siwa, facts)
    admin(siwa, facts, f"/admin/clients/{facts['services_id']}/return-urls", {"url": party.callback})
    # Apple IDs of this run: the first authorization is really the first, and no two-factor code is
    # shared with the other browser tests (a code is accepted once).
    users = []
    for name in ("first", "second"):
        user = {"apple_id": f"js.{name}.{os.getpid()}@example.com", "password": f"pw-{name}-{os.getpid()}",
                "first_name": "Jo", "last_name": name.title(), "email": f"js.{name}.{os.getpid()}@example.com"}
        admin(siwa, facts, "/admin/users", dict(user, two_factor_enabled=False))
        users.append(user)

    os.makedirs(args.artifacts, exist_ok=True)
    driver = chromium_driver()
    session = Session(driver, party, facts)
    checks = [documentation_page_popup, redirect_mode, popup_success_without_user, cancel_pressed, popup_closed, popup_blocked,
              second_sign_in, wrong_origin_ignored, wrong_frame_ignored, validation_errors, dev_uri_override, button_attributes]
    failed = 0
    try:
        for check in checks:
            try:
                check(session, users)
                print(f"ok   {check.__name__}")
            except Exception as error:
                failed += 1
                print(f"FAIL {check.__name__}: {error!r}\n  url: {driver.current_url}", file=sys.stderr)
                driver.save_screenshot(os.path.join(args.artifacts, f"signin-js-{check.__name__}-failure.png"))
                for handle in driver.window_handles[1:]:
                    driver.switch_to.window(handle)
                    driver.close()
                driver.switch_to.window(driver.window_handles[0])
        for shot in screenshot_gallery(driver, siwa, args.artifacts):
            print(f"screenshot {shot}")
    finally:
        driver.quit()
        party.server.shutdown()
    print(f"signin_js: {len(checks) - failed} of {len(checks)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
