import AppleIDProtocol
import Crypto
import Synchronization
import _CryptoExtras

/// A compact JWS checked the way Apple's tokens must be: at most ``TokenLimits/maximumTokenBytes``, three segments, header `alg` RS256 and a
/// `kid`, no key-bearing headers, the signature verified with the key set's key for that `kid`.
/// Shared by identity tokens and notifications.
struct SignedTokenVerifier: Sendable {
    let keys: AppleKeySet
    let headers = HeaderCache()

    /// Verifies the signature and returns the decoded payload bytes and the `kid`.
    func verify(_ token: String) async throws -> (payload: [UInt8], keyID: String) {
        let jws: CompactJWS
        do {
            // The size is checked before anything is copied or decoded: a megabyte of claims costs the caller nothing.
            jws = try CompactJWS(token, maximumBytes: TokenLimits.maximumTokenBytes)
        } catch {
            switch error.reason {
            case .tooLarge(let bytes, let limit): throw IdentityTokenError.tooLarge(bytes: bytes, limit: limit)
            case .segmentCount(let count): throw IdentityTokenError.malformed("a JWS has three segments, found \(count)")
            case .notBase64URL, .notJSON: throw IdentityTokenError.malformed(error.description)
            }
        }
        let keyID = try headers.keyID(of: jws)

        let key: _RSA.Signing.PublicKey
        do {
            if let cached = keys.cachedKey(for: keyID) { key = cached } else { key = try await keys.key(for: keyID) }
        } catch let error as AppleKeySet.KeyError where error.kind == .unknownKeyID {
            throw IdentityTokenError.unknownKeyID(error.detail)
        } catch let error as AppleKeySet.KeyError where error.kind == .unavailable {
            throw IdentityTokenError.keySetUnavailable(error.detail)
        } catch {
            throw IdentityTokenError.keySetUnavailable("\(error)")
        }
        // The encoding must be the canonical one: base64url ignores the unused low bits of the last
        // character, and a second spelling of the same signature must not verify (any changed byte fails).
        guard let signature = try? jws.signatureBytes(), signature.count == key.keySizeInBits / 8,
            Self.hasCanonicalEnding(jws.signatureSegment, decodedCount: signature.count)
        else {
            throw IdentityTokenError.invalidSignature
        }
        let digest = SHA256.hash(data: jws.signingInput)
        // RS256 is RSASSA-PKCS1-v1_5 by definition (RFC 7518 §3.3); swift-crypto names it "insecure".
        guard key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5)
        else { throw IdentityTokenError.invalidSignature }
        guard let payload = try? jws.payloadBytes() else {
            throw IdentityTokenError.malformed("the payload is not base64url")
        }
        return (payload, keyID)
    }
}

extension SignedTokenVerifier {
    /// Whether the last character of unpadded base64url leaves its unused low bits zero: 4 bits when
    /// the data ends with one byte of a 3-byte group, 2 bits when it ends with two (RFC 4648 §3.5).
    static func hasCanonicalEnding(_ encoded: ArraySlice<UInt8>, decodedCount: Int) -> Bool {
        let unusedBits: UInt8
        switch decodedCount % 3 {
        case 1: unusedBits = 0x0F
        case 2: unusedBits = 0x03
        default: return true
        }
        guard let last = encoded.last, let value = base64URLValue(last) else { return false }
        return value & unusedBits == 0
    }

    private static func base64URLValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

/// Parsed headers by their encoded form: Apple signs with a handful of keys, so a few distinct
/// header segments cover every token and the JSON is read once per segment.
final class HeaderCache: Sendable {
    private let entries = Mutex<[[UInt8]: String]>([:])

    /// The `kid` of an acceptable header, or the reason it is refused.
    func keyID(of jws: CompactJWS) throws -> String {
        let segment = Array(jws.headerSegment)
        if let kid = entries.withLock({ $0[segment] }) { return kid }
        let kid = try Self.keyID(of: jws)
        entries.withLock { entries in
            if entries.count >= 64 { entries.removeAll() }
            entries[segment] = kid
        }
        return kid
    }

    static let forbiddenMembers = ["jku", "x5u", "jwk", "x5c", "crit"]

    static func keyID(of jws: CompactJWS) throws -> String {
        guard let header = try? jws.header() else { throw IdentityTokenError.malformed("the header is not base64url JSON") }
        guard let alg = header.algorithm else { throw IdentityTokenError.unsupportedAlgorithm("(missing)") }
        guard alg == "RS256" else { throw IdentityTokenError.unsupportedAlgorithm(alg) }
        if let forbidden = forbiddenMembers.first(where: header.memberNames.contains) { throw IdentityTokenError.forbiddenHeader(forbidden) }
        guard let kid = header.keyID, !kid.isEmpty else { throw IdentityTokenError.missingKeyID }
        return kid
    }
}
