import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Testing

extension StoreConformanceTests {
    /// The SQL stores' bulk path (`siwa bench seed`); the memory store has none.
    @Test(
        "the bulk path writes synthetic users, their identities, consents, grants and refresh tokens",
        arguments: StoreKind.available.filter { $0 != .memory })
    func bulkSeed(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let bulk = try #require(store as? any BulkSeedStore)
            let seed = ScaleSeed(
                teamID: "TEAM123456", groupID: "com.example.app", clientID: "com.example.web", grantsPerUser: 3, passwordHash: "hash",
                now: Fixture.t0, random: SeededRandomSource(seed: "bulk"))
            let first = seed.batch(users: 0..<5)
            try await bulk.insert(first)
            try await bulk.insert(seed.batch(users: 5..<2500))
            #expect(try await store.accounts().count == 2500)
            let account = try #require(try await store.account(appleID: "bench-3@bench.example.com"))
            #expect(account == first.accounts[3])
            #expect(try await store.teamIdentity(accountID: account.id, teamID: "TEAM123456") == first.identities[3])
            #expect(try await store.consent(accountID: account.id, groupID: "com.example.app") == first.consents[3])
            #expect(try await store.grant(id: "bench-3-2") == first.grants[11])
            #expect(try await store.token(hash: first.tokens[11].tokenHash) == first.tokens[11])
            #expect(Set(first.tokens.map(\.tokenHash)).count == 15, "every refresh token is its own")
        }
    }
}
