import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import Foundation
import RS256Signing
import Testing

@Suite("Signing key ring")
struct SigningKeyRingTests {
    struct PublishedKeys: Decodable {
        struct Key: Decodable { let kid: String }
        let keys: [Key]
    }

    static func published(_ ring: SigningKeyRing) throws -> [String] {
        try JSONDecoder().decode(PublishedKeys.self, from: Data(ring.publishedKeySetJSON)).keys.map(\.kid)
    }

    @Test("the next key is published before it signs; a retired key stays published for its retention, then goes")
    func rotation() async throws {
        let store = MemoryStore()
        let clock = ManualClock(ProviderHarness.now)
        let factory = FixedSigningKeyFactory(pems: ProviderHarness.keys)
        let random = SeededRandomSource(seed: "keys")
        let ring = try await SigningKeyRing.load(
            store: store, keyFactory: factory, random: random, now: clock.now(), retiredKeyRetention: 86_400, signer: SwiftCryptoRS256Signer())
        let firstActive = ring.activeKeyID
        let before = try Self.published(ring)
        #expect(before.count == 2)
        let next = try #require(before.first { $0 != firstActive.rawValue })

        try await ring.rotate(now: clock.now())
        #expect(ring.activeKeyID.rawValue == next)
        let after = try Self.published(ring)
        #expect(after.count == 3)
        #expect(after.contains(firstActive.rawValue))

        clock.advance(by: 86_401)
        let reloaded = try await SigningKeyRing.load(
            store: store, keyFactory: factory, random: random, now: clock.now(), retiredKeyRetention: 86_400, signer: SwiftCryptoRS256Signer())
        #expect(reloaded.activeKeyID.rawValue == next)
        #expect(try Self.published(reloaded).count == 2)
        #expect(!(try Self.published(reloaded)).contains(firstActive.rawValue))
    }

    @Test("keys persist: a restart signs with the same key")
    func persistence() async throws {
        let store = MemoryStore()
        let factory = FixedSigningKeyFactory(pems: ProviderHarness.keys)
        let random = SeededRandomSource(seed: "keys")
        let first = try await SigningKeyRing.load(
            store: store, keyFactory: factory, random: random, now: ProviderHarness.now, signer: SwiftCryptoRS256Signer())
        let second = try await SigningKeyRing.load(
            store: store, keyFactory: factory, random: random, now: ProviderHarness.now, signer: SwiftCryptoRS256Signer())
        #expect(first.activeKeyID == second.activeKeyID)
        #expect(first.publishedKeySetJSON == second.publishedKeySetJSON)
    }

    @Test("a key that is not RSA-2048 is refused")
    func wrongSize() async throws {
        let store = MemoryStore()
        let small = try RSAKeyMaker.pem(bits: 3072)
        await #expect(throws: SigningKeyError.notAnRSA2048Key) {
            _ = try await SigningKeyRing.load(
                store: store, keyFactory: FixedSigningKeyFactory(pems: [small, small]), random: SeededRandomSource(seed: "x"),
                now: ProviderHarness.now, signer: SwiftCryptoRS256Signer())
        }
    }
}
