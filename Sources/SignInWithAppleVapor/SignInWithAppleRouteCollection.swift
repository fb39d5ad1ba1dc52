import AppleIDProtocol
import SignInWithApple
import Vapor

/// Sign in with Apple on a Vapor application, bound to the browser that starts it.
///
/// - The start (a GET route, or ``start(_:scopes:)`` from your own CSRF-checked POST) sets a new
///   ``BrowserBinding`` cookie (`HttpOnly`, `SameSite=Lax`, `__Host-` on https) and redirects to Apple.
/// - The `form_post` callback, a cross-site POST without that cookie, verifies and exchanges, parks
///   the result for one short-lived, single-use completion and redirects (303) to the completion route.
/// - The completion, a same-site GET that carries the cookie, calls `onSignIn` only in the browser
///   that started the sign-in: a callback replayed in someone else's browser signs nobody in.
///
/// Bodies are read by the routes themselves (not by Vapor's collecting body strategy) and refused
/// past ``maximumBodySize``; a declared `Content-Length` over the limit is refused unread.
///
/// ```swift
/// let siwa = try SignInWithAppleClient(configuration: configuration)
/// try app.register(collection: SignInWithAppleRouteCollection(
///     client: siwa,
///     onSignIn: { result, request in
///         let account = try await accounts.signIn(
///             subject: result.identity.subject, email: result.identity.email, name: result.profile?.name, grant: result.grant)
///         request.session.data["account"] = account.id
///         return request.redirect(to: "/", redirectType: .normal)
///     },
///     onNotification: { notification, request in try await accounts.apply(notification) }
/// ))
/// ```
///
/// This registers `GET /auth/apple`, `POST /auth/apple/callback` (the redirect URI's path),
/// `GET /auth/apple/complete`, `POST /auth/apple/popup` (Sign in with Apple JS's popup result) and, when `onNotification` is given, `POST /auth/apple/notifications`;
/// the paths can be changed.
public struct SignInWithAppleRouteCollection: RouteCollection, Sendable {
    /// Receives a completed, verified sign-in and answers the browser (typically: start a session, redirect).
    public typealias SignInHandler = @Sendable (SignInResult, Request) async throws -> Response
    /// Answers the browser when sign-in could not start or complete, or when ``onSignIn`` threw.
    public typealias FailureHandler = @Sendable (any Error, Request) async throws -> Response
    /// Receives a verified server-to-server notification; returning answers Apple 200.
    public typealias NotificationHandler = @Sendable (AppleNotification, Request) async throws -> Void

    public let client: SignInWithAppleClient
    public let onSignIn: SignInHandler
    public let onFailure: FailureHandler
    public let onNotification: NotificationHandler?
    /// The callback and notification bodies are small; larger ones are refused.
    public let maximumBodySize: Int
    /// The route that redirects the browser to Apple; `nil` when the app starts sign-in itself.
    public let startPath: [PathComponent]?
    /// The path of the configured redirect URI, where Apple's page posts the result.
    public let callbackPath: [PathComponent]
    /// The same-site GET the callback sends the browser to.
    public let completionPath: [PathComponent]
    /// The notification endpoint registered with Apple (only routed when ``onNotification`` is set).
    public let notificationsPath: [PathComponent]
    /// Where your page posts Sign in with Apple JS's popup result; `nil` when none is routed.
    public let popupPath: [PathComponent]?

    /// - Parameters:
    ///   - client: the kit; its redirect URI's path must be `callback`.
    ///   - maximumBodySize: the largest callback or notification body read, in bytes (64 KiB).
    ///   - start: the path of a GET that starts sign-in, `auth/apple` by default (`"auth/apple".pathComponents`),
    ///     or `nil` to add none and start with ``start(_:scopes:)`` from your own route.
    ///   - callback: the redirect URI's path, `auth/apple/callback` by default.
    ///   - completion: the completion's path, `auth/apple/complete` by default.
    ///   - notifications: the notification endpoint's path, `auth/apple/notifications` by default.
    ///   - popup: the POST your page sends Sign in with Apple JS's popup result to (form fields `code`,
    ///     `id_token`, `state`, `user`), `auth/apple/popup` by default, or `nil` for none. See
    ///     ``startScript(_:scopes:usePopup:locale:)``.
    ///   - onSignIn: called with the verified identity (and the name on the first authorization), in
    ///     the browser that started the sign-in.
    ///   - onFailure: answers failures; ``plainFailure(_:_:)`` by default.
    ///   - onNotification: called with each verified notification; without it the endpoint is not routed.
    public init(
        client: SignInWithAppleClient, maximumBodySize: Int = 64 * 1024, start: [PathComponent]? = ["auth", "apple"],
        callback: [PathComponent] = ["auth", "apple", "callback"], completion: [PathComponent] = ["auth", "apple", "complete"],
        notifications: [PathComponent] = ["auth", "apple", "notifications"], popup: [PathComponent]? = ["auth", "apple", "popup"],
        onSignIn: @escaping SignInHandler, onFailure: @escaping FailureHandler = Self.plainFailure,
        onNotification: NotificationHandler? = nil
    ) {
        precondition(maximumBodySize > 0 && maximumBodySize < Int.max, "maximumBodySize must be a positive, finite size")
        self.client = client
        self.maximumBodySize = maximumBodySize
        self.startPath = start
        self.callbackPath = callback
        self.completionPath = completion
        self.notificationsPath = notifications
        self.popupPath = popup
        self.onSignIn = onSignIn
        self.onFailure = onFailure
        self.onNotification = onNotification
    }

    public func boot(routes: any RoutesBuilder) throws {
        if let startPath {
            routes.on(.GET, startPath) { request async throws -> Response in
                do {
                    return try await start(request).response
                } catch {
                    return try await onFailure(error, request)
                }
            }
        }
        routes.on(.POST, callbackPath, body: .stream) { request async throws -> Response in
            do {
                let token = try await client.acceptCallback(formBody: try await collectBody(of: request))
                let location = "/" + completionPath.string + "?token=" + token
                return Self.redirect(to: location)
            } catch {
                return try await onFailure(error, request)
            }
        }
        routes.on(.GET, completionPath) { request async throws -> Response in
            do {
                let token = (try? request.query.get(String.self, at: "token")) ?? ""
                let result = try await client.finishSignIn(completionToken: token, browser: browser(of: request))
                return try await onSignIn(result, request)
            } catch {
                return try await onFailure(error, request)
            }
        }
        if let popupPath {
            routes.on(.POST, popupPath, body: .stream) { request async throws -> Response in
                do {
                    let body = try await collectBody(of: request)
                    let callback = try AuthorizationCallback(formEncoded: String(decoding: body, as: UTF8.self))
                    return try await onSignIn(try await client.completeSignIn(callback, browser: browser(of: request)), request)
                } catch {
                    return try await onFailure(error, request)
                }
            }
        }
        if let onNotification {
            routes.on(.POST, notificationsPath, body: .stream) { request async throws -> Response in
                let received: ReceivedNotification
                do {
                    received = try await client.receiveNotification(body: try await collectBody(of: request))
                } catch {
                    request.logger.notice("Sign in with Apple notification refused", metadata: ["reason": "\(error)"])
                    return Response(status: .badRequest)
                }
                guard case .new(let notification) = received else { return Response(status: .ok) }
                do {
                    try await onNotification(notification, request)
                } catch {
                    try? await client.forget(notification)  // Apple's retry is then applied
                    throw error
                }
                return Response(status: .ok)
            }
        }
    }

    /// Starts a sign-in for the browser of `request`, bound to a new ``BrowserBinding`` (never the
    /// cookie the browser brings, which someone else may have planted): the 303 to Apple, with the
    /// binding's cookie set, and the pending authorization (its `state` is the key under which to keep
    /// what the sign-in is for).
    public func start(_ request: Request, scopes: [Scope]? = nil) async throws -> (response: Response, pending: PendingAuthorization) {
        let browser = BrowserBinding.random()
        let pending = try await client.startSignIn(scopes: scopes, browser: browser)
        let response = Self.redirect(to: pending.url)
        response.cookies[client.browserCookieName] = browserCookie(browser)
        return (response, pending)
    }

    /// Starts a sign-in that Sign in with Apple JS runs in the page you are rendering for `request`,
    /// bound to a new ``BrowserBinding``: put ``ScriptSignIn/initOptionsJSON`` into the page's
    /// `AppleID.auth.init` call, and set `cookie` as `response.cookies[client.browserCookieName]`. In
    /// popup mode, post the script's authorization to ``popupPath``. Every call keeps a started sign-in
    /// until it expires: call it when the person asks to sign in, not for every view of a page.
    public func startScript(
        _ request: Request, scopes: [Scope]? = nil, usePopup: Bool = true, locale: String = "en_US"
    ) async throws -> (script: ScriptSignIn, cookie: HTTPCookies.Value) {
        let browser = BrowserBinding.random()
        let script = try await client.startScriptSignIn(scopes: scopes, usePopup: usePopup, locale: locale, browser: browser)
        return (script, browserCookie(browser))
    }

    /// The cookie value that gives `browser` to the browser, under ``SignInWithAppleClient/browserCookieName``.
    func browserCookie(_ browser: BrowserBinding) -> HTTPCookies.Value {
        HTTPCookies.Value(string: browser.secret, path: "/", isSecure: client.browserCookieIsSecure, isHTTPOnly: true, sameSite: .lax)
    }

    /// The binding the browser presented in its cookie, if any.
    public func browser(of request: Request) -> BrowserBinding? {
        request.cookies[client.browserCookieName].flatMap { try? BrowserBinding(secret: $0.string) }
    }

    static func redirect(to location: String) -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .location, value: location)
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return Response(status: .seeOther, headers: headers)
    }

    /// The whole body, at most ``maximumBodySize`` bytes, or `Abort(.payloadTooLarge)`.
    func collectBody(of request: Request) async throws -> [UInt8] {
        if let declared = request.headers.first(name: .contentLength).flatMap(Int.init), declared > maximumBodySize {
            throw Abort(.payloadTooLarge)
        }
        // Vapor's streaming collector refuses a body once it *reaches* `max`, so allow one byte more;
        // an already collected body is returned whatever its size, hence the second check.
        guard let buffer = try await request.body.collect(max: maximumBodySize + 1).get() else { return [] }
        guard buffer.readableBytes <= maximumBodySize else { throw Abort(.payloadTooLarge) }
        return Array(buffer.readableBytesView)
    }

    /// A plain-text answer that says what happened in words a user can act on, never a stack trace or
    /// an internal reason (those go to the request's logger): 400, or 413 for an oversized body.
    public static func plainFailure(_ error: any Error, _ request: Request) async throws -> Response {
        request.logger.notice("Sign in with Apple failed", metadata: ["reason": "\(error)"])
        var status = HTTPResponseStatus.badRequest
        let message: String
        switch error {
        case let callback as CallbackError where callback.isCancellation: message = "Sign in with Apple was cancelled."
        case CallbackError.unknownState, CallbackError.unknownCompletion:
            message = "This sign-in has expired or was already completed. Please start again."
        case CallbackError.otherBrowser: message = "This sign-in was started in another browser. Please start again here."
        case let abort as any AbortError where abort.status == .payloadTooLarge:
            status = .payloadTooLarge
            message = "Sign in with Apple did not complete. Please try again."
        default: message = "Sign in with Apple did not complete. Please try again."
        }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "text/plain; charset=utf-8")
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return Response(status: status, headers: headers, body: .init(string: message))
    }
}
