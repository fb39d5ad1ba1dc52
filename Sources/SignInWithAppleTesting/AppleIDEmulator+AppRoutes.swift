import Foundation
import SignInWithApple

/// A sign-in through the app's own routes, as a browser made it: what the app answered at the end,
/// and the browser's cookies for the app (its session, for the next requests of the test).
public struct AppSignIn: Sendable {
    /// The app's answer to the last request: the completion (or where it redirected after it).
    public var response: AppResponse
    /// What Apple sent to the app's callback.
    public var callback: AuthorizationCallback
    /// The app's cookies the browser holds after the sign-in, by name.
    public var cookies: [String: String]

    /// The `Cookie` header that carries ``cookies`` on the test's next request to the app.
    public var cookieHeader: String { cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
}

extension AppleIDEmulator {
    /// Signs `appleID` in through the app's own routes, as a browser would: a GET of `start` (the
    /// app sets its browser cookie and redirects here), the approval, Apple's callback to the app
    /// (a cross-site `form_post` that carries only `SameSite=None` cookies, or a GET for
    /// `response_mode=query`), and the app's redirects after it with the browser's cookies, up to the
    /// first answer that is not a redirect. `send` sends one request to the app (a test client of
    /// Hummingbird or Vapor, or an HTTP client); it must not follow redirects.
    ///
    /// The callback goes to the path of the authorization's `redirect_uri`, whatever its host: the
    /// emulator's Services ID has `https://app.example.com/auth/apple/callback` as its Return URL
    /// (``redirectURI``); add the app's own with ``addReturnURL(_:)``.
    ///
    /// - Parameters:
    ///   - start: the app's route that starts a sign-in (GET).
    ///   - cookies: cookies the browser holds before (a session of the app, for a link to an account).
    public func signIn(
        throughApp send: @Sendable (AppRequest) async throws -> AppResponse, start: String = "/auth/apple", as appleID: String,
        choices: ConsentChoices? = nil, cookies: [String: String] = [:]
    ) async throws -> AppSignIn {
        var jar = BrowserCookieJar(cookies)
        var response = try await Self.browse(AppRequest(method: "GET", uri: start), context: .sameSite, jar: &jar, send: send)
        response = try await Self.followAppRedirects(from: response, context: .sameSite, jar: &jar, stopAt: baseURL, send: send)
        guard let location = response.redirectLocation, location.hasPrefix(baseURL + "/auth/authorize?") else {
            throw EmulatorError.appDidNotRedirectToAuthorization(status: response.status, location: response.header("Location"))
        }
        let callback = try await approve(authorizationURL: location, as: appleID, choices: choices)
        let parameters = URLComponents(string: location)?.queryItems ?? []
        let redirectURI = parameters.first { $0.name == "redirect_uri" }?.value ?? ""
        let path = Self.pathAndQuery(of: redirectURI)
        let callbackRequest: AppRequest
        let context: BrowserCookieJar.Context
        if parameters.first(where: { $0.name == "response_mode" })?.value == "form_post" {
            callbackRequest = AppRequest(
                method: "POST", uri: path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(callback.formBody.utf8))
            context = .crossSitePost
        } else {
            callbackRequest = AppRequest(method: "GET", uri: path + (path.contains("?") ? "&" : "?") + callback.formBody)
            context = .crossSiteNavigation
        }
        response = try await Self.browse(callbackRequest, context: context, jar: &jar, send: send)
        // Redirects after Apple's callback belong to a navigation that began on Apple's site.
        response = try await Self.followAppRedirects(from: response, context: .crossSiteNavigation, jar: &jar, stopAt: nil, send: send)
        return AppSignIn(response: response, callback: callback, cookies: jar.values)
    }

    /// Sends `request` with the cookies `context` allows and keeps what the answer sets.
    static func browse(
        _ request: AppRequest, context: BrowserCookieJar.Context, jar: inout BrowserCookieJar,
        send: @Sendable (AppRequest) async throws -> AppResponse
    ) async throws -> AppResponse {
        var request = request
        if let cookie = jar.header(for: context) { request.headers.append(("Cookie", cookie)) }
        let response = try await send(request)
        jar.update(from: response)
        return response
    }

    /// Follows the app's redirects (GET, at most ten), stopping at one that leaves for `stopAt`.
    static func followAppRedirects(
        from response: AppResponse, context: BrowserCookieJar.Context, jar: inout BrowserCookieJar, stopAt: String?,
        send: @Sendable (AppRequest) async throws -> AppResponse
    ) async throws -> AppResponse {
        var response = response
        var hops = 0
        while let location = response.redirectLocation, !(stopAt.map(location.hasPrefix) ?? false) {
            hops += 1
            guard hops <= 10 else { throw EmulatorError.tooManyRedirects(location: location) }
            response = try await browse(AppRequest(method: "GET", uri: pathAndQuery(of: location)), context: context, jar: &jar, send: send)
        }
        return response
    }

    /// `/path?query` of an absolute URL, or the reference itself when it is already a path.
    static func pathAndQuery(of reference: String) -> String {
        guard reference.contains("://"), let components = URLComponents(string: reference) else { return reference }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
