import Foundation

/// A Juice account: a password, Sign in with Apple, or both (after linking).
public struct Account: Sendable, Hashable, Decodable {
    public var id: String
    public var email: String
    public var emailVerified: Bool
    /// A Hide My Email relay address: Juice never asks for another one.
    public var emailIsPrivate: Bool
    /// Off after Apple's `email-disabled`: Juice does not mail the address until `email-enabled`.
    public var emailForwarding: Bool
    public var firstName: String
    public var lastName: String
    public var passwordHash: String?
    /// The Apple user's team-scoped `sub`, the key of a Sign in with Apple account.
    public var appleSubject: String?
    /// Kept to revoke the authorization when the account is deleted.
    public var appleRefreshToken: String?
    public var createdAt: Double

    public var hasPassword: Bool { passwordHash != nil }
    public var usesSignInWithApple: Bool { appleSubject != nil }
    public var displayName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// What a new account starts with. For Sign in with Apple, the first authorization's name and
/// e-mail, stored in the same statement that creates the account.
struct NewAccount: Sendable {
    var email: String
    var emailVerified: Bool
    var emailIsPrivate = false
    var firstName: String
    var lastName: String
    var passwordHash: String?
    var appleSubject: String?
    var appleRefreshToken: String?
}
