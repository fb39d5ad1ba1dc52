import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

/// A team's stored relay mail is held to a quota (issue 35, finding 10): counted and written in
/// one step, per team, bounces and replies included.
extension StoreConformanceTests {
    @Test("a team's stored bytes count every direction of its mail, and no other team's", arguments: StoreKind.available)
    func relayStoredBytesPerTeam(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 0)
            try await store.accept([
                Self.relayed("m1"), Self.relayed("m2", direction: .reply, state: .held), Self.relayed("m3", direction: .bounce),
                Self.relayed("o1", team: "OTHERTEAM1"),
            ])
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 21, "three messages of 7 bytes")
            #expect(try await store.relayStoredBytes(teamID: "OTHERTEAM1") == 7)
        }
    }

    @Test("a batch that would pass its team's quota writes nothing; other teams go on", arguments: StoreKind.available)
    func relayTeamQuotaRefusesWhole(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let quota = RelayAcceptLimits(teamBytes: 20)
            #expect(try await store.accept([Self.relayed("m1"), Self.relayed("m2")], limits: quota) == .accepted, "14 of 20 bytes")
            let batch = [Self.relayed("x1"), Self.relayed("o1", team: "OTHERTEAM1")]
            #expect(try await store.accept(batch, limits: quota) == .teamQuota("TEAM123456"), "21 would pass 20")
            #expect(try await store.relayMail(id: "x1") == nil)
            #expect(try await store.relayMail(id: "o1") == nil, "the batch is all or none")
            #expect(try await store.accept([Self.relayed("o2", team: "OTHERTEAM1")], limits: quota) == .accepted)
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 14)
        }
    }

    @Test("the quota is counted and taken in one step: of batches racing for the last bytes, one is written", arguments: StoreKind.available)
    func relayTeamQuotaIsAtomic(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let quota = RelayAcceptLimits(teamBytes: 21)
            // No daily limit here: only the quota stands between the racers.
            #expect(try await store.accept([Self.relayed("m1"), Self.relayed("m2")], limits: quota) == .accepted)
            let written = try await withThrowingTaskGroup(of: RelayAcceptance.self) { group in
                for racer in 0..<8 {
                    group.addTask { try await store.accept([Self.relayed("r\(racer)")], limits: quota) }
                }
                return try await group.reduce(into: 0) { $0 += $1 == .accepted ? 1 : 0 }
            }
            #expect(written == 1)
            #expect(try await store.relayStoredBytes(teamID: "TEAM123456") == 21)
        }
    }

    @Test("purged mail frees its team's quota", arguments: StoreKind.available)
    func relayPurgeFreesQuota(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let quota = RelayAcceptLimits(teamBytes: 14)
            #expect(try await store.accept([Self.relayed("m1", at: 0), Self.relayed("m2", at: 0)], limits: quota) == .accepted)
            #expect(try await store.accept([Self.relayed("m3", at: 100)], limits: quota) == .teamQuota("TEAM123456"))
            #expect(try await store.purgeRelayMail(receivedBefore: Fixture.date(50)) == 2)
            #expect(try await store.accept([Self.relayed("m3", at: 100)], limits: quota) == .accepted)
        }
    }
}
