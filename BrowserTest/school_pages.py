#!/usr/bin/env python3
"""Screenshots the "at Work & School" pages of `siwa serve`'s demo school in headless Chromium, in
each locale given (default en,de): a Managed Apple ID signs in from the playground, passes the
verification-code step in its own words (not the two-factor page's: a student on an unmanaged
device), and sees the consent page's school variant: the organization's name, the name the
organization set (read-only), its e-mail for the account or the note that there is none, and no
Hide My Email choice. The members of demo.json's school take turns (the student, with no e-mail,
first), so that each locale sees a first authorization. The PNGs go to --out as
<locale>-<nn>-school-<page>.png.

Usage: school_pages.py --siwa URL --siwa-data-dir DIR --out DIR [--locales en,de]
"""
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from apple_id_pages import Pages, in_each_locale, locale_arguments


def run_school(pages, member, organization):
    text, driver = pages.strings, pages.driver
    pages.authorize_from_playground()
    pages.expect_h1(text["sign_in_heading"])
    pages.shot("school-sign-in")
    pages.type("apple_id", member["username"])
    pages.type("password", member["password"])
    pages.click("button[name=action][value=sign-in]")
    code = pages.wait.until(EC.presence_of_element_located((By.ID, "development-code"))).text.strip()
    pages.expect_h1(text["managed_code_heading"])
    subtitle = driver.find_element(By.CSS_SELECTOR, "p.subtitle").text
    assert member["username"] in subtitle, f"the code step's prompt {subtitle!r} does not name the Managed Apple ID"
    pages.shot("school-verification-code")
    pages.type("code", code)
    pages.click("button[name=action][value=verify]")

    shown = pages.wait.until(EC.presence_of_element_located((By.ID, "organization"))).text
    pages.expect_lang()
    assert organization["name"] in shown, f"consent names {shown!r}, not the school {organization['name']!r}"
    for field in ("first_name", "last_name"):
        assert driver.find_element(By.ID, field).get_attribute("readonly") is not None, f"{field} is editable at Work & School"
    assert not driver.find_elements(By.CSS_SELECTOR, "input[name=email][value=hide]"), "Hide My Email offered at Work & School"
    email = driver.find_element(By.ID, "organization-email").text
    expected = member.get("email") or text["managed_email_none"]
    assert expected in email, f"e-mail line {email!r}, expected {expected!r}"
    pages.shot("school-consent")
    pages.click("button[name=action][value=approve]")
    claims = pages.wait.until(EC.presence_of_element_located((By.ID, "id-token-claims"))).text
    assert organization["id"] in claims, "the id_token carries no org_id"
    pages.shot("school-playground-result")


def main():
    args = locale_arguments("en,de")
    organization = args.demo["organization"]
    members = sorted(organization["members"], key=lambda member: member.get("email") is not None)

    def run(driver, index, locale):
        member = members[index % len(members)]
        print(f"school_pages: {locale} as {member['username']}")
        run_school(Pages(driver, args.siwa, args.out, locale), member, organization)

    return in_each_locale(args.locales, run, lambda locale: os.path.join(args.out, f"{locale}-school-failure.png"))


if __name__ == "__main__":
    sys.exit(main())
