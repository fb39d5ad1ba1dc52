import AppleIDEmailSources
import AppleIDProvider
import Crypto
import Foundation
import SMTPWire
import _CryptoExtras

/// Checks a message's DKIM signature (RFC 6376) against the RSA key registered with an e-mail
/// source, rather than one looked up in DNS: the developer registers the key with the source, as the
/// SPF check registers the domain. `rsa-sha256` only (RFC 8301 retires `rsa-sha1`); the `simple` and
/// `relaxed` canonicalizations of headers and body (§3.4).
enum DKIMVerifier {
    /// Why a message did not verify, for the log and the SMTP reply.
    enum Failure: Error, Sendable, Hashable {
        case unsigned
        case malformed(String)
        case wrongDomain(String)
        case expired
        /// The body hash, or the signature, of the signature with this selector (`s=`) is wrong.
        case bodyHashMismatch(selector: String)
        case badSignature(selector: String)

        var reason: String {
            switch self {
            case .unsigned: "the message has no DKIM-Signature"
            case .malformed(let why): "its DKIM-Signature is malformed (\(why))"
            case .wrongDomain(let domain): "it is signed for d=\(domain), not the sender's domain"
            case .expired: "its DKIM-Signature has expired"
            case .bodyHashMismatch(let selector): "the body does not match the DKIM body hash of s=\(selector)"
            case .badSignature(let selector): "its DKIM signature (s=\(selector)) does not verify with the registered key"
            }
        }
    }

    /// Passes when one of the message's DKIM-Signature fields, signed for `senderDomain` or a domain
    /// above it (§6.1.1, the `From` alignment mail providers expect), verifies with `key`. The key is
    /// the one registered with the e-mail source, not looked up in DNS, so the signature's selector
    /// (`s=`) does not choose it; it is required (§3.5) and named in a failure, which tells a
    /// developer which of their keys signed. The body is hashed as it streams from `message`.
    static func verify(
        _ headers: MessageHeaders, message: any MessageSource, key: _RSA.Signing.PublicKey, senderDomain: String, now: Date
    ) async throws -> Result<Void, Failure> {
        let signatures = headers.fields.indices.filter { headers.fields[$0].name.lowercased() == "dkim-signature" }
        guard !signatures.isEmpty else { return .failure(.unsigned) }
        var firstFailure: Failure?
        for index in signatures {
            switch try await verify(signatureAt: index, headers: headers, message: message, key: key, senderDomain: senderDomain, now: now) {
            case .success: return .success(())
            case .failure(let failure): firstFailure = firstFailure ?? failure
            }
        }
        return .failure(firstFailure ?? .unsigned)
    }

    private static func verify(
        signatureAt index: Int, headers: MessageHeaders, message: any MessageSource, key: _RSA.Signing.PublicKey, senderDomain: String,
        now: Date
    ) async throws -> Result<Void, Failure> {
        let field = headers.fields[index]
        let tags = tagList(field.value)
        guard tags["v"] == "1" else { return .failure(.malformed("v is not 1")) }
        guard tags["a"]?.lowercased() == "rsa-sha256" else { return .failure(.malformed("a is not rsa-sha256")) }
        guard let domain = tags["d"]?.lowercased(), !domain.isEmpty else { return .failure(.malformed("no d")) }
        guard senderDomain == domain || senderDomain.hasSuffix("." + domain) else { return .failure(.wrongDomain(domain)) }
        guard let selector = tags["s"], !selector.isEmpty else { return .failure(.malformed("no s=")) }
        guard let signed = tags["h"]?.split(separator: ":").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }),
            signed.contains("from")
        else { return .failure(.malformed("h does not sign From")) }
        guard let bodyHash = tags["bh"].flatMap({ Data(base64Encoded: $0) }), let signature = tags["b"].flatMap({ Data(base64Encoded: $0) })
        else { return .failure(.malformed("bh or b is not base64")) }
        if let expiry = tags["x"].flatMap(TimeInterval.init), Date(timeIntervalSince1970: expiry) < now { return .failure(.expired) }
        let modes = (tags["c"] ?? "simple/simple").lowercased().split(separator: "/").map(String.init)
        guard let headerMode = Canonicalization(rawValue: modes.first ?? "simple"),
            let bodyMode = Canonicalization(rawValue: modes.count > 1 ? modes[1] : "simple")
        else { return .failure(.malformed("unknown canonicalization")) }

        var hash = DKIMBodyHash(mode: bodyMode, limit: tags["l"].flatMap(Int.init))
        try await message.forEachChunk(in: min(headers.bodyStart, message.count)..<message.count) { hash.update($0) }
        let body = hash.finish()
        guard body.coversLimit, Data(body.digest) == bodyHash else { return .failure(.bodyHashMismatch(selector: selector)) }

        var data: [UInt8] = []
        var used = Set<Int>()
        for name in signed {
            // The last unused instance of each named field, from the bottom up (§5.4.2).
            guard
                let match = headers.fields.indices.last(where: { !used.contains($0) && $0 != index && headers.fields[$0].name.lowercased() == name })
            else { continue }
            used.insert(match)
            data += headerMode.header(headers.fields[match].raw)
        }
        var own = headerMode.header(withoutSignatureValue(field.raw))
        while own.last == UInt8(ascii: "\n") || own.last == UInt8(ascii: "\r") { own.removeLast() }
        data += own
        let valid = key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        return valid ? .success(()) : .failure(.badSignature(selector: selector))
    }

    /// `v=1; a=rsa-sha256; b=AB CD` → `["v": "1", "a": "rsa-sha256", "b": "ABCD"]` (§3.2); white
    /// space inside a value is folding, and dropped.
    static func tagList(_ value: String) -> [String: String] { DKIMTagList.parse(value) }

    /// The field's bytes with the value of its `b=` tag emptied, all else kept byte for byte (§3.5).
    static func withoutSignatureValue(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        let bytes = Array(raw)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return bytes }
        var tagStart = colon + 1
        while tagStart < bytes.count {
            let tagEnd = bytes[tagStart...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            let tag = bytes[tagStart..<tagEnd]
            if let equals = tag.firstIndex(of: UInt8(ascii: "=")),
                String(decoding: bytes[tagStart..<equals], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "b"
            {
                // Keep the line end that closes the field when `b=` is its last tag.
                var valueEnd = tagEnd
                while valueEnd > equals + 1, bytes[valueEnd - 1] == UInt8(ascii: "\n") || bytes[valueEnd - 1] == UInt8(ascii: "\r") {
                    valueEnd -= 1
                }
                return Array(bytes[...equals]) + Array(bytes[valueEnd...])
            }
            tagStart = tagEnd + 1
        }
        return bytes
    }
}

/// RFC 6376 §3.4: how header fields and the body are made canonical before hashing.
enum Canonicalization: String {
    case simple
    case relaxed

    func header(_ raw: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(raw)
        guard self == .relaxed, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return bytes }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        let unfolded = bytes[(colon + 1)...].filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        return Array(name.utf8) + [UInt8(ascii: ":")] + Self.compressed(unfolded).trimmingSpaces + Array("\r\n".utf8)
    }

    /// Each run of spaces and tabs as one space.
    private static func compressed(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            let space = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            if space {
                if out.last != UInt8(ascii: " ") { out.append(UInt8(ascii: " ")) }
            } else {
                out.append(byte)
            }
        }
        return out
    }
}

extension Array where Element == UInt8 {
    fileprivate var trimmingSpaces: [UInt8] { Array(trimmingTrailingSpaces.drop { $0 == UInt8(ascii: " ") }) }
    fileprivate var trimmingTrailingSpaces: [UInt8] {
        var copy = self
        while copy.last == UInt8(ascii: " ") { copy.removeLast() }
        return copy
    }
}
