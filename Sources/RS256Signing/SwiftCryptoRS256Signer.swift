import Crypto
import _CryptoExtras

/// RS256 through swift-crypto (BoringSSL): present on every platform, the fallback.
public struct SwiftCryptoRS256Signer: RS256Signer {
    public init() {}

    public var name: String { "swift-crypto (BoringSSL)" }

    public func loadKey(derRepresentation: [UInt8]) throws -> any RS256SigningKey {
        do {
            return Key(key: try _RSA.Signing.PrivateKey(derRepresentation: derRepresentation))
        } catch {
            throw RS256SigningError.unreadableKey
        }
    }

    struct Key: RS256SigningKey {
        let key: _RSA.Signing.PrivateKey

        func signature(for message: [UInt8]) throws -> [UInt8] {
            // RS256 is RSASSA-PKCS1-v1_5 by definition (RFC 7518 §3.3); swift-crypto names it "insecure".
            let signature = try key.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
            return Array(signature.rawRepresentation)
        }
    }
}
