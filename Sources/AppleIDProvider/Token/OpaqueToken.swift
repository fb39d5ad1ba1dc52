import AppleIDProtocol
import Crypto

/// Codes and tokens in Apple's observed shape (spec §1): a one-letter kind, 32 hex characters,
/// `.0.`, four lowercase letters, `.`, 22 base64url characters. Clients treat them as opaque; the
/// shape only makes captures look real. Only their SHA-256 is stored.
public enum OpaqueToken {
    public enum Kind: String, Sendable {
        case code = "c"
        case accessToken = "a"
        case refreshToken = "r"
    }

    public static func make(_ kind: Kind, random: any RandomSource) -> String {
        let hex = random.hex(bytes: 16)
        let letters = random.string(length: 4, alphabet: "abcdefghijklmnopqrstuvwxyz")
        let tail = Base64URL.encode(random.bytes(count: 16))
        return "\(kind.rawValue)\(hex).0.\(letters).\(tail)"
    }

    /// The lookup key under which a code or token is stored.
    public static func hash(_ token: String) -> String { Hex.encode(SHA256.hash(data: Array(token.utf8))) }
}
