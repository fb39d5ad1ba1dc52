import Crypto

/// The OpenID Connect `at_hash` / `c_hash` of a token or code (OIDC Core §3.1.3.6, §3.3.2.11):
/// base64url of the left half of the SHA-256 digest of its ASCII bytes (RS256 → SHA-256).
public enum TokenHash {
    public static func of(_ token: String) -> String {
        let digest = SHA256.hash(data: Array(token.utf8))
        return Base64URL.encode(Array(digest).prefix(16))
    }

    /// The PKCE S256 challenge of a verifier (RFC 7636 §4.2): base64url(SHA-256(verifier)).
    public static func pkceChallenge(forVerifier verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}
