import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import SignInWithApple
import Testing

@testable import JuiceApp

/// Security audit findings 12 to 14, in Juice (code people copy into their own apps).
@Suite("Juice's redirects, notification replays and password throttling", .timeLimit(.minutes(5)))
struct JuiceSafetyTests {
    /// The classic open-redirect bypasses, as `next` arrives after the query or form is decoded.
    static let bypasses = [
        "//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/%09/evil.example", "/%2F/evil.example",
        "/%2f%2fevil.example", "/%5Cevil.example", "https://evil.example", "https:evil.example", "javascript:alert(1)",
        "/\r\n/evil.example", " /account", "/acc ount", "\\\\evil.example", "/\u{3000}/evil.example", "", "account",
    ]

    @Test("next accepts only a path on this site", arguments: bypasses)
    func openRedirectBypasses(_ next: String) {
        #expect(FormInput.localPath(next) == "/account")
    }

    @Test("ordinary local paths still pass", arguments: ["/order/orange-sunrise", "/account?upgraded=1", "/", "/menu#top"])
    func localPathsPass(_ next: String) {
        #expect(FormInput.localPath(next) == next)
    }

    @Test("a sign-in with a tab-prefixed next lands on the account page, not another host")
    func signInRedirect() async throws {
        try await withJuice { juice in
            _ = try await juice.browser.signUp(email: "pat@example.com", password: "long password", firstName: "Pat", lastName: "Lee")
            juice.browser.forgetCookies()
            let page = try await juice.browser.get("/signin")
            let response = try await juice.browser.post(
                "/signin", [("email", "pat@example.com"), ("password", "long password"), ("next", "/\t/evil.example")], csrfFrom: page)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/account")
        }
    }

    @Test("a replayed notification is answered 200 and not applied twice")
    func notificationReplay() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            let account = try #require(try await juice.account(email: user.email))
            try await juice.apple.stopUsing(appleID: user.appleID)
            let notifications = try await juice.apple.deliveredNotifications()
            let notification = try #require(notifications.first)
            func deliver() async throws -> HTTPResponse.Status {
                try await juice.browser.client.execute(
                    uri: "/auth/apple/notifications", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(bytes: notification.body)
                ).status
            }
            #expect(try await deliver() == .ok)
            #expect(try await juice.sessions.count(accountID: account.id) == 0)

            // The user signs in again; a captured copy of the old notification is replayed.
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            #expect(try await juice.sessions.count(accountID: account.id) == 1)
            #expect(try await deliver() == .ok, "a replay is acknowledged, so Apple stops retrying")
            #expect(try await juice.sessions.count(accountID: account.id) == 1, "and not acted on: the new session lives")
        }
    }

    @Test("the sixth wrong password for an e-mail is throttled; unknown and known e-mails read the same")
    func passwordThrottle() async throws {
        try await withJuice { juice in
            _ = try await juice.browser.signUp(email: "pat@example.com", password: "long password", firstName: "Pat", lastName: "Lee")
            juice.browser.forgetCookies()
            func attempt(_ email: String, _ password: String) async throws -> TestResponse {
                let page = try await juice.browser.get("/signin")
                return try await juice.browser.post("/signin", [("email", email), ("password", password), ("next", "/account")], csrfFrom: page)
            }
            let known = try await attempt("pat@example.com", "wrong")
            let unknown = try await attempt("nobody@example.com", "wrong")
            #expect(known.status == unknown.status)
            #expect(JuiceBrowser.message(in: known) == JuiceBrowser.message(in: unknown))

            // An account that signs in with Apple only reads the same too.
            _ = try await juice.newBrowser().signInWithApple(as: juice.apple.defaultUser.appleID)
            let appleOnly = try await attempt(juice.apple.defaultUser.email, "anything")
            #expect(JuiceBrowser.message(in: appleOnly) == JuiceBrowser.message(in: unknown))

            for _ in 0..<4 { #expect(try await attempt("pat@example.com", "wrong").status == .badRequest) }
            let locked = try await attempt("pat@example.com", "long password")
            #expect(locked.status == .tooManyRequests, "after five failures even the right password waits")
            #expect(JuiceBrowser.message(in: locked)?.contains("Too many attempts") == true)
            juice.clock.advance(by: 31)
            #expect(try await attempt("pat@example.com", "long password").status == .seeOther)
        }
    }
}
