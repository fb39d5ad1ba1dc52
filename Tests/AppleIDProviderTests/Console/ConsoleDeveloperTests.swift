import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Console developers: bcrypt passwords, limited attempts, stored sessions, teams")
struct ConsoleDeveloperTests {
    static let teams: [TeamID] = ["TEAMAAAAAA", "TEAMBBBBBB"]

    @Test("a developer signs in with the right password; the session lives in the store and switches between the developer's teams")
    func signIn() async throws {
        let harness = try await ProviderHarness.make()
        let developer = try await harness.provider.registerDeveloper(
            email: "Dev@Example.com", name: "Dev", password: "correct horse", teamIDs: Self.teams)
        #expect(developer.passwordHash.hasPrefix("$2"))
        guard case .passed(let signIn) = try await harness.provider.signInDeveloper(email: "dev@example.com", password: "correct horse") else {
            Issue.record("the right password was refused")
            return
        }
        #expect(try await harness.store.consoleSession(idHash: signIn.session.idHash) != nil)
        #expect(signIn.session.idHash != signIn.cookie)
        #expect(try await harness.provider.consoleSession(cookie: signIn.cookie)?.session.teamID == Self.teams[0])
        try await harness.provider.switchTeam(cookie: signIn.cookie, to: Self.teams[1])
        #expect(try await harness.provider.consoleSession(cookie: signIn.cookie)?.session.teamID == Self.teams[1])
        await #expect(throws: ConsoleError.self) { try await harness.provider.switchTeam(cookie: signIn.cookie, to: "NOTMINE000") }
        harness.clock.advance(by: harness.provider.configuration.consoleSessionLifetime)
        #expect(try await harness.provider.consoleSession(cookie: signIn.cookie) == nil)
    }

    @Test("wrong passwords lock the developer as they lock an Apple ID; an unknown e-mail is just incorrect")
    func attemptsLimited() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(email: "dev@example.com", name: "Dev", password: "correct horse", teamIDs: Self.teams)
        let policy = harness.provider.configuration.signInLock
        for _ in 1..<policy.backoffFrom {
            guard case .incorrect = try await harness.provider.signInDeveloper(email: "dev@example.com", password: "wrong") else {
                Issue.record("a wrong password passed")
                return
            }
        }
        // This attempt is counted before its check and locks the developer, right or wrong.
        _ = try await harness.provider.signInDeveloper(email: "dev@example.com", password: "wrong")
        guard case .locked = try await harness.provider.signInDeveloper(email: "dev@example.com", password: "correct horse") else {
            Issue.record("the developer was not locked")
            return
        }
        guard case .incorrect = try await harness.provider.signInDeveloper(email: "nobody@example.com", password: "x") else {
            Issue.record("an unknown developer was not refused")
            return
        }
        harness.clock.advance(by: policy.backoffStep + 1)
        guard case .passed = try await harness.provider.signInDeveloper(email: "dev@example.com", password: "correct horse") else {
            Issue.record("the lock did not end")
            return
        }
    }

    @Test("a developer needs an existing team, an address, and a password of 8 characters")
    func registration() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.registerDeveloper(email: "dev@example.com", name: "D", password: "short", teamIDs: Self.teams)
        }
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.registerDeveloper(email: "dev@example.com", name: "D", password: "long enough", teamIDs: ["NOSUCHTEAM"])
        }
        _ = try await harness.provider.registerDeveloper(email: "dev@example.com", name: "D", password: "long enough", teamIDs: Self.teams)
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.registerDeveloper(email: "DEV@example.com", name: "D", password: "long enough", teamIDs: Self.teams)
        }
    }
}
