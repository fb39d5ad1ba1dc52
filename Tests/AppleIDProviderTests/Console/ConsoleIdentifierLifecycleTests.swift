import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// The portal's register, edit and remove rules, at the engine: a review that saves nothing, a Bundle
/// ID that cannot be edited, and a primary App ID that cannot be removed while others depend on it.
@Suite("Console identifiers: review, edit and remove as Apple's portal allows")
struct ConsoleIdentifierLifecycleTests {
    static let team: TeamID = "TEAMAAAAAA"

    @Test("reviewing a new Services ID checks every rule and saves nothing; its Return URLs come back normalized")
    func reviewSavesNothing() async throws {
        let harness = try await ProviderHarness.make()
        let reviewed = try await harness.provider.reviewServicesID(
            teamID: Self.team, identifier: "com.a.app.shop", description: "Shop", primaryAppID: "com.a.app",
            domains: ["shop.a.example"], returnURLs: ["https://shop.a.example/cb", "https://shop.a.example/cb"])
        #expect(reviewed.returnURLs == ["https://shop.a.example/cb"])
        #expect(try await harness.store.client("com.a.app.shop") == nil)
        await #expect(throws: ConsoleError.invalid("Enter a description.")) {
            try await harness.provider.checkNewIdentifier("com.a.app.new", description: " ", teamID: Self.team)
        }
        await #expect(throws: ConsoleError.refused("An identifier com.a.app.web is already registered. Choose another.")) {
            try await harness.provider.checkNewIdentifier("com.a.app.web", description: "Web", teamID: Self.team)
        }
    }

    @Test("an App ID's description can be edited; its Bundle ID cannot")
    func editDescription() async throws {
        let harness = try await ProviderHarness.make()
        let app = try await harness.provider.createAppID(
            teamID: Self.team, bundleID: "com.a.app.watch", description: "Watch", groupedWith: "com.a.app")
        let edited = try await harness.provider.editAppID(app.id, teamID: Self.team, description: "  Watch app ")
        #expect(edited.id == "com.a.app.watch")
        #expect(try await harness.store.client(app.id)?.description == "Watch app")
        await #expect(throws: ConsoleError.notFound("There is no App ID com.a.app.watch in this team.")) {
            _ = try await harness.provider.editAppID(app.id, teamID: "TEAMBBBBBB", description: "Mine")
        }
    }

    @Test("a primary App ID that Services IDs are grouped under cannot be removed, and the reason names them")
    func primaryWithGroupRefused() async throws {
        let harness = try await ProviderHarness.make()
        let app = try await harness.provider.createAppID(teamID: Self.team, bundleID: "com.a.main", description: "Main")
        _ = try await harness.provider.createServicesID(teamID: Self.team, identifier: "com.a.main.web", description: "Web", primaryAppID: app.id)
        await #expect(
            throws: ConsoleError.refused(
                "com.a.main cannot be removed: com.a.main.web is grouped under it. Remove it or group it with another primary App ID first.")
        ) {
            try await harness.provider.removeIdentifier(app.id, teamID: Self.team)
        }
        #expect(try await harness.store.client(app.id) != nil)
        #expect(try await harness.store.appGroup(app.id) != nil)
    }

    @Test("a primary App ID with a key that is not revoked cannot be removed; once alone and keyless it is removed with its group")
    func primaryRemovedWhenAlone() async throws {
        let harness = try await ProviderHarness.make()
        let app = try await harness.provider.createAppID(teamID: Self.team, bundleID: "com.a.solo", description: "Solo")
        let key = try await harness.provider.createKey(teamID: Self.team, primaryAppID: app.id, name: "Solo key")
        await #expect(throws: ConsoleError.refused("com.a.solo cannot be removed: revoke its key \(key.id) first.")) {
            try await harness.provider.removeIdentifier(app.id, teamID: Self.team)
        }
        _ = try await harness.provider.revokeKey(key.id, teamID: Self.team)
        try await harness.provider.removeIdentifier(app.id, teamID: Self.team)
        #expect(try await harness.store.client(app.id) == nil)
        #expect(try await harness.store.appGroup(app.id) == nil)
    }

    @Test("a Services ID is removed only by its own team")
    func servicesIDRemoved() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: ConsoleError.notFound("There is no identifier com.a.app.web in this team.")) {
            try await harness.provider.removeIdentifier("com.a.app.web", teamID: "TEAMBBBBBB")
        }
        try await harness.provider.removeIdentifier("com.a.app.web", teamID: Self.team)
        #expect(try await harness.store.client("com.a.app.web") == nil)
    }

    @Test("a key has a name, which is required and can be changed; its primary App ID cannot")
    func keyName() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: ConsoleError.invalid("Enter a key name.")) {
            _ = try await harness.provider.createKey(teamID: Self.team, primaryAppID: "com.a.app", name: "  ")
        }
        let key = try await harness.provider.createKey(teamID: Self.team, primaryAppID: "com.a.app", name: "Web key")
        #expect(try await harness.store.developerKey(key.id)?.name == "Web key")
        _ = try await harness.provider.renameKey(key.id, teamID: Self.team, name: "Production web key")
        #expect(try await harness.store.developerKey(key.id)?.name == "Production web key")
    }
}
