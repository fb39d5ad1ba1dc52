import AppleIDProvider
import Hummingbird
import Logging

/// Answers `503 Service Unavailable` with `Retry-After` when a handler fails because the database
/// cannot answer now (``StoreUnavailableError``): a restart of PostgreSQL or an exhausted pool is
/// the operator's to fix and the client's to retry, never a `500` and never a hang. The OAuth
/// endpoints answer the same condition themselves, in Apple's JSON error shape.
struct StoreUnavailableMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as StoreUnavailableError {
            context.logger.warning("database unavailable", metadata: ["reason": "\(error.reason)"])
            return Response(
                status: .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store", .retryAfter: String(error.retryAfterSeconds)],
                body: .init(
                    byteBuffer: ByteBuffer(string: "The service is unavailable for a moment. Try again in \(error.retryAfterSeconds) seconds.\n")))
        }
    }
}
