import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

/// `SignInWithAppleClient.refresh(_:)` and `validate(_:force:)`: the id_token that comes back is verified, and
/// `invalid_grant` is a typed "revoked", not an error to parse.
@Suite("Refresh: a verified id_token, or revoked", .timeLimit(.minutes(5)))
struct RefreshTests {
    @Test("validate(grant): asks Apple at most once per interval unless forced; a revoked grant says so")
    func dailyValidation() async throws {
        try await withAppleIDEmulator(clock: ManualClock(Date())) { apple in
            let siwa = try apple.makeClient()
            let grant = try #require(try await apple.signIn(as: apple.defaultUser.appleID, with: siwa).grant)
            guard case .valid(let identity) = try await siwa.validate(grant) else {
                Issue.record("expected valid")
                return
            }
            #expect(identity.audience == grant.clientID)
            #expect(try await siwa.validate(grant) == .notDue)
            try await apple.stopUsing(appleID: apple.defaultUser.appleID)
            #expect(try await siwa.validate(grant) == .notDue, "not due: Apple is not asked twice a day")
            guard case .revoked(let refusal) = try await siwa.validate(grant, force: true) else {
                Issue.record("expected revoked when forced")
                return
            }
            #expect(refusal.errorDescription == AppleErrorDescription.tokenExpiredOrRevoked)
            apple.advanceClock(by: siwa.configuration.grantValidationInterval + 1)
            guard case .revoked = try await siwa.validate(grant) else {
                Issue.record("expected revoked once due again")
                return
            }
        }
    }

    static func client(answer: String, status: Int = 200) throws -> SignInWithAppleClient {
        let credentials = AppleCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        return try SignInWithAppleClient(
            configuration: .init(
                environment: .production, credentials: credentials, primaryAppID: "com.example",
                web: .init(servicesID: "com.example.web", redirectURI: "https://x/cb")),
            transport: TokenClientTests.ScriptedTransport([TokenClientTests.status(status, answer)]), retry: .none)
    }

    static let grant = AppleGrant(refreshToken: "r1", clientID: "com.example.web")

    @Test("an id_token that does not verify is thrown, not returned")
    func unverifiedIDToken() async throws {
        let siwa = try Self.client(answer: #"{"access_token":"a","token_type":"Bearer","expires_in":3600,"id_token":"not-a-jwt"}"#)
        await #expect(throws: IdentityTokenError.malformed("a JWS has three segments, found 1")) { try await siwa.refresh(Self.grant) }
    }

    @Test("an answer without an id_token is an unexpected response")
    func missingIDToken() async throws {
        let siwa = try Self.client(answer: #"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#)
        await #expect(throws: AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")) {
            try await siwa.refresh(Self.grant)
        }
    }

    @Test("invalid_client is thrown, not mistaken for a revocation")
    func otherRefusal() async throws {
        let siwa = try Self.client(answer: #"{"error":"invalid_client"}"#, status: 400)
        let error = await VerifierSupport.failure { try await siwa.refresh(Self.grant) }
        guard let refusal = (error as? AppleServiceError)?.refusal else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(refusal.code == .invalidClient)
    }
}
