import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("A developer's own account: change the password, sign out other browsers, leave a team")
struct ConsoleDeveloperAccountTests {
    static func signIn(_ harness: ProviderHarness, _ email: String, _ password: String) async throws -> String {
        guard case .passed(let signIn) = try await harness.provider.signInDeveloper(email: email, password: password) else {
            throw ConsoleError.refused("sign-in failed")
        }
        return signIn.cookie
    }

    @Test("a new password needs the current one, and signs out every other browser but this one")
    func changePassword() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "old password", teamIDs: ["TEAMAAAAAA"])
        let here = try await Self.signIn(harness, "ann@example.com", "old password")
        let elsewhere = try await Self.signIn(harness, "ann@example.com", "old password")
        guard case .incorrect = try await harness.provider.changeDeveloperPassword(cookie: here, current: "guess", new: "new password") else {
            Issue.record("a wrong current password changed it")
            return
        }
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.changeDeveloperPassword(cookie: here, current: "old password", new: "short")
        }
        guard case .passed = try await harness.provider.changeDeveloperPassword(cookie: here, current: "old password", new: "new password") else {
            Issue.record("the right current password did not change it")
            return
        }
        #expect(try await harness.provider.consoleSession(cookie: here) != nil)
        #expect(try await harness.provider.consoleSession(cookie: elsewhere) == nil)
        guard case .incorrect = try await harness.provider.signInDeveloper(email: "ann@example.com", password: "old password") else {
            Issue.record("the old password still signs in")
            return
        }
        _ = try await Self.signIn(harness, "ann@example.com", "new password")
    }

    @Test("signing out other browsers ends every session of the developer but this one, and nobody else's")
    func signOutOthers() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMAAAAAA"])
        _ = try await harness.provider.registerDeveloper(email: "bob@example.com", name: "Bob", password: "bob password", teamIDs: ["TEAMAAAAAA"])
        let here = try await Self.signIn(harness, "ann@example.com", "ann password")
        let others = [
            try await Self.signIn(harness, "ann@example.com", "ann password"), try await Self.signIn(harness, "ann@example.com", "ann password"),
        ]
        let bob = try await Self.signIn(harness, "bob@example.com", "bob password")
        #expect(try await harness.provider.signOutOtherSessions(cookie: here) == 2)
        #expect(try await harness.provider.consoleSession(cookie: here) != nil)
        for cookie in others { #expect(try await harness.provider.consoleSession(cookie: cookie) == nil) }
        #expect(try await harness.provider.consoleSession(cookie: bob) != nil)
    }

    @Test("leaving a team: not your only team, not its only member; a session working in it moves to your next team")
    func leaveTeam() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(
            email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMAAAAAA", "TEAMBBBBBB"])
        _ = try await harness.provider.registerDeveloper(email: "bob@example.com", name: "Bob", password: "bob password", teamIDs: ["TEAMAAAAAA"])
        let ann = try await Self.signIn(harness, "ann@example.com", "ann password")
        await #expect(throws: ConsoleError.refused("You are the only member of TEAMBBBBBB. Invite someone to take it over before you leave.")) {
            try await harness.provider.leaveTeam(cookie: ann, teamID: "TEAMBBBBBB")
        }
        try await harness.provider.leaveTeam(cookie: ann, teamID: "TEAMAAAAAA")
        #expect(try await harness.provider.members(of: "TEAMAAAAAA").map(\.email) == ["bob@example.com"])
        #expect(try await harness.provider.consoleSession(cookie: ann)?.session.teamID == "TEAMBBBBBB")
        let bob = try await Self.signIn(harness, "bob@example.com", "bob password")
        await #expect(throws: ConsoleError.refused("TEAMAAAAAA is your only team. A developer account belongs to one team at least.")) {
            try await harness.provider.leaveTeam(cookie: bob, teamID: "TEAMAAAAAA")
        }
        await #expect(throws: ConsoleError.notFound("You are not a member of team TEAMAAAAAA.")) {
            try await harness.provider.leaveTeam(cookie: ann, teamID: "TEAMAAAAAA")
        }
    }
}
