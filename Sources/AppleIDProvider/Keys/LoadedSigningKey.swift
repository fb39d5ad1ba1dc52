import AppleIDProtocol
import Foundation
import RS256Signing
import _CryptoExtras

/// The active signing key, loaded once: handed to the signer's library, with its precomputed JWS
/// header. The ring keeps it while the key stays active, so the library's copy is released when
/// the key retires (with the last token being signed by it).
struct LoadedSigningKey: Sendable {
    let id: SigningKeyID
    let signingKey: any RS256SigningKey
    /// What verifies its signatures; the HS256 fault (issue 20) keys its MAC with its PEM, as the attack does.
    let publicKey: _RSA.Signing.PublicKey
    /// base64url of `{"kid":"…","alg":"RS256"}`: Apple's exact header, `kid` first, no `typ`.
    let encodedHeader: String

    init(record: SigningKeyRecord, signer: any RS256Signer) throws {
        let key = try Self.parsePrivateKey(of: record)
        self.id = record.id
        self.signingKey = try signer.loadKey(derRepresentation: Array(key.derRepresentation))
        self.publicKey = key.publicKey
        self.encodedHeader = Base64URL.encode(Array(#"{"kid":"\#(record.id.rawValue)","alg":"RS256"}"#.utf8))
    }

    /// The key as `/auth/keys` publishes it: modulus and exponent only.
    static func publicJWK(of record: SigningKeyRecord) throws -> PublishedKeySet.Key {
        let components = try parsePrivateKey(of: record).publicKey.getKeyPrimitives()
        return PublishedKeySet.Key(
            kid: record.id, modulus: Base64URL.encode(components.modulus), exponent: Base64URL.encode(components.publicExponent))
    }

    private static func parsePrivateKey(of record: SigningKeyRecord) throws -> _RSA.Signing.PrivateKey {
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: record.privateKeyPEM)
        guard key.keySizeInBits == 2048 else { throw SigningKeyError.notAnRSA2048Key }
        return key
    }
}
