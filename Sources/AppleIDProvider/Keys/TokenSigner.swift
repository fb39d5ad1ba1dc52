import AppleIDProtocol
import Crypto
import Foundation
import _CryptoExtras

/// The one place that signs JWTs: id_tokens now, notification JWTs later.
///
/// Signing goes straight to swift-crypto over a precomputed header because Apple's header is
/// exactly `{"kid":"…","alg":"RS256"}` and jwt-kit's header is an unordered dictionary that
/// always adds `typ`. Payloads are JSON with whole-second times and unescaped slashes, as Apple's.
public struct TokenSigner: Sendable {
    let keyRing: SigningKeyRing

    public init(keyRing: SigningKeyRing) { self.keyRing = keyRing }

    /// A compact JWS of `claims`, signed RS256 by the active key.
    public func sign(_ claims: some OrderedJSONObject) throws -> String {
        let key = keyRing.activeKey
        let signingInput = key.encodedHeader + "." + Base64URL.encode(OrderedJSON.encode(claims))
        let digest = SHA256.hash(data: Array(signingInput.utf8))
        // RS256 is RSASSA-PKCS1-v1_5 by definition (RFC 7518 §3.3); swift-crypto names it "insecure".
        let signature = try key.privateKey.signature(for: digest, padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
