import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

/// `SignInWithAppleClient.refresh(refreshToken:)`: the id_token that comes back is verified, and
/// `invalid_grant` is a typed "revoked", not an error to parse.
@Suite("Refresh: a verified id_token, or revoked", .timeLimit(.minutes(2)))
struct RefreshTests {
    @Test("against the emulator: refreshed with the same subject, then revoked once the app revokes the token")
    func refreshThenRevoked() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
            let first = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            let refreshToken = try #require(first.tokens.refreshToken)
            guard case .refreshed(let identity, let tokens) = try await siwa.refresh(refreshToken: refreshToken) else {
                Issue.record("expected a refreshed authorization")
                return
            }
            #expect(identity.subject == first.identity.subject)
            #expect(!tokens.accessToken.isEmpty)

            try await siwa.tokens.revoke(token: refreshToken)
            guard case .revoked(let refusal) = try await siwa.refresh(refreshToken: refreshToken) else {
                Issue.record("expected revoked")
                return
            }
            #expect(refusal.code == .invalidGrant)
            #expect(refusal.errorDescription == AppleErrorDescription.tokenExpiredOrRevoked)
        }
    }

    static func client(answer: String, status: Int = 200) throws -> SignInWithAppleClient {
        let credentials = AppleCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        return try SignInWithAppleClient(
            configuration: .init(environment: .production, credentials: credentials, clientID: "com.example.web", redirectURI: "https://x/cb"),
            transport: TokenClientTests.ScriptedTransport([TokenClientTests.status(status, answer)]), retry: .none)
    }

    @Test("an id_token that does not verify is thrown, not returned")
    func unverifiedIDToken() async throws {
        let siwa = try Self.client(answer: #"{"access_token":"a","token_type":"Bearer","expires_in":3600,"id_token":"not-a-jwt"}"#)
        await #expect(throws: IdentityTokenError.malformed("a JWS has three segments, found 1")) { try await siwa.refresh(refreshToken: "r1") }
    }

    @Test("an answer without an id_token is an unexpected response")
    func missingIDToken() async throws {
        let siwa = try Self.client(answer: #"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#)
        await #expect(throws: AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")) {
            try await siwa.refresh(refreshToken: "r1")
        }
    }

    @Test("invalid_client is thrown, not mistaken for a revocation")
    func otherRefusal() async throws {
        let siwa = try Self.client(answer: #"{"error":"invalid_client"}"#, status: 400)
        let error = await VerifierSupport.failure { try await siwa.refresh(refreshToken: "r1") }
        guard case AppleServiceError.refused(let refusal)? = error as? AppleServiceError else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(refusal.code == .invalidClient)
    }
}
