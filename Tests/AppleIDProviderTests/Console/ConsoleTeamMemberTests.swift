import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Console team members: adding developers by e-mail, within the team type's limit")
struct ConsoleTeamMemberTests {
    @Test("an existing developer joins an organization by e-mail; someone new is created with the first password given")
    func organization() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(
            email: "owner@example.com", name: "Owner", password: "owner password", teamIDs: ["TEAMAAAAAA"])
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMBBBBBB"])
        let ann = try await harness.provider.addTeamMember(email: " Ann@Example.com ", name: nil, password: nil, teamID: "TEAMAAAAAA")
        #expect(ann.teamIDs == ["TEAMBBBBBB", "TEAMAAAAAA"])
        await #expect(throws: ConsoleError.refused("ann@example.com is already a member of TEAMAAAAAA.")) {
            try await harness.provider.addTeamMember(email: "ann@example.com", name: nil, password: nil, teamID: "TEAMAAAAAA")
        }
        await #expect(throws: ConsoleError.self) {
            try await harness.provider.addTeamMember(email: "new@example.com", name: "New", password: nil, teamID: "TEAMAAAAAA")
        }
        let new = try await harness.provider.addTeamMember(email: "new@example.com", name: "New", password: "new password", teamID: "TEAMAAAAAA")
        #expect(new.teamIDs == ["TEAMAAAAAA"])
        guard case .passed = try await harness.provider.signInDeveloper(email: "new@example.com", password: "new password") else {
            Issue.record("the new member cannot sign in")
            return
        }
        #expect(try await harness.provider.members(of: "TEAMAAAAAA").map(\.email) == ["ann@example.com", "new@example.com", "owner@example.com"])
    }

    @Test("an individual team has one member: adding or registering a second is refused")
    func individual() async throws {
        let harness = try await ProviderHarness.make()
        try await harness.store.save(DeveloperTeam(id: "SOLOTEAM00", name: "Solo", kind: .individual))
        _ = try await harness.provider.registerDeveloper(email: "solo@example.com", name: "Solo", password: "solo password", teamIDs: ["SOLOTEAM00"])
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMAAAAAA"])
        let refusal = ConsoleError.refused("SOLOTEAM00 is an individual team: it has one member. Only an organization can add developers.")
        await #expect(throws: refusal) {
            try await harness.provider.addTeamMember(email: "ann@example.com", name: nil, password: nil, teamID: "SOLOTEAM00")
        }
        await #expect(throws: refusal) {
            _ = try await harness.provider.registerDeveloper(email: "bob@example.com", name: "Bob", password: "bob password", teamIDs: ["SOLOTEAM00"])
        }
        #expect(try await harness.provider.members(of: "SOLOTEAM00").map(\.email) == ["solo@example.com"])
        await #expect(throws: ConsoleError.notFound("There is no team NOSUCHTEAM.")) {
            try await harness.provider.addTeamMember(email: "ann@example.com", name: nil, password: nil, teamID: "NOSUCHTEAM")
        }
    }
}
