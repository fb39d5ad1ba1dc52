import AppleIDProtocol
import Hummingbird
import SignInWithApple

extension SignInWithAppleClient {
    /// Starts a sign-in for the browser of `request` (its ``BrowserBinding`` cookie, or a new one):
    /// the 303 to Apple, with the cookie set, and the pending authorization, whose `state` is the key
    /// under which to keep what the sign-in is for. Call it from your own CSRF-checked POST, or let
    /// ``SignInWithAppleRoutes`` add a GET for it.
    public func start(for request: Request, scopes: [Scope]? = nil) async throws -> (response: Response, pending: PendingAuthorization) {
        let existing = BrowserBinding(of: request)
        let browser = existing ?? BrowserBinding.random()
        let pending = try await startSignIn(scopes: scopes, browser: browser)
        var response = Self.redirect(to: pending.url)
        if existing == nil {
            let secure = configuration.web?.redirectURI.hasPrefix("https:") ?? true
            response.setCookie(
                Cookie(name: BrowserBinding.cookieName, value: browser.secret, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
        }
        return (response, pending)
    }

    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}

extension BrowserBinding {
    /// The binding `request`'s cookie presents, if any.
    public init?(of request: Request) {
        guard let cookie = request.cookies[BrowserBinding.cookieName], let binding = try? BrowserBinding(secret: cookie.value) else {
            return nil
        }
        self = binding
    }
}
