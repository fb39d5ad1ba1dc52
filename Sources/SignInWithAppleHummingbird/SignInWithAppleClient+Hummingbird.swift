import AppleIDProtocol
import Hummingbird
import SignInWithApple

extension SignInWithAppleClient {
    /// Starts a sign-in for the browser of `request`, bound to a new ``BrowserBinding`` (never the
    /// cookie the browser brings, which someone else may have planted): the 303 to Apple, with the
    /// binding's cookie set, and the pending authorization, whose `state` is the key under which to
    /// keep what the sign-in is for. Call it from your own CSRF-checked POST, or let
    /// ``SignInWithAppleRoutes`` add a GET for it.
    public func start(for request: Request, scopes: [Scope]? = nil) async throws -> (response: Response, pending: PendingAuthorization) {
        let browser = BrowserBinding.random()
        let pending = try await startSignIn(scopes: scopes, browser: browser)
        var response = Self.redirect(to: pending.url)
        response.setCookie(browserCookie(browser))
        return (response, pending)
    }

    /// Starts a sign-in that Sign in with Apple JS runs in the page you are rendering for `request`,
    /// bound to a new ``BrowserBinding``: put ``ScriptSignIn/initOptionsJSON`` into the page's
    /// `AppleID.auth.init` call, and set `cookie` on the page's response. In popup mode, post the
    /// script's authorization to ``SignInWithAppleRoutes``' popup route.
    ///
    /// Every call keeps a started sign-in until it expires: call it when the person asks to sign in
    /// (a CSRF-checked POST from your button), not for every view of a page.
    public func startScript(
        for request: Request, scopes: [Scope]? = nil, usePopup: Bool = true, locale: String = "en_US"
    ) async throws -> (script: ScriptSignIn, cookie: Cookie) {
        let browser = BrowserBinding.random()
        let script = try await startScriptSignIn(scopes: scopes, usePopup: usePopup, locale: locale, browser: browser)
        return (script, browserCookie(browser))
    }

    /// The cookie that gives `browser` to the browser: ``browserCookieName``, `HttpOnly`, `SameSite=Lax`,
    /// `Path=/`, `Secure` unless the redirect URI is plain http.
    public func browserCookie(_ browser: BrowserBinding) -> Cookie {
        Cookie(name: browserCookieName, value: browser.secret, path: "/", secure: browserCookieIsSecure, httpOnly: true, sameSite: .lax)
    }

    /// The binding `request`'s cookie presents, if any.
    public func browser(of request: Request) -> BrowserBinding? {
        request.cookies[browserCookieName].flatMap { try? BrowserBinding(secret: $0.value) }
    }

    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}
