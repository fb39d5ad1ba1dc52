#!/usr/bin/env python3
"""The Apple ID's mailbox page (/account/mail) in headless Chromium, with real SMTP: a demo user hides
her e-mail from the demo app (admin API), the demo team registers example.com as an e-mail source, the
user signs in to /account and opens her mailbox; then Python's smtplib sends an HTML message to her
relay address through `siwa serve`'s SMTP listener, and the row must appear without a reload. The
message opens with its HTML in a sandboxed frame; the reply form sends an answer through the relay,
which the admin API must show going to the original sender from the relay address. Screenshots go to
--out: 1-mailbox.png (the new row), 2-message.png (the message), 3-replied.png.

Usage: account_mail.py --siwa URL --siwa-data-dir DIR --smtp-port N --out DIR
"""
import argparse
import json
import os
import smtplib
import sys
import urllib.request
from email.message import EmailMessage

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from juice_signin import TIMEOUT, chromium_driver, report_failure

SENDER = "orders@example.com"


def admin(siwa, token, method, path, body=None):
    request = urllib.request.Request(
        siwa + "/admin" + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return json.load(response)


def hidden_address(siwa, demo, user):
    """Authorizes the demo app as `user`, hiding her e-mail: the answer's `user` JSON holds the relay address."""
    answer = admin(siwa, demo["admin_token"], "POST", "/authorizations", {
        "client_id": demo["services_id"], "redirect_uri": demo["return_urls"][0], "response_type": "code",
        "response_mode": "form_post", "scope": "name email", "apple_id": user["apple_id"], "hide_email": True})
    return json.loads(answer["results"][0]["user"])["email"]


def send_mail(port, to, subject):
    message = EmailMessage()
    message["From"] = f"Juice Orders <{SENDER}>"
    message["To"] = to
    message["Subject"] = subject
    message.set_content("Your juice is on its way.")
    message.add_alternative(
        "<h1 style='font-family:sans-serif'>Thank you!</h1><p>Your juice is on its way.</p>"
        "<img src='https://tracker.example/pixel.gif' alt='remote image (blocked)'>", subtype="html")
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        client.send_message(message, from_addr=SENDER, to_addrs=[to])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--siwa-data-dir", required=True)
    parser.add_argument("--smtp-port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.siwa_data_dir, "demo.json"), encoding="utf-8") as file:
        demo = json.load(file)
    # An Apple ID of its own: the demo users may have authorized the app (then no `user` JSON comes)
    # or received mail (then the inbox is not empty) in the parts that ran before.
    address = f"mailbox.{os.getpid()}@example.com"
    user = {"apple_id": address, "email": address, "password": "mailbox-test-password-1"}
    admin(args.siwa, demo["admin_token"], "POST", "/users", {
        "apple_id": address, "password": user["password"], "first_name": "Mia", "last_name": "Box",
        "email": address, "two_factor_enabled": False})
    relay = hidden_address(args.siwa, demo, user)
    admin(args.siwa, demo["admin_token"], "POST", f"/teams/{demo['team_id']}/email-sources", {"sources": "example.com"})

    driver = chromium_driver()
    wait = WebDriverWait(driver, TIMEOUT)
    try:
        driver.get(args.siwa + "/account?locale=en")
        driver.find_element(By.ID, "apple_id").send_keys(user["apple_id"])
        driver.find_element(By.ID, "password").send_keys(user["password"])
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.find_elements(By.ID, "development-code") or d.find_elements(By.ID, "open-mail"))
        if driver.find_elements(By.ID, "development-code"):
            driver.find_element(By.ID, "code").send_keys(driver.find_element(By.ID, "development-code").text.strip())
            driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(EC.presence_of_element_located((By.ID, "open-mail"))).click()
        wait.until(EC.visibility_of_element_located((By.ID, "mail-empty")))

        # The page is open; the mail arrives now and must show without a reload.
        marker = driver.execute_script("window.notReloaded = true; return window.notReloaded;")
        send_mail(args.smtp_port, relay, "Your Juice order #1")
        row = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#mail-rows tr")))
        assert driver.execute_script("return window.notReloaded === true;") and marker, "the page was reloaded"
        assert "Your Juice order #1" in row.text and "orders_at_example_com_" in row.text, row.text
        assert SENDER not in row.text, "the original sender is shown"
        driver.save_screenshot(os.path.join(args.out, "1-mailbox.png"))

        row.find_element(By.TAG_NAME, "a").click()
        frame = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "iframe.mail-body")))
        assert frame.get_attribute("sandbox") == "", "the frame allows something"
        driver.switch_to.frame(frame)
        heading = wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1"))).text
        images = driver.execute_script("return Array.from(document.images).map(i => i.naturalWidth);")
        driver.switch_to.default_content()
        assert heading == "Thank you!", heading
        assert images == [0], f"the remote image loaded: {images}"
        driver.save_screenshot(os.path.join(args.out, "2-message.png"))

        driver.find_element(By.ID, "reply-body").send_keys("Thanks! Where is my juice?")
        driver.find_element(By.ID, "send-reply").click()
        message = wait.until(EC.presence_of_element_located((By.ID, "message"))).text
        assert message == "Your reply was sent.", message
        driver.save_screenshot(os.path.join(args.out, "3-replied.png"))
        replies = admin(args.siwa, demo["admin_token"], "GET", "/mail?to=" + SENDER)["messages"]
        reply = next(m for m in replies if m["direction"] == "reply")
        assert reply["relay_address"] == relay and reply["subject"] == "Re: Your Juice order #1", reply
        detail = admin(args.siwa, demo["admin_token"], "GET", "/mail/" + reply["id"])
        assert user["email"].lower() not in detail["raw"].lower(), "the reply shows the real address"
        print(f"account_mail.py: the mail to {relay} appeared without a reload, opened sandboxed, and the reply went out")
        return 0
    except Exception as error:  # noqa: BLE001 - any failure is reported with the page it happened on
        report_failure(driver, f"account_mail.py: {error!r}", os.path.join(args.out, "failure.png"))
        return 1
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
