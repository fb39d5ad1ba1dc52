import Foundation

extension AppleIDProvider {
    /// The organization `id`, whose access rule the engine applies at sign-in; nil when there is none.
    public func organization(id: UUID) async throws -> Organization? { try await store.organization(id: id) }

    /// Saves a Managed Apple ID its organization changed (`AppleIDOrganizations`: name, password,
    /// e-mail, deactivation); after a new password, its failed sign-in attempts are forgotten.
    package func saveManagedAccount(_ account: AppleIDAccount, clearingSignInAttempts: Bool = false) async throws {
        precondition(account.managed != nil, "only an organization's account is saved here")
        try await store.save(account, clearingSignInAttempts: clearingSignInAttempts)
    }
}
