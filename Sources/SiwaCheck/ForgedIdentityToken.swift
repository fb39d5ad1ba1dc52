import AppleIDProtocol
import Foundation

/// The id_tokens an attacker writes: no key of the server's, so unsigned.
enum ForgedIdentityToken {
    static func unsigned(issuer: String, audience: String, nonce: String?, email: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": audience, "sub": "000000.f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0.0000", "iat": now, "exp": now + 600,
            "email": email, "email_verified": true,
        ]
        if let nonce { claims["nonce"] = nonce }
        let header = #"{"alg":"none"}"#
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload)) + "."
    }
}
