import Foundation

/// A compact JWS (RFC 7515 §7.1), `header.payload.signature`, split once.
///
/// The one place a token is taken apart: the kit's identity-token and notification verifiers, the
/// client-secret inspector, the engine's client authenticator, the playground, the admin API and
/// `siwa verify` all read tokens through it. Reading does not verify anything: a caller checks the
/// signature over ``signingInput`` before it trusts ``claims(as:)``.
///
/// The segments are decoded on demand, so a verifier that refuses a token by its header or its
/// signature never decodes the payload, and a token larger than `maximumBytes` is refused before
/// anything is copied.
public struct CompactJWS: Sendable {
    /// The token's UTF-8 bytes.
    public let bytes: [UInt8]
    /// The offsets of the two dots.
    private let firstDot: Int
    private let secondDot: Int

    /// Splits `token` into its three segments.
    /// - Throws: ``CompactJWSError`` when the token is over `maximumBytes` or has not exactly three segments.
    public init(_ token: String, maximumBytes: Int = .max) throws(CompactJWSError) {
        // Counted before anything is copied: a megabyte of claims costs the caller nothing.
        let count = token.utf8.count
        guard count <= maximumBytes else { throw .tooLarge(bytes: count, limit: maximumBytes) }
        let bytes = Array(token.utf8)
        let dot = UInt8(ascii: ".")
        guard let first = bytes.firstIndex(of: dot), let second = bytes[(first + 1)...].firstIndex(of: dot),
            !bytes[(second + 1)...].contains(dot)
        else { throw .segmentCount(bytes.count { $0 == dot } + 1) }
        self.bytes = bytes
        self.firstDot = first
        self.secondDot = second
    }

    /// The encoded header, as sent.
    public var headerSegment: ArraySlice<UInt8> { bytes[..<firstDot] }
    /// The encoded payload, as sent.
    public var payloadSegment: ArraySlice<UInt8> { bytes[(firstDot + 1)..<secondDot] }
    /// The encoded signature, as sent.
    public var signatureSegment: ArraySlice<UInt8> { bytes[(secondDot + 1)...] }
    /// `header.payload`: the bytes the signature covers (RFC 7515 §5.2).
    public var signingInput: ArraySlice<UInt8> { bytes[..<secondDot] }

    /// The decoded header bytes (JSON).
    public func headerBytes() throws(CompactJWSError) -> [UInt8] { try Self.decode(headerSegment, .header) }
    /// The decoded payload bytes (JSON claims, unverified).
    public func payloadBytes() throws(CompactJWSError) -> [UInt8] { try Self.decode(payloadSegment, .payload) }
    /// The decoded signature bytes.
    public func signatureBytes() throws(CompactJWSError) -> [UInt8] { try Self.decode(signatureSegment, .signature) }

    /// The JOSE header, decoded.
    public func header() throws(CompactJWSError) -> JOSEHeader {
        let bytes = try headerBytes()
        do {
            return try JOSEHeader(json: bytes)
        } catch {
            throw .notJSON(.header)
        }
    }

    /// The payload decoded as `Claims` (unverified).
    /// - Throws: ``CompactJWSError`` when the payload is not base64url; the decoder's error when the
    ///   claims are not `Claims`.
    public func claims<Claims: Decodable>(as type: Claims.Type) throws -> Claims {
        try JSONDecoder().decode(type, from: Data(try payloadBytes()))
    }

    private static func decode(_ segment: ArraySlice<UInt8>, _ name: CompactJWSError.Segment) throws(CompactJWSError) -> [UInt8] {
        do {
            return try Base64URL.decode(bytes: segment)
        } catch {
            throw .notBase64URL(name)
        }
    }
}
