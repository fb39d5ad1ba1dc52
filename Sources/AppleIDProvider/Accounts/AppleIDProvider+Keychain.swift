import Foundation

/// Each Apple ID's device keychain: passwords saved for websites, which the native
/// existing-credential flow offers to apps associated with their domains.
extension AppleIDProvider {
    /// Saves a password for `domain` in the Apple ID's keychain (replacing the one saved for the same
    /// user name there); nil for an unknown or deleted Apple ID.
    public func saveKeychainPassword(user: String, password: String, domain: String, appleID: String) async throws -> KeychainPassword? {
        guard let account = try await store.activeAccount(appleID: appleID) else { return nil }
        let domain = try DomainName.check(domain)
        let user = user.trimmingCharacters(in: .whitespaces)
        guard !user.isEmpty else { throw ConsoleError.invalid("Enter the user name the password belongs to.") }
        guard !password.isEmpty else { throw ConsoleError.invalid("Enter a password.") }
        let saved = KeychainPassword(accountID: account.id, domain: domain, user: user, password: password, savedAt: clock.now())
        try await store.save(saved)
        return saved
    }

    /// The Apple ID's saved passwords, oldest first; nil for an unknown or deleted Apple ID.
    public func keychainPasswords(appleID: String) async throws -> [KeychainPassword]? {
        guard let account = try await store.activeAccount(appleID: appleID) else { return nil }
        return try await store.keychainPasswords(accountID: account.id)
    }

    /// Removes the password saved for `user` at `domain`: false when there is none, nil for an
    /// unknown or deleted Apple ID.
    public func removeKeychainPassword(user: String, domain: String, appleID: String) async throws -> Bool? {
        guard let account = try await store.activeAccount(appleID: appleID) else { return nil }
        return try await store.deleteKeychainPassword(
            accountID: account.id, domain: domain.trimmingCharacters(in: .whitespaces).lowercased(), user: user.trimmingCharacters(in: .whitespaces))
    }
}
