import Hummingbird

/// Reads the session and browser cookies into the context, sets a browser cookie on first visit, and
/// turns ``UserFacingError`` (and anything unexpected) into a human page.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = JuiceRequestContext

    let sessions: SessionStore
    let cookies: JuiceCookies
    let formTokens: FormTokens
    let pages: Pages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let browser = cookies.value(JuiceCookies.browser, in: request), browser.count == 43 {
            context.browserToken = browser
            context.browserTokenIsNew = false
        } else {
            context.browserToken = SecretToken.random()
        }
        context.csrfToken = formTokens.csrf(browserToken: context.browserToken)
        if let token = cookies.value(JuiceCookies.session, in: request), let account = try await sessions.account(token: token) {
            context.account = account
            context.sessionToken = token
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as UserFacingError {
            response = try pages.error(error, context: context)
        } catch let error as HTTPError where error.status == .notFound {
            response = try pages.error(
                UserFacingError(status: .notFound, title: "Page not found", message: "There is no page at this address."), context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            response = try pages.error(
                UserFacingError(
                    status: .internalServerError, title: "Something went wrong", message: "Juice could not finish this request. Please try again."),
                context: context)
        }
        // Only pages set it: a POST without the cookie fails its CSRF check, and the callback (a cross-site
        // POST that carries no cookie) must not replace the browser's token.
        if context.browserTokenIsNew, request.method == .get { response.setCookie(cookies.browser(context.browserToken)) }
        return response
    }
}
