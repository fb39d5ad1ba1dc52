#!/usr/bin/env python3
"""Screenshots every Apple ID page of `siwa serve` (development mode: the two-factor code is on the
page) in headless Chromium, in each locale given (`?locale=` on each flow's first page; the forms
carry it on): the account pages (sign-in, a wrong password, the code, the account itself), then the web flow started from the playground (sign-in, a wrong password,
two-factor, consent, the playground's result), the "Continue" page of a second authorization, an
authorization error and an expired sign-in. Each locale signs in with a demo Apple ID (they take
turns when there are more locales than Apple IDs) and stops using the apps it used before, so that
each sees the consent page. Each page must carry the locale's `lang` and `dir` and its headline from
Sources/AppleIDServer/Locales; right to left, the page is mirrored and the Apple ID field is not. The PNGs go to --out as <locale>-<nn>-<page>.png.

Usage: apple_id_pages.py --siwa URL --siwa-data-dir DIR --out DIR [--locales en,cs,de,ja,ar]
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

from juice_signin import TIMEOUT, chromium_driver, click_to_next_page, report_failure, wait_for_heading

LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "AppleIDServer", "Locales")


def strings(locale):
    """The locale's words, as the server reads them (Sources/AppleIDServer/Locales/<locale>.json)."""
    with open(os.path.join(LOCALES, f"{locale}.json"), encoding="utf-8") as file:
        return json.load(file)


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
        self.strings = strings(locale)
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
        html = self.driver.find_element(By.TAG_NAME, "html")
        lang, direction = html.get_attribute("lang"), html.get_attribute("dir")
        assert lang == self.locale, f"page language {lang!r}, expected {self.locale!r}"
        assert direction == self.strings["text_direction"], f"page direction {direction!r}, expected {self.strings['text_direction']!r}"

    def expect_layout(self):
        """Right to left, the page is mirrored (text starts at the right) while the Apple ID field stays left to right."""
        style = "return getComputedStyle(arguments[0])[arguments[1]]"
        body = self.driver.find_element(By.TAG_NAME, "main")
        field = self.driver.find_element(By.ID, "apple_id")
        expected = (self.strings["text_direction"], "ltr")
        found = (self.driver.execute_script(style, body, "direction"), self.driver.execute_script(style, field, "direction"))
        assert found == expected, f"page and Apple ID field directions {found}, expected {expected}"

    def expect_h1(self, text):
        wait_for_heading(self.wait, text)
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
    text = {"account": pages.strings["account_sign_in_heading"], "sign_in": pages.strings["sign_in_heading"],
            "two_factor": pages.strings["two_factor_heading"]}
    driver, siwa = pages.driver, pages.siwa

    # The account pages.
    driver.get(f"{siwa}/account?locale={pages.locale}")
    pages.expect_h1(text["account"])
    pages.expect_layout()
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
    while buttons := driver.find_elements(By.CSS_SELECTOR, "form[action='/account/stop-using'] button"):
        click_to_next_page(driver, pages.wait, buttons[0])  # the next page may show a message as the last did
        pages.wait.until(EC.presence_of_element_located((By.ID, "message")))
    driver.delete_all_cookies()

    # The web flow, from the playground.
    pages.authorize_from_playground()
    pages.expect_h1(text["sign_in"])
    pages.expect_layout()
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


def locale_arguments(default_locales):
    """The command line both locale scripts share."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--siwa-data-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--locales", default=default_locales)
    args = parser.parse_args()
    with open(os.path.join(args.siwa_data_dir, "demo.json")) as file:
        args.demo = json.load(file)
    os.makedirs(args.out, exist_ok=True)
    args.siwa = args.siwa.rstrip("/")
    return args


def in_each_locale(locales, run, failure):
    """Runs `run(driver, index, locale)` in a fresh browser for each locale; the first failure is
    reported with a screenshot at `failure(locale)` and ends the run (exit status 1)."""
    for index, locale in enumerate(locales.split(",")):
        driver = chromium_driver()
        try:
            run(driver, index, locale)
        except Exception as error:  # report the page, and fail
            report_failure(driver, f"{os.path.basename(sys.argv[0])} failed in {locale}: {type(error).__name__}: {error}", failure(locale))
            print(driver.find_element(By.TAG_NAME, "body").text[:2000], file=sys.stderr)
            return 1
        finally:
            driver.quit()
    return 0


def main():
    args = locale_arguments("en,cs,de,ja,ar")
    users = args.demo["users"]

    def run(driver, index, locale):
        # demo.json has fewer Apple IDs than locales: they take turns. Each run ends with a completed
        # sign-in (which clears the Apple ID's failed attempts) and begins by stopping the apps it used,
        # so every locale still sees the wrong-password, two-factor and consent pages.
        user = users[index % len(users)]
        print(f"apple_id_pages: {locale} as {user['apple_id']}")
        run_locale(Pages(driver, args.siwa, args.out, locale), user)

    return in_each_locale(args.locales, run, lambda locale: os.path.join(args.out, f"{locale}-failure.png"))


if __name__ == "__main__":
    sys.exit(main())
