import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: KeychainStore {
    public func keychainPasswords(accountID: String) async throws -> [KeychainPassword] {
        try await db.select().column("*").from(KeychainPasswordRow.table)
            .where("account_id", .equal, accountID)
            .orderBy("saved_at").orderBy("domain").orderBy("user_name")
            .all(decoding: KeychainPasswordRow.self)
            .map { try $0.password(opening: sealer) }
    }

    public func save(_ password: KeychainPassword) async throws {
        try await upsert(try KeychainPasswordRow(password, sealing: sealer), into: KeychainPasswordRow.table, key: KeychainPasswordRow.key)
    }

    public func deleteKeychainPassword(accountID: String, domain: String, user: String) async throws -> Bool {
        try await !db.delete(from: KeychainPasswordRow.table)
            .where("account_id", .equal, accountID)
            .where("domain", .equal, domain)
            .where("user_name", .equal, user)
            .returning("account_id").all().isEmpty
    }

    /// Seals the passwords saved before a storage key was given; returns how many. Without a storage
    /// key it does nothing.
    @discardableResult
    func sealPlaintextKeychainPasswords() async throws -> Int {
        guard sealer != nil else { return 0 }
        var sealed = 0
        for row in try await db.select().column("*").from(KeychainPasswordRow.table).all(decoding: KeychainPasswordRow.self)
        where !SecretSealer.isSealed(row.password) {
            try await save(try row.password(opening: nil))
            sealed += 1
        }
        return sealed
    }
}

struct KeychainPasswordRow: Codable, Sendable {
    static let table = "keychain_passwords"
    static let key = ["account_id", "domain", "user_name"]
    var accountID: String
    var domain: String
    var userName: String
    /// Sealed (``SecretSealer``) when the store has a storage key, bound to the row.
    var password: String
    var savedAt: Double

    enum CodingKeys: String, CodingKey {
        case domain, password
        case accountID = "account_id"
        case userName = "user_name"
        case savedAt = "saved_at"
    }

    /// What the sealed password is bound to: a sealed value copied to another row does not open.
    static func sealingContext(_ accountID: String, _ domain: String, _ user: String) -> String {
        ["keychain", accountID, domain, user].joined(separator: "\u{1F}")
    }

    init(_ saved: KeychainPassword, sealing sealer: SecretSealer?) throws {
        accountID = saved.accountID
        domain = saved.domain
        userName = saved.user
        let context = Self.sealingContext(saved.accountID, saved.domain, saved.user)
        password = try sealer?.seal(saved.password, boundTo: context) ?? saved.password
        savedAt = saved.savedAt.sqlSeconds
    }

    func password(opening sealer: SecretSealer?) throws -> KeychainPassword {
        let context = Self.sealingContext(accountID, domain, userName)
        let plain: String
        if let sealer {
            plain = try sealer.open(password, boundTo: context)
        } else {
            guard !SecretSealer.isSealed(password) else { throw SealingError.noKey("a keychain password of account \(accountID)") }
            plain = password
        }
        return KeychainPassword(accountID: accountID, domain: domain, user: userName, password: plain, savedAt: Date(sqlSeconds: savedAt))
    }
}
