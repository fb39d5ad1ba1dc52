import Foundation
import SignInWithApple
import Testing

/// Apple's two relay domains and its second issuer: known to the kit, each accepted only where meant.
@Suite struct RelayDomainAndIssuerTests {
    @Test(
        "relay addresses under either of Apple's domains are recognised, in any ASCII case",
        arguments: ["x7p2kq@privaterelay.appleid.com", "abc_def@private.icloud.com", "Q@PrivateRelay.AppleID.com", "a@PRIVATE.ICLOUD.COM"])
    func relayAddresses(_ address: String) {
        #expect(AppleRelayAddress.isRelayAddress(address))
    }

    @Test(
        "near-misses are not relay addresses",
        arguments: [
            "maria@icloud.com", "x@appleid.com", "x@sub.privaterelay.appleid.com", "x@privaterelay.appleid.com.evil.example",
            "x@private.icloud.com.", "privaterelay.appleid.com", "@privaterelay.appleid.com", "a@b@private.icloud.com",
            "x@private.icloud.co", "x@privaterelay\u{212A}.appleid.com", "", "x@",
        ])
    func notRelayAddresses(_ address: String) {
        #expect(!AppleRelayAddress.isRelayAddress(address))
    }

    @Test("Apple's production environment accepts only today's issuer; the opt-in one also account.apple.com")
    func accountIssuerOnlyWhenConfigured() async throws {
        let token = AttackTokenTests.token(claims: AttackTokenTests.claims(["iss": "https://account.apple.com"]))
        let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: TimeInterval(AttackTokenTests.now)) }
        let strict = IdentityTokenVerifier(
            environment: .production, audiences: [AttackTokenTests.audience], keys: AttackTokenTests.keySet, clock: clock)
        await #expect(throws: IdentityTokenError.wrongIssuer("https://account.apple.com")) { try await strict.verify(token) }

        let both = IdentityTokenVerifier(
            environment: .productionAcceptingAccountIssuer, audiences: [AttackTokenTests.audience], keys: AttackTokenTests.keySet,
            clock: clock)
        #expect(try await both.verify(token).issuer == "https://account.apple.com")
        #expect(try await both.verify(AttackTokenTests.token()).issuer == "https://appleid.apple.com")
        #expect(AppleEnvironment.productionAcceptingAccountIssuer.clientSecretAudience == "https://appleid.apple.com")
    }
}
