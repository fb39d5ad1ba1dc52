import Crypto
import Foundation

/// Juice's CSRF tokens: HMAC-SHA256 of the browser's cookie under a key derived (HKDF) from Juice's
/// storage key, so it survives restarts and is shared by every instance on the same key.
///
/// A token computed from the cookie alone (a hash) could be forged by anyone who can plant the
/// cookie: a sibling subdomain, or another port of 127.0.0.1 (cookies ignore ports). The key never
/// leaves the server, so only pages Juice rendered carry a valid token.
struct FormTokens: Sendable {
    private let key: SymmetricKey

    init(storageKey: RefreshTokenSealer) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: storageKey.key, info: Array("juice form tokens v1".utf8), outputByteCount: 32)
    }

    /// The token of the forms rendered for the browser whose cookie holds `browserToken`.
    func csrf(browserToken: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Array(("csrf:" + browserToken).utf8), using: key).map { String(format: "%02x", $0) }.joined()
    }
}
