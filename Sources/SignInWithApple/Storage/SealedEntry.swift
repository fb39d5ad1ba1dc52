import AppleIDProtocol
import Crypto
import Foundation

/// How the kit writes to a ``SignInWithAppleStorage``: the key is a hash of the secret the browser
/// holds (a `state`, a completion link's token), and the value is sealed (AES-256-GCM) with a key
/// derived from that same secret. Whoever reads the storage learns neither the secrets nor what
/// they protect; whoever holds a secret can open only its own entry.
enum SealedEntry {
    enum Kind: String, Sendable {
        /// A started sign-in, under its `state`.
        case started
        /// A verified sign-in waiting for its browser, under the completion link's token.
        case completion
        /// A notification seen, under its `jti` (no secret to seal with: the value is empty).
        case notification
        /// A grant checked with Apple recently, under its refresh token (the value is empty).
        case validated
    }

    static func key(_ kind: Kind, secret: String) -> String {
        let digest = SHA256.hash(data: Data((kind.rawValue + "\u{0}" + secret).utf8))
        return "siwa." + kind.rawValue + "." + Base64URL.encode(Array(digest))
    }

    static func seal(_ value: some Encodable, kind: Kind, secret: String) throws -> [UInt8] {
        let plaintext = try JSONEncoder().encode(value)
        let box = try AES.GCM.seal(plaintext, using: sealingKey(kind, secret: secret))
        guard let combined = box.combined else { throw SealError.unsealable }
        return Array(combined)
    }

    static func open<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], kind: Kind, secret: String) throws -> Value {
        let box = try AES.GCM.SealedBox(combined: bytes)
        let plaintext = try AES.GCM.open(box, using: sealingKey(kind, secret: secret))
        return try JSONDecoder().decode(Value.self, from: plaintext)
    }

    private static func sealingKey(_ kind: Kind, secret: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), info: Data(("sign-in-with-apple kit " + kind.rawValue).utf8),
            outputByteCount: 32)
    }

    enum SealError: Error { case unsealable }
}
