import Foundation

/// Checks the password of a Managed Apple ID at sign-in, in place of the server's own check: "the
/// password step can be handed to an outside IdP through a pluggable hook" (spec §21). What follows
/// (the verification code, consent) is the same whoever checked the password.
public protocol ManagedSignInAuthenticator: Sendable {
    func checkPassword(_ password: String, of account: AppleIDAccount, in organization: Organization) async -> ManagedPasswordVerdict
}

/// What an organization's sign-in said about a password.
public enum ManagedPasswordVerdict: Sendable, Hashable {
    case accepted
    case refused
    /// Nothing was decided (the outside IdP failed or did not answer in time): the sign-in fails
    /// closed, and the attempt does not count against the Apple ID.
    case unavailable
}

/// The default: the password the server keeps for the account, as for any Apple ID.
public struct StoredPasswordAuthenticator: ManagedSignInAuthenticator {
    public init() {}

    public func checkPassword(_ password: String, of account: AppleIDAccount, in organization: Organization) async -> ManagedPasswordVerdict {
        await Credentials.verifyPassword(password, hash: account.passwordHash) ? .accepted : .refused
    }
}

/// The organization's sign-in could not check the password (``ManagedPasswordVerdict/unavailable``).
public struct ManagedSignInUnavailable: Error, Sendable, Hashable {
    /// What the sign-in pages say (the pages translate it).
    public static let message = "Your organization could not check your password. Try again later."
}
