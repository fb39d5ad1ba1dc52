import AppleIDProtocol
import AppleIDProvider
import HTTPTypes
import Hummingbird

/// Turns protocol values into Apple-shaped HTTP answers.
enum OAuthHTTP {
    /// `Content-Type: application/json;charset=UTF-8`, `Cache-Control: no-store`, `Pragma: no-cache`,
    /// as Apple's token and error answers (TN3107), members in Apple's order.
    static func json(_ value: some OrderedJSONObject, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json;charset=UTF-8", .cacheControl: "no-store", .pragma: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: OrderedJSON.encode(value))))
    }

}

extension HTTPField.Name {
    static let pragma = HTTPField.Name("Pragma")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
