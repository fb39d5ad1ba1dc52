import AppleIDProtocol
import AppleIDProvider
import Foundation

extension Organizations {
    /// Creates a Managed Apple ID. The username may be a non-mailbox address
    /// (`jappleseed@appleid.myschool.edu`); the organization e-mail is optional (spec §21 item 4).
    /// Both lie under the organization's verified domains.
    public func addAccount(
        to id: UUID, username: String, password: String, firstName: String, lastName: String, email: String? = nil,
        twoFactorEnabled: Bool = true, totpSecret: String? = nil
    ) async throws -> AppleIDAccount {
        let organization = try await organization(id: id)
        try Self.checkAddress(username, of: organization)
        if let email { try Self.checkAddress(email, of: organization) }
        return try await provider.createAccount(
            appleID: username, password: password, firstName: firstName, lastName: lastName, email: email,
            twoFactorEnabled: twoFactorEnabled, managed: ManagedMembership(organizationID: id, organizationEmail: email), totpSecret: totpSecret)
    }

    /// Changes the name, password, two-factor or TOTP secret of a Managed Apple ID, deactivated or
    /// not; its e-mail is the organization's (``setEmail(_:accountID:)``).
    public func updateAccount(_ accountID: String, _ change: AccountChange, totpSecret: String? = nil) async throws -> AppleIDAccount {
        guard change.email == nil, change.realUserStatus == nil, change.additionalEmails == nil else {
            throw OrganizationError.invalid("an organization sets a Managed Apple ID's e-mail only (setEmail)")
        }
        var account = await provider.applying(change, to: try await managedAccount(accountID))
        if let totpSecret { account.totpSecret = totpSecret }
        try await provider.saveManagedAccount(account, clearingSignInAttempts: change.password != nil)
        return account
    }

    /// The organization's Managed Apple IDs, deleted ones included, oldest first.
    public func accounts(of id: UUID) async throws -> [AppleIDAccount] {
        _ = try await organization(id: id)
        return try await provider.organizationAdminStore.accounts(organizationID: id)
    }

    /// Changes (or removes) the organization e-mail. The account's `sub` stays (spec §21 item 8); the
    /// next authorization's id_token carries the new address.
    public func setEmail(_ email: String?, accountID: String) async throws -> AppleIDAccount {
        if let email, let organizationID = try await managedAccount(accountID).managed?.organizationID {
            try Self.checkAddress(email, of: try await organization(id: organizationID))
        }
        return try await changeAccount(accountID) { account in
            account.managed?.organizationEmail = email
            account.email = email ?? account.appleID
        }
    }

    /// A deactivated account cannot sign in (spec §21 item 10); its grants stay, as Apple's do until
    /// the account is deleted.
    public func setDeactivated(_ deactivated: Bool, accountID: String) async throws -> AppleIDAccount {
        try await changeAccount(accountID) { $0.managed?.isDeactivated = deactivated }
    }

    /// Deletes the Managed Apple ID as a user's own deletion does, `account-delete` included.
    /// Apple does not document what apps are told when an organization deletes an account (spec
    /// §21 item 10); the consumer event is the closest match and is what apps already handle.
    public func deleteAccount(accountID: String) async throws {
        _ = try await managedAccount(accountID)
        try await provider.lifecycle.deleteAccount(accountID: accountID)
    }

    private func changeAccount(_ accountID: String, _ edit: (inout AppleIDAccount) -> Void) async throws -> AppleIDAccount {
        var account = try await managedAccount(accountID)
        edit(&account)
        try await provider.saveManagedAccount(account)
        return account
    }

    private func managedAccount(_ accountID: String) async throws -> AppleIDAccount {
        guard let account = try await provider.account(id: accountID) else { throw LifecycleError.unknownAccount(accountID) }
        guard account.managed != nil else { throw OrganizationError.notManaged(accountID) }
        return account
    }
}
