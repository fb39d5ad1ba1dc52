import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import Foundation
import RS256OpenSSL
import RS256Signing
import Synchronization
import Testing
import _CryptoExtras

@Suite("Signing key ring: the signer behind it")
struct SigningKeyRingSignerTests {
    static let claims = IdentityTokenClaims(
        issuer: "https://id.example.com", audience: "com.example.app", expiresAt: 1_795_241_400, issuedAt: 1_795_240_800,
        subject: Subject(rawValue: "000123.0123456789abcdef0123456789abcdef.0042"), nonce: "n-0S6_WzA2Mj", authTime: 1_795_240_700,
        nonceSupported: true, realUserStatus: 2)

    static func ring(_ store: MemoryStore, signer: any RS256Signer) async throws -> SigningKeyRing {
        try await SigningKeyRing.load(
            store: store, keyFactory: FixedSigningKeyFactory(pems: ProviderHarness.keys), random: SeededRandomSource(seed: "keys"),
            now: ProviderHarness.now, signer: signer)
    }

    @Test("every signer of the build signs byte-identical id_tokens for the same key and claims, and they verify")
    func byteIdenticalTokens() async throws {
        let store = MemoryStore()
        var tokens: [String] = []
        for signer in RS256Signers.available {
            tokens.append(try TokenSigner(keyRing: try await Self.ring(store, signer: signer)).sign(Self.claims))
        }
        #expect(Set(tokens).count == 1, "\(RS256Signers.available.map(\.name))")
        let token = try #require(tokens.first)
        let parts = token.split(separator: ".").map(String.init)
        let ring = try await Self.ring(store, signer: SwiftCryptoRS256Signer())
        let jwks = try JSONDecoder().decode(JWKS.self, from: Data(ring.publishedKeySetJSON))
        let jwk = try #require(jwks.keys.first { $0.kid == ring.activeKeyID.rawValue })
        let publicKey = try _RSA.Signing.PublicKey(n: try Base64URL.decode(jwk.n), e: try Base64URL.decode(jwk.e))
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try Base64URL.decode(parts[2]))
        let digest = SHA256.hash(data: Array((parts[0] + "." + parts[1]).utf8))
        #expect(publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5))
    }

    @Test("a key is handed to the signer once per load, not per token, and released when it retires")
    func keyLoadedOncePerLoad() async throws {
        let store = MemoryStore()
        let signer = CountingSigner()
        let ring = try await Self.ring(store, signer: signer)
        #expect(signer.loads.load(ordering: .relaxed) == 1)
        for _ in 0..<3 { _ = try TokenSigner(keyRing: ring).sign(Self.claims) }
        try await ring.reload(now: ProviderHarness.now)
        #expect(signer.loads.load(ordering: .relaxed) == 1, "signing and reloading unchanged keys load nothing again")
        #expect(signer.live.load(ordering: .relaxed) == 1)

        try await ring.rotate(now: ProviderHarness.now)
        #expect(signer.loads.load(ordering: .relaxed) == 2, "the promoted key is loaded once")
        #expect(signer.live.load(ordering: .relaxed) == 1, "the retired key's loaded copy is released")
    }

    struct JWKS: Decodable {
        struct Key: Decodable { let kid, n, e: String }
        let keys: [Key]
    }

    /// swift-crypto's signer, counting the keys it loads and the loaded keys still alive.
    final class CountingSigner: RS256Signer {
        let loads = Atomic<Int>(0)
        let live = Atomic<Int>(0)
        var name: String { "counting swift-crypto" }

        func loadKey(derRepresentation: [UInt8]) throws -> any RS256SigningKey {
            loads.add(1, ordering: .relaxed)
            return Key(inner: try SwiftCryptoRS256Signer().loadKey(derRepresentation: derRepresentation), owner: self)
        }

        final class Key: RS256SigningKey {
            let inner: any RS256SigningKey
            let owner: CountingSigner

            init(inner: any RS256SigningKey, owner: CountingSigner) {
                self.inner = inner
                self.owner = owner
                owner.live.add(1, ordering: .relaxed)
            }

            deinit { owner.live.subtract(1, ordering: .relaxed) }

            func signature(for message: [UInt8]) throws -> [UInt8] { try inner.signature(for: message) }
        }
    }
}
