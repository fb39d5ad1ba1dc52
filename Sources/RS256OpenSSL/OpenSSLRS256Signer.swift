#if OpenSSLSigner && canImport(CLibCrypto)
import CLibCrypto
import RS256Signing

/// RS256 through the system's OpenSSL 3 libcrypto (`EVP_DigestSign`), which uses AVX-512 IFMA for
/// RSA where the CPU has it and BoringSSL does not (``RS256Signers/fastest(cpuFlags:)`` chooses).
public struct OpenSSLRS256Signer: RS256Signer {
    public init() {}

    public var name: String {
        // The version of the library loaded at run time, not of the headers built against.
        guard let version = OpenSSL_version(OPENSSL_VERSION_STRING) else { return "OpenSSL (libcrypto)" }
        return "OpenSSL " + String(cString: version) + " (libcrypto)"
    }

    public func loadKey(derRepresentation: [UInt8]) throws -> any RS256SigningKey {
        try OpenSSLRS256Key(derRepresentation: derRepresentation)
    }
}

/// One `EVP_PKEY`, built once from the key's DER and freed with the last reference (when the key
/// ring drops a retired key). OpenSSL 3 lets many threads use one unmodified `EVP_PKEY` at once as
/// long as each has its own context (openssl-threads(7): "two threads can calculate a signature
/// using two different EVP_PKEY_CTX objects"); `signature(for:)` makes a fresh `EVP_MD_CTX` per call.
final class OpenSSLRS256Key: RS256SigningKey, @unchecked Sendable {  // safe: the key is never modified after loading (above)
    private let key: OpaquePointer

    init(derRepresentation der: [UInt8]) throws {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw RS256SigningError.unreadableKey
        }
        guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA else {
            EVP_PKEY_free(parsed)
            throw RS256SigningError.unreadableKey
        }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    func signature(for message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw RS256SigningError.signingFailed }
        defer { EVP_MD_CTX_free(context) }
        // The padding of an RSA key's signature context is PKCS#1 v1.5 unless set otherwise; it is
        // set here all the same, so that RS256 never depends on a default.
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key) == 1,
            EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1
        else { return try failed() }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { return try failed() }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { return try failed() }
        return Array(signature[..<length])
    }

    /// Empties this thread's OpenSSL error queue (its messages are not for clients) and throws.
    private func failed() throws -> [UInt8] {
        ERR_clear_error()
        throw RS256SigningError.signingFailed
    }
}
#endif
