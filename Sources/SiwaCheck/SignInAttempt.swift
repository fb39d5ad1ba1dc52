import AppleIDProtocol
import Foundation

/// One sign-in as a browser makes it: the app's start, its redirect to /auth/authorize (read,
/// not followed: the check approves through the admin API), then the callback to the Return URL.
struct SignInAttempt: Sendable {
    let browser: SimulatedBrowser
    /// The query the app sent to `/auth/authorize`.
    let request: [String: String]

    var state: String? { request["state"] }
    var nonce: String? { request["nonce"] }
    var clientID: String { request["client_id"] ?? "" }
    var redirectURI: String { request["redirect_uri"] ?? "" }
    var usesFormPost: Bool { request["response_mode"] == "form_post" }

    struct NoAuthorizeRedirect: Error, CustomStringConvertible {
        var page: SimulatedBrowser.Page
        var description: String {
            "the start page did not redirect to /auth/authorize (answered \(page.status) at \(page.url))"
        }
    }

    /// Opens the app's start URL in `browser` and follows it up to the server's /auth/authorize.
    static func start(in browser: SimulatedBrowser, options: CheckOptions) async throws -> SignInAttempt {
        let server = SimulatedBrowser.origin(options.server)
        var authorize: URL?
        let stopAtAuthorize: (URL) -> Bool = { next in
            if SimulatedBrowser.origin(next.absoluteString) == server, next.path.hasSuffix("/auth/authorize") {
                authorize = next
                return false
            }
            return true
        }
        var page = try await browser.get(options.start, follow: stopAtAuthorize)
        // A start page whose sign-in is a (CSRF-checked) form POST: submitted as the user would.
        if authorize == nil, (200..<300).contains(page.status) {
            for form in StartForm.forms(in: page.body) where authorize == nil {
                guard let action = form.url(onPage: page.url) else { continue }
                page = try await browser.postForm(action.absoluteString, fields: form.fields, crossSite: false, follow: stopAtAuthorize)
            }
        }
        // A page whose sign-in is Sign in with Apple JS: the request its script would send.
        if authorize == nil, (200..<300).contains(page.status), let scripted = try JSSignInPage.authorizeRequest(in: page.body) {
            return SignInAttempt(browser: browser, request: scripted)
        }
        // Read as the server reads it (`+` is a space: Python's urlencode writes `code+id_token`).
        guard let authorize, let query = URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.percentEncodedQuery,
            let request = try? FormFields.parse(query)
        else {
            throw NoAuthorizeRedirect(page: page)
        }
        return SignInAttempt(browser: browser, request: request)
    }

    /// Delivers `parameters` to the Return URL as the server's page would: a cross-site form POST
    /// for `form_post`, else a GET with the query.
    func callback(_ parameters: [(String, String)], in target: SimulatedBrowser? = nil, timeout: Double? = nil) async throws -> SimulatedBrowser.Page
    {
        let browser = target ?? self.browser
        let limit = timeout.map { TimeAmountSeconds.amount($0) }
        if usesFormPost { return try await browser.postForm(redirectURI, fields: parameters, timeout: limit) }
        var components = URLComponents(string: redirectURI)
        let existing = components?.queryItems ?? []
        components?.queryItems = existing + parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        return try await browser.get(components?.url?.absoluteString ?? redirectURI, timeout: limit)
    }
}
