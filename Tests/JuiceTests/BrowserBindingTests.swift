import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import JuiceApp

@Suite("Juice: a Sign in with Apple completes only in the browser that started it", .timeLimit(.minutes(5)))
struct BrowserBindingTests {
    static let attackerAppleID = "mallory@example.com"

    static func expectRefused(_ response: TestResponse) {
        ErrorPageTests.expectHumanPage(response, title: "This sign-in was started in another browser or has expired")
        #expect(response.text.contains("Please start again"))
        #expect(response.headers[values: .setCookie].allSatisfy { !$0.hasPrefix(JuiceCookies.session + "=") })
    }

    @Test("login CSRF: the attacker's callback, posted from the victim's browser, signs the victim in to nothing")
    func loginCSRFThroughCallback() async throws {
        try await withJuice { juice in
            let (attacker, victim) = (juice.newBrowser(), juice.newBrowser())
            try await juice.apple.createUser(appleID: Self.attackerAppleID, firstName: "Mal", lastName: "Lory")
            _ = try await attacker.signInWithApple(as: Self.attackerAppleID)
            let attackerAccount = try #require(try await juice.account(email: Self.attackerAppleID))
            _ = try await victim.get("/")

            let callback = try await attacker.approveAtApple(from: try await attacker.get("/signin"), as: Self.attackerAppleID)
            Self.expectRefused(try await victim.postCallback(callback))
            #expect(try await victim.get("/account").status == .seeOther)
            #expect(try await juice.sessions.count(accountID: attackerAccount.id) == 1)
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("login CSRF: the completion link of the attacker's callback, opened in the victim's browser, is refused and used up")
    func loginCSRFThroughCompletionLink() async throws {
        try await withJuice { juice in
            let (attacker, victim) = (juice.newBrowser(), juice.newBrowser())
            try await juice.apple.createUser(appleID: Self.attackerAppleID, firstName: "Mal", lastName: "Lory")
            _ = try await victim.get("/")

            let completion = try await attacker.completionLink(as: Self.attackerAppleID)

            Self.expectRefused(try await victim.get(completion))
            #expect(try await victim.get("/account").status == .seeOther)
            #expect(try await juice.accountCount() == 0)
            Self.expectRefused(try await attacker.get(completion))
            #expect(try await juice.accountCount() == 0)
            // The refused sign-in's authorization was revoked at Apple: the next one is a first
            // authorization again, and Juice gets the name.
            _ = try await attacker.signInWithApple(as: Self.attackerAppleID)
            #expect(try await juice.account(email: Self.attackerAppleID)?.firstName == "Mal")
        }
    }

    @Test("link CSRF: an upgrade the attacker started, approved and completed in the victim's browser, attaches nothing")
    func upgradeCSRF() async throws {
        try await withJuice { juice in
            let (attacker, victim) = (juice.newBrowser(), juice.newBrowser())
            _ = try await attacker.signUp(email: Self.attackerAppleID, password: "attacker-password", firstName: "Mal", lastName: "Lory")
            let before = try #require(try await juice.account(email: Self.attackerAppleID))
            _ = try await victim.get("/")

            // The attacker starts the upgrade and has the victim's browser approve it at Apple.
            let callback = try await attacker.approveAtApple(
                action: "/account/upgrade", from: try await attacker.get("/account"), as: juice.apple.defaultUser.appleID)
            Self.expectRefused(try await victim.postCallback(callback))

            #expect(try await juice.account(email: Self.attackerAppleID) == before)
            #expect(try await juice.accountCount() == 1)
            #expect(try await victim.get("/account").status == .seeOther)
            #expect(try await attacker.get("/account").text.contains("Upgrade to Sign in with Apple"))
        }
    }

    @Test("a completion link works once")
    func replayedCompletion() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            let completion = try await browser.completionLink(as: juice.apple.defaultUser.appleID)
            let done = try await browser.get(completion)
            #expect(done.status == .seeOther)
            #expect(done.headers[.location] == "/account")
            let account = try #require(try await juice.account(email: juice.apple.defaultUser.email))

            Self.expectRefused(try await browser.get(completion))
            #expect(try await juice.sessions.count(accountID: account.id) == 1)
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("a completion link expires after five minutes")
    func expiredCompletion() async throws {
        try await withJuice { juice in
            let browser = juice.browser
            let completion = try await browser.completionLink(as: juice.apple.defaultUser.appleID)
            juice.clock.advance(by: 5 * 60 + 1)
            Self.expectRefused(try await browser.get(completion))
            #expect(try await juice.accountCount() == 0)
            #expect(try await browser.get("/account").status == .seeOther)

            // The abandoned authorization was revoked at Apple, so the next sign-in is a first
            // authorization again: the name Apple sends only then is not lost.
            _ = try await browser.signInWithApple(as: juice.apple.defaultUser.appleID)
            let account = try #require(try await juice.account(email: juice.apple.defaultUser.email))
            #expect(account.firstName == juice.apple.defaultUser.firstName)
        }
    }

    @Test("the kit keeps Juice's sign-ins in Juice's database, sealed: one entry per started sign-in, gone once used")
    func kitStorageInJuiceDatabase() async throws {
        try await withJuice { juice in
            struct Count: Decodable { var entries: Int }
            func entries() async throws -> Int {
                try await juice.database.sql.raw("SELECT COUNT(*) AS entries FROM sign_in_with_apple_entries").first(decoding: Count.self)?.entries
                    ?? -1
            }
            #expect(try await entries() == 0)
            _ = try await juice.browser.get("/signin")
            #expect(try await entries() == 0, "showing the sign-in page starts nothing")
            // completionLink renders the page again, then presses the redirect button (a started sign-in),
            // which the callback takes, parking its completion.
            let completion = try await juice.browser.completionLink(as: juice.apple.defaultUser.appleID)
            #expect(try await entries() == 1, "the parked completion")
            _ = try await juice.browser.get(completion)
            #expect(try await entries() == 0, "the completion is gone")
        }
    }

    @Test("the kit's GET start route is not registered: a link cannot start a sign-in")
    func noGetStart() async throws {
        try await withJuice { juice in
            ErrorPageTests.expectHumanPage(try await juice.browser.get("/auth/apple"), title: "Page not found", status: .notFound)
        }
    }
}
