#!/usr/bin/env python3
"""Drives Juice in headless Chromium: the menu, an order that needs an account, the sign-in page,
Sign in with Apple JS's button (loaded from the Apple ID server), the popup with the Apple ID
server's sign-in, two-factor and consent pages, and back to Juice signed in (the page posts the
popup's authorization to Juice's server). Saves a screenshot of the signed-in page.

Usage: juice_signin.py --juice URL --siwa-data-dir DIR --screenshot PATH
"""
import argparse
import json
import os
import shutil
import sys

from selenium import webdriver
from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException, TimeoutException,
                                        WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 20  # seconds for any one page to show what is expected


# A browser test sends nothing beyond the loopback: Selenium Manager stays offline and sends no
# statistics (it is never needed: the driver's path is given), and Chromium makes no background
# requests of its own (component updates, safe browsing lists, sync, first-run pages).
OFFLINE_ENVIRONMENT = {"SE_OFFLINE": "true", "SE_AVOID_STATS": "true"}
QUIET_CHROMIUM = (
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
    "--no-first-run", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
)


def chromium_driver():
    os.environ.update(OFFLINE_ENVIRONMENT)
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1000,900",
                     *QUIET_CHROMIUM):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(TIMEOUT)
    return driver


def wait_for_heading(wait, text):
    """Waits until the page's h1 holds `text`, and returns it. Right after a click the previous page
    (and its h1) may still be there, or no page at all while the next one loads, so the h1 is read
    anew until it matches; a heading found once is never trusted to be the next page's."""
    seen = []

    def heading(driver):
        try:
            seen.append(driver.find_element(By.TAG_NAME, "h1").text)
        except (NoSuchElementException, StaleElementReferenceException):
            return False
        return seen[-1] if text in seen[-1] else False

    try:
        return wait.until(heading)
    except TimeoutException:
        raise AssertionError(f"headline {seen[-1] if seen else None!r}, expected {text!r}") from None


def click_to_next_page(driver, wait, element):
    """Clicks `element` and waits until the browser shows a new, loaded document. The old document is
    marked in its window before the click (a new document gets a new window object, without the mark),
    so no element of the old page is ever asked about: chromedriver answers a question about a node
    the navigation is removing with a plain WebDriverException ("Node with given id does not belong to
    the document"), not the StaleElementReferenceException that `EC.staleness_of` waits for."""
    driver.execute_script("window.__siwaPreviousPage = true")
    element.click()

    def next_page_loaded(driver):
        try:
            return driver.execute_script(
                "return window.__siwaPreviousPage !== true && document.readyState === 'complete'")
        except WebDriverException:  # between two documents
            return False

    wait.until(next_page_loaded)


def report_failure(driver, message, screenshot):
    """Says what failed and on which page, and keeps a picture of that page."""
    print(message, file=sys.stderr)
    print(f"  url: {driver.current_url}", file=sys.stderr)
    try:
        driver.save_screenshot(screenshot)
    except Exception:
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--juice", required=True)
    parser.add_argument("--siwa-data-dir", required=True)
    parser.add_argument("--screenshot", required=True)
    args = parser.parse_args()

    with open(os.path.join(args.siwa_data_dir, "demo.json")) as file:
        demo = json.load(file)
    user = demo["users"][0]
    juice = args.juice.rstrip("/")
    driver = chromium_driver()
    wait = WebDriverWait(driver, TIMEOUT)
    step = "start"
    try:
        step = "Juice menu"
        driver.get(juice + "/")
        wait.until(EC.element_to_be_clickable((By.PARTIAL_LINK_TEXT, "Orange Sunrise"))).click()

        step = "an action that needs an account"
        wait.until(EC.element_to_be_clickable((By.ID, "order"))).click()
        wait.until(EC.url_contains("/signin?next="))
        assert "Sign in to place your order" in driver.page_source, "the sign-in page does not say why it asks"

        step = "the Sign in with Apple button (Sign in with Apple JS, from the Apple ID server)"
        button = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#appleid-signin [role=button]")))
        assert button.get_attribute("aria-label") == "Sign in with Apple", f"button label is {button.get_attribute('aria-label')!r}"
        assert button.get_attribute("tabindex") == "0", "the button is reachable by keyboard"
        assert driver.find_element(By.ID, "sign-in-with-apple-redirect").is_displayed(), "the redirect stays available"
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        driver.save_screenshot(os.path.join(os.path.dirname(os.path.abspath(args.screenshot)), "juice-sign-in-page.png"))
        main_window = driver.current_window_handle
        button.click()

        step = "the popup opens at the Apple ID server"
        wait.until(lambda d: len(d.window_handles) == 2)
        driver.switch_to.window(next(h for h in driver.window_handles if h != main_window))
        assert "response_mode=web_message" in driver.current_url, f"popup URL {driver.current_url}"

        step = "Apple ID sign-in page (in the popup)"
        wait.until(EC.presence_of_element_located((By.ID, "apple_id"))).send_keys(user["apple_id"])
        driver.find_element(By.ID, "password").send_keys(user["password"])
        driver.find_element(By.CSS_SELECTOR, "button[name=action][value=sign-in]").click()

        step = "two-factor page"
        # Two-factor is on by default for the demo Apple IDs (a switch per Apple ID can turn it off).
        wait.until(EC.any_of(
            EC.presence_of_element_located((By.ID, "development-code")), EC.presence_of_element_located((By.ID, "first_name"))))
        codes = driver.find_elements(By.ID, "development-code")
        if codes:
            driver.find_element(By.ID, "code").send_keys(codes[0].text.strip())
            driver.find_element(By.CSS_SELECTOR, "button[name=action][value=verify]").click()

        step = "consent page"
        wait.until(EC.presence_of_element_located((By.ID, "first_name")))
        driver.find_element(By.CSS_SELECTOR, "input[name=email][value=share]").click()
        driver.find_element(By.CSS_SELECTOR, "button[name=action][value=approve]").click()

        step = "the popup closes; Juice's page posts the authorization to its server"
        wait.until(lambda d: len(d.window_handles) == 1)
        driver.switch_to.window(main_window)

        step = "back on Juice, signed in"
        wait.until(EC.url_contains("/order/orange"))
        wait.until(EC.presence_of_element_located((By.ID, "place-order")))
        name = f'{user["first_name"]} {user["last_name"]}'
        account_link = driver.find_element(By.ID, "account-link").text
        assert account_link == name, f"the header shows {account_link!r}, expected {name!r}"

        step = "the account page"
        driver.find_element(By.ID, "account-link").click()
        greeting = wait.until(EC.presence_of_element_located((By.ID, "greeting"))).text
        assert name in greeting, f"the account page greets {greeting!r}"
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        driver.save_screenshot(args.screenshot)
        print(f"browser test: signed in as {name}; screenshot {args.screenshot}")
    except Exception as error:  # report the step, the page, and fail
        print(f"browser test failed at step '{step}': {error!r}", file=sys.stderr)
        print(f"  url: {driver.current_url}", file=sys.stderr)
        print(driver.page_source[:3000], file=sys.stderr)
        failure = os.path.splitext(args.screenshot)[0] + "-failure.png"
        try:
            driver.save_screenshot(failure)
            print(f"  screenshot of the failure: {failure}", file=sys.stderr)
        except Exception:
            pass
        return 1
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
