#!/usr/bin/env python3
"""Follows the talk in the developer console, in headless Chromium: the demo developer signs in,
registers a Services ID for a new web app (its domain and a Return URL on this script's own page,
served on 127.0.0.1, which development mode allows), creates a key and downloads its .p8 once. Then
this script's page signs in with Apple through the new Services ID: the browser goes through the
Apple ID pages, the callback redeems the code once with a deliberately wrong client secret (refused)
and once with a secret signed by the downloaded key. The console's Requests page must explain the
refusal; a second redemption of the code is refused and the Requests page says which code was reused
(its hash prefix) and when it was first redeemed. The Notifications page sends a test notification to this script's own endpoint and shows
its delivery; the e-mail sources are checked against this script's DNS responder on --dns-port (the
server runs with --dns-resolver 127.0.0.1:PORT); the Team page adds a colleague. Every console page
is saved as a PNG in --out.

Usage: console_web_client.py --siwa URL --siwa-data-dir DIR --out DIR --dns-port PORT
"""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import os
import struct
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import jwt
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from dns_responder import DNSResponder
from juice_signin import TIMEOUT, chromium_driver

SERVICES_ID = "com.example.juice.fresh"
PRIMARY_APP_ID = "com.example.juice"


class WebApp:
    """The new web app: a page with a sign-in link and the Return URL (form_post callback), which
    redeems the code as a backend would. Serves 127.0.0.1 only."""

    def __init__(self, siwa):
        self.siwa = siwa
        self.result = None
        self.pem = None
        self.key_id = None
        self.team_id = None
        self.notifications = []
        app = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                query = urllib.parse.urlencode({
                    "client_id": SERVICES_ID, "redirect_uri": app.return_url, "response_type": "code id_token",
                    "response_mode": "form_post", "scope": "name email", "state": "fresh-state", "nonce": "fresh-nonce"})
                self.answer(f'<!doctype html><title>Fresh</title><h1>Fresh web app</h1>'
                            f'<a id="sign-in-with-apple" href="{app.siwa}/auth/authorize?{query}">Sign in with Apple</a>')

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length).decode()
                if self.path == "/apple/notifications":
                    # The server-to-server endpoint: keeps the payload's claims, answers 200.
                    app.notifications.append(jwt.decode(json.loads(body)["payload"], options={"verify_signature": False}))
                    return self.answer("")
                form = urllib.parse.parse_qs(body)
                code = form.get("code", [""])[0]
                wrong = app.redeem(code, app.secret(team_id="WRONGTEAM1"))
                right = app.redeem(code, app.secret(team_id=app.team_id))
                # A second redemption, as a leaked code would be: refused, and the Requests page says which code.
                again = app.redeem(code, app.secret(team_id=app.team_id))
                app.result = {"wrong": wrong, "right": right, "again": again, "state": form.get("state", [""])[0]}
                claims = jwt.decode(right[1].get("id_token", ""), options={"verify_signature": False}) if right[0] == 200 else {}
                self.answer(f'<!doctype html><title>Fresh</title><h1 id="result">Signed in: {claims.get("sub", "no")}</h1>'
                            f'<p>aud {claims.get("aud")}; the wrong secret got {wrong[0]} {wrong[1].get("error")}</p>')

            def answer(self, html):
                body = html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.return_url = f"http://127.0.0.1:{self.server.server_address[1]}/callback"
        self.home = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.notification_endpoint = f"http://127.0.0.1:{self.server.server_address[1]}/apple/notifications"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def secret(self, team_id):
        now = int(time.time())
        claims = {"iss": team_id, "iat": now, "exp": now + 300, "aud": "https://appleid.apple.com", "sub": SERVICES_ID}
        return jwt.encode(claims, self.pem, algorithm="ES256", headers={"kid": self.key_id})

    def redeem(self, code, secret):
        body = urllib.parse.urlencode({"client_id": SERVICES_ID, "client_secret": secret, "code": code,
                                       "grant_type": "authorization_code", "redirect_uri": self.return_url}).encode()
        request = urllib.request.Request(self.siwa + "/auth/token", data=body,
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


class Console:
    def __init__(self, driver, siwa, out):
        self.driver, self.siwa, self.out = driver, siwa, out
        self.wait = WebDriverWait(driver, TIMEOUT)
        self.count = 0

    def shot(self, name):
        self.count += 1
        # The whole page: the window grows to the document's height for the picture.
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(1000, max(900, min(int(height) + 120, 3000)))
        path = os.path.join(self.out, f"console-{self.count:02d}-{name}.png")
        self.driver.save_screenshot(path)
        print(f"console test: {path}")

    def submit(self, selector):
        """Clicks the form button that `selector` (CSS) names and waits until the answer's page has replaced
        this one and finished loading. The page in the window is marked first: a new page has a new window
        object, so the mark's absence says the answer arrived. Waiting for `document.readyState` matters:
        an element found while the answer is still being built can be dropped with its document
        ("Node with given id does not belong to the document", seen once in CI); a find or a click that
        meets that error has not clicked anything, and is tried again."""
        for attempt in range(3):
            try:
                self.driver.execute_script("window.consoleTestPreviousPage = true")
                self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, selector))).click()
                break
            except WebDriverException as error:  # the node was not resolved, so nothing was clicked
                if attempt == 2 or "does not belong to the document" not in str(error):
                    raise
        WebDriverWait(self.driver, TIMEOUT, ignored_exceptions=[WebDriverException]).until(
            lambda driver: driver.execute_script("return !window.consoleTestPreviousPage && document.readyState === 'complete'"))

    def message(self):
        return self.wait.until(EC.presence_of_element_located((By.ID, "message"))).text

    def download(self, kid):
        """POSTs the download form as the browser would, with its cookies and CSRF token (a headless
        download would land in a folder; the bytes are what matters)."""
        csrf = self.driver.find_element(By.CSS_SELECTOR, f"form[action='/console/keys/{kid}/download'] input[name=csrf]").get_attribute("value")
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())
        request = urllib.request.Request(f"{self.siwa}/console/keys/{kid}/download", data=urllib.parse.urlencode({"csrf": csrf}).encode(),
                                         headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookies})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert f'AuthKey_{kid}.p8' in response.headers.get("Content-Disposition", ""), response.headers
            return response.read().decode()


def totp(secret, at=None):
    """RFC 6238 with SHA-1, 30-second steps, six digits, as an authenticator app computes it from
    demo.json's totp_secret (its base32 decoding is the key): the code the page shows, for the current step."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at or time.time()) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def wait_for_fresh_code():
    """A two-factor code signs in once: wait for the next 30-second window (earlier tests used these Apple IDs)."""
    window = int(time.time()) // 30
    while int(time.time()) // 30 == window:
        time.sleep(0.5)


def invitation_link(siwa, admin_token, address):
    """The link of the invitation mailed to `address`, read from the built-in mailbox (admin API), as the invitee reads it."""
    def admin(path):
        request = urllib.request.Request(siwa + path, headers={"Authorization": "Bearer " + admin_token})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    listed = admin("/admin/mail?" + urllib.parse.urlencode({"to": address}))["messages"]
    assert listed and listed[0]["direction"] == "notice", listed
    body = admin("/admin/mail/" + urllib.parse.quote(listed[0]["id"]))["body"]
    return next(word for word in body.split() if "/console/invitations/" in word)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--siwa-data-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--dns-port", type=int, required=True)
    args = parser.parse_args()
    dns = DNSResponder(args.dns_port, {
        "mail.fresh.example.com": ["v=spf1 ip4:192.0.2.10 -all"],
        "fresh.example.com": ["google-site-verification=fresh"],
    })
    with open(os.path.join(args.siwa_data_dir, "demo.json")) as file:
        demo = json.load(file)
    siwa = args.siwa.rstrip("/")
    os.makedirs(args.out, exist_ok=True)
    app = WebApp(siwa)
    app.team_id = demo["team_id"]
    driver = chromium_driver()
    console = Console(driver, siwa, args.out)
    wait = console.wait
    step = "start"
    try:
        step = "console sign-in"
        driver.get(siwa + "/console")
        wait.until(EC.presence_of_element_located((By.ID, "email"))).send_keys(demo["developer"]["email"])
        driver.find_element(By.ID, "password").send_keys(demo["developer"]["password"])
        console.shot("sign-in")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

        step = "Identifiers: the list, its type filter and search"
        wait.until(EC.presence_of_element_located((By.CLASS_NAME, "portal-sidebar")))
        console.shot("identifiers")
        Select(driver.find_element(By.CSS_SELECTOR, "form.list-tools select[name=type]")).select_by_value("services")
        search = driver.find_element(By.CSS_SELECTOR, "form.list-tools input[name=q]")
        search.send_keys("juice")
        console.submit("form.list-tools button")
        assert "type=services" in driver.current_url and "q=juice" in driver.current_url, driver.current_url
        console.shot("identifiers-services-search")

        step = "Identifiers: register a Services ID, step by step (type, description and identifier, capabilities, review)"
        driver.get(siwa + "/console/identifiers")
        console.submit("#add-identifier")
        console.shot("register-type")
        driver.find_element(By.CSS_SELECTOR, "input[name=type][value=services]").click()
        console.submit("#continue")
        wait.until(EC.presence_of_element_located((By.ID, "description"))).send_keys("Fresh web")
        driver.find_element(By.ID, "identifier").send_keys(SERVICES_ID)
        console.shot("register-details")
        console.submit("#continue")
        wait.until(EC.presence_of_element_located((By.ID, "sign-in-with-apple")))
        assert driver.find_element(By.ID, "sign-in-with-apple").is_selected(), "Sign in with Apple is not checked on arrival"
        Select(driver.find_element(By.ID, "primary")).select_by_value(PRIMARY_APP_ID)
        # Typed one a line, as a person types: the browser sends the text area's line breaks as CRLF.
        driver.find_element(By.ID, "domains").send_keys("fresh.example.com\nwww.fresh.example.com")
        driver.find_element(By.ID, "return-urls").send_keys("https://203.0.113.9/cb\n" + app.return_url)
        console.submit("#continue")
        error = wait.until(EC.presence_of_element_located((By.ID, "error"))).text
        assert "203.0.113.9" in error and "IP addresses are not allowed" in error, error
        typed = driver.find_element(By.ID, "return-urls").get_attribute("value")
        assert typed.split() == ["https://203.0.113.9/cb", app.return_url], f"the refused step lost what was typed: {typed!r}"
        console.shot("register-capabilities-refused")
        field = driver.find_element(By.ID, "return-urls")
        field.clear()
        field.send_keys(app.return_url + "\nhttps://www.fresh.example.com/apple/callback")
        console.submit("#continue")
        review = wait.until(EC.presence_of_element_located((By.ID, "review-return-urls"))).text
        assert review.split() == [app.return_url, "https://www.fresh.example.com/apple/callback"], f"two lines, one URL: {review}"
        console.shot("register-review")
        console.submit("#register")

        step = "the new Services ID: one Return URL a line, each held to Apple's rules and limit"
        wait.until(EC.text_to_be_present_in_element((By.ID, "services-id"), SERVICES_ID))
        listed = driver.find_element(By.ID, "return-url-list").text
        assert "development only" in listed, "the Return URL is not marked development-only"
        assert app.return_url in listed and "https://www.fresh.example.com/apple/callback" in listed, f"two lines, one URL: {listed}"
        assert driver.find_element(By.ID, "domains").get_attribute("value").split() == ["fresh.example.com", "www.fresh.example.com"]
        console.shot("services-id")
        field = driver.find_element(By.ID, "return-urls")
        field.send_keys("\nhttps://203.0.113.9/cb")
        console.submit("#save")
        error = wait.until(EC.presence_of_element_located((By.ID, "error"))).text
        assert "203.0.113.9" in error and "IP addresses are not allowed" in error, error
        driver.get(f"{siwa}/console/services-ids/{SERVICES_ID}")
        field = wait.until(EC.presence_of_element_located((By.ID, "return-urls")))
        field.send_keys("".join(f"\nhttps://www.fresh.example.com/cb{index}" for index in range(99)))
        console.submit("#save")
        error = wait.until(EC.presence_of_element_located((By.ID, "error"))).text
        assert "up to 100 Return URLs" in error and "you entered 101" in error, error
        driver.get(f"{siwa}/console/services-ids/{SERVICES_ID}")
        listed = wait.until(EC.presence_of_element_located((By.ID, "return-url-list"))).text
        assert "203.0.113.9" not in listed and "cb98" not in listed, f"a refused save changed the Return URLs: {listed}"

        step = "Keys: register one (Key Name, Sign in with Apple, Configure, review) and download it once"
        driver.get(siwa + "/console/keys")
        console.submit("#add-key")
        wait.until(EC.presence_of_element_located((By.ID, "key-name"))).send_keys("Fresh web key")
        Select(driver.find_element(By.CSS_SELECTOR, "#configure-key select")).select_by_value(PRIMARY_APP_ID)
        console.shot("key-register")
        console.submit("#continue")
        assert wait.until(EC.presence_of_element_located((By.ID, "review-key-name"))).text == "Fresh web key"
        console.shot("key-review")
        console.submit("#register")
        wait.until(EC.presence_of_element_located((By.ID, "download-once")))
        app.key_id = driver.find_element(By.ID, "key-id").text
        console.shot("key-download")
        app.pem = console.download(app.key_id)
        assert app.pem.startswith("-----BEGIN PRIVATE KEY-----"), "the download is not a .p8"
        driver.get(f"{siwa}/console/keys/{app.key_id}/download")
        wait.until(EC.presence_of_element_located((By.ID, "already-downloaded")))
        assert not driver.find_elements(By.ID, f"download-{app.key_id}"), "the key can be downloaded again"
        console.shot("key-downloaded")
        driver.get(siwa + "/console/keys")
        wait.until(EC.presence_of_element_located((By.ID, "keys")))
        console.shot("keys")

        step = "Notifications: the endpoint and a test notification"
        driver.get(siwa + "/console/notifications")
        endpoint = wait.until(EC.presence_of_element_located((By.ID, f"endpoint-{PRIMARY_APP_ID}")))
        endpoint.clear()
        endpoint.send_keys(app.notification_endpoint)
        console.submit(f"form.endpoint input[value='{PRIMARY_APP_ID}'] ~ .field-row button")
        console.submit(f"form[action='/console/notifications/test'] input[value='{PRIMARY_APP_ID}'] ~ button")
        assert "test notification" in console.message(), "no confirmation of the test notification"
        deadline = time.time() + 30
        while True:  # the delivery service runs every second; the page shows the log as it is
            driver.get(siwa + "/console/notifications")
            rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "table.deliveries tr") if row.text.startswith("test ")]
            if rows and "delivered" in rows[0]:
                break
            assert time.time() < deadline, f"the test notification was not delivered: {rows}"
            time.sleep(1)
        assert " 200 " in rows[0] and rows[0].endswith(" ms"), f"the delivery log lacks status or latency: {rows[0]}"
        assert app.notifications and json.loads(app.notifications[-1]["events"])["type"] == "test", app.notifications
        assert app.notifications[-1]["aud"] == PRIMARY_APP_ID, app.notifications

        step = "E-mail sources and their SPF check"
        wait.until(EC.presence_of_element_located((By.ID, "sources"))).send_keys("mail.fresh.example.com, hello@fresh.example.com")
        console.submit("#new-sources button")
        console.submit("#check-sources button")
        assert "checked" in console.message()
        statuses = {row.find_element(By.TAG_NAME, "code").text: row.find_element(By.CLASS_NAME, "spf-status").text
                    for row in driver.find_elements(By.CSS_SELECTOR, "#email-sources tr[class^=check-]")}
        assert statuses.get("mail.fresh.example.com") == "Verified (SPF record found)", statuses
        assert statuses.get("hello@fresh.example.com") == "SPF record missing", statuses
        assert "mail.fresh.example.com" in dns.questions, dns.questions
        console.shot("notifications")
        driver.get(siwa + "/console/transfer")
        wait.until(EC.presence_of_element_located((By.ID, "transfer")))
        console.shot("transfer")

        step = "Team: a colleague is invited by e-mail and accepts with a password of their own"
        driver.get(siwa + "/console/members")
        wait.until(EC.presence_of_element_located((By.ID, "member-email"))).send_keys("colleague@fresh.example.com")
        assert not driver.find_elements(By.CSS_SELECTOR, "#add-member input[type=password]"), "the Team page asks for someone else's password"
        console.submit("#add-member button")
        assert "colleague@fresh.example.com" in console.message()
        assert "/console/invitations/" not in driver.page_source, "the inviter sees the invitation's link"
        link = invitation_link(siwa, demo["admin_token"], "colleague@fresh.example.com")
        assert link.startswith(siwa + "/console/invitations/"), link
        assert "colleague@fresh.example.com" in driver.find_element(By.ID, "invitations").text
        assert "colleague@fresh.example.com" not in driver.find_element(By.ID, "members").text
        console.shot("team-invited")
        console.submit("form[action='/console/sign-out'] button")
        driver.get(link)
        wait.until(EC.presence_of_element_located((By.ID, "name"))).send_keys("Colleague")
        driver.find_element(By.ID, "password").send_keys("colleague password")
        driver.find_element(By.ID, "confirm").send_keys("colleague password")
        console.shot("invitation")
        console.submit("#accept-invitation button")
        header = wait.until(EC.presence_of_element_located((By.CLASS_NAME, "console-team"))).text
        assert "colleague@fresh.example.com" in header and app.team_id in header, header
        driver.get(siwa + "/console/members")
        assert "colleague@fresh.example.com" in wait.until(EC.presence_of_element_located((By.ID, "members"))).text
        console.shot("team")

        step = "Team: where the team is based, typed lower-case, saved upper-case; a wrong code is refused and kept"
        wait.until(EC.presence_of_element_located((By.ID, "team-country-code"))).send_keys("kr")
        console.submit("#team-country button")
        assert "country or region was saved" in console.message(), console.message()
        assert driver.find_element(By.ID, "team-country-code").get_attribute("value") == "KR"
        console.shot("team-country")
        step = "Team: a country that is not two letters is refused and kept"
        driver.find_element(By.ID, "team-country-code").send_keys(Keys.END, Keys.BACKSPACE, Keys.BACKSPACE, "K1")
        console.submit("#team-country button")
        error = wait.until(EC.presence_of_element_located((By.ID, "error"))).text
        assert "The country K1 is not valid" in error and "two-letter ISO 3166-1 code" in error, error
        assert driver.find_element(By.ID, "team-country-code").get_attribute("value") == "K1"
        step = "Team: the country emptied again"
        # Emptied as a person does (two backspaces): the team has no country again.
        driver.find_element(By.ID, "team-country-code").send_keys(Keys.END, Keys.BACKSPACE, Keys.BACKSPACE)
        console.submit("#team-country button")
        assert "country or region was saved" in console.message(), console.message()
        assert driver.find_element(By.ID, "team-country-code").get_attribute("value") == ""

        step = "Account: the colleague changes the password, typed as a person types"
        driver.get(siwa + "/console/account")
        wait.until(EC.presence_of_element_located((By.ID, "current"))).send_keys("colleague password")
        driver.find_element(By.ID, "password").send_keys("colleague's new password")
        driver.find_element(By.ID, "confirm").send_keys("colleague's new password")
        console.submit("#change-password button")
        assert "Every other browser is signed out" in console.message(), console.message()
        console.shot("account")

        step = "the web app signs in with Apple through the new Services ID"
        user = demo["users"][-1]
        driver.get(app.home)
        wait.until(EC.element_to_be_clickable((By.ID, "sign-in-with-apple"))).click()
        wait.until(EC.presence_of_element_located((By.ID, "apple_id"))).send_keys(user["apple_id"])
        driver.find_element(By.ID, "password").send_keys(user["password"])
        driver.find_element(By.CSS_SELECTOR, "button[name=action][value=sign-in]").click()
        wait.until(EC.any_of(EC.presence_of_element_located((By.ID, "development-code")),
                             EC.presence_of_element_located((By.CSS_SELECTOR, "button[name=action][value=approve]"))))
        if driver.find_elements(By.ID, "development-code"):
            wait_for_fresh_code()
            code = totp(user["totp_secret"])
            driver.find_element(By.ID, "code").send_keys(code)
            driver.find_element(By.CSS_SELECTOR, "button[name=action][value=verify]").click()
        approve = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "button[name=action][value=approve]")))
        shares = driver.find_elements(By.CSS_SELECTOR, "input[name=email][value=share]")
        if shares:
            shares[0].click()
        approve.click()
        result = wait.until(EC.presence_of_element_located((By.ID, "result"))).text
        assert app.result and app.result["right"][0] == 200, f"the code exchange failed: {app.result}"
        assert app.result["wrong"][0] == 400 and app.result["wrong"][1].get("error") == "invalid_client", app.result
        assert app.result["state"] == "fresh-state"
        assert app.result["again"][0] == 400 and app.result["again"][1].get("error") == "invalid_grant", app.result
        console.shot("web-app-signed-in")

        step = "Requests explains the wrong client secret"
        driver.get(f"{siwa}/console/requests?client_id={SERVICES_ID}")
        table = wait.until(EC.presence_of_element_located((By.ID, "requests"))).text
        # A secret that did not verify proved no client: it is listed apart, and cannot push out the client's own entries.
        unproven = driver.find_element(By.ID, "unproven-requests").text
        reason = f'client secret: iss is "WRONGTEAM1", expected the Team ID "{app.team_id}"'
        assert reason in unproven, f"the Requests page does not explain the refusal: {unproven}"
        assert reason not in table, f"an unproven request is among the client's own: {table}"
        assert "/auth/authorize" in table and "/auth/token" in table, table
        assert "was already redeemed at" in table and "every token issued from it is now revoked" in table, table
        console.shot("requests")
        print(f"console test: {result}; the Requests page explains: {reason}")
    except Exception as error:
        # WebDriverException's repr is empty: its message and the browser's log say what happened.
        print(f"console test failed at step '{step}': {type(error).__name__}: {error}", file=sys.stderr)
        try:
            for entry in driver.get_log("browser")[-10:]:
                print(f"  browser log: {entry}", file=sys.stderr)
        except Exception:
            pass
        print(f"  url: {driver.current_url}", file=sys.stderr)
        print(driver.page_source[:3000], file=sys.stderr)
        try:
            driver.save_screenshot(os.path.join(args.out, "console-failure.png"))
        except Exception:
            pass
        return 1
    finally:
        driver.quit()
        app.server.shutdown()
        dns.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
