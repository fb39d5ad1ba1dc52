import AppleIDProtocol
import Foundation

/// The one place that signs JWTs: id_tokens now, notification JWTs later.
///
/// Signing goes straight to the key ring's RS256 signer (OpenSSL's libcrypto or swift-crypto, the
/// engine does not care which) over a precomputed header because Apple's header is
/// exactly `{"kid":"…","alg":"RS256"}` and jwt-kit's header is an unordered dictionary that
/// always adds `typ`. Payloads are JSON with whole-second times and unescaped slashes, as Apple's.
public struct TokenSigner: Sendable {
    let keyRing: SigningKeyRing

    public init(keyRing: SigningKeyRing) { self.keyRing = keyRing }

    /// A compact JWS of `claims`, signed RS256 by the active key.
    public func sign(_ claims: some OrderedJSONObject) throws -> String {
        let key = keyRing.activeKey
        let signingInput = key.encodedHeader + "." + Base64URL.encode(OrderedJSON.encode(claims))
        let signature = try key.signingKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}
