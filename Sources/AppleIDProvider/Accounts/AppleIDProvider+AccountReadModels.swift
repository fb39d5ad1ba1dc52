import AppleIDProtocol
import Foundation

/// A change to an Apple ID made by the operator (the admin API): each field given replaces the stored one.
public struct AccountChange: Sendable, Hashable {
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var realUserStatus: RealUserStatus?
    public var twoFactorEnabled: Bool?
    public var additionalEmails: [String]?
    /// A new password, hashed by the engine; it also lifts a lock from failed sign-in attempts.
    public var password: String?

    public init(
        firstName: String? = nil, lastName: String? = nil, email: String? = nil, realUserStatus: RealUserStatus? = nil,
        twoFactorEnabled: Bool? = nil, additionalEmails: [String]? = nil, password: String? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.realUserStatus = realUserStatus
        self.twoFactorEnabled = twoFactorEnabled
        self.additionalEmails = additionalEmails
        self.password = password
    }
}

extension AppleIDProvider {
    /// The Apple ID with this login, unless it was deleted (a deleted Apple ID is unknown).
    public func activeAccount(appleID: String) async throws -> AppleIDAccount? {
        try await store.activeAccount(appleID: appleID)
    }

    /// What the account page shows: the apps using the Apple ID and its relay addresses, in a fixed
    /// number of store statements however many apps there are.
    public func accountOverview(accountID: String) async throws -> AccountOverview {
        try await store.accountOverview(accountID: accountID)
    }

    /// Every Apple ID (deleted ones too, marked) with its `sub` in each team, for the admin API.
    public func accountListings() async throws -> [AccountListing] {
        try await store.accountListings()
    }

    /// Applies the operator's `change` to the Apple ID; `nil` when there is none (or it was deleted).
    /// A new password is hashed here and, in the same transaction, lifts a lock from failed attempts:
    /// the operator who resets a password means the user to sign in with it now.
    public func updateAccount(appleID: String, _ change: AccountChange) async throws -> AppleIDAccount? {
        guard let account = try await store.activeAccount(appleID: appleID) else { return nil }
        let changed = await applying(change, to: account)
        try await store.save(changed, clearingSignInAttempts: change.password != nil)
        return changed
    }

    /// `account` with the fields of `change` that are set (a password hashed).
    package func applying(_ change: AccountChange, to account: AppleIDAccount) async -> AppleIDAccount {
        var account = account
        if let firstName = change.firstName { account.firstName = firstName }
        if let lastName = change.lastName { account.lastName = lastName }
        if let email = change.email { account.email = email }
        if let status = change.realUserStatus { account.realUserStatus = status }
        if let twoFactor = change.twoFactorEnabled { account.twoFactorEnabled = twoFactor }
        if let addresses = change.additionalEmails { account.additionalEmails = addresses }
        if let password = change.password {
            account.passwordHash = await hashPassword(password)
        }
        return account
    }
}
