import AppleIDProtocol
import Foundation
import Synchronization
import Testing
import _CryptoExtras

@testable import AppleIDDevelopmentFaults
@testable import AppleIDProvider

/// The `unpublished-key` fault's key is made when the fault is armed, once per engine: never inside
/// the token request it spoils. An RSA key takes 130 ms and more, on a busy machine far more, and `siwa check`'s apps
/// give their token request 5 s (`token.timeout` is silent for 10).
@Suite("Engine: the unpublished key is made when armed")
struct UnpublishedKeyTests {
    /// Counts the keys it hands out (the harness's fixture keys, in order).
    final class CountingKeyFactory: SigningKeyFactory {
        let fixed: FixedSigningKeyFactory
        let made = Atomic(0)

        init(pems: [String]) { fixed = FixedSigningKeyFactory(pems: pems) }

        func makePrivateKeyPEM() throws -> String {
            made.add(1, ordering: .relaxed)
            return try fixed.makePrivateKeyPEM()
        }
    }

    @Test("arming it makes the key, the first time only; the token responses it spoils make none and share it")
    func madeWhenArmed() async throws {
        let factory = CountingKeyFactory(pems: ProviderHarness.keys)
        let harness = try await ProviderHarness.make(keyFactory: factory) { $0.developmentMode = true }
        let atStart = factory.made.load(ordering: .relaxed)
        var tokens: [DecodedToken] = []
        for _ in 0..<2 {
            try await harness.provider.armTokenFault(ArmedTokenFault(.unpublishedKey), for: TokenFaultTests.client)
            #expect(factory.made.load(ordering: .relaxed) == atStart + 1, "made when first armed, and not again")
            let answer = try await harness.redeem(try await harness.code(), secret: try await harness.clientSecret()).get()
            tokens.append(try DecodedToken(try #require(answer.idToken)))
        }
        #expect(factory.made.load(ordering: .relaxed) == atStart + 1, "the token responses made no key")
        let rogue = try _RSA.Signing.PrivateKey(pemRepresentation: ProviderHarness.keys[atStart]).publicKey
        let active = harness.provider.keyRing.activeKey.publicKey
        #expect(tokens.map { $0.verifies(with: active) } == [false, false])
        #expect(tokens.map { $0.verifies(with: rogue) } == [true, true], "signed by the key made when armed")
    }
}
