import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Testing

extension StoreConformanceTests {
    // MARK: Team invitations

    static let invitationTime = Date(timeIntervalSince1970: 1_800_000_000)

    static func invitation(_ hash: String, _ email: String, team: TeamID = "TEAMINVITE", expiresIn seconds: TimeInterval = 600) -> TeamInvitation {
        TeamInvitation(
            idHash: hash, teamID: team, email: email, invitedBy: "dev-1", createdAt: invitationTime,
            expiresAt: invitationTime.addingTimeInterval(seconds))
    }

    @Test(
        "an invitation replaces the team's pending one of the same address, and the team's pending count is bounded", arguments: StoreKind.available)
    func invitationsAddedWithinLimit(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let now = Self.invitationTime
            #expect(try await store.add(Self.invitation("hash-a1", "a@example.com"), limit: 2, now: now))
            #expect(try await store.add(Self.invitation("hash-a2", "a@example.com"), limit: 2, now: now))
            #expect(try await store.invitation(idHash: "hash-a1") == nil)
            #expect(try await store.add(Self.invitation("hash-b", "b@example.com"), limit: 2, now: now))
            #expect(try await !store.add(Self.invitation("hash-c", "c@example.com"), limit: 2, now: now))
            #expect(try await store.add(Self.invitation("hash-other", "c@example.com", team: "TEAMOTHER0"), limit: 2, now: now))
            #expect(try await Set(store.invitations(teamID: "TEAMINVITE", now: now).map(\.idHash)) == ["hash-a2", "hash-b"])
            #expect(try await store.invitations(teamID: "TEAMINVITE", now: now.addingTimeInterval(600)).isEmpty)
            #expect(try await store.invitation(idHash: "hash-b") == Self.invitation("hash-b", "b@example.com"))
            #expect(try await store.deleteInvitation(teamID: "TEAMINVITE", email: "B@example.com"))
            #expect(try await !store.deleteInvitation(teamID: "TEAMINVITE", email: "b@example.com"))
            #expect(try await store.purgeInvitations(expiredBefore: now.addingTimeInterval(601)) == 2)
            #expect(try await store.invitation(idHash: "hash-a2") == nil)
        }
    }

    @Test(
        "redeeming an invitation grants its team in one step, once; an expired one or the wrong account changes nothing",
        arguments: StoreKind.available)
    func invitationRedeemedOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let now = Self.invitationTime
            let ann = DeveloperAccount(id: "dev-ann", email: "ann@example.com", name: "Ann", passwordHash: "hash", teamIDs: ["TEAMFIRST0"])
            try await store.save(ann)
            _ = try await store.add(Self.invitation("hash-ann", "ann@example.com"), limit: 10, now: now)
            _ = try await store.add(Self.invitation("hash-new", "new@example.com"), limit: 10, now: now)
            _ = try await store.add(Self.invitation("hash-late", "late@example.com", expiresIn: 60), limit: 10, now: now)

            let impostor = DeveloperAccount(id: "dev-x", email: "ann@example.com", name: "X", passwordHash: "hash", teamIDs: [])
            #expect(try await store.redeemInvitation(idHash: "hash-ann", now: now, registering: impostor) == nil)
            #expect(try await store.redeemInvitation(idHash: "hash-new", now: now, registering: nil) == nil)
            #expect(try await store.invitation(idHash: "hash-ann") != nil, "a refused redemption leaves the invitation usable")
            #expect(try await store.developer(email: "ann@example.com") == ann)

            async let first = store.redeemInvitation(idHash: "hash-ann", now: now, registering: nil)
            async let second = store.redeemInvitation(idHash: "hash-ann", now: now, registering: nil)
            let results = [try await first, try await second]
            #expect(results.compactMap { $0 }.count == 1)
            #expect(try await store.developer(email: "ann@example.com")?.teamIDs == ["TEAMFIRST0", "TEAMINVITE"])

            let new = DeveloperAccount(id: "dev-new", email: "new@example.com", name: "New", passwordHash: "hash", teamIDs: [])
            #expect(try await store.redeemInvitation(idHash: "hash-new", now: now, registering: new)?.teamIDs == ["TEAMINVITE"])
            #expect(try await store.developers(teamID: "TEAMINVITE").map(\.id).sorted() == ["dev-ann", "dev-new"])
            #expect(try await store.redeemInvitation(idHash: "hash-late", now: now.addingTimeInterval(60), registering: nil) == nil)
        }
    }

    @Test("signing out a developer's other sessions keeps the one named and everyone else's", arguments: StoreKind.available)
    func otherSessionsDeleted(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let expires = Self.invitationTime.addingTimeInterval(3600)
            for (hash, developer) in [("s1", "dev-a"), ("s2", "dev-a"), ("s3", "dev-a"), ("s4", "dev-b")] {
                try await store.save(ConsoleSession(idHash: hash, developerID: developer, teamID: "TEAMINVITE", csrfToken: "c", expiresAt: expires))
            }
            #expect(try await store.deleteConsoleSessions(developerID: "dev-a", except: "s1") == 2)
            #expect(try await store.consoleSession(idHash: "s1") != nil)
            #expect(try await store.consoleSession(idHash: "s2") == nil)
            #expect(try await store.consoleSession(idHash: "s4") != nil)
        }
    }
}

extension StoreConformanceTests {
    // MARK: Transfer offers

    @Test(
        "a transfer offer is listed for both teams, replaced by a newer offer of its group, taken once by its recipient",
        arguments: StoreKind.available)
    func transferOfferTakenOnce(kind: StoreKind) async throws {
        try await kind.withStore { (store: any ConformingStore) async throws in
            let now = Self.invitationTime
            func offer(to team: TeamID) -> TransferOffer {
                TransferOffer(
                    groupID: "com.offer.app", fromTeamID: "TEAMSENDER", toTeamID: team, offeredBy: "dev-1", offeredAt: now,
                    expiresAt: now.addingTimeInterval(600))
            }
            try await store.save(offer(to: "TEAMWRONG0"))
            try await store.save(offer(to: "TEAMRECIPI"))
            #expect(try await store.transferOffers(involving: "TEAMWRONG0", now: now).isEmpty, "a newer offer of the group replaces the older")
            #expect(try await store.transferOffers(involving: "TEAMSENDER", now: now) == [offer(to: "TEAMRECIPI")])
            #expect(try await store.transferOffers(involving: "TEAMRECIPI", now: now) == [offer(to: "TEAMRECIPI")])
            #expect(try await store.takeTransferOffer(groupID: "com.offer.app", toTeamID: "TEAMWRONG0", now: now) == nil)
            #expect(try await store.takeTransferOffer(groupID: "com.offer.app", toTeamID: "TEAMRECIPI", now: now.addingTimeInterval(600)) == nil)
            async let first = store.takeTransferOffer(groupID: "com.offer.app", toTeamID: "TEAMRECIPI", now: now)
            async let second = store.takeTransferOffer(groupID: "com.offer.app", toTeamID: "TEAMRECIPI", now: now)
            #expect([try await first, try await second].compactMap { $0 } == [offer(to: "TEAMRECIPI")])
            try await store.save(offer(to: "TEAMRECIPI"))
            #expect(try await !store.deleteTransferOffer(groupID: "com.offer.app", fromTeamID: "TEAMRECIPI"))
            #expect(try await store.deleteTransferOffer(groupID: "com.offer.app", fromTeamID: "TEAMSENDER"))
            #expect(try await store.transferOffers(involving: "TEAMSENDER", now: now).isEmpty)
        }
    }
}
