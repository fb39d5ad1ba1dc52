/// Each Apple ID's device keychain: the passwords saved for websites, offered in the native
/// existing-credential flow. One password per account, domain and user name.
public protocol KeychainStore: Sendable {
    /// The account's saved passwords, oldest first (then by domain and user name).
    func keychainPasswords(accountID: String) async throws -> [KeychainPassword]
    /// Inserts, or replaces the password saved for the same account, domain and user name.
    func save(_ password: KeychainPassword) async throws
    /// Removes the password saved for the domain and user name; false when there was none.
    @discardableResult
    func deleteKeychainPassword(accountID: String, domain: String, user: String) async throws -> Bool
}
