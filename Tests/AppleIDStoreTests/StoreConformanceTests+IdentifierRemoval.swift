import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

extension StoreConformanceTests {
    @Test(
        "removing a primary App ID revokes its group's grants, forgets its consents, queues the messages and keeps it as removed, all at once",
        arguments: StoreKind.available)
    func identifierRemoval(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let team = DeveloperTeam(id: "TEAM123456", name: "Removal")
            let app = RegisteredClient(id: "com.example.app", kind: .app, teamID: team.id, groupID: "com.example.app")
            let web = RegisteredClient(id: "com.example.web", kind: .service, teamID: team.id, groupID: "com.example.app")
            try await store.save(team)
            try await store.save(AppGroup(primaryAppID: app.id, teamID: team.id, displayName: "App", notificationEndpoint: "https://a.example/n"))
            for client in [app, web] { try await store.save(client) }
            for account in ["acct-1", "acct-2"] {
                try await store.save(TeamIdentity(accountID: account, teamID: team.id, subject: Subject(rawValue: "sub-" + account)))
            }
            try await store.save(
                Consent(accountID: "acct-1", groupID: app.id, grantedAt: Fixture.date(1), scopes: [.email], email: nil, isPrivateEmail: false))
            try await store.save(
                Consent(accountID: "acct-2", groupID: app.id, grantedAt: Fixture.date(2), scopes: [], email: nil, isPrivateEmail: false))
            try await store.save(
                Consent(accountID: "acct-1", groupID: "com.other.app", grantedAt: Fixture.date(3), scopes: [], email: nil, isPrivateEmail: false))
            try await store.save(Fixture.grant(id: "g-group"))
            try await store.save(Fixture.grant(id: "g-other", groupID: "com.other.app"))
            #expect(try await store.consentingSubjects(groupID: app.id, teamID: team.id) == ["sub-acct-1", "sub-acct-2"])

            #expect(try await store.removedIdentifier(app.id) == nil)
            let removed = RemovedIdentifier(id: app.id, teamID: team.id, removedAt: Fixture.date(50), notificationEndpoint: "https://a.example/n")
            let message = Self.message("m-removed", group: app.id, at: 50)
            try await store.remove(IdentifierRemoval(identifier: removed, groupID: app.id, messages: [message]))

            #expect(try await store.client(app.id) == nil)
            #expect(try await store.appGroup(app.id) == nil)
            #expect(try await store.client(web.id) == web, "only the identifier named goes")
            #expect(try await store.consents(accountID: "acct-1").map(\.groupID) == ["com.other.app"])
            #expect(try await store.consents(accountID: "acct-2").isEmpty)
            #expect(try await store.consentingSubjects(groupID: app.id, teamID: team.id).isEmpty)
            #expect(try await store.grant(id: "g-group")?.revokedAt == Fixture.date(50))
            #expect(try await store.grant(id: "g-other")?.revokedAt == nil)
            #expect(try await store.message(id: "m-removed") == message)
            #expect(try await store.removedIdentifier(app.id) == removed)
        }
    }

    @Test("removing a Services ID revokes the grants issued to it and leaves its group's consents", arguments: StoreKind.available)
    func servicesIDRemoval(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.save(
                Consent(accountID: "acct-1", groupID: "com.example.app", grantedAt: Fixture.date(1), scopes: [], email: nil, isPrivateEmail: false))
            try await store.save(Fixture.grant(id: "g-web"))
            let removed = RemovedIdentifier(id: "com.example.web", teamID: "TEAM123456", removedAt: Fixture.date(60))
            try await store.remove(IdentifierRemoval(identifier: removed, groupID: nil, messages: []))
            #expect(try await store.grant(id: "g-web")?.revokedAt == Fixture.date(60))
            #expect(try await store.consents(accountID: "acct-1").map(\.groupID) == ["com.example.app"])
            #expect(try await store.removedIdentifier("com.example.web") == removed)
        }
    }
}
