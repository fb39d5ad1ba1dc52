import AppleIDProtocol
import Foundation
import SignInWithApple
import Testing
import _CryptoExtras

/// A key Apple stops publishing stops verifying: the key set is fetched again once it is older than
/// its maximum age, and a withdrawn key is dropped after the grace period. Only known kids are used,
/// so no unknown-kid refetch ever helps.
@Suite("AppleKeySet: keys Apple withdraws expire")
struct KeyWithdrawalTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let day: TimeInterval = 86_400

    /// A token signed by `signer`, valid for a week from the start (so only the key decides).
    static func token(_ signer: (key: _RSA.Signing.PrivateKey, kid: String)) -> String {
        var claims = VerifierSupport.claims(now: Int(start.timeIntervalSince1970), audience: KeySetTests.audience)
        claims["exp"] = Int(start.timeIntervalSince1970 + 7 * day)
        return VerifierSupport.sign(header: ["alg": "RS256", "kid": signer.kid], claims: claims, with: signer.key)
    }

    @Test("a withdrawn key keeps verifying for the grace period after the daily refetch sees it gone, then is refused")
    func withdrawnKeyExpires() async throws {
        let harness = KeySetTests.Harness(serving: VerifierSupport.jwks([KeySetTests.k1, KeySetTests.k2]))
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 1)

        harness.endpoint.set(.serve(VerifierSupport.jwks([KeySetTests.k2])))  // Apple withdraws k1
        harness.clock.advance(by: Self.day - 1)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 1, "a fresh key set is not fetched again")

        harness.clock.advance(by: 1)  // a day old: the next use fetches, and sees k1 gone
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 2)
        harness.clock.advance(by: 3_599)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))

        harness.clock.advance(by: 1)  // the grace period is over
        await #expect(throws: IdentityTokenError.unknownKeyID("k1")) { try await harness.verifier.verify(Self.token(KeySetTests.k1)) }
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k2))
        #expect(await harness.keys.knownKeyIDs == ["k2"])
    }

    @Test("a key published again within the grace period is whole again")
    func republishedKey() async throws {
        let harness = KeySetTests.Harness(serving: VerifierSupport.jwks([KeySetTests.k1, KeySetTests.k2]))
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        harness.endpoint.set(.serve(VerifierSupport.jwks([KeySetTests.k2])))
        harness.clock.advance(by: Self.day)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))  // refetch: k1 withdrawn
        harness.endpoint.set(.serve(VerifierSupport.jwks([KeySetTests.k1, KeySetTests.k2])))
        harness.clock.advance(by: Self.day)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))  // refetch: k1 back
        harness.clock.advance(by: 3_600)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 3)
    }

    @Test("when the daily refetch fails, the known keys keep verifying and the next use tries again after the cooldown")
    func staleDuringOutage() async throws {
        let harness = KeySetTests.Harness(serving: VerifierSupport.jwks([KeySetTests.k1]))
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        harness.endpoint.set(.status(503))
        harness.clock.advance(by: Self.day)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 2)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 2, "within the cooldown")
        harness.endpoint.set(.serve(VerifierSupport.jwks([KeySetTests.k1])))
        harness.clock.advance(by: 61)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 3)
        _ = try await harness.verifier.verify(Self.token(KeySetTests.k1))
        #expect(harness.endpoint.fetchCount == 3, "fresh again")
    }
}
