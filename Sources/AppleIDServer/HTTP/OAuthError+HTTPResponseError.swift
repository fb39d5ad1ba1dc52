import AppleIDProtocol
import AppleIDProvider
import HTTPTypes
import Hummingbird

/// An OAuth error renders itself as Apple does (TN3107): its JSON members in Apple's order,
/// `no-store`, and on `503` (the database is unavailable) when to try again. The conformance lives
/// here because `AppleIDProtocol` imports no HTTP framework.
extension OAuthError: HTTPResponseError {
    /// ``OAuthError/statusCode`` as Hummingbird's type (the protocol module keeps it an `Int`).
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    public func response(from request: Request, context: some RequestContext) throws -> Response { httpResponse }

    /// The answer that carries this error.
    var httpResponse: Response {
        var response = OAuthHTTP.json(OAuthErrorResponse(self), status: status)
        if status == .serviceUnavailable {
            response.headers[.retryAfter] = String(StoreUnavailableError.defaultRetryAfterSeconds)
        }
        return response
    }
}
