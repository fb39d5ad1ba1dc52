import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test(arguments: StoreKind.available)
    func grantRoundTrip(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let live = Fixture.grant(id: "g-live")
            var minimal = Fixture.grant(id: "g-min", revokedAt: Fixture.date(99))
            minimal.email = nil
            minimal.isPrivateEmail = false
            minimal.scopes = []
            #expect(try await store.grant(id: "g-live") == nil)
            try await store.save(live)
            try await store.save(minimal)
            #expect(try await store.grant(id: "g-live") == live)
            #expect(try await store.grant(id: "g-min") == minimal)
        }
    }

    @Test(arguments: StoreKind.available)
    func revokeGrantsCountsAndScopes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let earlier = Fixture.date(-1_000)
            let grants = [
                Fixture.grant(id: "g1"),
                Fixture.grant(id: "g2"),
                Fixture.grant(id: "g3", revokedAt: earlier),
                Fixture.grant(id: "other-group", groupID: "com.example.other"),
                Fixture.grant(id: "other-account", accountID: "acct-2"),
            ]
            for grant in grants { try await store.save(grant) }

            let at = Fixture.date(500)
            #expect(try await store.revokeGrants(accountID: "acct-1", groupID: "com.example.app", at: at) == 2)
            #expect(try await store.grant(id: "g1")?.revokedAt == at)
            #expect(try await store.grant(id: "g2")?.revokedAt == at)
            #expect(try await store.grant(id: "g3")?.revokedAt == earlier)
            #expect(try await store.grant(id: "other-group") == grants[3])
            #expect(try await store.grant(id: "other-account") == grants[4])

            #expect(try await store.revokeGrants(accountID: "acct-1", groupID: "com.example.app", at: Fixture.date(600)) == 0)
            #expect(try await store.grant(id: "g1")?.revokedAt == at)
            #expect(try await store.revokeGrants(accountID: "nobody", groupID: "com.example.app", at: at) == 0)
        }
    }

    @Test(arguments: StoreKind.available)
    func concurrentRevocationsCountEachGrantOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            for index in 0..<10 { try await store.save(Fixture.grant(id: "g\(index)")) }
            let total = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.revokeGrants(accountID: "acct-1", groupID: "com.example.app", at: Fixture.date(Double(index)))
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(total == 10)
        }
    }

    @Test(arguments: StoreKind.available)
    func revokeGrantKeepsTheFirstRevocation(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.grant(id: "g1"))
            try await store.revokeGrant(id: "g1", at: Fixture.date(10))
            try await store.revokeGrant(id: "g1", at: Fixture.date(20))
            #expect(try await store.grant(id: "g1")?.revokedAt == Fixture.date(10))
            try await store.revokeGrant(id: "unknown", at: Fixture.date(10))
            #expect(try await store.grant(id: "unknown") == nil)
        }
    }

    @Test("a code reads back as saved: unconsumed, native (every optional nil) or saved consumed", arguments: StoreKind.available)
    func codesReadBackAsSaved(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.authorizationCode(hash: "code-hash-1") == nil)

            let code = Fixture.code()
            try await store.save(code)
            #expect(try await store.authorizationCode(hash: code.codeHash) == code)

            let native = AuthorizationCodeRecord(
                codeHash: "native", grantID: "grant-2", clientID: "com.example.app", redirectURI: nil,
                codeChallenge: nil, nonce: nil, expiresAt: Fixture.date(300)
            )
            try await store.save(native)
            #expect(try await store.authorizationCode(hash: "native") == native)

            let stale = Fixture.code(hash: "stale", consumedAt: Fixture.date(-5))
            try await store.save(stale)
            #expect(try await store.authorizationCode(hash: "stale") == stale)
        }
    }

    @Test(arguments: StoreKind.available)
    func tokens(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let access = TokenRecord(
                tokenHash: "at-hash", kind: .access, grantID: "grant-1", clientID: "com.example.web",
                createdAt: Fixture.t0, expiresAt: Fixture.date(3_600)
            )
            let refresh = TokenRecord(
                tokenHash: "rt-hash", kind: .refresh, grantID: "grant-1", clientID: "com.example.web",
                createdAt: Fixture.t0, expiresAt: nil
            )
            #expect(try await store.token(hash: "at-hash") == nil)
            try await store.insert([access, refresh])
            #expect(try await store.token(hash: "at-hash") == access)
            #expect(try await store.token(hash: "rt-hash") == refresh)
            #expect(try await store.token(hash: "AT-HASH") == nil)
        }
    }

    /// Dates keep at least millisecond precision (the SQL stores keep Double seconds).
    @Test(arguments: StoreKind.available)
    func datesKeepMillisecondPrecision(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let precise = Date(timeIntervalSince1970: 1_700_000_000.123_456)
            let token = TokenRecord(
                tokenHash: "precise", kind: .access, grantID: "g", clientID: "c", createdAt: precise,
                expiresAt: precise.addingTimeInterval(0.5)
            )
            try await store.insert([token])
            let loaded = try #require(try await store.token(hash: "precise"))
            #expect(abs(loaded.createdAt.timeIntervalSince(precise)) < 0.001)
            #expect(abs(try #require(loaded.expiresAt).timeIntervalSince(precise.addingTimeInterval(0.5))) < 0.001)
        }
    }
}
