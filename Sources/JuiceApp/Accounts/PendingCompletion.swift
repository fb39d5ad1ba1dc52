import Foundation
import SignInWithApple

/// A verified Sign in with Apple waiting for the browser that started it.
///
/// Apple's `form_post` callback is a cross-site POST: with the real Apple it carries none of
/// Juice's SameSite=Lax cookies, so it cannot tell whose browser it runs in. It only verifies the
/// result and keeps it here, under the hash of a one-time token, and sends the browser on to
/// `GET /auth/apple/complete?token=…`, a top-level navigation that does carry Juice's cookies. Only
/// there, once the browser's hash matches the intent's, does the sign-in change anything: an
/// attacker cannot finish their own sign-in in someone else's browser (login CSRF), nor attach
/// someone's Apple ID to their own account (link CSRF).
///
/// The record keeps the first authorization's name and e-mail, which Apple never sends again, until
/// it expires: a completion that never happens loses them, and the next sign-in asks for the name.
struct PendingCompletion: Sendable, Hashable {
    struct Name: Sendable, Hashable {
        var firstName: String
        var lastName: String
    }

    var intent: SignInIntent
    var appleSubject: String
    /// The identity token's e-mail, else the first authorization's; empty when Apple sent none.
    var email: String
    var emailVerified: Bool
    var emailIsPrivate: Bool
    /// The first authorization's name (Apple's `user` JSON); `nil` on later sign-ins.
    var name: Name?
    /// Stored with the account (sealed, like `accounts.apple_refresh_token`) to revoke it later.
    var refreshToken: String?
}

extension PendingCompletion {
    init(_ result: SignInResult, intent: SignInIntent) {
        self.init(
            intent: intent, appleSubject: result.identity.subject, email: result.identity.email ?? result.user?.email ?? "",
            emailVerified: result.identity.emailVerified ?? false, emailIsPrivate: result.identity.isPrivateEmail,
            name: result.user?.name.map { Name(firstName: $0.firstName, lastName: $0.lastName) }, refreshToken: result.tokens.refreshToken)
    }

    var firstName: String { name?.firstName ?? "" }
    var lastName: String { name?.lastName ?? "" }
}
