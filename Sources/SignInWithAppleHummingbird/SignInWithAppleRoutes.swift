import Hummingbird
import SignInWithApple

/// Sign in with Apple on a Hummingbird router: a route that starts sign-in (redirect to Apple; optional), the
/// `form_post` callback, and the server-to-server notification endpoint.
///
/// The callback is a cross-site POST from Apple's page, so it carries no cookie and no CSRF token
/// of yours: the single-use `state` kept by the kit is what ties it to the sign-in you started.
///
/// ```swift
/// SignInWithAppleRoutes<BasicRequestContext>(
///     client: siwa,
///     onSignIn: { result, request, context in
///         let account = try await accounts.signIn(subject: result.identity.subject, firstAuthorization: result.user)
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
    ///   - start: The GET route that redirects to Apple with a new `state`, or `nil` to add none. Pass
    ///     `nil` when the app starts sign-in itself (``SignInWithAppleClient/startSignIn(scopes:)`` behind a
    ///     CSRF-protected POST, for instance, to tie the `state` to the browser): a GET anyone can
    ///     link to would let another site start a sign-in in the user's browser.
    ///   - callback: The `form_post` callback, the redirect URI registered with Apple.
    ///   - notifications: The server-to-server notification endpoint (added only with `onNotification`).
    public func register(
        on router: Router<Context>, start: RouterPath? = "/auth/apple", callback: RouterPath = "/auth/apple/callback",
        notifications: RouterPath = "/auth/apple/notifications"
    ) {
        if let start {
            router.get(start) { request, context in
                do {
                    let pending = try await client.startSignIn()
                    return Response(status: .seeOther, headers: [.location: pending.url, .cacheControl: "no-store"])
                } catch {
                    return try await onFailure(error, request, context)
                }
            }
        }
        router.post(callback) { request, context in
            do {
                let body = try await request.body.collect(upTo: maximumBodySize)
                let result = try await client.completeSignIn(formBody: Array(buffer: body))
                return try await onSignIn(result, request, context)
            } catch {
                return try await onFailure(error, request, context)
            }
        }
        if let onNotification {
            router.post(notifications) { request, context in
                let notification: AppleNotification
                do {
                    let body = try await request.body.collect(upTo: maximumBodySize)
                    notification = try await client.verifyNotification(body: Array(buffer: body))
                } catch {
                    context.logger.notice("Sign in with Apple notification refused", metadata: ["reason": "\(error)"])
                    return Response(status: .badRequest)
                }
                try await onNotification(notification, context)
                return Response(status: .ok)
            }
        }
    }

    /// A plain-text 400 that says what happened in words a user can act on, never a stack trace.
    public static func plainFailure(_ error: any Error, _ request: Request, _ context: Context) async throws -> Response {
        context.logger.notice("Sign in with Apple failed", metadata: ["reason": "\(error)"])
        let message: String
        switch error {
        case let callback as CallbackError where callback.isCancellation: message = "Sign in with Apple was cancelled."
        case CallbackError.unknownState: message = "This sign-in has expired or was already completed. Please start again."
        default: message = "Sign in with Apple did not complete. Please try again."
        }
        return Response(
            status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message)))
    }
}
