import AppleIDProtocol
import Foundation
import Hummingbird
import SignInWithApple

/// Sign in with Apple on a Hummingbird router, bound to the browser that starts it.
///
/// - The start (a GET route, or ``start(_:scopes:)`` from your own CSRF-checked POST) sets a new
///   ``BrowserBinding`` cookie (`HttpOnly`, `SameSite=Lax`, `__Host-` on https) and redirects to Apple.
/// - The `form_post` callback, a cross-site POST without that cookie, verifies and exchanges, parks
///   the result for one short-lived, single-use completion and redirects (303) to the completion route.
/// - The completion, a same-site GET that carries the cookie, calls `onSignIn` only in the browser
///   that started the sign-in. A callback replayed in someone else's browser signs nobody in.
///
/// ```swift
/// SignInWithAppleRoutes<BasicRequestContext>(
///     client: siwa,
///     onSignIn: { result, request, context in
///         let account = try await accounts.signIn(
///             subject: result.identity.subject, email: result.identity.email, name: result.profile?.name, grant: result.grant)
///         return try sessions.start(for: account, redirectTo: "/")
///     },
///     onNotification: { notification, context in try await accounts.apply(notification) }
/// ).register(on: router)
/// ```
public struct SignInWithAppleRoutes<Context: RequestContext>: Sendable {
    public typealias SignInHandler = @Sendable (SignInResult, Request, Context) async throws -> Response
    public typealias FailureHandler = @Sendable (any Error, Request, Context) async throws -> Response
    public typealias NotificationHandler = @Sendable (AppleNotification, Context) async throws -> Void

    public let client: SignInWithAppleClient
    public let onSignIn: SignInHandler
    public let onFailure: FailureHandler
    public let onNotification: NotificationHandler?
    /// The callback and notification bodies are small; larger ones are refused unread.
    public let maximumBodySize: Int
    /// Where the completion route is (the callback redirects there).
    public private(set) var completionPath = "/auth/apple/complete"

    public init(
        client: SignInWithAppleClient, maximumBodySize: Int = 64 * 1024, onSignIn: @escaping SignInHandler,
        onFailure: @escaping FailureHandler = Self.plainFailure, onNotification: NotificationHandler? = nil
    ) {
        self.client = client
        self.maximumBodySize = maximumBodySize
        self.onSignIn = onSignIn
        self.onFailure = onFailure
        self.onNotification = onNotification
    }

    /// Adds the routes to `router`.
    ///
    /// - Parameters:
    ///   - start: The GET route that redirects to Apple, or `nil` to add none (start with
    ///     ``start(_:scopes:)`` from your own route instead).
    ///   - callback: The `form_post` callback, the Return URL registered with Apple.
    ///   - completion: The same-site GET the callback sends the browser to.
    ///   - popup: The POST your page sends Sign in with Apple JS's popup result to (form fields
    ///     `code`, `id_token`, `state`, `user`), completed only for the browser that started it; `nil`
    ///     to add none. See ``SignInWithAppleClient/startScript(for:scopes:usePopup:locale:)``.
    ///   - notifications: The server-to-server notification endpoint (added only with `onNotification`).
    public func register(
        on router: Router<Context>, start: RouterPath? = "/auth/apple", callback: RouterPath = "/auth/apple/callback",
        completion: String = "/auth/apple/complete", popup: RouterPath? = "/auth/apple/popup",
        notifications: RouterPath = "/auth/apple/notifications"
    ) {
        let routes = {
            var routes = self
            routes.completionPath = completion
            return routes
        }()
        if let start {
            router.get(start) { request, context in
                do {
                    return try await routes.start(request).response
                } catch {
                    return try await routes.onFailure(error, request, context)
                }
            }
        }
        router.post(callback) { request, context in
            do {
                let body = try await request.body.collect(upTo: routes.maximumBodySize)
                let token = try await routes.client.acceptCallback(formBody: Array(buffer: body))
                return SignInWithAppleClient.redirect(to: routes.completionPath + "?token=" + token)
            } catch {
                return try await routes.onFailure(error, request, context)
            }
        }
        router.get(RouterPath(completion)) { request, context in
            do {
                let result = try await routes.client.finishSignIn(
                    completionToken: request.uri.queryParameters.get("token") ?? "", browser: routes.client.browser(of: request))
                return try await routes.onSignIn(result, request, context)
            } catch {
                return try await routes.onFailure(error, request, context)
            }
        }
        if let popup {
            router.post(popup) { request, context in
                do {
                    let body = try await request.body.collect(upTo: routes.maximumBodySize)
                    let callback = try AuthorizationCallback(formEncoded: String(buffer: body))
                    let result = try await routes.client.completeSignIn(callback, browser: routes.client.browser(of: request))
                    return try await routes.onSignIn(result, request, context)
                } catch {
                    return try await routes.onFailure(error, request, context)
                }
            }
        }
        if let onNotification = routes.onNotification {
            router.post(notifications) { request, context in
                let received: ReceivedNotification
                do {
                    let body = try await request.body.collect(upTo: routes.maximumBodySize)
                    received = try await routes.client.receiveNotification(body: Array(buffer: body))
                } catch {
                    context.logger.notice("Sign in with Apple notification refused", metadata: ["reason": "\(error)"])
                    return Response(status: .badRequest)
                }
                guard case .new(let notification) = received else { return Response(status: .ok) }
                do {
                    try await onNotification(notification, context)
                } catch {
                    try? await routes.client.forget(notification)  // Apple's retry is then applied
                    throw error
                }
                return Response(status: .ok)
            }
        }
    }

    /// Starts a sign-in for the browser of `request`: see ``SignInWithAppleClient/start(for:scopes:)``.
    public func start(_ request: Request, scopes: [Scope]? = nil) async throws -> (response: Response, pending: PendingAuthorization) {
        try await client.start(for: request, scopes: scopes)
    }

    /// A plain-text 400 that says what happened in words a user can act on, never a stack trace.
    public static func plainFailure(_ error: any Error, _ request: Request, _ context: Context) async throws -> Response {
        context.logger.notice("Sign in with Apple failed", metadata: ["reason": "\(error)"])
        let message: String
        switch error {
        case let callback as CallbackError where callback.isCancellation: message = "Sign in with Apple was cancelled."
        case CallbackError.unknownState, CallbackError.unknownCompletion:
            message = "This sign-in has expired or was already completed. Please start again."
        case CallbackError.otherBrowser: message = "This sign-in was started in another browser. Please start again here."
        default: message = "Sign in with Apple did not complete. Please try again."
        }
        return Response(
            status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message)))
    }
}
