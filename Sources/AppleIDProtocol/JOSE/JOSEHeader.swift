import Foundation

/// The JOSE header of a compact JWS (RFC 7515 §4), as sent: the members every reader here looks
/// at, and the names of all members so that a verifier can refuse ones it must not honour.
public struct JOSEHeader: Sendable, Hashable {
    /// `alg`; `nil` when missing or not a string.
    public var algorithm: String?
    /// `kid`; `nil` when missing or not a string.
    public var keyID: String?
    /// `typ`; `nil` when missing or not a string.
    public var type: String?
    /// The names of every member, whatever their values.
    public var memberNames: Set<String>

    public init(algorithm: String?, keyID: String?, type: String? = nil, memberNames: Set<String>? = nil) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.type = type
        self.memberNames = memberNames ?? Set([algorithm.map { _ in "alg" }, keyID.map { _ in "kid" }, type.map { _ in "typ" }].compactMap { $0 })
    }

    /// Reads a header from its JSON object.
    /// - Throws: `DecodingError` when `json` is not a JSON object.
    public init(json: [UInt8]) throws {
        self = try JSONDecoder().decode(Decoded.self, from: Data(json)).header
    }

    /// Lenient about member types (a wrong type reads as `nil`, as the inspector reports it), strict
    /// about the whole: anything but a JSON object is refused.
    private struct Decoded: Decodable {
        let header: JOSEHeader

        struct Name: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: Name.self)
            func string(_ name: String) -> String? { try? members.decodeIfPresent(String.self, forKey: Name(stringValue: name)) }
            header = JOSEHeader(
                algorithm: string("alg"), keyID: string("kid"), type: string("typ"), memberNames: Set(members.allKeys.map(\.stringValue)))
        }
    }
}
