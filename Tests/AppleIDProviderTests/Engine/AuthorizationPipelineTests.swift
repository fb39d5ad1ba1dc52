import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// The authorization checks (spec §3.1): until the client and its Return URL are proven an error is
/// a page, never a redirect (RFC 6749 §4.1.2.1); after, it travels back by the response mode.
@Suite("Engine: the authorization pipeline")
struct AuthorizationPipelineTests {
    static func request(
        clientID: String? = "com.a.app.web", redirectURI: String? = "https://com.a.app/callback", responseType: String? = "code id_token",
        responseMode: String? = "form_post", scope: String? = "name email"
    ) -> AuthorizationRequest {
        AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, responseType: responseType, responseMode: responseMode, scope: scope, state: "st",
            nonce: "n")
    }

    @Test("a registered client and Return URL with Apple's parameters is valid")
    func valid() async throws {
        let harness = try await ProviderHarness.make()
        guard case .valid(let validated) = try await harness.provider.validate(Self.request()) else {
            Issue.record("the request was refused")
            return
        }
        #expect(validated.clientID == "com.a.app.web")
        #expect(validated.responseMode == .formPost)
    }

    @Test(
        "an unknown client or an unregistered Return URL is shown, never redirected",
        arguments: [
            Self.request(clientID: "com.unknown.web"),
            Self.request(redirectURI: "https://com.a.app/callback/"),
            Self.request(redirectURI: "https://com.a.app/\u{212A}allback"),
            Self.request(redirectURI: nil),
        ])
    func unprovenIsShown(_ request: AuthorizationRequest) async throws {
        let harness = try await ProviderHarness.make()
        guard case .rejected(let error) = try await harness.provider.validate(request) else {
            Issue.record("an unproven request was not shown as a page")
            return
        }
        #expect(!error.isRedirectable)
    }

    @Test(
        "with a proven Return URL, a bad parameter is sent back to it with the state",
        arguments: [
            (Self.request(responseType: "id_token"), OAuthErrorCode.unsupportedResponseType),
            (Self.request(responseMode: "query"), .invalidRequest),
            (Self.request(scope: "name phone"), .invalidScope),
        ])
    func provenIsRedirected(_ request: AuthorizationRequest, code: OAuthErrorCode) async throws {
        let harness = try await ProviderHarness.make()
        guard case .redirectedError(let error, let response) = try await harness.provider.validate(request) else {
            Issue.record("the error was not redirected")
            return
        }
        #expect(error.code == code)
        #expect(response.redirectURI == "https://com.a.app/callback")
        #expect(response.refusal?.code == code)
        #expect(response.state == "st")
    }

    @Test("another team's client cannot use this team's Return URL")
    func returnURLBelongsToClient() async throws {
        let harness = try await ProviderHarness.make()
        let request = Self.request(clientID: "com.b.app.web", redirectURI: "https://com.a.app/callback")
        guard case .rejected = try await harness.provider.validate(request) else {
            Issue.record("a Return URL of another client was accepted")
            return
        }
    }
}
