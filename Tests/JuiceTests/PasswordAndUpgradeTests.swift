import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithAppleTesting
import Testing

@testable import JuiceApp

@Suite("Juice: password accounts, asking late, upgrading to Sign in with Apple", .timeLimit(.minutes(5)))
struct PasswordAndUpgradeTests {
    @Test("browsing needs no account; ordering asks for one and comes back to the order")
    func askLate() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            #expect(try await browser.get("/").status == .ok)
            let juicePage = try await browser.get("/juices/orange")
            #expect(juicePage.status == .ok)
            #expect(juicePage.text.contains("Orange Sunrise"))
            let order = try await browser.get("/order/orange")
            #expect(order.status == .seeOther)
            #expect(order.headers[.location] == "/signin?next=/order/orange")
            let signIn = try await browser.get("/signin?next=/order/orange")
            #expect(signIn.text.contains("Sign in to place your order"))
            #expect(signIn.text.contains("Sign in with Apple"))

            let signUp = try await browser.signUp(email: "ann@example.com", password: "orange-juice", firstName: "Ann", lastName: "Lee")
            #expect(signUp.status == .seeOther)
            let placed = try await browser.post("/order/orange", [], csrfFrom: try await browser.get("/order/orange"))
            #expect(placed.status == .ok)
            #expect(placed.text.contains("Your Orange Sunrise is being squeezed"))
        }
    }

    @Test("a form without the browser's CSRF token is refused with a page")
    func csrf() async throws {
        try await withJuice { juice in
            _ = try await juice.browser.get("/signup")
            let forged = try await juice.browser.post(
                "/signup", [("csrf", "forged"), ("email", "x@example.com"), ("password", "12345678"), ("first_name", "X")])
            #expect(forged.status == .badRequest)
            #expect(forged.text.contains("This form has expired"))
            #expect(try await juice.accountCount() == 0)
        }
    }

    @Test("story 1: a password user upgrades; the password is gone, Sign in with Apple opens the account")
    func upgrade() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            let email = "upgrader@example.com"
            try await juice.apple.createUser(appleID: email, firstName: "Uma", lastName: "Grade")
            #expect(try await browser.signUp(email: email, password: "my-password", firstName: "Uma", lastName: "Grade").status == .seeOther)
            let before = try #require(try await juice.account(email: email))
            #expect(before.hasPassword)
            #expect(!before.usesSignInWithApple)

            let accountPage = try await browser.get("/account")
            #expect(accountPage.text.contains("Upgrade to Sign in with Apple"))
            let callback = try await browser.approveAtApple(
                action: "/account/upgrade", from: accountPage, as: email,
                choices: ConsentChoices(firstName: "Uma", lastName: "Grade", hideEmail: false))
            let done = try await browser.postCallback(callback)
            #expect(done.status == .seeOther)
            #expect(done.headers[.location] == "/account?upgraded=1")
            let upgraded = try await browser.get("/account?upgraded=1")
            #expect(upgraded.text.contains("Your Juice password was removed"))

            let after = try #require(try await juice.account(email: email))
            #expect(after.id == before.id)
            #expect(!after.hasPassword)
            #expect(after.usesSignInWithApple)
            #expect(after.appleRefreshToken != nil)
            #expect(try await juice.accountCount() == 1)

            browser.forgetCookies()
            let refused = try await browser.signIn(email: email, password: "my-password")
            #expect(refused.status == .badRequest)
            // The same words as for an unknown e-mail (audit finding 14), which point to the Apple button.
            #expect(JuiceBrowser.message(in: refused) == PasswordRoutes.wrongCredentials)
            let (_, page) = try await browser.signInWithApple(as: email)
            #expect(page.status == .ok)
            #expect(page.text.contains("Hello, Uma Grade"))
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("an upgrade to an Apple ID that already has its own Juice account is refused, and nothing changes")
    func upgradeConflict() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            let apple = juice.apple.defaultUser
            _ = try await browser.signInWithApple(as: apple.appleID)
            browser.forgetCookies()
            _ = try await browser.signUp(email: "other@example.com", password: "password-2", firstName: "Otto", lastName: "Er")
            let callback = try await browser.approveAtApple(action: "/account/upgrade", from: try await browser.get("/account"), as: apple.appleID)
            let refused = try await browser.postCallback(callback)
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("This Apple ID already has a Juice account"))
            #expect(try await juice.account(email: "other@example.com")?.hasPassword == true)
        }
    }
}
