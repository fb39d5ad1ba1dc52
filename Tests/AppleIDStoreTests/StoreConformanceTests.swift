import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Testing

/// The one suite every ``ProviderStore`` passes: the memory store defines the semantics, the SQL
/// stores must match them. Tests of mutable state and concurrency live in the extensions in
/// `StoreConformanceTests+Grants.swift` and `StoreConformanceTests+Sessions.swift`.
@Suite("ProviderStore conformance")
struct StoreConformanceTests {
    // MARK: Registry

    @Test(arguments: StoreKind.available)
    func registryRoundTrips(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let team = DeveloperTeam(id: "TEAM123456", name: "Example Inc.")
            let bare = AppGroup(primaryAppID: "com.example.app", teamID: team.id, displayName: "Example")
            let notified = AppGroup(
                primaryAppID: "com.example.other", teamID: team.id, displayName: "Other",
                notificationEndpoint: "https://example.com/notify"
            )
            let app = RegisteredClient(id: "com.example.app", kind: .app, teamID: team.id, groupID: "com.example.app")
            let web = RegisteredClient(
                id: "com.example.web", kind: .service, teamID: team.id, groupID: "com.example.app",
                returnURLs: ["https://example.com/a", "https://example.com/b?x=1&y=ü"],
                quirks: ClientQuirks(booleanStyle: .string, idTokenLifetime: 600)
            )
            let key = DeveloperKey(
                id: "KEY1234567", teamID: team.id, primaryAppID: "com.example.app",
                publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n"
            )

            #expect(try await store.team(team.id) == nil)
            #expect(try await store.appGroup(bare.primaryAppID) == nil)
            #expect(try await store.client(app.id) == nil)
            #expect(try await store.developerKey(key.id) == nil)

            try await store.save(team)
            try await store.save(bare)
            try await store.save(notified)
            try await store.save(app)
            try await store.save(web)
            try await store.save(key)

            #expect(try await store.team(team.id) == team)
            #expect(try await store.appGroup(bare.primaryAppID) == bare)
            #expect(try await store.appGroup(notified.primaryAppID) == notified)
            #expect(try await store.client(app.id) == app)
            #expect(try await store.client(web.id) == web)
            #expect(try await store.developerKey(key.id) == key)

            // Saving again replaces, including setting an optional back to nil.
            var renamed = team
            renamed.name = "Renamed"
            try await store.save(renamed)
            var cleared = notified
            cleared.notificationEndpoint = nil
            try await store.save(cleared)
            var edited = web
            edited.returnURLs = []
            edited.quirks = ClientQuirks()
            try await store.save(edited)
            #expect(try await store.team(team.id) == renamed)
            #expect(try await store.appGroup(notified.primaryAppID) == cleared)
            #expect(try await store.client(web.id) == edited)
        }
    }

    // MARK: Accounts

    @Test(arguments: StoreKind.available)
    func accountRoundTripAndLookup(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let live = Fixture.account()
            let deleted = Fixture.account(id: "acct-2", appleID: "gone@example.com", deletedAt: Fixture.date(86_400))
            try await store.save(live)
            try await store.save(deleted)

            #expect(live.appleID == "jane.doe@example.com")
            #expect(try await store.account(id: live.id) == live)
            #expect(try await store.account(id: deleted.id) == deleted)
            #expect(try await store.account(appleID: "JANE.DOE@example.COM") == live)
            #expect(try await store.account(appleID: "gone@example.com") == deleted)
            #expect(try await store.account(id: "nobody") == nil)
            #expect(try await store.account(appleID: "nobody@example.com") == nil)

            var updated = live
            updated.firstName = "Janet"
            updated.twoFactorEnabled = false
            updated.additionalEmails = ["jane@work.example.com", "jd@example.org"]
            updated.deletedAt = Fixture.date(10)
            try await store.save(updated)
            #expect(try await store.account(id: live.id) == updated)
            updated.deletedAt = nil
            try await store.save(updated)
            #expect(try await store.account(id: live.id) == updated)
        }
    }

    @Test(arguments: StoreKind.available)
    func accountsAreOrderedByCreationThenAppleID(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let c = Fixture.account(id: "c", appleID: "c@example.com", createdAt: Fixture.date(0))
            let b = Fixture.account(id: "b", appleID: "b@example.com", createdAt: Fixture.date(0))
            let a = Fixture.account(id: "a", appleID: "a@example.com", createdAt: Fixture.date(60))
            let z = Fixture.account(id: "z", appleID: "z@example.com", createdAt: Fixture.date(-60))
            for account in [c, a, z, b] { try await store.save(account) }
            #expect(try await store.accounts().map(\.id) == ["z", "b", "c", "a"])
        }
    }

    @Test(arguments: StoreKind.available)
    func appleIDIsUnique(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let first = Fixture.account(id: "first", appleID: "taken@example.com")
            let second = Fixture.account(id: "second", appleID: "Taken@Example.com")
            try await store.save(first)

            await #expect(throws: StoreError.self) { try await store.save(second) }
            #expect(try await store.account(id: "second") == nil)
            #expect(try await store.account(appleID: "taken@example.com") == first)

            // Renaming another account onto a taken Apple ID conflicts too; renaming to a free one works.
            let other = Fixture.account(id: "other", appleID: "free@example.com")
            try await store.save(other)
            var moved = other
            moved.appleID = "taken@example.com"
            await #expect(throws: StoreError.self) { try await store.save(moved) }
            #expect(try await store.account(id: "other") == other)
            moved.appleID = "new@example.com"
            try await store.save(moved)
            #expect(try await store.account(appleID: "new@example.com") == moved)
            #expect(try await store.account(appleID: "free@example.com") == nil)
            #expect(try await store.accounts().count == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func teamIdentities(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let first = TeamIdentity(accountID: "acct-1", teamID: "TEAM123456", subject: "000001.aaaa.0001")
            let racer = TeamIdentity(
                accountID: "acct-1", teamID: "TEAM123456", subject: "000002.bbbb.0002",
                relayAddress: "x@privaterelay.appleid.com"
            )
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == nil)
            #expect(try await store.insertTeamIdentity(first) == first)
            #expect(try await store.insertTeamIdentity(racer) == first)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == first)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "OTHERTEAM1") == nil)
            #expect(try await store.teamIdentity(accountID: "acct-2", teamID: "TEAM123456") == nil)

            var relayed = first
            relayed.relayAddress = "abc@privaterelay.appleid.com"
            relayed.relayForwardingEnabled = false
            try await store.save(relayed)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == relayed)

            let otherTeam = TeamIdentity(accountID: "acct-1", teamID: "OTHERTEAM1", subject: "000003.cccc.0003")
            try await store.save(otherTeam)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "OTHERTEAM1") == otherTeam)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == relayed)
        }
    }

    @Test(arguments: StoreKind.available)
    func racingFirstSignInsAgreeOnOneSubject(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let stored = try await withThrowingTaskGroup(of: TeamIdentity.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.insertTeamIdentity(
                            TeamIdentity(accountID: "acct-1", teamID: "TEAM123456", subject: Subject(rawValue: "sub-\(index)"))
                        )
                    }
                }
                return try await group.reduce(into: Set<TeamIdentity>()) { $0.insert($1) }
            }
            #expect(stored.count == 1)
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == stored.first)
        }
    }

    // MARK: Consents

    @Test(arguments: StoreKind.available)
    func consents(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let shared = Consent(
                accountID: "acct-1", groupID: "com.example.app", grantedAt: Fixture.t0, scopes: [.email, .name],
                email: "jane@example.com", isPrivateEmail: false
            )
            let hidden = Consent(
                accountID: "acct-1", groupID: "com.example.other", grantedAt: Fixture.date(5), scopes: [],
                email: nil, isPrivateEmail: true
            )
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app") == nil)
            try await store.save(shared)
            try await store.save(hidden)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app") == shared)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.other") == hidden)
            #expect(try await store.consent(accountID: "acct-2", groupID: "com.example.app") == nil)

            var narrowed = shared
            narrowed.scopes = [.name]
            narrowed.email = nil
            try await store.save(narrowed)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app") == narrowed)

            try await store.deleteConsent(accountID: "acct-1", groupID: "com.example.app")
            try await store.deleteConsent(accountID: "acct-1", groupID: "com.example.app")  // no-op
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app") == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.other") == hidden)
        }
    }

    // MARK: Signing keys

    @Test(arguments: StoreKind.available)
    func signingKeysInCreationThenIDOrder(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let retired = SigningKeyRecord(
                id: "k-old", privateKeyPEM: "PEM-old", state: .retired, createdAt: Fixture.date(-200),
                activatedAt: Fixture.date(-100), retiredAt: Fixture.date(-10)
            )
            let activeB = SigningKeyRecord(
                id: "k-b", privateKeyPEM: "PEM-b", state: .active, createdAt: Fixture.t0, activatedAt: Fixture.t0
            )
            let nextA = SigningKeyRecord(id: "k-a", privateKeyPEM: "PEM-a", state: .next, createdAt: Fixture.t0)
            #expect(try await store.signingKeys().isEmpty)
            for key in [activeB, nextA, retired] { try await store.save(key) }
            #expect(try await store.signingKeys() == [retired, nextA, activeB])

            // Retire before promoting: there is one active key at most.
            var retiredB = activeB
            retiredB.state = .retired
            retiredB.retiredAt = Fixture.date(1)
            try await store.save(retiredB)
            var promoted = nextA
            promoted.state = .active
            promoted.activatedAt = Fixture.date(1)
            try await store.save(promoted)
            #expect(try await store.signingKeys() == [retired, promoted, retiredB])
        }
    }
}
