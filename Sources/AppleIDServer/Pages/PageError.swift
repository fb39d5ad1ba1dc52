import Hummingbird

/// An error shown as an HTML page: endpoints `throw` it, and it renders itself where thrown errors
/// become answers (``SecurityHeadersMiddleware``), as ``OAuthError`` renders itself as JSON. It carries
/// everything the page needs (the renderer, the template, the localized model and the status), so
/// that no endpoint renders an error page by hand.
struct PageError: HTTPResponseError {
    let status: HTTPResponse.Status
    let template: String
    /// What the template reads, already in the page's language.
    let model: any Sendable
    let renderer: PageRenderer

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try renderer.render(model, template: template, status: status)
    }
}
