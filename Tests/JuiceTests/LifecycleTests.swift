import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import SignInWithApple
import SignInWithAppleTesting
import Testing

@testable import JuiceApp

@Suite("Juice: Apple's notifications and account deletion", .timeLimit(.minutes(5)))
struct LifecycleTests {
    @Test("story 4: Stop using Apple ID ends the Juice session through the notification")
    func stopUsing() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            #expect(try await juice.browser.get("/account").status == .ok)
            let account = try #require(try await juice.account(email: user.email))
            #expect(try await juice.sessions.count(accountID: account.id) == 1)
            try await juice.apple.stopUsing(appleID: user.appleID)
            let delivered = try await juice.deliverNotifications()
            #expect(delivered.map(\.type) == ["consent-revoked"])
            #expect(delivered.first?.subject == account.appleSubject)

            #expect(try await juice.sessions.count(accountID: account.id) == 0)
            let after = try await juice.browser.get("/account")
            #expect(after.status == .seeOther)
            #expect(after.headers[.location] == "/signin?next=/account")
        }
    }

    @Test("a consent-revoked queued while Juice was down ends the sessions it speaks about, not the sign-in that came after it")
    func staleConsentRevoked() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            let before = juice.newBrowser()
            _ = try await before.signInWithApple(as: user.appleID)
            try await juice.apple.stopUsing(appleID: user.appleID)  // queued: Juice is not reached yet
            juice.clock.advance(by: 60)  // Maria signs in again a minute later, on another device
            let after = juice.newBrowser()
            _ = try await after.signInWithApple(as: user.appleID)
            let account = try #require(try await juice.account(email: user.email))
            #expect(try await juice.sessions.count(accountID: account.id) == 2)

            #expect(try await juice.deliverNotifications().map(\.type) == ["consent-revoked"])
            #expect(try await before.get("/account").status == .seeOther, "the session from before the revocation ended")
            #expect(try await after.get("/account").status == .ok, "the sign-in after it goes on")
        }
    }

    @Test("story 8: email-disabled and email-enabled switch Juice's mailing of the relay address")
    func relayForwarding() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(
                as: user.appleID, choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true))

            try await juice.apple.setEmailForwarding(false, for: user.appleID)
            #expect(try await juice.deliverNotifications().map(\.type) == ["email-disabled"])
            let off = try await juice.browser.get("/account")
            #expect(off.text.contains("We can't e-mail you right now (forwarding is off)"))
            let account = try await juice.database.sql.raw("SELECT email_forwarding FROM accounts").first(
                decodingColumn: "email_forwarding", as: Bool.self)
            #expect(account == false)

            try await juice.apple.setEmailForwarding(true, for: user.appleID)
            #expect(try await juice.deliverNotifications().map(\.type) == ["email-enabled"])
            let on = try await juice.browser.get("/account")
            #expect(!on.text.contains("forwarding is off"))
        }
    }

    @Test("story 5: deleting the account revokes the Apple token; the next sign-in is a first authorization")
    func deleteAccount() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            let account = try #require(try await juice.account(email: user.email))
            let subject = try #require(account.appleSubject)
            #expect(
                try await juice.apple.credentialState(subject: subject)
                    == .authorized)
            // The refresh token is sealed in the database and opens to the token Apple issued.
            let stored = try #require(
                try await juice.database.sql.raw("SELECT apple_refresh_token FROM accounts WHERE id = \(bind: account.id)").first()?
                    .decode(column: "apple_refresh_token", as: String.self))
            #expect(stored.hasPrefix("sealed:v1:"))
            let opened = try await juice.accounts.account(id: account.id)?.appleRefreshToken
            #expect(opened?.hasPrefix("r") == true, "the store hands out the opened token")
            _ = try await juice.browser.post("/order/apple", [], csrfFrom: try await juice.browser.get("/order/apple"))

            let confirm = try await juice.browser.get("/account/delete")
            #expect(confirm.text.contains("Delete your account?"))
            let unconfirmed = try await juice.browser.post("/account/delete", [], csrfFrom: confirm)
            #expect(unconfirmed.status == .badRequest)
            #expect(try await juice.accountCount() == 1)

            let deleted = try await juice.browser.post("/account/delete", [("confirm", "yes")], csrfFrom: confirm)
            #expect(deleted.status == .ok)
            #expect(deleted.text.contains("Your account was deleted"))
            #expect(try await juice.accountCount() == 0)
            #expect(try await juice.sessions.count(accountID: account.id) == 0)
            let orders = try await OrderStore(database: juice.database, clock: { Date() }).orders(accountID: account.id)
            #expect(orders.isEmpty)
            #expect(
                try await juice.apple.credentialState(subject: subject)
                    == .revoked)
            #expect(try await juice.browser.get("/account").status == .seeOther)

            let again = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: user.appleID)
            #expect(again.user != nil)
            let done = try await juice.browser.postCallback(again)
            #expect(done.headers[.location] == "/account")
            #expect(try await juice.browser.get("/account").text.contains("Hello, Emma Apple"))
        }
    }

    @Test("account-delete ends every session and deletes an account only Apple could open")
    func appleIDDeleted() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            try await juice.apple.deleteAppleID(user.appleID)
            let delivered = try await juice.deliverNotifications()
            #expect(delivered.count == 1)
            #expect(delivered.first.map { $0.type == "account-delete" || $0.type == "account-deleted" } == true)
            #expect(try await juice.accountCount() == 0)
            #expect(try await juice.browser.get("/account").status == .seeOther)
        }
    }

    @Test("when Apple cannot be reached to revoke, nothing is deleted and the user is told")
    func revocationFails() async throws {
        try await withJuice(transport: RevocationOutage()) { juice in
            let user = juice.apple.defaultUser
            _ = try await juice.browser.signInWithApple(as: user.appleID)
            let confirm = try await juice.browser.get("/account/delete")
            let response = try await juice.browser.post("/account/delete", [("confirm", "yes")], csrfFrom: confirm)
            #expect(response.status == .badGateway)
            #expect(response.text.contains("Nothing was deleted"))
            #expect(try await juice.accountCount() == 1)
            #expect(try await juice.browser.get("/account").status == .ok)
        }
    }

    @Test("a notification that is not signed by the Apple ID server is refused")
    func forgedNotification() async throws {
        try await withJuice { juice in
            let response = try await juice.browser.client.execute(
                uri: "/auth/apple/notifications", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"payload":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."}"#))
            #expect(response.status == .badRequest)
        }
    }
}

/// The real transport, except that `/auth/revoke` is unreachable.
struct RevocationOutage: HTTPTransport {
    let real = AsyncHTTPClientTransport()

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        if request.url.hasSuffix("/auth/revoke") { throw AppleServiceError.transport("connection refused") }
        return try await real.send(request)
    }
}
