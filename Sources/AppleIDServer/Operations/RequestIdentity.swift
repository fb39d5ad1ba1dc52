import CoreMetrics
import Hummingbird
import Logging

/// The request a log line belongs to. The middleware below sets it for the whole handling of a
/// request, so every line logged meanwhile (the engine's too, which knows nothing of HTTP) carries
/// `request_id` when the log handler has ``metadataProvider``; the answer carries it as `X-Request-ID`.
public enum RequestIdentity {
    @TaskLocal public static var current: String?

    /// Adds `request_id` to every log line written while a request is handled.
    public static let metadataProvider = Logger.MetadataProvider {
        current.map { ["request_id": .string($0)] } ?? [:]
    }
}

/// Sets ``RequestIdentity/current`` (Hummingbird's request id), answers it as `X-Request-ID`, and counts
/// every request by route and status with its latency (`siwa_http_requests_total`,
/// `siwa_http_request_duration_seconds`): the route pattern, never the raw path, so labels stay few.
struct RequestObservationMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: any MetricsFactory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let endpoint = context.endpointPath ?? "unmatched"
        var status = HTTPResponse.Status.internalServerError
        defer {
            let elapsed = ContinuousClock.now - started
            let dimensions = [("endpoint", endpoint), ("method", request.method.rawValue)]
            Counter(label: "siwa_http_requests_total", dimensions: dimensions + [("status", String(status.code))], factory: metrics).increment()
            Timer(label: "siwa_http_request_duration_seconds", dimensions: dimensions, factory: metrics)
                .recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        }
        var response: Response
        do {
            response = try await RequestIdentity.$current.withValue(context.id) {
                try await next(request, context)
            }
        } catch let error as HTTPResponseError {
            status = error.status
            throw error
        }
        status = response.status
        response.headers[.init("X-Request-ID")!] = context.id  // a valid field name
        return response
    }
}
