#!/usr/bin/env python3
"""Juice sends mail through the private relay, in headless Chromium: a second demo Apple ID signs in
to Juice hiding the e-mail and orders. The person then signs in to the Apple ID server's /account,
opens the mailbox page (/account/mail) and finds the confirmation there from a rewritten sender,
opens it and types a reply on the page; the reply must reach Juice's sender address through the
relay, from the relay address and without the person's real address (`siwa mail wait` / `show`).
Then the person turns forwarding off on /account and orders again: the order is kept, and Juice's
log names why no confirmation went out: the relay's refusal (550, forwarding off) or, when the
email-disabled notification reached Juice first, that it did not send. Screenshots go to --out.

Usage: juice_mail.py --juice URL --siwa URL --siwa-data-dir DIR --siwa-bin PATH --juice-log PATH --out DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from apple_id_pages import CODES
from juice_signin import TIMEOUT, chromium_driver, report_failure, wait_for_heading

JUICE_SENDER = "orders@juice.example.com"
CONFIRMATION_SUBJECT = "Your Juice order: Orange Sunrise"
LOG_TIMEOUT = 30  # seconds for Juice's mailer to log the outcome of a confirmation


def siwa_mail(args, *arguments):
    """Runs `siwa mail ...` against the test's server; returns its JSON answer."""
    command = [args.siwa_bin, "mail", *arguments, "--data-dir", args.siwa_data_dir]
    result = subprocess.run(command, capture_output=True, text=True, timeout=90)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed: {result.stderr.strip() or result.stdout.strip()}")
    return json.loads(result.stdout)


def juice_log_line(path, *needles, after=0):
    """The first line of Juice's log past byte `after` that holds every needle, waiting up to LOG_TIMEOUT."""
    deadline = time.time() + LOG_TIMEOUT
    while time.time() < deadline:
        with open(path, encoding="utf-8", errors="replace") as file:
            file.seek(after)
            for line in file:
                if all(needle in line for needle in needles):
                    return line.strip()
        time.sleep(0.25)
    return None


def order(driver, wait, juice):
    driver.get(juice + "/order/orange")
    wait.until(EC.element_to_be_clickable((By.ID, "place-order"))).click()
    wait_for_heading(wait, "Thank you")  # the order page has an h1 too


def sign_in_to_juice_hiding_email(driver, wait, juice, user):
    driver.get(juice + "/signin?next=/account")
    main_window = driver.current_window_handle
    wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#appleid-signin [role=button]"))).click()
    wait.until(lambda d: len(d.window_handles) == 2)
    driver.switch_to.window(next(h for h in driver.window_handles if h != main_window))
    wait.until(EC.presence_of_element_located((By.ID, "apple_id"))).send_keys(user["apple_id"])
    driver.find_element(By.ID, "password").send_keys(user["password"])
    CODES.wait_for_fresh_code(user["apple_id"])
    driver.find_element(By.CSS_SELECTOR, "button[name=action][value=sign-in]").click()
    wait.until(EC.any_of(
        EC.presence_of_element_located((By.ID, "development-code")), EC.presence_of_element_located((By.ID, "first_name"))))
    codes = driver.find_elements(By.ID, "development-code")
    if codes:
        driver.find_element(By.ID, "code").send_keys(codes[0].text.strip())
        CODES.used(user["apple_id"])
        driver.find_element(By.CSS_SELECTOR, "button[name=action][value=verify]").click()
    wait.until(EC.presence_of_element_located((By.ID, "first_name")))
    driver.find_element(By.CSS_SELECTOR, "input[name=email][value=hide]").click()
    driver.find_element(By.CSS_SELECTOR, "button[name=action][value=approve]").click()
    wait.until(lambda d: len(d.window_handles) == 1)
    driver.switch_to.window(main_window)
    wait.until(EC.url_contains("/account"))
    return wait.until(EC.presence_of_element_located((By.ID, "email"))).text.split(" ")[0]


def sign_in_to_account(driver, wait, siwa, user):
    driver.get(siwa + "/account?locale=en")
    wait.until(EC.presence_of_element_located((By.ID, "apple_id"))).send_keys(user["apple_id"])
    driver.find_element(By.ID, "password").send_keys(user["password"])
    CODES.wait_for_fresh_code(user["apple_id"])
    driver.find_element(By.CSS_SELECTOR, "form[action='/account/sign-in'] button[type=submit]").click()
    code = wait.until(EC.presence_of_element_located((By.ID, "development-code"))).text.strip()
    driver.find_element(By.ID, "code").send_keys(code)
    CODES.used(user["apple_id"])
    driver.find_element(By.CSS_SELECTOR, "form[action='/account/verify'] button[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "confirm")))


def confirmation_row(driver, wait):
    """The confirmation's row in the open mailbox page: the page adds new mail without a reload, so
    a confirmation still in flight when the page opened shows up by itself."""
    def row(d):
        rows = [r for r in d.find_elements(By.CSS_SELECTOR, "#mail-rows tr") if CONFIRMATION_SUBJECT in r.text]
        return rows[0] if rows else False
    return wait.until(row)


def turn_forwarding_off(driver, wait, siwa, relay_address):
    driver.get(siwa + "/account?locale=en")
    wait.until(EC.presence_of_element_located((By.ID, "confirm")))
    row = driver.find_element(By.XPATH, f"//tr[td/code[text()='{relay_address}']]")
    row.find_element(By.CSS_SELECTOR, "form[action='/account/relay'] button[type=submit]").click()
    wait.until(lambda d: d.find_elements(By.XPATH, f"//tr[td/code[text()='{relay_address}']]//input[@name='forwarding'][@value='on']"))


def main():
    parser = argparse.ArgumentParser()
    for name in ("--juice", "--siwa", "--siwa-data-dir", "--siwa-bin", "--juice-log", "--out"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    with open(os.path.join(args.siwa_data_dir, "demo.json")) as file:
        user = json.load(file)["users"][1]  # not the first: run.sh's Juice test signed in with it
    juice, siwa = args.juice.rstrip("/"), args.siwa.rstrip("/")
    os.makedirs(args.out, exist_ok=True)
    shot = lambda name: driver.save_screenshot(os.path.join(args.out, f"{name}.png"))
    driver = chromium_driver()
    wait = WebDriverWait(driver, TIMEOUT)
    step = "start"
    try:
        step = "sign in to Juice with Hide My Email"
        relay_address = sign_in_to_juice_hiding_email(driver, wait, juice, user)
        assert re.fullmatch(r"[^@\s]+@privaterelay\.[^\s]+", relay_address), f"Juice holds {relay_address!r}, not a relay address"
        shot("juice-mail-1-account")

        step = "order"
        order(driver, wait, juice)
        shot("juice-mail-2-ordered")

        step = "the confirmation in the Apple ID's mailbox page, from the rewritten sender"
        sign_in_to_account(driver, wait, siwa, user)
        wait.until(EC.element_to_be_clickable((By.ID, "open-mail"))).click()
        wait.until(EC.presence_of_element_located((By.ID, "mail-rows")))
        row = confirmation_row(driver, wait)
        sender = row.find_element(By.CSS_SELECTOR, "td").text
        print(f"browser test: the mailbox shows {row.text!r}")
        assert re.search(r"<orders_at_juice_example_com_\w+@privaterelay\.[^>\s]+>", sender), f"the sender is not rewritten: {sender!r}"
        assert JUICE_SENDER not in row.text, "Juice's own address shows through"
        shot("juice-mail-3-mailbox")
        row.find_element(By.TAG_NAME, "a").click()
        assert wait.until(EC.presence_of_element_located((By.ID, "mail-subject"))).text == CONFIRMATION_SUBJECT
        assert sender in driver.find_element(By.ID, "mail-from").text, driver.find_element(By.ID, "mail-from").text
        shot("juice-mail-4-confirmation")

        step = "reply from the mailbox page: the reply reaches Juice's sender through the relay"
        since = siwa_mail(args, "list", "--to", JUICE_SENDER)["messages"]
        # Typed as a person types, two lines: the browser sends the text area's line break as CRLF.
        driver.find_element(By.ID, "reply-body").send_keys("Thank you!\nCould the juice come before noon?")
        shot("juice-mail-5-reply-typed")
        driver.find_element(By.ID, "send-reply").click()
        assert wait.until(EC.presence_of_element_located((By.ID, "message"))).text == "Your reply was sent."
        shot("juice-mail-6-replied")
        replies = [m for m in siwa_mail(args, "wait", "--to", JUICE_SENDER, "--timeout", "30s")["messages"] if m not in since]
        reply = next(m for m in replies if m["direction"] == "reply")
        print(f"browser test: reply {json.dumps(reply)[:400]}")
        assert reply["relay_address"] == relay_address and reply["subject"] == "Re: " + CONFIRMATION_SUBJECT, reply
        raw = siwa_mail(args, "show", reply["id"])["raw"]
        assert relay_address in raw and "before noon" in raw, "the reply is not the one typed, from the relay address"
        real = {user["apple_id"].lower(), user.get("email", user["apple_id"]).lower()}
        assert not any(address in raw.lower() for address in real), "the reply shows the person's real address to Juice"

        step = "forwarding off on /account, as a person"
        log_size = os.path.getsize(args.juice_log)
        turn_forwarding_off(driver, wait, siwa, relay_address)
        shot("juice-mail-7-forwarding-off")

        step = "order again: kept, and Juice's log names why no confirmation went out"
        order(driver, wait, juice)
        shot("juice-mail-8-ordered-again")
        refused = juice_log_line(args.juice_log, "order confirmation refused", "550", after=log_size)
        skipped = juice_log_line(args.juice_log, "order confirmation not sent", "forwarding off", after=log_size) if refused is None else None
        assert refused or skipped, "Juice logged neither the refusal nor why it did not send"
        print(f"browser test: Juice's log after forwarding off: {refused or skipped}")
        after = siwa_mail(args, "list", "--to", relay_address)["messages"]
        assert len(after) == 1, f"{len(after)} messages reached the relay address; only the first confirmation should"
        driver.get(juice + "/account")
        shot("juice-mail-9-account-after")
        print("browser test: Juice sent its confirmation through the relay, and kept the order when forwarding was off")
    except Exception as error:
        report_failure(driver, f"browser test (mail) failed at step '{step}': {error!r}", os.path.join(args.out, "juice-mail-failure.png"))
        return 1
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
