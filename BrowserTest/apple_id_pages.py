#!/usr/bin/env python3
"""Screenshots every Apple ID page of `siwa serve` (development mode: the two-factor code is on the
page) in headless Chromium, in each locale given (`?locale=` on each flow's first page; the forms
carry it on): the account pages (sign-in, a wrong password, the code, the account itself), then the web flow started from the playground (sign-in, a wrong password,
two-factor, consent, the playground's result), the "Continue" page of a second authorization, an
authorization error and an expired sign-in. Each locale signs in with its own demo Apple ID, and
stops using the apps it used before, so that each sees the consent page. The PNGs go to --out as <locale>-<nn>-<page>.png.

Usage: apple_id_pages.py --siwa URL --siwa-data-dir DIR --out DIR [--locales en,cs]
"""
import argparse
import json
import os
import sys
import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_signin import TIMEOUT, chromium_driver

# The page's headline in each locale, checked before each screenshot (from Sources/AppleIDServer/Locales).
HEADLINES = {
    "en": {"sign_in": "Sign in with Apple ID", "two_factor": "Two-Factor Authentication", "account": "Manage your Apple ID"},
    "cs": {"sign_in": "Přihlášení pomocí Apple ID", "two_factor": "Dvoufaktorové ověřování", "account": "Správa Apple ID"},
    "th": {"sign_in": "ลงชื่อเข้าด้วย Apple ID", "two_factor": "การตรวจสอบสิทธิ์สองปัจจัย", "account": "จัดการ Apple ID ของคุณ"},
    "vi": {"sign_in": "Đăng nhập bằng ID Apple", "two_factor": "Xác thực hai yếu tố", "account": "Quản lý ID Apple của bạn"},
    "zh-Hans": {"sign_in": "使用 Apple ID 登录", "two_factor": "双重认证", "account": "管理你的 Apple ID"},
    "zh-Hant": {"sign_in": "使用 Apple ID 登入", "two_factor": "雙重認證", "account": "管理你的 Apple ID"},
}


TOTP_STEP = 30  # seconds of one two-factor code


class CodeWindows:
    """A two-factor code signs in once: before a step that shows a new code, wait for the next
    30-second window after the last one this Apple ID used (run.sh's Juice test used Maria's just before)."""

    def __init__(self):
        self.last_used = {}

    def wait_for_fresh_code(self, apple_id):
        last = self.last_used.get(apple_id, int(time.time()) // TOTP_STEP)
        while int(time.time()) // TOTP_STEP <= last:
            time.sleep(0.5)

    def used(self, apple_id):
        self.last_used[apple_id] = int(time.time()) // TOTP_STEP


CODES = CodeWindows()


class Pages:
    def __init__(self, driver, siwa, out, locale):
        self.driver, self.siwa, self.out, self.locale = driver, siwa, out, locale
        self.wait = WebDriverWait(driver, TIMEOUT)
        self.count = 0

    def shot(self, name):
        self.count += 1
        path = os.path.join(self.out, f"{self.locale}-{self.count:02d}-{name}.png")
        # The whole page: a viewport as tall as its content (the window alone cannot grow past the screen).
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 1000, "height": max(700, height), "deviceScaleFactor": 1, "mobile": False})
        self.driver.save_screenshot(path)
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        print(f"  {path}")

    def expect_lang(self):
        lang = self.driver.find_element(By.TAG_NAME, "html").get_attribute("lang")
        assert lang == self.locale, f"page language {lang!r}, expected {self.locale!r}"

    def expect_h1(self, text):
        h1 = self.wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1"))).text
        assert text in h1, f"headline {h1!r}, expected {text!r}"
        self.expect_lang()

    def click(self, selector):
        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def type(self, element_id, text):
        field = self.wait.until(EC.presence_of_element_located((By.ID, element_id)))
        field.clear()
        field.send_keys(text)

    def authorize_from_playground(self):
        """The playground's sign-in request (its state is this browser's), in this locale."""
        self.driver.get(self.siwa + "/playground")
        self.wait.until(EC.presence_of_element_located((By.ID, "sign-in-with-apple")))
        fields = {
            element.get_attribute("name"): element.get_attribute("value")
            for element in self.driver.find_elements(By.CSS_SELECTOR, "form[action='/auth/authorize'] input[type=hidden]")
        }
        fields["locale"] = self.locale
        self.driver.get(self.siwa + "/auth/authorize?" + urllib.parse.urlencode(fields))


def run_locale(pages, user):
    text = HEADLINES[pages.locale]
    driver, siwa = pages.driver, pages.siwa

    # The account pages.
    driver.get(f"{siwa}/account?locale={pages.locale}")
    pages.expect_h1(text["account"])
    pages.shot("account-sign-in")
    pages.type("apple_id", user["apple_id"])
    pages.type("password", "not the password")
    pages.click("form[action='/account/sign-in'] button[type=submit]")
    pages.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.message")))
    pages.expect_lang()
    pages.shot("account-sign-in-wrong-password")
    pages.type("apple_id", user["apple_id"])
    pages.type("password", user["password"])
    CODES.wait_for_fresh_code(user["apple_id"])
    pages.click("form[action='/account/sign-in'] button[type=submit]")
    code = pages.wait.until(EC.presence_of_element_located((By.ID, "development-code"))).text.strip()
    pages.expect_lang()
    pages.shot("account-code")
    pages.type("code", code)
    CODES.used(user["apple_id"])
    pages.click("form[action='/account/verify'] button[type=submit]")
    pages.wait.until(EC.presence_of_element_located((By.ID, "confirm")))
    pages.expect_lang()
    pages.shot("account")
    # Stop using every app, so that the web flow below shows the consent page (an app the Apple ID
    # used before, e.g. Juice in run.sh's first test, shares the playground's demo Services ID).
    while driver.find_elements(By.CSS_SELECTOR, "form[action='/account/stop-using'] button"):
        driver.find_element(By.CSS_SELECTOR, "form[action='/account/stop-using'] button").click()
        pages.wait.until(EC.presence_of_element_located((By.ID, "message")))
    driver.delete_all_cookies()

    # The web flow, from the playground.
    pages.authorize_from_playground()
    pages.expect_h1(text["sign_in"])
    pages.shot("sign-in")
    pages.type("apple_id", user["apple_id"])
    pages.type("password", "not the password")
    pages.click("button[name=action][value=sign-in]")
    pages.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.message")))
    pages.expect_lang()
    pages.shot("sign-in-wrong-password")
    pages.type("apple_id", user["apple_id"])
    pages.type("password", user["password"])
    CODES.wait_for_fresh_code(user["apple_id"])
    pages.click("button[name=action][value=sign-in]")
    code = pages.wait.until(EC.presence_of_element_located((By.ID, "development-code"))).text.strip()
    pages.expect_h1(text["two_factor"])
    pages.shot("two-factor")
    pages.type("code", code)
    CODES.used(user["apple_id"])
    pages.click("button[name=action][value=verify]")
    pages.wait.until(EC.presence_of_element_located((By.ID, "first_name")))
    pages.expect_lang()
    pages.shot("consent")
    pages.click("input[name=email][value=hide]")
    pages.shot("consent-hide-my-email")
    pages.click("button[name=action][value=approve]")
    pages.wait.until(EC.presence_of_element_located((By.ID, "id-token-claims")))
    pages.shot("playground-result")

    pages.authorize_from_playground()
    pages.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "button[name=action][value=approve]")))
    assert not driver.find_elements(By.ID, "first_name"), "a second authorization asks for consent again"
    pages.expect_lang()
    pages.shot("continue")

    driver.get(f"{siwa}/auth/authorize?locale={pages.locale}")
    pages.wait.until(EC.presence_of_element_located((By.ID, "error")))
    pages.expect_lang()
    pages.shot("error")
    driver.get(f"{siwa}/auth/interaction/unknown?locale={pages.locale}")
    pages.wait.until(EC.presence_of_element_located((By.ID, "error-description")))
    pages.expect_lang()
    pages.shot("expired")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--siwa-data-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--locales", default="en,cs")
    args = parser.parse_args()

    with open(os.path.join(args.siwa_data_dir, "demo.json")) as file:
        users = json.load(file)["users"]
    os.makedirs(args.out, exist_ok=True)
    siwa = args.siwa.rstrip("/")
    locales = args.locales.split(",")
    if len(locales) > len(users):
        print(f"apple_id_pages: {len(locales)} locales need as many demo Apple IDs; demo.json has {len(users)}", file=sys.stderr)
        return 1
    for index, locale in enumerate(locales):
        driver = chromium_driver()
        pages = Pages(driver, siwa, args.out, locale)
        print(f"apple_id_pages: {locale} as {users[index]['apple_id']}")
        try:
            run_locale(pages, users[index])
        except Exception as error:  # report the page, and fail
            print(f"apple_id_pages failed in {locale} after {pages.count} screenshots: {error!r}", file=sys.stderr)
            print(f"  url: {driver.current_url}", file=sys.stderr)
            print(driver.find_element(By.TAG_NAME, "body").text[:2000], file=sys.stderr)
            try:
                driver.save_screenshot(os.path.join(args.out, f"{locale}-failure.png"))
            except Exception:
                pass
            return 1
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
