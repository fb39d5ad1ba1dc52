import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@testable import AppleIDStore

extension TransactionFailureTests {
    static let recipient: TeamID = "RECIPIENT1"

    /// The sending team's app group with one App ID, and a user who authorized it hiding the e-mail.
    static func seedTransfer(_ store: SQLStore) async throws {
        try await store.save(DeveloperTeam(id: "TEAM123456", name: "Sender"))
        try await store.save(DeveloperTeam(id: recipient, name: "Recipient"))
        try await store.save(AppGroup(primaryAppID: groupID, teamID: "TEAM123456", displayName: "App"))
        try await store.save(RegisteredClient(id: groupID, kind: .app, teamID: "TEAM123456", groupID: groupID))
        try await store.save(Fixture.account())
        try await store.save(approval)
    }

    /// The engine's transfer over `store`: it writes the recipient team's identity and relay address,
    /// the group, its clients, grants, consents, transfer identifiers and the transfer record.
    static func transfers(on store: SQLStore) async throws -> AppTransfers {
        try await AppleIDProvider.start(
            configuration: ProviderConfiguration(issuer: "https://appleid.example.com"), storage: .store(store), clock: ManualClock(Fixture.date(60))
        ).transfers
    }

    @Test("a transfer whose second write fails leaves the group, its grants, consents and identities as they were", arguments: StoreKind.sqlKinds)
    func transfer(kind: StoreKind) async throws {
        try await kind.withSQLStore { store in
            try await Self.seedTransfer(store)
            // Started on the working store first: it makes the signing keys the failing one then only reads.
            let working = try await Self.transfers(on: store)
            let failing = try await Self.transfers(on: store.failingStatement(2))
            await #expect(throws: InjectedFailure.self) { try await failing.transfer(groupID: Self.groupID, to: Self.recipient) }
            #expect(
                try await store.teamIdentity(accountID: "acct-1", teamID: Self.recipient) == nil, "no identity or relay address in the recipient team"
            )
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456") == Self.identity)
            #expect(try await store.appGroup(Self.groupID)?.teamID == "TEAM123456")
            #expect(try await store.client(Self.groupID)?.teamID == "TEAM123456")
            #expect(try await store.grant(id: "grant-1")?.revokedAt == nil)
            #expect(try await store.consent(accountID: "acct-1", groupID: Self.groupID) == Self.consent)
            #expect(try await store.transferSubject(accountID: "acct-1", fromTeamID: "TEAM123456", toTeamID: Self.recipient) == nil)
            #expect(try await store.transfers(groupID: Self.groupID).isEmpty)

            // The same transfer on the working store applies in full.
            let transfer = try await working.transfer(groupID: Self.groupID, to: Self.recipient)
            let moved = try #require(try await store.teamIdentity(accountID: "acct-1", teamID: Self.recipient))
            #expect(moved.relayAddress != nil && moved.subject != Self.identity.subject)
            #expect(try await store.consent(accountID: "acct-1", groupID: Self.groupID)?.email == moved.relayAddress)
            #expect(try await store.appGroup(Self.groupID)?.teamID == Self.recipient)
            #expect(try await store.grant(id: "grant-1")?.revokedAt == Fixture.date(60))
            #expect(try await store.teamIdentity(accountID: "acct-1", teamID: "TEAM123456")?.relayForwardingEnabled == false)
            #expect(try await store.transfers(groupID: Self.groupID) == [transfer])
        }
    }
}
