import Crypto
import Foundation

extension ClientSecretRulebook {
    /// ES256 as Apple checks it: P-256 ECDSA over SHA-256 of `signingInput`, the signature in raw
    /// `R||S` form (JOSE, IEEE P1363: exactly 64 bytes). DER signatures are refused (TN3107).
    public static func isValidES256Signature(
        _ signature: [UInt8], signingInput: some DataProtocol, publicKey: P256.Signing.PublicKey
    ) -> Bool {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return publicKey.isValidSignature(parsed, for: SHA256.hash(data: signingInput))
    }

    func signatureEncoding(_ secret: ClientSecretReading) -> (Bool, String) {
        guard let signature = Self.signatureBytes(secret) else { return (false, "the signature is missing or not base64url") }
        if signature.count == 64 { return (true, "raw R||S, 64 bytes") }
        if Self.derSignature(signature) != nil { return (false, "DER-encoded signature; Apple requires raw R||S (64 bytes)") }
        return (false, "\(signature.count) bytes; Apple requires raw R||S (64 bytes)")
    }

    func signature(_ secret: ClientSecretReading) -> (Bool, String) {
        guard let jws = try? secret.jws.get(), let signature = Self.signatureBytes(secret) else { return (false, "the signature cannot be read") }
        guard let publicKey else { return (false, "not checked: no public or private key was given") }
        // A DER signature is judged apart from its encoding, so that it fails only the encoding rule.
        if let der = Self.derSignature(signature) {
            guard publicKey.isValidSignature(der, for: SHA256.hash(data: jws.signingInput)) else {
                return (false, "does not verify with the key (read as DER)")
            }
            return (true, "verifies with the key once converted from DER (Apple does not convert it)")
        }
        guard Self.isValidES256Signature(signature, signingInput: jws.signingInput, publicKey: publicKey) else {
            return (false, "does not verify with the key: another key signed it, or the secret was altered")
        }
        return (true, "the ES256 signature verifies with the key")
    }

    private static func signatureBytes(_ secret: ClientSecretReading) -> [UInt8]? {
        try? secret.jws.get().signatureBytes()
    }

    private static func derSignature(_ bytes: [UInt8]) -> P256.Signing.ECDSASignature? {
        bytes.count != 64 ? try? P256.Signing.ECDSASignature(derRepresentation: bytes) : nil
    }
}
