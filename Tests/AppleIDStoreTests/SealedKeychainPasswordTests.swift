import AppleIDProvider
import Foundation
import SQLKit
import Testing

@testable import AppleIDStore

@Suite("Keychain passwords sealed at rest (AES-256-GCM, bound to their row)")
struct SealedKeychainPasswordTests {
    static func storedPassword(_ store: SQLStore) async throws -> String {
        try #require(try await store.db.select().column("password").from("keychain_passwords").first()?.decode(column: "password", as: String.self))
    }

    @Test("with a storage key the column holds no password, the password reads back; without the key it does not open")
    func sealed() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("keychain.sqlite").path
            let saved = KeychainPassword(accountID: "acct-1", domain: "shop.example.com", user: "jane", password: "hunter2", savedAt: Fixture.t0)
            let sealer = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
            try await SealedSigningKeyTests.open(path, sealer) { store in
                try await store.save(saved)
                let column = try await Self.storedPassword(store)
                #expect(column.hasPrefix("sealed:v1:"))
                #expect(!column.contains("hunter2"))
                #expect(try await store.keychainPasswords(accountID: "acct-1") == [saved])
            }
            await #expect(throws: SealingError.noKey("a keychain password of account acct-1")) {
                try await SealedSigningKeyTests.open(path, nil) { try await $0.keychainPasswords(accountID: "acct-1") }
            }
        }
    }

    @Test("a password saved without a storage key is sealed at the next start with one")
    func sealedAtStart() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("keychain.sqlite").path
            let saved = KeychainPassword(accountID: "acct-1", domain: "shop.example.com", user: "jane", password: "hunter2", savedAt: Fixture.t0)
            try await SealedSigningKeyTests.open(path, nil) { store in
                try await store.save(saved)
                #expect(try await Self.storedPassword(store) == "hunter2", "no storage key: stored as it is")
            }
            let sealer = try SecretSealer(keyBytes: SecretSealer.newKeyBytes())
            try await SealedSigningKeyTests.open(path, sealer) { store in
                let column = try await Self.storedPassword(store)
                #expect(column.hasPrefix("sealed:v1:"), "sealed at the start with a storage key")
                #expect(try await store.keychainPasswords(accountID: "acct-1") == [saved])
            }
        }
    }
}
