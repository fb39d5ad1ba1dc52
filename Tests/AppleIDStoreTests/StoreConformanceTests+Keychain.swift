import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test(
        "keychain passwords: oldest first, replaced per domain and user name, removed one by one, gone with the account",
        arguments: StoreKind.available)
    func keychainPasswords(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.account())
            try await store.save(Fixture.account(id: "acct-2", appleID: "other@example.com"))
            let first = KeychainPassword(accountID: "acct-1", domain: "shop.example.com", user: "jane", password: "one", savedAt: Fixture.date(10))
            let second = KeychainPassword(accountID: "acct-1", domain: "a.example.com", user: "jane", password: "two", savedAt: Fixture.date(20))
            let others = KeychainPassword(accountID: "acct-2", domain: "shop.example.com", user: "jane", password: "three", savedAt: Fixture.date(5))
            for password in [second, first, others] { try await store.save(password) }
            #expect(try await store.keychainPasswords(accountID: "acct-1") == [first, second])

            var changed = first
            changed.password = "one, changed"
            changed.savedAt = Fixture.date(30)
            try await store.save(changed)
            #expect(try await store.keychainPasswords(accountID: "acct-1") == [second, changed])

            #expect(try await store.deleteKeychainPassword(accountID: "acct-1", domain: "a.example.com", user: "jane"))
            #expect(try await !store.deleteKeychainPassword(accountID: "acct-1", domain: "a.example.com", user: "jane"))
            #expect(try await store.keychainPasswords(accountID: "acct-1") == [changed])

            try await store.deleteAccount(id: "acct-1", at: Fixture.date(40), notifying: [])
            #expect(try await store.keychainPasswords(accountID: "acct-1").isEmpty)
            #expect(try await store.keychainPasswords(accountID: "acct-2") == [others])
        }
    }

    @Test("an App ID's webcredentials domains round-trip", arguments: StoreKind.available)
    func webCredentialsDomains(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = RegisteredClient(id: "com.example.app", kind: .app, teamID: "TEAM123456", groupID: "com.example.app")
            try await store.save(app)
            #expect(try await store.client(app.id)?.webCredentialsDomains == [])
            app.webCredentialsDomains = ["example.com", "shop.example.com"]
            try await store.save(app)
            #expect(try await store.client(app.id) == app)
        }
    }
}
