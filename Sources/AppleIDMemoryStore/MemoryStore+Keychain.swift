import AppleIDProvider

extension MemoryStore: KeychainStore {
    static func keychainKey(_ accountID: String, _ domain: String, _ user: String) -> String { pair(pair(accountID, domain), user) }

    public func keychainPasswords(accountID: String) async throws -> [KeychainPassword] {
        state.withLock { state in
            state.keychain.values.filter { $0.accountID == accountID }.sorted { ($0.savedAt, $0.domain, $0.user) < ($1.savedAt, $1.domain, $1.user) }
        }
    }

    public func save(_ password: KeychainPassword) async throws {
        state.withLock { $0.keychain[Self.keychainKey(password.accountID, password.domain, password.user)] = password }
    }

    public func deleteKeychainPassword(accountID: String, domain: String, user: String) async throws -> Bool {
        state.withLock { $0.keychain.removeValue(forKey: Self.keychainKey(accountID, domain, user)) != nil }
    }
}
