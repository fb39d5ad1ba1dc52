import Crypto
import Foundation

/// Random secrets handed to browsers (session cookies, link offers) and the hashes kept of them:
/// a stolen database row does not open a session.
enum SecretToken {
    /// 32 random bytes, base64url without padding (a valid cookie value).
    static func random() -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// SHA-256 of the token, hex.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ: their
    /// SHA-256 digests are compared, and swift-crypto compares digests in constant time.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        SHA256.hash(data: Data(lhs.utf8)) == SHA256.hash(data: Data(rhs.utf8))
    }
}
