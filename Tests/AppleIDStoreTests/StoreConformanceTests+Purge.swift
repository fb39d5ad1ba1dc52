import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test("expired codes (a day past expiry), access tokens, interactions and sessions are purged; the rest stays", arguments: StoreKind.available)
    func purgeExpired(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let now = Fixture.date(200_000)
            func code(_ hash: String, expiresAt: Date) -> AuthorizationCodeRecord {
                AuthorizationCodeRecord(
                    codeHash: hash, grantID: "g", clientID: "c", redirectURI: nil, codeChallenge: nil, nonce: nil, expiresAt: expiresAt)
            }
            try await store.save(code("old-code", expiresAt: now.addingTimeInterval(-90_000)))
            try await store.save(code("recent-code", expiresAt: now.addingTimeInterval(-3_600)))
            try await store.insert([
                TokenRecord(
                    tokenHash: "old-access", kind: .access, grantID: "g", clientID: "c", createdAt: Fixture.t0, expiresAt: now.addingTimeInterval(-1)),
                TokenRecord(
                    tokenHash: "live-access", kind: .access, grantID: "g", clientID: "c", createdAt: Fixture.t0, expiresAt: now.addingTimeInterval(60)
                ),
                TokenRecord(tokenHash: "refresh", kind: .refresh, grantID: "g", clientID: "c", createdAt: Fixture.t0, expiresAt: nil),
            ])
            var expired = Fixture.interaction(id: "old-ix")
            expired.expiresAt = now.addingTimeInterval(-1)
            var live = Fixture.interaction(id: "live-ix")
            live.expiresAt = now.addingTimeInterval(600)
            try await store.save(expired)
            try await store.save(live)
            try await store.save(BrowserSession(idHash: "old-session", accountID: "a", authTime: Fixture.t0, expiresAt: now.addingTimeInterval(-1)))
            try await store.save(BrowserSession(idHash: "live-session", accountID: "a", authTime: Fixture.t0, expiresAt: now.addingTimeInterval(60)))

            #expect(try await store.purgeExpired(now: now, codesExpiredBefore: now.addingTimeInterval(-86_400)) == 4)
            #expect(try await store.authorizationCode(hash: "old-code") == nil)
            #expect(try await store.authorizationCode(hash: "recent-code") != nil)
            #expect(try await store.token(hash: "old-access") == nil)
            #expect(try await store.token(hash: "live-access") != nil)
            #expect(try await store.token(hash: "refresh") != nil)
            #expect(try await store.interaction(id: "old-ix") == nil)
            #expect(try await store.interaction(id: "live-ix") != nil)
            #expect(try await store.browserSession(idHash: "old-session") == nil)
            #expect(try await store.browserSession(idHash: "live-session") != nil)
            #expect(try await store.purgeExpired(now: now, codesExpiredBefore: now.addingTimeInterval(-86_400)) == 0)
        }
    }
}
