import AppleIDProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// Turns protocol values into Apple-shaped HTTP answers.
enum OAuthHTTP {
    /// `Content-Type: application/json;charset=UTF-8`, `Cache-Control: no-store`, `Pragma: no-cache`,
    /// as Apple's token and error answers (TN3107).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Response(
            status: status,
            headers: [.contentType: "application/json;charset=UTF-8", .cacheControl: "no-store", .pragma: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    static func error(_ error: OAuthError) -> Response {
        let status = HTTPResponse.Status(code: error.status)
        do {
            return try json(OAuthErrorResponse(error), status: status)
        } catch {
            return Response(status: .internalServerError)
        }
    }
}

extension HTTPField.Name {
    static let pragma = HTTPField.Name("Pragma")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
