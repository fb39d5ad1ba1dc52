import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test("a deleted Apple ID is unknown to the active-account lookups, by id and by login", arguments: StoreKind.available)
    func activeAccount(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.account())
            try await store.save(Fixture.account(id: "acct-2", appleID: "gone@example.com", deletedAt: Fixture.t0))
            #expect(try await store.activeAccount(id: "acct-1")?.id == "acct-1")
            #expect(try await store.activeAccount(appleID: "JANE.DOE@example.com")?.id == "acct-1")
            #expect(try await store.activeAccount(id: "acct-2") == nil)
            #expect(try await store.activeAccount(appleID: "gone@example.com") == nil)
            #expect(try await store.account(id: "acct-2") != nil, "the plain lookup still finds it (the admin list shows it deleted)")
        }
    }

    @Test("the account overview: each consent with its group's name, each identity with its team's name", arguments: StoreKind.available)
    func accountOverview(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(DeveloperTeam(id: "TEAM000001", name: "First Team"))
            try await store.save(AppGroup(primaryAppID: "com.example.one", teamID: "TEAM000001", displayName: "One"))
            let named = Consent(
                accountID: "acct-1", groupID: "com.example.one", grantedAt: Fixture.t0, scopes: [.email], email: "a@b.c", isPrivateEmail: false)
            let orphan = Consent(
                accountID: "acct-1", groupID: "com.example.gone", grantedAt: Fixture.date(1), scopes: [], email: nil, isPrivateEmail: false)
            let other = Consent(accountID: "acct-2", groupID: "com.example.one", grantedAt: Fixture.t0, scopes: [], email: nil, isPrivateEmail: false)
            for consent in [orphan, named, other] { try await store.save(consent) }
            let known = TeamIdentity(accountID: "acct-1", teamID: "TEAM000001", subject: "001.a.1", relayAddress: "r@relay.example")
            let unknown = TeamIdentity(accountID: "acct-1", teamID: "TEAM000002", subject: "002.a.1", relayForwardingEnabled: false)
            for identity in [unknown, known] { try await store.save(identity) }
            let overview = try await store.accountOverview(accountID: "acct-1")
            #expect(overview.apps == [.init(consent: named, name: "One"), .init(consent: orphan, name: nil)])
            #expect(overview.identities == [.init(identity: known, teamName: "First Team"), .init(identity: unknown, teamName: nil)])
            #expect(try await store.accountOverview(accountID: "nobody") == AccountOverview(apps: [], identities: []))
        }
    }

    @Test("the account listings: every Apple ID in the accounts order, each with its identities by team", arguments: StoreKind.available)
    func accountListings(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(Fixture.account(id: "acct-2", appleID: "b@example.com", createdAt: Fixture.date(5), deletedAt: Fixture.date(9)))
            try await store.save(Fixture.account())
            let second = TeamIdentity(accountID: "acct-1", teamID: "TEAM000002", subject: "002.a.1")
            let first = TeamIdentity(accountID: "acct-1", teamID: "TEAM000001", subject: "001.a.1")
            for identity in [second, first] { try await store.save(identity) }
            let listings = try await store.accountListings()
            #expect(listings.map(\.account) == (try await store.accounts()))
            #expect(listings.map(\.identities) == [[first, second], []])
        }
    }

    @Test("the delivery log: the newest messages first, each with its attempts; the pending count", arguments: StoreKind.available)
    func deliveryLog(kind: StoreKind) async throws {
        try await kind.withStore { store in
            func message(_ id: String, _ offset: TimeInterval, group: ClientID = "com.example.app") -> OutboxMessage {
                OutboxMessage(
                    id: id, groupID: group, audience: group, event: NotificationEvent(type: .consentRevoked, subject: "s", eventTime: 1),
                    createdAt: Fixture.date(offset))
            }
            for queued in [message("m1", 1), message("m2", 2), message("m3", 3, group: "com.example.other")] { try await store.enqueue(queued) }
            let attempt = DeliveryAttempt(
                messageID: "m1", attemptedAt: Fixture.date(10), status: 200, latencyMilliseconds: 4, error: nil, endpoint: "e")
            var delivered = message("m1", 1)
            delivered.deliveredAt = Fixture.date(10)
            try await store.record(attempt, updating: delivered)
            let log = try await store.deliveryLog(groupID: "com.example.app", limit: 10)
            #expect(log.map(\.message.id) == ["m2", "m1"])
            #expect(log.map(\.attempts) == [[], [attempt]])
            #expect(try await store.deliveryLog(groupID: nil, limit: 2).map(\.message.id) == ["m3", "m2"])
            #expect(try await store.deliveryLog(groupID: "com.example.none", limit: 2).isEmpty)
            #expect(try await store.pendingMessageCount() == 2)
        }
    }

    @Test("the delivery logs of several groups: each group's newest messages, newest first overall", arguments: StoreKind.available)
    func deliveryLogOfGroups(kind: StoreKind) async throws {
        try await kind.withStore { store in
            func message(_ id: String, _ offset: TimeInterval, group: ClientID) -> OutboxMessage {
                OutboxMessage(
                    id: id, groupID: group, audience: group, event: NotificationEvent(type: .consentRevoked, subject: "s", eventTime: 1),
                    createdAt: Fixture.date(offset))
            }
            let queued = [
                message("a1", 1, group: "com.example.a"), message("a2", 2, group: "com.example.a"), message("a3", 3, group: "com.example.a"),
                message("b1", 4, group: "com.example.b"), message("c1", 5, group: "com.example.c"),
            ]
            for one in queued { try await store.enqueue(one) }
            let attempt = DeliveryAttempt(
                messageID: "a3", attemptedAt: Fixture.date(10), status: 500, latencyMilliseconds: 4, error: nil, endpoint: "e")
            try await store.record(attempt, updating: message("a3", 3, group: "com.example.a"))
            let log = try await store.deliveryLog(groupIDs: ["com.example.a", "com.example.b"], limitPerGroup: 2)
            #expect(log.map(\.message.id) == ["b1", "a3", "a2"])
            #expect(log.map(\.attempts) == [[], [attempt], []])
            #expect(try await store.deliveryLog(groupIDs: [], limitPerGroup: 2).isEmpty)
            #expect(try await store.deliveryLog(groupIDs: ["com.example.none"], limitPerGroup: 2).isEmpty)
        }
    }

    @Test("saving an account with its sign-in attempts cleared lifts the lock; without, the lock stays", arguments: StoreKind.available)
    func saveClearingSignInAttempts(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var policy = SignInLockPolicy()
            policy.backoffFrom = 1
            var account = Fixture.account()
            try await store.save(account)
            _ = try await store.admitSignInAttempt(accountID: account.id, now: Fixture.t0, policy: policy)
            account.firstName = "Janet"
            try await store.save(account, clearingSignInAttempts: false)
            #expect(try await store.admitSignInAttempt(accountID: account.id, now: Fixture.t0, policy: policy) != .admitted(attempt: 1))
            account.passwordHash = "$2b$12$other"
            try await store.save(account, clearingSignInAttempts: true)
            #expect(try await store.account(id: account.id) == account)
            #expect(try await store.admitSignInAttempt(accountID: account.id, now: Fixture.t0, policy: policy) == .admitted(attempt: 1))
        }
    }
}
