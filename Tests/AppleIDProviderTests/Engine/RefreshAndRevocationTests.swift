import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// `grant_type=refresh_token` and `POST /auth/revoke` in the engine (spec §4.2, §6).
@Suite("Engine: refresh and revocation")
struct RefreshAndRevocationTests {
    /// A redeemed authorization of team A's web client: its secret and tokens.
    static func signedIn(_ harness: ProviderHarness) async throws -> (secret: String, tokens: TokenResponse) {
        let secret = try await harness.clientSecret()
        return (secret, try await harness.redeem(try await harness.code(), secret: secret).get())
    }

    @Test("a refresh gives a new access token and identity token, and no new refresh token (as Apple)")
    func refresh() async throws {
        let harness = try await ProviderHarness.make()
        let (secret, tokens) = try await Self.signedIn(harness)
        let refreshed = try await harness.refresh(try #require(tokens.refreshToken), secret: secret).get()
        #expect(refreshed.refreshToken == nil)
        #expect(refreshed.idToken != nil)
        #expect(refreshed.accessToken != tokens.accessToken)
    }

    @Test("a refresh token is refused to another client, even one with a valid secret")
    func refreshBoundToClient() async throws {
        let harness = try await ProviderHarness.make()
        let (_, tokens) = try await Self.signedIn(harness)
        let other = try await harness.clientSecret(group: "com.b.app", team: ProviderHarness.teamB)
        let refreshToken = try #require(tokens.refreshToken)
        let refused = try #require(await harness.refresh(refreshToken, group: "com.b.app", secret: other).failure)
        #expect(refused.code == .invalidGrant)
        #expect(refused.errorDescription == AppleErrorDescription.tokenExpiredOrRevoked)
    }

    @Test("revoking the refresh token ends the authorization: the token no longer refreshes")
    func revokeRefresh() async throws {
        let harness = try await ProviderHarness.make()
        let (secret, tokens) = try await Self.signedIn(harness)
        let refreshToken = try #require(tokens.refreshToken)
        try await harness.revoke(refreshToken, secret: secret, hint: "refresh_token").get()
        let refused = try #require(await harness.refresh(refreshToken, secret: secret).failure)
        #expect(refused.code == .invalidGrant)
        #expect(refused.reason == "the refresh token was revoked")
    }

    @Test("revoking the access token revokes the whole authorization, refresh token included")
    func revokeAccess() async throws {
        let harness = try await ProviderHarness.make()
        let (secret, tokens) = try await Self.signedIn(harness)
        try await harness.revoke(tokens.accessToken, secret: secret, hint: "access_token").get()
        #expect(await harness.refresh(try #require(tokens.refreshToken), secret: secret).failure?.code == .invalidGrant)
    }

    @Test("after revocation the next sign-in is a first authorization again: the user's name is sent once more")
    func revokeResetsConsent() async throws {
        let harness = try await ProviderHarness.make()
        let (secret, tokens) = try await Self.signedIn(harness)
        #expect(try await harness.authorize(group: "com.a.app", hideEmail: false).issued?.user == nil)
        try await harness.revoke(try #require(tokens.refreshToken), secret: secret).get()
        #expect(try await harness.authorize(group: "com.a.app", hideEmail: false).issued?.user != nil)
    }

    @Test("an unknown token is not an error (RFC 7009 §2.2); a hint naming the other kind is")
    func unknownAndMismatchedHint() async throws {
        let harness = try await ProviderHarness.make()
        let (secret, tokens) = try await Self.signedIn(harness)
        try await harness.revoke("never-issued", secret: secret).get()
        let mismatch = try #require(await harness.revoke(tokens.accessToken, secret: secret, hint: "refresh_token").failure)
        #expect(mismatch.code == .invalidRequest)
        #expect(mismatch.reason == "token_type_hint refresh_token does not match the token")
        // The refused revocation changed nothing.
        #expect(try await harness.refresh(try #require(tokens.refreshToken), secret: secret).get().idToken != nil)
    }

    @Test("another client cannot revoke a token it was not issued")
    func revokeBoundToClient() async throws {
        let harness = try await ProviderHarness.make()
        let (secret, tokens) = try await Self.signedIn(harness)
        let other = try await harness.clientSecret(group: "com.b.app", team: ProviderHarness.teamB)
        let refreshToken = try #require(tokens.refreshToken)
        let refused = try #require(await harness.revoke(refreshToken, group: "com.b.app", secret: other).failure)
        #expect(refused.code == .invalidRequest)
        #expect(try await harness.refresh(refreshToken, secret: secret).get().idToken != nil)
    }
}
