import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("The failed-attempt limit holds under concurrent guesses")
struct FailedAttemptLimitTests {
    @Test("20 concurrent wrong passwords: 5 are checked (4 retries, then the sign-in is over), 15 meet the Apple ID's lock unchecked")
    func concurrentWrongPasswords() async throws {
        let harness = try await ProviderHarness.make()
        let request = AuthorizationRequest(
            clientID: "com.a.app.web", redirectURI: "https://com.a.app/callback", responseType: "code", responseMode: "query", state: "s")
        guard case .valid(let validated) = try await harness.provider.validate(request) else {
            Issue.record("the request did not validate")
            return
        }
        let interaction = try await harness.provider.interactions.start(validated, browserBinding: "browser", session: nil)
        let outcomes = try await withThrowingTaskGroup(of: InteractionService.Outcome.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await harness.provider.interactions.signIn(interaction, appleID: "maria@example.com", password: "wrong \(index)").0
                }
            }
            var outcomes: [InteractionService.Outcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let messages = outcomes.compactMap { if case .show(_, let message) = $0 { message } else { nil } }
        let ended = outcomes.filter { if case .invalid = $0 { true } else { false } }
        let retries = messages.filter { $0 == "Your Apple ID or password was incorrect." }
        let locked = messages.filter { $0.hasPrefix("Too many failed attempts with this Apple ID") }
        #expect(retries.count == harness.provider.configuration.maximumFailedAttempts - 1)
        #expect(ended.count == 1)
        #expect(
            retries.count + ended.count == harness.provider.configuration.signInLock.backoffFrom,
            "only the attempts before the Apple ID's lock are checked")
        #expect(locked.count == 20 - harness.provider.configuration.signInLock.backoffFrom)
        #expect(try await harness.store.interaction(id: interaction.id) == nil)
        let reloaded = try await harness.provider.interactions.load(id: interaction.id, browserBinding: "browser", csrfToken: nil)
        #expect(reloaded == nil, "the pages load the interaction first: it is gone for good")
    }
}
