import AppleIDProtocol
import Crypto
import Foundation
import _CryptoExtras

extension TokenSigner {
    /// `claims` signed as `signature` asks: by the active key as usual, or by an unpublished key, with
    /// `alg` `none`, or HS256 keyed with the public key (development mode's fault switch,
    /// ``IdentityTokenDefect``).
    func sign(_ claims: some OrderedJSONObject, as signature: IdentityTokenSignature) throws -> String {
        let active = keyRing.activeKey
        switch signature {
        case .activeKey:
            return try sign(claims)
        case .unpublishedKey:
            let signingInput = active.encodedHeader + "." + Self.payload(claims)
            let rogue = try keyRing.unpublishedSigningKey()
            return signingInput + "." + Base64URL.encode(try rogue.signature(for: Array(signingInput.utf8)))
        case .algNone:
            return Self.header(kid: active.id, alg: "none") + "." + Self.payload(claims) + "."
        case .hs256:
            let signingInput = Self.header(kid: active.id, alg: "HS256") + "." + Self.payload(claims)
            let key = SymmetricKey(data: Array(active.publicKey.pemRepresentation.utf8))
            let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: key)
            return signingInput + "." + Base64URL.encode(Array(mac))
        }
    }

    private static func payload(_ claims: some OrderedJSONObject) -> String { Base64URL.encode(OrderedJSON.encode(claims)) }

    private static func header(kid: SigningKeyID, alg: String) -> String {
        Base64URL.encode(Array(#"{"kid":"\#(kid.rawValue)","alg":"\#(alg)"}"#.utf8))
    }
}
