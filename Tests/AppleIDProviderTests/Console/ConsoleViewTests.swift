import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Testing

@Suite("The console's team-scoped view")
struct ConsoleViewTests {
    static let teamA: TeamID = "TEAMAAAAAA"
    static let teamB: TeamID = "TEAMBBBBBB"

    @Test("a console read for team A does not return team B's Services ID, even asked by its identifier")
    func otherTeamsClientByID() async throws {
        let harness = try await ProviderHarness.make()
        let view = harness.provider.console(team: Self.teamA)
        #expect(try await view.servicesID("com.a.app.web")?.teamID == Self.teamA)
        #expect(try await view.servicesID("com.b.app.web") == nil)
        #expect(try await view.clients().map(\.id) == ["com.a.app.web"])
        #expect(try await view.appGroups().map(\.primaryAppID) == ["com.a.app"])
    }

    @Test("an App ID is not a Services ID, and an unknown identifier is nothing")
    func onlyServicesIDs() async throws {
        let harness = try await ProviderHarness.make()
        let app = try await harness.provider.createAppID(teamID: Self.teamA, bundleID: "com.a.second", description: "Second")
        let view = harness.provider.console(team: Self.teamA)
        #expect(try await view.servicesID(app.id) == nil)
        #expect(try await view.servicesID("com.nobody.web") == nil)
    }

    @Test("the view reads its own team and counts authorizations only of the team's identifiers")
    func teamAndCounts() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.authorize(group: "com.b.app", hideEmail: false)
        #expect(try await harness.provider.console(team: Self.teamA).team()?.id == Self.teamA)
        #expect(try await harness.provider.console(team: Self.teamB).authorizationCount(clientID: "com.b.app.web") == 1)
        #expect(try await harness.provider.console(team: Self.teamA).authorizationCount(clientID: "com.b.app.web") == 0)
    }
}
