import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// `grant_type=authorization_code` in the engine (spec §4): a code is redeemed once, by the client
/// and Return URL it was issued for, within its lifetime; a replay revokes what the code issued.
@Suite("Engine: the authorization code grant")
struct CodeGrantTests {
    @Test("a code is redeemed for an access token, a refresh token and an identity token for the same user")
    func redeemed() async throws {
        let harness = try await ProviderHarness.make()
        let answer = try await harness.authorize(group: "com.a.app", hideEmail: false)
        let secret = try await harness.clientSecret()
        let tokens = try await harness.redeem(try #require(answer.issued?.code), secret: secret).get()
        #expect(tokens.refreshToken != nil)
        #expect(tokens.tokenType == "Bearer")
        let fromToken = try harness.claims(idToken: try #require(tokens.idToken))
        let fromAuthorization = try harness.claims(answer)
        #expect(fromToken.subject == fromAuthorization.subject)
        #expect(fromToken.audience == "com.a.app.web")
    }

    @Test("a second redemption is refused as used, and revokes the tokens of the first")
    func replayRevokes() async throws {
        let harness = try await ProviderHarness.make()
        let code = try await harness.code()
        let secret = try await harness.clientSecret()
        let first = try await harness.redeem(code, secret: secret).get()
        let replay = try #require(await harness.redeem(code, secret: secret).failure)
        #expect(replay.code == .invalidGrant)
        #expect(replay.errorDescription == AppleErrorDescription.codeAlreadyUsed)
        let refreshToken = try #require(first.refreshToken)
        let refreshed = try #require(await harness.refresh(refreshToken, secret: secret).failure)
        #expect(refreshed.code == .invalidGrant)
        #expect(refreshed.reason == "the refresh token was revoked")
    }

    @Test("another team's client, with a valid secret of its own, neither redeems nor burns the code")
    func otherClientCannotBurn() async throws {
        let harness = try await ProviderHarness.make()
        let code = try await harness.code()
        let thief = try await harness.clientSecret(group: "com.b.app", team: ProviderHarness.teamB)
        let refused = try #require(await harness.redeem(code, group: "com.b.app", secret: thief, redirectURI: "https://com.a.app/callback").failure)
        #expect(refused.code == .invalidGrant)
        #expect(try await harness.redeem(code, secret: try await harness.clientSecret()).get().idToken != nil)
    }

    @Test("a Return URL one byte off is refused, and the code stays redeemable with the right one")
    func redirectBound() async throws {
        let harness = try await ProviderHarness.make()
        let code = try await harness.code()
        let secret = try await harness.clientSecret()
        let refused = try #require(await harness.redeem(code, secret: secret, redirectURI: "https://com.a.app/callback/").failure)
        #expect(refused.code == .invalidGrant)
        #expect(try await harness.redeem(code, secret: secret).get().accessToken.isEmpty == false)
    }

    @Test("a code is refused once its lifetime has passed, and accepted just before")
    func lifetime() async throws {
        let harness = try await ProviderHarness.make()
        let secret = try await harness.clientSecret()
        let lifetime = harness.provider.configuration.codeLifetime
        let early = try await harness.code()
        harness.clock.advance(by: lifetime - 1)
        #expect(try await harness.redeem(early, secret: secret).get().idToken != nil)

        let late = try await harness.code()
        harness.clock.advance(by: lifetime)
        let refused = try #require(await harness.redeem(late, secret: secret).failure)
        #expect(refused.code == .invalidGrant)
        #expect(refused.errorDescription == AppleErrorDescription.codeExpiredOrRevoked)
    }

    @Test("a code that was never issued is invalid_grant, with Apple's description")
    func neverIssued() async throws {
        let harness = try await ProviderHarness.make()
        let refused = try #require(await harness.redeem("c0ffee.0.nope", secret: try await harness.clientSecret()).failure)
        #expect(refused.code == .invalidGrant)
        #expect(refused.errorDescription == AppleErrorDescription.codeExpiredOrRevoked)
        #expect(refused.reason == "the code was never issued")
    }
}
