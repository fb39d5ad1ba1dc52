import Foundation
import Hummingbird
import SignInWithApple
import SignInWithAppleHummingbird

/// Everything Juice's routes share: the stores, the kit's client, the pages and cookies.
struct JuiceServices: Sendable {
    let accounts: AccountStore
    let sessions: SessionStore
    let intents: SignInIntentStore
    let links: LinkOfferStore
    let orders: OrderStore
    let passwords: PasswordHasher
    let passwordAttempts: PasswordAttemptThrottle
    let siwa: SignInWithAppleClient
    let pages: Pages
    let cookies: JuiceCookies
    /// Sends order confirmations, when Juice is configured to send mail.
    let orderMailer: OrderConfirmationMailer?

    /// Starts a session for `account` (ending the browser's previous one) and sends the browser on
    /// with a 303, so a reload never re-submits the form or the callback.
    func startSession(for account: Account, next: String, context: JuiceRequestContext) async throws -> Response {
        if let previous = context.sessionToken { try await sessions.end(token: previous) }
        let token = try await sessions.start(accountID: account.id)
        var response = Self.redirect(to: next)
        response.setCookie(cookies.session(token))
        return response
    }

    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// A 303 to the local `path` with `query`, percent-encoded.
    static func redirect(to path: String, query: [URLQueryItem]) -> Response {
        var components = URLComponents()
        components.path = path
        components.queryItems = query
        return redirect(to: components.string ?? path)
    }

    /// "Ask late": an action that needs an account sends the browser to sign-in, then back.
    static func signInFirst(next: String) -> Response {
        redirect(to: "/signin", query: [URLQueryItem(name: "next", value: next)])
    }

    /// Redirects to Apple to sign in for `purpose`, kept under the kit's state. The kit binds the
    /// sign-in to this browser (its cookie), so only this browser can complete it.
    func startAppleSignIn(
        _ purpose: SignInIntent.Purpose, accountID: String? = nil, next: String, request: Request
    ) async throws -> Response {
        let (response, pending) = try await siwa.start(for: request)
        try await intents.save(SignInIntent(purpose: purpose, accountID: accountID, next: next), state: pending.state)
        return response
    }
}
