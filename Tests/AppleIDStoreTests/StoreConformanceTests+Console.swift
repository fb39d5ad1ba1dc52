import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Testing

extension StoreConformanceTests {
    // MARK: Console

    @Test("the console's registry fields round-trip: team kind, description, domains, a key's revocation", arguments: StoreKind.available)
    func consoleRegistryFields(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let team = DeveloperTeam(id: "TEAMINDIVI", name: "Solo", kind: .individual)
            let web = RegisteredClient(
                id: "com.solo.web", kind: .service, teamID: team.id, groupID: "com.solo.app", returnURLs: ["https://solo.example.com/cb"],
                description: "Solo web", domains: ["solo.example.com"])
            let key = DeveloperKey(
                id: "KEYREVOKED", teamID: team.id, primaryAppID: "com.solo.app", publicKeyPEM: "pem",
                revokedAt: Date(timeIntervalSince1970: 1_800_000_000))
            try await store.save(team)
            try await store.save(AppGroup(primaryAppID: "com.solo.app", teamID: team.id, displayName: "Solo"))
            try await store.save(web)
            try await store.save(key)
            #expect(try await store.team(team.id) == team)
            #expect(try await store.client(web.id) == web)
            #expect(try await store.developerKey(key.id) == key)
            #expect(try await store.clients(teamID: team.id) == [web])
            #expect(try await store.appGroups(teamID: team.id).map(\.primaryAppID) == ["com.solo.app"])
            #expect(try await store.developerKeys(teamID: team.id) == [key])
            #expect(try await store.clients(teamID: "OTHERTEAM0").isEmpty)
            #expect(try await store.client(web.id, teamID: team.id) == web)
            #expect(try await store.client(web.id, teamID: "OTHERTEAM0") == nil, "another team's client is not found by its identifier")
            #expect(try await store.client("com.solo.none", teamID: team.id) == nil)
        }
    }

    @Test("a team's country round-trips, and saving without it clears it", arguments: StoreKind.available)
    func teamCountry(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var team = DeveloperTeam(id: "KOREAN0001", name: "Seoul", country: "KR")
            try await store.save(team)
            #expect(try await store.team(team.id)?.country == "KR")
            #expect(try await store.teams().map(\.country) == ["KR"])
            team.country = nil
            try await store.save(team)
            #expect(try await store.team(team.id)?.country == nil)
        }
    }

    @Test("every team is listed, by Team ID", arguments: StoreKind.available)
    func teamsListed(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.teams().isEmpty)
            let teams = [
                DeveloperTeam(id: "ZETA000001", name: "Zeta"), DeveloperTeam(id: "ALPHA00001", name: "Alpha", kind: .individual),
                DeveloperTeam(id: "0MEGA00001", name: "Omega"),
            ]
            for team in teams { try await store.save(team) }
            #expect(try await store.teams() == teams.sorted { $0.id.rawValue < $1.id.rawValue })
        }
    }

    @Test("a pending key download is taken once", arguments: StoreKind.available)
    func pendingDownloadTakenOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.savePendingDownload(keyID: "KEY1234567", privateKeyPEM: "private")
            #expect(try await store.hasPendingDownload(keyID: "KEY1234567"))
            async let first = store.takePendingDownload(keyID: "KEY1234567")
            async let second = store.takePendingDownload(keyID: "KEY1234567")
            let taken = try await [first, second].compactMap { $0 }
            #expect(taken == ["private"])
            #expect(try await !store.hasPendingDownload(keyID: "KEY1234567"))
        }
    }

    @Test("e-mail sources stop at the limit, all or none", arguments: StoreKind.available)
    func emailSourcesLimit(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            let sources = (0..<3).map { EmailSource(teamID: "TEAM123456", value: "m\($0).example.com", addedAt: at) }
            #expect(try await store.add(Array(sources.prefix(2)), limit: 3))
            #expect(
                try await !store.add(Array(sources.suffix(2)) + [EmailSource(teamID: "TEAM123456", value: "x.example.com", addedAt: at)], limit: 3))
            #expect(try await store.emailSources(teamID: "TEAM123456").map(\.value) == ["m0.example.com", "m1.example.com"])
            #expect(try await store.add(Array(sources.suffix(2)), limit: 3))
            #expect(try await store.emailSources(teamID: "TEAM123456").count == 3)
            try await store.deleteEmailSource(teamID: "TEAM123456", value: "m0.example.com")
            #expect(try await store.emailSources(teamID: "TEAM123456").map(\.value) == ["m1.example.com", "m2.example.com"])
        }
    }

    @Test("concurrent additions of e-mail sources never pass the team's limit together", arguments: StoreKind.available)
    func emailSourcesLimitUnderConcurrency(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            let added = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await store.add(
                            [
                                EmailSource(teamID: "TEAMRACE00", value: "s\(index).example.com", addedAt: at),
                                EmailSource(teamID: "TEAMRACE00", value: "t\(index).example.com", addedAt: at),
                            ], limit: 9)
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(added == 4)
            #expect(try await store.emailSources(teamID: "TEAMRACE00").count == 8)
        }
    }

    @Test("an e-mail source's SPF check and its time are kept; a removed source stays removed", arguments: StoreKind.available)
    func emailSourceCheck(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            #expect(try await store.add([EmailSource(teamID: "TEAM123456", value: "mail.example.com", addedAt: at)], limit: 3))
            try await store.setCheck(.verified, checkedAt: at.addingTimeInterval(5), teamID: "TEAM123456", value: "mail.example.com")
            try await store.setCheck(.spfMissing, checkedAt: at, teamID: "TEAM123456", value: "gone.example.com")
            #expect(
                try await store.emailSources(teamID: "TEAM123456") == [
                    EmailSource(teamID: "TEAM123456", value: "mail.example.com", addedAt: at, check: .verified, checkedAt: at.addingTimeInterval(5))
                ])
        }
    }

    @Test("developers have unique e-mail addresses; console sessions are found by their hash and deleted", arguments: StoreKind.available)
    func developersAndSessions(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let developer = DeveloperAccount(
                id: "d1", email: "Dev@Example.com", name: "Dev", passwordHash: "$2b$", teamIDs: ["TEAM123456", "OTHER12345"])
            try await store.save(developer)
            #expect(try await store.developer(email: "dev@example.com") == developer)
            #expect(try await store.developer(id: "d1")?.teamIDs == ["TEAM123456", "OTHER12345"])
            await #expect(throws: StoreError.self) {
                try await store.save(DeveloperAccount(id: "d2", email: "dev@example.com", name: "Twin", passwordHash: "x", teamIDs: ["TEAM123456"]))
            }
            let session = ConsoleSession(
                idHash: "hash", developerID: "d1", teamID: "TEAM123456", csrfToken: "csrf", expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
            try await store.save(session)
            #expect(try await store.consoleSession(idHash: "hash") == session)
            try await store.deleteConsoleSession(idHash: "hash")
            #expect(try await store.consoleSession(idHash: "hash") == nil)
            var later = session
            later.idHash = "later"
            later.expiresAt = session.expiresAt.addingTimeInterval(60)
            try await store.save(session)
            try await store.save(later)
            #expect(try await store.purgeConsoleSessions(expiredBefore: session.expiresAt.addingTimeInterval(1)) == 1)
            #expect(try await store.consoleSession(idHash: "hash") == nil)
            #expect(try await store.consoleSession(idHash: "later") == later)
        }
    }

    @Test("the request log keeps each client's newest entries, newest first, written in batches", arguments: StoreKind.available)
    func requestLogBounded(kind: StoreKind) async throws {
        try await kind.withStore { store in
            func entry(_ client: ClientID, _ second: Int) -> RequestLogEntry {
                RequestLogEntry(
                    clientID: client, endpoint: .token, at: Date(timeIntervalSince1970: 1_800_000_000 + Double(second)),
                    outcome: second == 4 ? "invalid_client" : "ok", reason: second == 4 ? "client secret expired 3 s ago" : "")
            }
            // Two batches, each with both clients: the trim of the second removes rows of the first.
            try await store.record((0..<3).flatMap { [entry("com.a.web", $0), entry("com.b.web", $0)] }, keepingLast: 3)
            try await store.record((3..<5).flatMap { [entry("com.a.web", $0), entry("com.b.web", $0)] }, keepingLast: 3)
            try await store.record([], keepingLast: 3)
            let log = try await store.requestLog(clientID: "com.a.web", proven: true, limit: 10)
            #expect(log.map(\.at.timeIntervalSince1970) == [1_800_000_004, 1_800_000_003, 1_800_000_002])
            #expect(log.first?.reason == "client secret expired 3 s ago")
            #expect(try await store.requestLog(clientID: "com.b.web", proven: true, limit: 2).count == 2)
            #expect(try await store.requestLog(clientID: "com.b.web", proven: true, limit: 10).count == 3)

            // Entries of one instant in one batch: the later in the batch is the newer.
            let instant = Date(timeIntervalSince1970: 1_800_000_100)
            let sameInstant = (0..<3).map {
                RequestLogEntry(clientID: "com.c.web", endpoint: .token, at: instant, outcome: "ok", reason: "request \($0)")
            }
            try await store.record(sameInstant, keepingLast: 2)
            #expect(try await store.requestLog(clientID: "com.c.web", proven: true, limit: 10).map(\.reason) == ["request 2", "request 1"])
        }
    }

    @Test("unproven entries are trimmed in their own bucket and never push out the client's proven ones", arguments: StoreKind.available)
    func requestLogBuckets(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let real = RequestLogEntry(
                clientID: "com.a.web", endpoint: .token, at: Date(timeIntervalSince1970: 1_800_000_000), outcome: "ok", reason: "")
            try await store.record([real], keepingLast: 3)
            let flood = (1...5).map {
                RequestLogEntry(
                    clientID: "com.a.web", endpoint: .authorize, at: Date(timeIntervalSince1970: 1_800_000_000 + Double($0)),
                    outcome: "invalid_request", reason: "flood \($0)", isProven: false)
            }
            try await store.record(flood, keepingLast: 3)
            #expect(try await store.requestLog(clientID: "com.a.web", proven: true, limit: 10) == [real])
            let unproven = try await store.requestLog(clientID: "com.a.web", proven: false, limit: 10)
            #expect(unproven.map(\.reason) == ["flood 5", "flood 4", "flood 3"])
            #expect(unproven.allSatisfy { !$0.isProven })
        }
    }
}

extension StoreConformanceTests {
    @Test("a key's name round-trips; removing a primary App ID deletes its group and nothing else", arguments: StoreKind.available)
    func keyNameAndDeleteClient(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let team = DeveloperTeam(id: "TEAMDELETE", name: "Delete")
            let key = DeveloperKey(id: "KEYNAMED01", teamID: team.id, primaryAppID: "com.delete.app", publicKeyPEM: "pem", name: "Web key")
            let app = RegisteredClient(id: "com.delete.app", kind: .app, teamID: team.id, groupID: "com.delete.app")
            let other = RegisteredClient(id: "com.delete.other", kind: .app, teamID: team.id, groupID: "com.delete.other")
            try await store.save(team)
            try await store.save(key)
            #expect(try await store.developerKey(key.id)?.name == "Web key")
            for client in [app, other] {
                try await store.save(AppGroup(primaryAppID: client.id, teamID: team.id, displayName: client.id.rawValue))
                try await store.save(client)
            }
            try await store.remove(
                IdentifierRemoval(
                    identifier: RemovedIdentifier(id: app.id, teamID: team.id, removedAt: Fixture.date(0)), groupID: app.id, messages: []))
            #expect(try await store.client(app.id) == nil)
            #expect(try await store.appGroup(app.id) == nil)
            #expect(try await store.client(other.id) == other)
            #expect(try await store.appGroup(other.id) != nil)
            #expect(try await store.developerKey(key.id) != nil, "a key is revoked, never deleted")
        }
    }
}
