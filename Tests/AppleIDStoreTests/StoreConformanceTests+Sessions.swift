import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test(arguments: StoreKind.available)
    func interactions(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let fresh = Fixture.interaction()
            #expect(fresh.accountID == nil && fresh.authTime == nil)
            #expect(try await store.interaction(id: fresh.id) == nil)
            try await store.save(fresh)
            #expect(try await store.interaction(id: fresh.id) == fresh)

            var advanced = fresh
            advanced.stage = .consent
            advanced.accountID = "acct-1"
            advanced.authTime = Fixture.date(30)
            advanced.failedAttempts = 2
            advanced.request.codeChallenge = "challenge"
            advanced.request.state = nil
            try await store.save(advanced)
            #expect(try await store.interaction(id: fresh.id) == advanced)

            let other = Fixture.interaction(id: "ix-2")
            try await store.save(other)
            try await store.deleteInteraction(id: fresh.id)
            try await store.deleteInteraction(id: fresh.id)  // no-op
            #expect(try await store.interaction(id: fresh.id) == nil)
            #expect(try await store.interaction(id: "ix-2") == other)
        }
    }

    /// Approval takes the interaction (`DELETE … RETURNING`): of concurrent takers exactly one gets it.
    @Test(arguments: StoreKind.available)
    func takeInteractionOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var consent = Fixture.interaction()
            consent.stage = .consent
            consent.accountID = "acct-1"
            let interaction = consent
            try await store.save(interaction)
            let taken = try await withThrowingTaskGroup(of: Interaction?.self) { group in
                for _ in 0..<8 { group.addTask { try await store.takeInteraction(id: interaction.id) } }
                return try await group.reduce(into: [Interaction]()) { taken, one in if let one { taken.append(one) } }
            }
            #expect(taken == [interaction])
            #expect(try await store.interaction(id: interaction.id) == nil)
            #expect(try await store.takeInteraction(id: interaction.id) == nil)
        }
    }

    @Test(arguments: StoreKind.available)
    func browserSessions(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let session = BrowserSession(idHash: "sess-hash", accountID: "acct-1", authTime: Fixture.t0, expiresAt: Fixture.date(3_600))
            let other = BrowserSession(idHash: "other-hash", accountID: "acct-2", authTime: Fixture.t0, expiresAt: Fixture.date(60))
            #expect(try await store.browserSession(idHash: "sess-hash") == nil)
            try await store.save(session)
            try await store.save(other)
            #expect(try await store.browserSession(idHash: "sess-hash") == session)

            var extended = session
            extended.expiresAt = Fixture.date(7_200)
            try await store.save(extended)
            #expect(try await store.browserSession(idHash: "sess-hash") == extended)

            try await store.deleteBrowserSession(idHash: "sess-hash")
            try await store.deleteBrowserSession(idHash: "sess-hash")  // no-op
            #expect(try await store.browserSession(idHash: "sess-hash") == nil)
            #expect(try await store.browserSession(idHash: "other-hash") == other)
        }
    }

    /// The account pages' sessions are kept apart from the sign-in pages' (migration 24).
    @Test(arguments: StoreKind.available)
    func browserSessionPurpose(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let signInPages = BrowserSession(idHash: "pages-hash", accountID: "acct-1", authTime: Fixture.t0, expiresAt: Fixture.date(60))
            let accountPages = BrowserSession(
                idHash: "account-hash", accountID: "acct-1", authTime: Fixture.t0, expiresAt: Fixture.date(60), purpose: .accountPages)
            try await store.save(signInPages)
            try await store.save(accountPages)
            #expect(try await store.browserSession(idHash: "pages-hash")?.purpose == .signInPages)
            #expect(try await store.browserSession(idHash: "account-hash")?.purpose == .accountPages)
            #expect(try await store.browserSession(idHash: "account-hash") == accountPages)
        }
    }
}
