import Hummingbird

/// The request context of Juice's routes: the signed-in account, if any, and the browser token that
/// CSRF tokens are bound to.
public struct JuiceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``SessionMiddleware`` for a live session.
    var account: Account?
    var sessionToken: String?
    /// The `juice_browser` cookie; new when the request carried none.
    var browserToken = ""
    var browserTokenIsNew = true

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 64 * 1024 }

    /// The CSRF token of this browser (``FormTokens``): an HMAC of its cookie under Juice's secret, so
    /// a form that carries it was rendered by Juice for this browser, even if someone else planted
    /// the cookie. Set by ``SessionMiddleware``.
    var csrfToken = ""
}
