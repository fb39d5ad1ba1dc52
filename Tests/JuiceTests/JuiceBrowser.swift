import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleTesting
import Testing

/// A browser for Juice's router in tests: keeps cookies, reads CSRF tokens from pages, follows the
/// Sign in with Apple round trip with the emulator playing the user on Apple's side.
final class JuiceBrowser {
    let client: any TestClientProtocol
    let apple: AppleIDEmulator
    private(set) var cookies: [String: String] = [:]

    init(client: any TestClientProtocol, apple: AppleIDEmulator) {
        self.client = client
        self.apple = apple
    }

    @discardableResult
    func get(_ path: String) async throws -> TestResponse {
        try await send(path, method: .get, body: nil, withCookies: true)
    }

    /// Posts a form; `csrf` is taken from `page` (a page Juice rendered for this browser).
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)], csrfFrom page: TestResponse? = nil) async throws -> TestResponse {
        var all = fields
        if let page { all.append(("csrf", try Self.csrf(in: page))) }
        return try await send(path, method: .post, body: Self.formBody(all), withCookies: true)
    }

    /// Apple's `form_post`: a cross-site POST, so the browser sends none of Juice's SameSite=Lax cookies.
    /// Returns the callback's own answer (a 303 to the completion, or an error page).
    func deliverCallback(_ callback: AuthorizationCallback) async throws -> TestResponse {
        try await send("/auth/apple/callback", method: .post, body: callback.formBody, withCookies: false)
    }

    /// The callback, then the redirect to the completion it answers with, which the browser follows
    /// with its cookies (a top-level navigation). Returns the completion's answer.
    func postCallback(_ callback: AuthorizationCallback) async throws -> TestResponse {
        let answer = try await deliverCallback(callback)
        guard answer.status == .seeOther, let location = answer.headers[.location], location.hasPrefix("/auth/apple/complete?") else {
            return answer
        }
        return try await get(location)
    }

    /// Signs in at Apple from the sign-in page and delivers the callback, which changes nothing (it sets
    /// no cookie); returns the completion link it redirects to, not yet followed.
    func completionLink(as appleID: String) async throws -> String {
        let answer = try await deliverCallback(try await approveAtApple(from: try await get("/signin"), as: appleID))
        #expect(answer.status == .seeOther)
        #expect(answer.headers[values: .setCookie].isEmpty)
        let location = try #require(answer.headers[.location])
        #expect(location.hasPrefix("/auth/apple/complete?token="))
        return location
    }

    /// Presses a Sign in with Apple button of `page` (its form posts to `action`) and returns the
    /// callback Apple's page would submit after `appleID` signed in and chose `choices`.
    func approveAtApple(
        action: String = "/signin/apple", from page: TestResponse, as appleID: String, choices: ConsentChoices? = nil,
        next: String = "/account"
    ) async throws -> AuthorizationCallback {
        let start = try await post(action, [("next", next)], csrfFrom: page)
        #expect(start.status == .seeOther)
        let location = try #require(start.headers[.location])
        #expect(location.hasPrefix(apple.baseURL + "/auth/authorize?"))
        #expect(location.contains("scope=name%20email"))
        return try await apple.approve(authorizationURL: location, as: appleID, choices: choices)
    }

    /// The whole round trip from the sign-in page; returns the page the callback redirected to.
    func signInWithApple(as appleID: String, choices: ConsentChoices? = nil) async throws -> (callback: TestResponse, page: TestResponse) {
        let callback = try await postCallback(try await approveAtApple(from: try await get("/signin"), as: appleID, choices: choices))
        #expect(callback.status == .seeOther)
        let page = try await get(try #require(callback.headers[.location]))
        return (callback, page)
    }

    /// What the sign-in `page`'s script does when the button is pressed: posts the page's CSRF token and
    /// `next` to `/signin/apple/script`, and reads Sign in with Apple JS's configuration from the answer.
    func startPopup(from page: TestResponse) async throws -> (response: TestResponse, script: ScriptSignIn) {
        let next = try #require(Self.hiddenValue("next", in: page))
        let response = try await post("/signin/apple/script", [("next", next)], csrfFrom: page)
        #expect(response.status == .ok)
        return (response, try ScriptSignIn(initOptionsJSON: response.text))
    }

    /// Sign in with Apple JS's popup, started from the sign-in `page` as its button does: the
    /// authorization URL the script opens, approved by `appleID` at Apple. Returns the authorization
    /// the script hands to the page.
    func approveInPopup(from page: TestResponse, as appleID: String, choices: ConsentChoices? = nil) async throws -> AuthorizationCallback {
        let (_, script) = try await startPopup(from: page)
        #expect(script.usePopup)
        return try await apple.approve(script, as: appleID, choices: choices)
    }

    /// What the sign-in page's script does with the popup's authorization: a same-origin form POST,
    /// so the browser sends its cookies.
    func postPopupResult(_ callback: AuthorizationCallback) async throws -> TestResponse {
        try await send("/auth/apple/popup", method: .post, body: callback.formBody, withCookies: true)
    }

    /// The value of the page's first hidden input named `name`.
    static func hiddenValue(_ name: String, in page: TestResponse) -> String? {
        guard let start = page.text.range(of: "name=\"\(name)\" value=\"")?.upperBound else { return nil }
        return String(page.text[start...].prefix { $0 != "\"" })
    }

    func signUp(email: String, password: String, firstName: String, lastName: String) async throws -> TestResponse {
        let page = try await get("/signup")
        return try await post(
            "/signup", [("email", email), ("password", password), ("first_name", firstName), ("last_name", lastName), ("next", "/account")],
            csrfFrom: page)
    }

    func signIn(email: String, password: String) async throws -> TestResponse {
        let page = try await get("/signin")
        return try await post("/signin", [("email", email), ("password", password), ("next", "/account")], csrfFrom: page)
    }

    func forgetCookies() { cookies = [:] }

    /// A cookie another site put into this browser (a sibling subdomain, another port of 127.0.0.1).
    func plant(cookie name: String, value: String) { cookies[name] = value }

    private func send(_ path: String, method: HTTPRequest.Method, body: String?, withCookies: Bool) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if withCookies, !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if header.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair[1] }
        }
        return response
    }

    static func csrf(in page: TestResponse) throws -> String {
        let html = String(buffer: page.body)
        let marker = "name=\"csrf\" value=\""
        let start = try #require(html.range(of: marker)).upperBound
        return String(html[start...].prefix { $0 != "\"" })
    }

    /// The text of the page's error message (`<p class="error">`), if it shows one.
    static func message(in page: TestResponse) -> String? {
        let html = String(buffer: page.body)
        guard let start = html.range(of: "<p class=\"error\">")?.upperBound else { return nil }
        return String(html[start...].prefix { $0 != "<" })
    }

    static func formBody(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(.init(charactersIn: "-._~"))
        return fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
