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
        try decode(type, from: try await formBody(of: request))
    }

    /// A form posted by a page (the console, the account pages, the playground): one that cannot be
    /// read (repeated, badly encoded, too large, not a form) is the browser's mistake, a 400 page. The
    /// decoder's `OAuthError` renders nothing itself, and left unhandled it answered 500 (found by
    /// Interop/malformed_load.py). The one place that says so.
    static func decodePageForm<T: Decodable>(_ type: T.Type, from request: Request) async throws(HTTPError) -> T {
        do {
            return try await decodeForm(type, from: request)
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read.")
        }
    }

    /// The undecoded body of a form POST, refused when it is not `application/x-www-form-urlencoded`
    /// or larger than ``maximumBodySize``.
    static func formBody(of request: Request) async throws(OAuthError) -> String {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "application/x-www-form-urlencoded" else {
            throw .invalidRequest("content type is \(contentType.isEmpty ? "missing" : contentType), must be application/x-www-form-urlencoded")
        }
        do {
            return String(buffer: try await request.body.collect(upTo: maximumBodySize))
        } catch {
            throw .invalidRequest("the body is larger than \(maximumBodySize) bytes")
        }
    }

    /// The `client_id` named by a form that did not decode, read leniently so that its refusal can
    /// reach that client's Requests page: the value of the one `client_id` pair, or nil when there
    /// is none, or several. It proves nothing; the engine logs the refusal as unproven.
    static func clientID(inUnreadable form: String) -> String? {
        let values = form.split(separator: "&").compactMap { pair -> Substring? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts[0] == "client_id" ? parts.dropFirst().first ?? "" : nil
        }
        guard values.count == 1 else { return nil }
        return values[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
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
