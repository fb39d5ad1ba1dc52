import Foundation
import Hummingbird
import SignInWithApple

/// Everything Juice's routes share: the stores, the kit's client, the pages and cookies.
struct JuiceServices: Sendable {
    let accounts: AccountStore
    let sessions: SessionStore
    let intents: SignInIntentStore
    let links: LinkOfferStore
    let orders: OrderStore
    let passwords: PasswordHasher
    let siwa: SignInWithAppleClient
    let pages: Pages
    let cookies: JuiceCookies

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

    /// "Ask late": an action that needs an account sends the browser to sign-in, then back.
    static func signInFirst(next: String) -> Response {
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "next", value: next)]
        return redirect(to: "/signin" + (query.percentEncodedQuery.map { "?" + $0 } ?? ""))
    }

    /// Redirects to Apple to sign in for `intent`, kept under the kit's state.
    func startAppleSignIn(_ intent: SignInIntent) async throws -> Response {
        let pending = try await siwa.startSignIn()
        try await intents.save(intent, state: pending.state)
        return Self.redirect(to: pending.url)
    }
}
