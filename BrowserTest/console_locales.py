#!/usr/bin/env python3
"""Screenshots the developer console in other languages, in headless Chromium, after
console_web_client.py has filled it (its Services ID, key, notification log, e-mail sources, colleague
and requests): the demo developer signs in with `?locale=` and opens every console page in that
language. Each page must carry the locale's `lang` and `dir`, and its navigation must name the page
in the locale's words (Sources/AppleIDServer/Locales). Right to left, the Return URLs the Services ID
page lists stay left to right. The PNGs go to --out as console-<locale>-<nn>-<page>.png.

Usage: console_locales.py --siwa URL --siwa-data-dir DIR --out DIR [--locales ja,ar]
"""
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from apple_id_pages import in_each_locale, locale_arguments, strings
from console_web_client import PRIMARY_APP_ID, SERVICES_ID
from juice_signin import TIMEOUT

# Each page, and the navigation entry (a key of the locale file) that marks it as the current one.
PAGES = [
    ("identifiers", "identifiers", "console_identifiers"),
    ("identifiers-services", "identifiers?type=services", "console_identifiers"),
    ("register-type", "identifiers/add", "console_identifiers"),
    ("app-id", f"app-ids/{PRIMARY_APP_ID}", "console_identifiers"),
    ("app-id-remove", f"app-ids/{PRIMARY_APP_ID}/remove", "console_identifiers"),
    ("services-id", f"services-ids/{SERVICES_ID}", "console_identifiers"),
    ("services-id-remove", f"services-ids/{SERVICES_ID}/remove", "console_identifiers"),
    ("keys", "keys", "console_keys"),
    ("key-register", "keys/add", "console_keys"),
    ("key", "keys/{kid}", "console_keys"),
    ("key-download", "keys/{kid}/download", "console_keys"),
    ("key-revoke", "keys/{kid}/revoke", "console_keys"),
    ("notifications", "notifications", "console_notifications"),
    ("requests", f"requests?client_id={SERVICES_ID}", "console_requests"),
    ("transfer", "transfer", "console_transfer"),
    ("team", "members", "console_members"),
    ("account", "account", "console_account"),
]


def tour(driver, siwa, out, locale, developer, kid):
    words = strings(locale)
    wait = WebDriverWait(driver, TIMEOUT)
    count = 0

    def shot(name):
        nonlocal count
        count += 1
        html = driver.find_element(By.TAG_NAME, "html")
        found = (html.get_attribute("lang"), html.get_attribute("dir"))
        assert found == (locale, words["text_direction"]), f"{name}: lang and dir {found}"
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1000, max(900, min(int(height) + 120, 3000)))
        path = os.path.join(out, f"console-{locale}-{count:02d}-{name}.png")
        driver.save_screenshot(path)
        print(f"console_locales: {path}")

    driver.get(f"{siwa}/console?locale={locale}")
    heading = wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1"))).text
    assert heading == words["console_sign_in_heading"], f"sign-in headline {heading!r}"
    driver.find_element(By.ID, "email").send_keys(developer["email"])
    driver.find_element(By.ID, "password").send_keys(developer["password"])
    shot("sign-in")
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "portal-sidebar")))
    for name, path, current in PAGES:
        path = path.format(kid=kid)
        separator = "&" if "?" in path else "?"
        driver.get(f"{siwa}/console/{path}{separator}locale={locale}")
        marked = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".portal-sidebar a[aria-current=page]"))).text
        assert marked == words[current], f"{name}: the navigation marks {marked!r}, expected {words[current]!r}"
        if name == "identifiers" and words["text_direction"] == "rtl":
            sidebar = driver.find_element(By.CLASS_NAME, "portal-sidebar").rect
            pane = driver.find_element(By.CLASS_NAME, "portal-main").rect
            assert sidebar["x"] > pane["x"], f"right to left, the sidebar is not on the right: {sidebar} {pane}"
        if name == "services-id":
            urls = driver.find_element(By.ID, "return-urls")
            direction = driver.execute_script("return getComputedStyle(arguments[0]).direction", urls)
            assert direction == "ltr", f"the Return URLs are laid out {direction}"
        shot(name)


def main():
    args = locale_arguments("ja,ar")
    return in_each_locale(
        args.locales, lambda driver, _, locale: tour(driver, args.siwa, args.out, locale, args.demo["developer"], args.demo["key_id"]),
        lambda locale: os.path.join(args.out, f"console-{locale}-failure.png"))


if __name__ == "__main__":
    sys.exit(main())
