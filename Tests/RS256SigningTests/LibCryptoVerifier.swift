#if OpenSSLSigner && canImport(CLibCrypto)
import CLibCrypto

/// RS256 verification by libcrypto itself (`EVP_DigestVerify`): the tests check swift-crypto's
/// signatures with OpenSSL, not only OpenSSL's with swift-crypto.
enum LibCryptoVerifier {
    struct Failure: Error {}

    static func verifies(_ signature: [UInt8], message: [UInt8], publicKeyDER: [UInt8]) throws -> Bool {
        let key = publicKeyDER.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { throw Failure() }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw Failure() }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw Failure() }
        defer { ERR_clear_error() }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
#endif
