import AppleIDProtocol
import Hummingbird
import SignInWithApple

extension SignInWithAppleClient {
    /// Starts a sign-in for the browser of `request` (its ``BrowserBinding`` cookie, or a new one):
    /// the 303 to Apple, with the cookie set, and the pending authorization, whose `state` is the key
    /// under which to keep what the sign-in is for. Call it from your own CSRF-checked POST, or let
    /// ``SignInWithAppleRoutes`` add a GET for it.
    public func start(for request: Request, scopes: [Scope]? = nil) async throws -> (response: Response, pending: PendingAuthorization) {
        let (browser, cookie) = browserBinding(of: request)
        let pending = try await startSignIn(scopes: scopes, browser: browser)
        var response = Self.redirect(to: pending.url)
        if let cookie { response.setCookie(cookie) }
        return (response, pending)
    }

    /// Starts a sign-in that Sign in with Apple JS runs in the page you are rendering for `request`:
    /// put ``ScriptSignIn/initOptionsJSON`` into the page's `AppleID.auth.init` call, and set
    /// `cookie` (when there is one: the browser had no binding yet) on the page's response. In popup
    /// mode, post the script's authorization to ``SignInWithAppleRoutes``' popup route.
    public func startScript(
        for request: Request, scopes: [Scope]? = nil, usePopup: Bool = true, locale: String = "en_US"
    ) async throws -> (script: ScriptSignIn, cookie: Cookie?) {
        let (browser, cookie) = browserBinding(of: request)
        let script = try await startScriptSignIn(scopes: scopes, usePopup: usePopup, locale: locale, browser: browser)
        return (script, cookie)
    }

    /// The binding of `request`'s browser, or a new one with the cookie that sets it.
    private func browserBinding(of request: Request) -> (BrowserBinding, Cookie?) {
        if let existing = BrowserBinding(of: request) { return (existing, nil) }
        let browser = BrowserBinding.random()
        let secure = browserCookieIsSecure
        return (browser, Cookie(name: BrowserBinding.cookieName, value: browser.secret, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
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
