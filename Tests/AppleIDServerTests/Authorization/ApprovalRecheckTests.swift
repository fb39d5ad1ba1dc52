import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// From the first security review: what the user decided, and whether the Apple ID still exists,
/// are checked when the user approves, not only when the page was shown.
@Suite("Approval re-checks consent and the Apple ID")
struct ApprovalRecheckTests {
    /// Signs in and consents (hiding the e-mail), so the browser has a session and the group a consent.
    static func consentOnce(_ browser: Browser, server: TestServer) async throws -> String {
        let fields = try await WebFlowTests.signInAndConsent(browser, server: server, hideEmail: true)
        return try #require(fields["code"])
    }

    @Test("a consent revoked while the Continue page is open sends the user back to consent; nothing is shared")
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

    @Test("a consent page opened before the Apple ID was deleted yields no code")
    func deletedAppleIDCannotApprove() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let (action, csrf) = try await WebFlowTests.signInUntilConsent(browser, server: server)

            let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
            try await server.provider.lifecycle.deleteAccount(accountID: account.id)

            let approved = try await browser.post(
                action, form: [("csrf", csrf), ("action", "approve"), ("first_name", "M"), ("last_name", "R"), ("email", "share")])
            #expect(HTML.hiddenInputs(approved.text)["code"] == nil)
            #expect(HTML.formAction(approved.text) != TestServer.redirectURI)
        }
    }
}
