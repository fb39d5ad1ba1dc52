import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging
import Testing

/// What removing an identifier does to the users who signed in with it (security review 3, finding
/// 2): consents and grants belong to the registration, not to the string, so nothing of them survives
/// the removal, and a removed identifier is not given to another team.
@Suite("Console identifiers: a removed identifier leaves nothing behind")
struct IdentifierRemovalTests {
    static let team = ProviderHarness.teamA
    static let otherTeam = ProviderHarness.teamB

    /// Team A's primary App ID `com.a.solo` with its Services ID, and Maria signed in to it (e-mail hidden).
    static func signedInToSolo(_ harness: ProviderHarness) async throws -> String {
        _ = try await harness.provider.createAppID(teamID: team, bundleID: "com.a.solo", description: "Solo")
        _ = try await harness.provider.setNotificationEndpoint("https://solo.a.example/apple", groupID: "com.a.solo", teamID: team)
        _ = try await harness.provider.createServicesID(
            teamID: team, identifier: "com.a.solo.web", description: "Solo web", primaryAppID: "com.a.solo",
            domains: ["solo.a.example"], returnURLs: ["https://solo.a.example/cb"])
        let answer = try await authorizeSolo(harness)
        #expect(answer.issued?.user != nil, "the first sign-in sends user")
        return try #require(await harness.store.account(appleID: "maria@example.com")).id
    }

    static func authorizeSolo(_ harness: ProviderHarness) async throws -> AuthorizationResponse {
        let request = AuthorizationRequest(
            clientID: "com.a.solo.web", redirectURI: "https://solo.a.example/cb", responseType: "code id_token",
            responseMode: "form_post", scope: "name email", state: "s", nonce: "n")
        let choices = ConsentChoices(firstName: "Maria", lastName: "Ruiz", hideEmail: true)
        guard case .answered(let answer) = try await harness.provider.authorizeHeadless(request, appleID: "maria@example.com", choices: choices)
        else { throw ProviderHarness.HarnessError.notAnswered }
        return answer
    }

    static func removeSolo(_ harness: ProviderHarness) async throws {
        try await harness.provider.removeIdentifier("com.a.solo.web", teamID: team)
        try await harness.provider.removeIdentifier("com.a.solo", teamID: team)
    }

    @Test("removing a primary App ID revokes its users' grants, forgets their consents and tells the app consent-revoked")
    func removalRevokesAndForgets() async throws {
        let harness = try await ProviderHarness.make()
        let accountID = try await Self.signedInToSolo(harness)
        #expect(try await harness.store.consents(accountID: accountID).map(\.groupID) == ["com.a.solo"])
        try await Self.removeSolo(harness)
        #expect(try await harness.store.consents(accountID: accountID).isEmpty)
        #expect(try await harness.provider.authorizationCount(clientID: "com.a.solo.web") == 0)
        let messages = try await harness.store.messages(groupID: "com.a.solo", limit: 10)
        #expect(messages.map(\.event.type) == [.consentRevoked])
        let subject = try #require(await harness.store.teamIdentity(accountID: accountID, teamID: Self.team)).subject
        #expect(messages.map(\.event.subject) == [subject.rawValue])
    }

    @Test("the removed App ID's consent-revoked notification still reaches its last endpoint")
    func removedEndpointKept() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await Self.signedInToSolo(harness)
        try await Self.removeSolo(harness)
        let delivery = NotificationDelivery(provider: harness.provider, sender: AnsweringSender(), logger: Logger(label: "test"))
        let reports = try await delivery.deliverDueMessagesReporting()
        #expect(reports.map(\.message.event.type) == [.consentRevoked])
        #expect(reports.map(\.attempt.endpoint) == ["https://solo.a.example/apple"])
    }

    @Test("another team cannot register an identifier that was removed, and is told why")
    func removedRefusedToAnotherTeam() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await Self.signedInToSolo(harness)
        try await Self.removeSolo(harness)
        let refusal = ConsoleError.refused(
            "The identifier com.a.solo is not available: it was registered and removed, and identifiers are unique across all teams. Choose another.")
        await #expect(throws: refusal) {
            _ = try await harness.provider.createAppID(teamID: Self.otherTeam, bundleID: "com.a.solo", description: "Mine now")
        }
        await #expect(throws: refusal) {
            try await harness.provider.checkNewIdentifier("com.a.solo", description: "Mine now", kind: .app, teamID: Self.otherTeam)
        }
        #expect(try await harness.store.client("com.a.solo") == nil)
    }

    @Test("registered again by its own team, a removed identifier is a fresh registration: the next sign-in is a first one")
    func reRegisteredInheritsNothing() async throws {
        let harness = try await ProviderHarness.make()
        let accountID = try await Self.signedInToSolo(harness)
        try await Self.removeSolo(harness)
        _ = try await harness.provider.createAppID(teamID: Self.team, bundleID: "com.a.solo", description: "Solo again")
        _ = try await harness.provider.createServicesID(
            teamID: Self.team, identifier: "com.a.solo.web", description: "Solo web", primaryAppID: "com.a.solo",
            domains: ["solo.a.example"], returnURLs: ["https://solo.a.example/cb"])
        #expect(try await harness.store.consents(accountID: accountID).isEmpty)
        let again = try await Self.authorizeSolo(harness)
        #expect(again.issued?.user != nil, "a sign-in after the removal is a first authorization again")
    }

    @Test("removing a Services ID revokes the grants issued to it; the group's consents stay")
    func servicesIDRemovalRevokesItsGrants() async throws {
        let harness = try await ProviderHarness.make()
        let accountID = try await Self.signedInToSolo(harness)
        #expect(try await harness.provider.authorizationCount(clientID: "com.a.solo.web") == 1)
        try await harness.provider.removeIdentifier("com.a.solo.web", teamID: Self.team)
        #expect(try await harness.provider.authorizationCount(clientID: "com.a.solo.web") == 0)
        #expect(try await harness.store.consents(accountID: accountID).map(\.groupID) == ["com.a.solo"])
    }

    /// Answers 200 to every notification.
    struct AnsweringSender: NotificationSender {
        func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int { 200 }
    }
}
