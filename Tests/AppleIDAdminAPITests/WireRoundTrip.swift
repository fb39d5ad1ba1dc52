import Foundation
import Testing

/// Decodes a body as the admin API sends it today and encodes it again: the JSON must come back
/// the same, so a renamed `CodingKey` (a field the other side no longer finds) fails here.
enum WireRoundTrip {
    static func check<Body: Codable>(_ type: Body.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let value = try decoder.decode(Body.self, from: Data(json.utf8))
        let expected = try normalized(Data(json.utf8))
        let actual = try normalized(try encoder.encode(value))
        #expect(actual == expected, "\(Body.self) changed the wire", sourceLocation: sourceLocation)
    }

    /// The same JSON, keys sorted: what both sides compare.
    static func normalized(_ data: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }
}
