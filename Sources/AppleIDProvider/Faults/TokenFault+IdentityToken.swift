import AppleIDProtocol
import Crypto
import Foundation
import _CryptoExtras

extension TokenFault {
    /// The claims with this fault's defect; the faults of the signature leave them as they are.
    func corrupt(_ claims: inout IdentityTokenClaims) {
        switch self {
        case .wrongAudience: claims.audience = "com.example.not-your-app"
        case .wrongIssuer: claims.issuer = "https://appleid.example.invalid"
        case .expired:
            let lifetime = claims.expiresAt - claims.issuedAt
            claims.expiresAt = claims.issuedAt - 600
            claims.issuedAt = claims.expiresAt - lifetime
        case .futureIssuedAt:
            let lifetime = claims.expiresAt - claims.issuedAt
            claims.issuedAt += 3600
            claims.expiresAt = claims.issuedAt + lifetime
        case .wrongNonce: claims.nonce = "not-the-nonce-your-app-sent"
        case .missingNonce: claims.nonce = nil
        case .wrongAccessTokenHash: claims.accessTokenHash = TokenHash.of("not the access token of this answer")
        case .otherSubject: claims.subject = Subject(rawValue: "000000.0123456789abcdef0123456789abcdef.0000")
        case .unpublishedKey, .algNone, .hs256, .invalidGrant, .serverError, .timeout: break
        }
    }
}

extension TokenSigner {
    /// `claims` signed as `fault` asks: by an unpublished key, with `alg` `none`, or HS256 keyed
    /// with the public key; any other fault is signed as usual.
    func sign(_ claims: some OrderedJSONObject, fault: TokenFault) throws -> String {
        let active = keyRing.activeKey
        let payload = Base64URL.encode(OrderedJSON.encode(claims))
        switch fault {
        case .unpublishedKey:
            // A fresh key through the ring's own signer: the one library that signs RS256 here.
            let rogue = try _RSA.Signing.PrivateKey(pemRepresentation: try keyRing.keyFactory.makePrivateKeyPEM())
            let signingInput = active.encodedHeader + "." + payload
            let signer = try keyRing.signer.loadKey(derRepresentation: Array(rogue.derRepresentation))
            return signingInput + "." + Base64URL.encode(try signer.signature(for: Array(signingInput.utf8)))
        case .algNone:
            return Self.header(kid: active.id, alg: "none") + "." + payload + "."
        case .hs256:
            let signingInput = Self.header(kid: active.id, alg: "HS256") + "." + payload
            let key = SymmetricKey(data: Array(active.publicKey.pemRepresentation.utf8))
            let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: key)
            return signingInput + "." + Base64URL.encode(Array(mac))
        default:
            return try sign(claims)
        }
    }

    private static func header(kid: SigningKeyID, alg: String) -> String {
        Base64URL.encode(Array(#"{"kid":"\#(kid.rawValue)","alg":"\#(alg)"}"#.utf8))
    }
}
