import AppleIDProtocol
import Hummingbird

/// Decodes query strings and form bodies into the protocol's flat request types with
/// ``FlatFormDecoder``, which refuses repeated parameters (RFC 6749 §3.1). Every failure is an OAuth
/// `invalid_request`, never Hummingbird's own error body.
enum FormDecoding {
    static let maximumBodySize = 64 * 1024

    static func decodeQuery<T: Decodable>(_ type: T.Type, from request: Request) throws(OAuthError) -> T {
        try decode(type, from: request.uri.query ?? "")
    }

    /// The body of a POST, which must be `application/x-www-form-urlencoded` (TN3107).
    static func decodeForm<T: Decodable>(_ type: T.Type, from request: Request) async throws(OAuthError) -> T {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "application/x-www-form-urlencoded" else {
            throw .invalidRequest("content type is \(contentType.isEmpty ? "missing" : contentType), must be application/x-www-form-urlencoded")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodySize)
        } catch {
            throw .invalidRequest("the body is larger than \(maximumBodySize) bytes")
        }
        return try decode(type, from: String(buffer: buffer))
    }

    static func decode<T: Decodable>(_ type: T.Type, from string: String) throws(OAuthError) -> T {
        do {
            return try FlatFormDecoder().decode(type, from: string)
        } catch let error as FormFieldsError {
            throw .invalidRequest(error.description)
        } catch {
            throw .invalidRequest("parameters are malformed")
        }
    }
}
