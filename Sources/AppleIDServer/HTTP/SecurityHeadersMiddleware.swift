import Hummingbird

/// Anti-framing and hardening headers on every answer: the sign-in pages must never be framed
/// (clickjacking of consent), and nothing is sniffed or leaked through the Referer.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            // Errors render themselves here, inside the chain, so that they carry these headers too.
            response = try error.response(from: request, context: context)
        }
        // A response framed on purpose (a mail body in the mailbox page) says SAMEORIGIN itself.
        if response.headers[.xFrameOptions] != "SAMEORIGIN" { response.headers[.xFrameOptions] = "DENY" }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'"
        }
        return response
    }
}
