import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Security audit findings 1 and 8: what the user decided, and whether the Apple ID still exists,
/// are checked when the user approves, not only when the page was shown.
@Suite("Audit: approval re-checks consent and the Apple ID")
struct AuditApprovalTests {
    /// Signs in and consents (hiding the e-mail), so the browser has a session and the group a consent.
    static func consentOnce(_ browser: Browser, server: TestServer) async throws -> String {
        let fields = try await WebFlowTests.signInAndConsent(browser, server: server, hideEmail: true)
        return try #require(fields["code"])
    }

    @Test("finding 1: a consent revoked while the Continue page is open sends the user back to consent; nothing is shared")
    func revokedConsentShowsConsentAgain() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let code = try await Self.consentOnce(browser, server: server)
            let secret = try await server.clientSecret()
            let tokens = try await RP.redeem(client, code: code, secret: secret).tokens()

            // The signed-in browser starts another authorization: the short "Continue" page.
            let continuePage = try await browser.get(WebFlowTests.authorizeURI(state: "state-2", nonce: "nonce-2"))
            #expect(continuePage.text.contains("Continue to Juice?"))
            let csrf = try #require(HTML.hiddenInputs(continuePage.text)["csrf"])
            let action = try #require(HTML.formAction(continuePage.text))

            // Meanwhile the app revokes its own refresh token: the consent is gone.
            #expect(try await RP.revoke(client, token: tokens.refreshToken, hint: "refresh_token", secret: secret).status == .ok)

            let approved = try await browser.post(action, form: [("csrf", csrf), ("action", "approve")])
            #expect(HTML.formAction(approved.text) != TestServer.redirectURI, "no answer may go to the app without a new consent")
            #expect(approved.text.contains("Create an account for Juice"), "the consent page is shown again")
            #expect(HTML.hiddenInputs(approved.text)["code"] == nil && HTML.hiddenInputs(approved.text)["user"] == nil)

            // Choosing again (hide) answers with a relay address, never the real one.
            let chosen = try await browser.post(
                action, form: [("csrf", csrf), ("action", "approve"), ("first_name", "M"), ("last_name", "R"), ("email", "hide")])
            let user = try AuthorizedUser(jsonString: try #require(HTML.hiddenInputs(chosen.text)["user"]))
            #expect(user.email?.hasSuffix("@privaterelay.appleid.com") == true)
        }
    }

    @Test("finding 8: a consent page opened before the Apple ID was deleted yields no code")
    func deletedAppleIDCannotApprove() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let (action, csrf) = try await WebFlowTests.signInUntilConsent(browser, server: server)

            let account = try #require(try await server.provider.store.account(appleID: TestServer.maria.appleID))
            try await server.provider.lifecycle.deleteAccount(accountID: account.id)

            let approved = try await browser.post(
                action, form: [("csrf", csrf), ("action", "approve"), ("first_name", "M"), ("last_name", "R"), ("email", "share")])
            #expect(HTML.hiddenInputs(approved.text)["code"] == nil)
            #expect(HTML.formAction(approved.text) != TestServer.redirectURI)
        }
    }
}

/// Security audit finding 4: a code is checked against its client, `redirect_uri` and PKCE
/// verifier before it is consumed, so nobody else can burn it or revoke its grant.
@Suite("Audit: a code is consumed only by its own client")
struct AuditCodeBindingTests {
    @Test("another client of the team, with a valid secret of its own, neither burns the code nor revokes its grant")
    func otherClientCannotBurn() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let otherSecret = try await server.clientSecret(for: TestServer.otherServicesID)
            for _ in 0..<2 {
                let stolen = try await RP.redeem(client, code: code, secret: otherSecret, clientID: TestServer.otherServicesID)
                #expect(stolen.status == .badRequest)
                #expect(try stolen.jsonStrings()["error"] == "invalid_grant")
            }
            let own = try await RP.redeem(client, code: code, secret: try await server.clientSecret())
            #expect(own.status == .ok, "the rightful client still redeems its code")
            let idToken = try #require(try own.tokens().idToken)
            #expect(try await RP.verify(idToken, client).audience == TestServer.servicesID.rawValue)
        }
    }

    @Test("a wrong redirect_uri or PKCE verifier does not burn the code")
    func wrongBindingDoesNotBurn() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let verifier = String(repeating: "v", count: 43)
            var order = RP.Order()
            order.codeChallenge = TokenHash.pkceChallenge(forVerifier: verifier)
            order.codeChallengeMethod = "S256"
            let code = try await RP.code(client, order)
            let secret = try await server.clientSecret()
            let wrongURI = try await RP.redeem(client, code: code, secret: secret, redirectURI: TestServer.secondRedirectURI, verifier: verifier)
            #expect(try wrongURI.jsonStrings()["error"] == "invalid_grant")
            let wrongVerifier = try await RP.redeem(client, code: code, secret: secret, verifier: String(repeating: "w", count: 43))
            #expect(try wrongVerifier.jsonStrings()["error"] == "invalid_grant")
            let right = try await RP.redeem(client, code: code, secret: secret, verifier: verifier)
            #expect(right.status == .ok)
        }
    }

    @Test("a replay by the code's own client still revokes what the code issued")
    func replayStillRevokes() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let secret = try await server.clientSecret()
            let first = try await RP.redeem(client, code: code, secret: secret).tokens()
            let replay = try await RP.redeem(client, code: code, secret: secret)
            #expect(try replay.jsonStrings()["error"] == "invalid_grant")
            let refreshed = try await RP.refresh(client, refreshToken: try #require(first.refreshToken), secret: secret)
            #expect(try refreshed.jsonStrings()["error"] == "invalid_grant")
        }
    }
}
