import AppleIDProtocol
import Crypto
import Foundation
import JWTKit
import Testing

@Suite("Client secret minting")
struct ClientSecretMinterTests {
    static let key = P256.Signing.PrivateKey()
    static let issuedAt = Date(timeIntervalSince1970: 1_795_240_800)

    static func minter() throws -> ClientSecretMinter {
        try ClientSecretMinter(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: key.pemRepresentation)
    }

    @Test("an ES256 JWT with Apple's header and claims, verifiable with the public key")
    func mint() async throws {
        let secret = try await Self.minter().mint(clientID: "com.example.app", issuedAt: Self.issuedAt, lifetime: 3600)
        let header = try JSONSerialization.jsonObject(with: Data(try Base64URL.decode(String(secret.split(separator: ".")[0])))) as? [String: String]
        #expect(header?["alg"] == "ES256")
        #expect(header?["kid"] == "KEY1234567")
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: Self.key.publicKey.pemRepresentation), kid: "KEY1234567")
        let claims = try await keys.verify(secret, as: ClientSecretClaims.self)
        #expect(
            claims
                == ClientSecretClaims(
                    issuer: "TEAM123456", issuedAt: 1_795_240_800, expiresAt: 1_795_244_400, audience: "https://appleid.apple.com",
                    subject: "com.example.app"))
        #expect(try Base64URL.decode(String(secret.split(separator: ".")[2])).count == 64)
    }

    @Test("Apple's maximum lifetime is allowed, one second more is refused")
    func lifetimeLimit() async throws {
        _ = try await Self.minter().mint(clientID: "com.example.app", issuedAt: Self.issuedAt, lifetime: 15_777_000)
        await #expect(throws: ClientSecretMinter.MintError.lifetimeTooLong(seconds: 15_777_001)) {
            _ = try await Self.minter().mint(clientID: "com.example.app", issuedAt: Self.issuedAt, lifetime: 15_777_001)
        }
        await #expect(throws: ClientSecretMinter.MintError.lifetimeNotPositive) {
            _ = try await Self.minter().mint(clientID: "com.example.app", issuedAt: Self.issuedAt, lifetime: 0)
        }
    }

    @Test("a key that is not a P-256 PEM is refused")
    func badKey() {
        #expect(throws: ClientSecretMinter.MintError.invalidPrivateKey) {
            _ = try ClientSecretMinter(teamID: "T", keyID: "K", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
        }
    }
}
