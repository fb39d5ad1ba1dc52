import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test("a transfer plan moves the group, revokes its grants, rewrites consents, keeps earlier transfer subjects", arguments: StoreKind.available)
    func transferPlan(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let from: TeamID = "TEAM123456"
            let to: TeamID = "RECIPIENT1"
            try await store.save(AppGroup(primaryAppID: "com.example.app", teamID: from, displayName: "App", notificationEndpoint: "https://x/n"))
            try await store.save(RegisteredClient(id: "com.example.app", kind: .app, teamID: from, groupID: "com.example.app"))
            try await store.save(RegisteredClient(id: "com.example.web", kind: .service, teamID: from, groupID: "com.example.app"))
            try await store.save(RegisteredClient(id: "com.example.elsewhere", kind: .app, teamID: from, groupID: "com.example.elsewhere"))
            try await store.save(Fixture.account())
            _ = try await store.insertTeamIdentity(
                TeamIdentity(accountID: "acct-1", teamID: from, subject: "000001.aaaa.0001", relayAddress: "old@relay.example"))
            var consent = Consent(
                accountID: "acct-1", groupID: "com.example.app", grantedAt: Fixture.t0, scopes: [.email], email: "old@relay.example",
                isPrivateEmail: true)
            try await store.save(consent)
            try await store.save(Fixture.grant(id: "live"))
            try await store.save(Fixture.grant(id: "earlier", revokedAt: Fixture.date(5)))
            try await store.save(Fixture.grant(id: "other-group", groupID: "com.example.elsewhere"))
            let earlier = TransferSubject(accountID: "acct-1", fromTeamID: from, toTeamID: to, subject: "111111.bbbb.1111")
            #expect(try await store.clients(groupID: "com.example.app").map(\.id) == ["com.example.app", "com.example.web"])
            #expect(try await store.consents(groupID: "com.example.app") == [consent])

            var group = try #require(try await store.appGroup("com.example.app"))
            group.teamID = to
            group.notificationEndpoint = nil
            let clients = try await store.clients(groupID: "com.example.app").map { client in
                var moved = client
                moved.teamID = to
                return moved
            }
            consent.email = "new@relay.example"
            let identity = try #require(try await store.teamIdentity(accountID: "acct-1", teamID: from))
            let transfer = AppTransfer(
                id: "t1", groupID: "com.example.app", fromTeamID: from, toTeamID: to, transferredAt: Fixture.date(100),
                windowEndsAt: Fixture.date(100 + AppTransfer.window))
            let plan = TransferPlan(
                transfer: transfer, group: group, clients: clients, consents: [consent], newTransferSubjects: [earlier], retiredRelays: [identity])
            try await store.apply(plan)
            var again = plan
            again.transfer.id = "t2"
            again.transfer.transferredAt = Fixture.date(200)
            again.newTransferSubjects = [TransferSubject(accountID: "acct-1", fromTeamID: from, toTeamID: to, subject: "222222.cccc.2222")]
            try await store.apply(again)

            #expect(try await store.appGroup("com.example.app") == group)
            #expect(try await store.client("com.example.web")?.teamID == to)
            #expect(try await store.client("com.example.elsewhere")?.teamID == from)
            #expect(try await store.grant(id: "live")?.revokedAt == Fixture.date(100))
            #expect(try await store.grant(id: "earlier")?.revokedAt == Fixture.date(5))
            #expect(try await store.grant(id: "other-group")?.revokedAt == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: "com.example.app")?.email == "new@relay.example")
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: from)?.relayForwardingEnabled == false)
            #expect(try await store.transferSubject(accountID: "acct-1", fromTeamID: from, toTeamID: to) == earlier, "the first identifier stays")
            #expect(try await store.transferSubject("111111.bbbb.1111", toTeamID: to) == earlier)
            #expect(try await store.transferSubject("111111.bbbb.1111", toTeamID: from) == nil)
            #expect(try await store.transfers(groupID: "com.example.app").map(\.id) == ["t2", "t1"])
            #expect(try await store.transfers(groupID: "com.example.elsewhere").isEmpty)
        }
    }

    @Test("grants keep their transfer identifier; migration tokens round-trip and are purged when expired", arguments: StoreKind.available)
    func migrationRecords(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var grant = Fixture.grant(id: "migrated")
            grant.transferSubject = "333333.dddd.3333"
            grant.transferWindowEndsAt = Fixture.date(AppTransfer.window)
            try await store.save(grant)
            #expect(try await store.grant(id: "migrated") == grant)

            let live = MigrationToken(tokenHash: "live", teamID: "TEAM123456", clientID: "com.example.web", expiresAt: Fixture.date(3_600))
            let old = MigrationToken(tokenHash: "old", teamID: "TEAM123456", clientID: "com.example.web", expiresAt: Fixture.date(-1))
            try await store.save(live)
            try await store.save(old)
            #expect(try await store.migrationToken(hash: "live") == live)
            #expect(try await store.purgeExpired(now: Fixture.t0, codesExpiredBefore: Fixture.date(-86_400)) == 1)
            #expect(try await store.migrationToken(hash: "old") == nil)
            #expect(try await store.migrationToken(hash: "live") == live)
        }
    }
}

extension StoreConformanceTests {
    @Test("a transfer plan adds recipient-team identities without replacing a stored sub or relay address", arguments: StoreKind.available)
    func transferPlanRecipientIdentities(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let to: TeamID = "RECIPIENT1"
            try await store.save(AppGroup(primaryAppID: "com.example.app", teamID: "TEAM123456", displayName: "App"))
            let bare = try await store.insertTeamIdentity(TeamIdentity(accountID: "bare", teamID: to, subject: "000002.bbbb.0002"))
            let relayed = try await store.insertTeamIdentity(
                TeamIdentity(accountID: "relayed", teamID: to, subject: "000003.cccc.0003", relayAddress: "kept@relay.example"))
            let planned = [
                TeamIdentity(accountID: "new", teamID: to, subject: "000001.aaaa.0001", relayAddress: "new@relay.example"),
                TeamIdentity(accountID: "bare", teamID: to, subject: "999999.ffff.9999", relayAddress: "given@relay.example"),
                TeamIdentity(accountID: "relayed", teamID: to, subject: "999998.ffff.9998", relayAddress: "other@relay.example"),
            ]
            let transfer = AppTransfer(
                id: "t1", groupID: "com.example.app", fromTeamID: "TEAM123456", toTeamID: to, transferredAt: Fixture.date(100),
                windowEndsAt: Fixture.date(100 + AppTransfer.window))
            var group = try #require(try await store.appGroup("com.example.app"))
            group.teamID = to
            try await store.apply(
                TransferPlan(
                    transfer: transfer, group: group, clients: [], consents: [], newTransferSubjects: [], retiredRelays: [],
                    recipientIdentities: planned))

            #expect(try await store.teamIdentity(accountID: "new", teamID: to) == planned[0])
            var given = bare
            given.relayAddress = "given@relay.example"
            #expect(try await store.teamIdentity(accountID: "bare", teamID: to) == given, "the stored sub stays; the relay address is added")
            #expect(try await store.teamIdentity(accountID: "relayed", teamID: to) == relayed)
        }
    }
}
