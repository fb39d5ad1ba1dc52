import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import SignInWithAppleTesting
import Testing

@testable import JuiceApp

@Suite("Juice: Sign in with Apple accounts, first-authorization data, no duplicates", .timeLimit(.minutes(5)))
struct AppleSignInTests {
    @Test("story 2: a new user hides the e-mail; the account has the relay address and the name, asked for nothing")
    func hideMyEmail() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            let (callback, page) = try await juice.browser.signInWithApple(
                as: user.appleID, choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true))
            #expect(callback.headers[.location] == "/account")
            #expect(page.status == .ok)
            #expect(page.text.contains("Hello, Emma Apple"))
            #expect(page.text.contains("private relay address"))
            #expect(!page.text.contains("What should we call you"))

            let account = try #require(
                try await juice.database.sql.raw("SELECT * FROM accounts").first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase))
            #expect(account.emailIsPrivate)
            #expect(account.email != user.email)
            #expect(account.emailVerified)
            #expect(account.firstName == "Emma")
            #expect(account.lastName == "Apple")
            #expect(!account.hasPassword)
            #expect(account.appleRefreshToken != nil)
        }
    }

    @Test("story 3: the second sign-in has no user JSON, and the account still has the name")
    func secondSignIn() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            let first = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: user.appleID)
            #expect(first.user?.name?.firstName == "Emma")
            _ = try await juice.browser.postCallback(first)
            juice.browser.forgetCookies()

            let second = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: user.appleID)
            #expect(second.user == nil)
            let done = try await juice.browser.postCallback(second)
            #expect(done.headers[.location] == "/account")
            let page = try await juice.browser.get("/account")
            #expect(page.text.contains("Hello, Emma Apple"))
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("an unknown Apple user without user JSON (the data was lost) gets an account, and only the name is asked")
    func lostFirstAuthorization() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            try await juice.database.sql.raw("DELETE FROM accounts").run()
            juice.browser.forgetCookies()

            let callback = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: user.appleID)
            #expect(callback.user == nil)
            let done = try await juice.browser.postCallback(callback)
            #expect(done.headers[.location] == "/account/name?next=/account")
            let ask = try await juice.browser.get("/account/name?next=/account")
            #expect(ask.text.contains("What should we call you"))
            #expect(!ask.text.contains("E-mail"))
            let saved = try await juice.browser.post(
                "/account/name", [("first_name", "Em"), ("last_name", "A"), ("next", "/account")], csrfFrom: ask)
            #expect(saved.headers[.location] == "/account")
            let account = try #require(try await juice.account(email: user.email))
            #expect(account.firstName == "Em")
            #expect(account.usesSignInWithApple)
        }
    }

    @Test("story 6: a password account with the same verified e-mail is offered a link, not a second account")
    func linkOffer() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            let user = juice.apple.defaultUser
            _ = try await browser.signUp(email: user.email, password: "juice-password", firstName: "Emma", lastName: "Apple")
            let passwordAccount = try #require(try await juice.account(email: user.email))
            browser.forgetCookies()

            let callback = try await browser.approveAtApple(from: try await browser.get("/signin"), as: user.appleID)
            let offer = try await browser.postCallback(callback)
            #expect(offer.headers[.location] == "/link")
            #expect(try await juice.accountCount() == 1)
            let linkPage = try await browser.get("/link")
            #expect(linkPage.text.contains("An account with this e-mail"))
            #expect(linkPage.text.contains("Enter its password to link Sign in with Apple"))

            let wrong = try await browser.post("/link", [("password", "not-it")], csrfFrom: linkPage)
            #expect(wrong.status == .badRequest)
            #expect(try await juice.account(email: user.email)?.usesSignInWithApple == false)

            let linked = try await browser.post("/link", [("password", "juice-password")], csrfFrom: linkPage)
            #expect(linked.status == .seeOther)
            let account = try #require(try await juice.account(email: user.email))
            #expect(account.id == passwordAccount.id)
            #expect(account.usesSignInWithApple)
            #expect(account.hasPassword)
            #expect(try await juice.accountCount() == 1)

            browser.forgetCookies()
            let (_, page) = try await browser.signInWithApple(as: user.appleID)
            #expect(page.text.contains("Hello, Emma Apple"))
            browser.forgetCookies()
            #expect(try await browser.signIn(email: user.email, password: "juice-password").status == .seeOther)
        }
    }
}
