import SignInWithApple
import Vapor

/// Sign in with Apple on a Vapor application: a route that starts sign-in (redirect to Apple), the
/// `form_post` callback, and the server-to-server notification endpoint.
///
/// The callback is a cross-site POST from Apple's page, so it carries no cookie and no CSRF token
/// of yours: the single-use `state` kept by the kit is what ties it to the sign-in you started.
/// Bodies are read by the routes themselves (not by Vapor's collecting body strategy) and refused
/// past ``maximumBodySize``; a declared `Content-Length` over the limit is refused unread.
///
/// ```swift
/// let siwa = try SignInWithAppleClient(configuration: configuration)
/// try app.register(collection: SignInWithAppleRouteCollection(
///     client: siwa,
///     onSignIn: { result, request in
///         let account = try await accounts.signIn(subject: result.identity.subject, firstAuthorization: result.user)
///         request.session.data["account"] = account.id
///         return request.redirect(to: "/", redirectType: .normal)
///     },
///     onNotification: { notification, request in try await accounts.apply(notification) }
/// ))
/// ```
///
/// This registers `GET /auth/apple`, `POST /auth/apple/callback` (the redirect URI's path) and, when
/// `onNotification` is given, `POST /auth/apple/notifications`; the paths can be changed.
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
    /// The notification endpoint registered with Apple (only routed when ``onNotification`` is set).
    public let notificationsPath: [PathComponent]

    /// - Parameters:
    ///   - client: the kit; its redirect URI's path must be `callback`.
    ///   - maximumBodySize: the largest callback or notification body read, in bytes (64 KiB).
    ///   - start: the path of a GET that starts sign-in, `auth/apple` by default (`"auth/apple".pathComponents`),
    ///     or `nil` to add none: pass `nil` when the app starts sign-in itself (behind a form with its own
    ///     CSRF protection, binding the `state` to the browser), since a GET anyone can link to lets
    ///     another site start a sign-in in the user's browser.
    ///   - callback: the redirect URI's path, `auth/apple/callback` by default.
    ///   - notifications: the notification endpoint's path, `auth/apple/notifications` by default.
    ///   - onSignIn: called with the verified identity, and the name and e-mail on the first authorization.
    ///   - onFailure: answers failures; ``plainFailure(_:_:)`` by default.
    ///   - onNotification: called with each verified notification; without it the endpoint is not routed.
    public init(
        client: SignInWithAppleClient, maximumBodySize: Int = 64 * 1024, start: [PathComponent]? = ["auth", "apple"],
        callback: [PathComponent] = ["auth", "apple", "callback"], notifications: [PathComponent] = ["auth", "apple", "notifications"],
        onSignIn: @escaping SignInHandler, onFailure: @escaping FailureHandler = Self.plainFailure,
        onNotification: NotificationHandler? = nil
    ) {
        precondition(maximumBodySize > 0 && maximumBodySize < Int.max, "maximumBodySize must be a positive, finite size")
        self.client = client
        self.maximumBodySize = maximumBodySize
        self.startPath = start
        self.callbackPath = callback
        self.notificationsPath = notifications
        self.onSignIn = onSignIn
        self.onFailure = onFailure
        self.onNotification = onNotification
    }

    public func boot(routes: any RoutesBuilder) throws {
        if let startPath {
            routes.on(.GET, startPath) { request async throws -> Response in
                do {
                    let pending = try await client.startSignIn()
                    var headers = HTTPHeaders()
                    headers.replaceOrAdd(name: .location, value: pending.url)
                    headers.replaceOrAdd(name: .cacheControl, value: "no-store")
                    return Response(status: .seeOther, headers: headers)
                } catch {
                    return try await onFailure(error, request)
                }
            }
        }
        routes.on(.POST, callbackPath, body: .stream) { request async throws -> Response in
            do {
                let body = try await collectBody(of: request)
                let result = try await client.completeSignIn(formBody: body)
                return try await onSignIn(result, request)
            } catch {
                return try await onFailure(error, request)
            }
        }
        if let onNotification {
            routes.on(.POST, notificationsPath, body: .stream) { request async throws -> Response in
                let notification: AppleNotification
                do {
                    notification = try await client.verifyNotification(body: try await collectBody(of: request))
                } catch {
                    request.logger.notice("Sign in with Apple notification refused", metadata: ["reason": "\(error)"])
                    return Response(status: .badRequest)
                }
                try await onNotification(notification, request)
                return Response(status: .ok)
            }
        }
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
        case CallbackError.unknownState: message = "This sign-in has expired or was already completed. Please start again."
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
