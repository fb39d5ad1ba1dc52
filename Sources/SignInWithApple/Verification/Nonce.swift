import AppleIDProtocol
import Crypto

/// A nonce and how it travels. Apple echoes whatever the request carried into the token's `nonce`.
/// On the web that is the raw value; native apps send the SHA-256 (hex) of the raw value, so the
/// token carries the hash: ``Convention/sha256`` makes that explicit.
public struct Nonce: Sendable, Hashable {
    public enum Convention: Sendable, Hashable {
        /// The request and the token carry the raw value (web).
        case plain
        /// The request and the token carry the lowercase hex SHA-256 of the raw value (native apps).
        case sha256
    }

    public let raw: String
    public let convention: Convention

    public init(raw: String, convention: Convention = .plain) {
        self.raw = raw
        self.convention = convention
    }

    /// A fresh random nonce (32 bytes, base64url).
    public static func random(convention: Convention = .plain) -> Nonce {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) }
        return Nonce(raw: Base64URL.encode(bytes), convention: convention)
    }

    /// The same raw value in the other convention: what a token carries when the app and the
    /// verifier disagree on who hashes.
    var inOtherConvention: Nonce { Nonce(raw: raw, convention: convention == .plain ? .sha256 : .plain) }

    /// The value sent as the `nonce` parameter, and expected in the token's `nonce` claim.
    public var transmittedValue: String {
        switch convention {
        case .plain: raw
        case .sha256: Hex.encode(SHA256.hash(data: Array(raw.utf8)))
        }
    }
}
