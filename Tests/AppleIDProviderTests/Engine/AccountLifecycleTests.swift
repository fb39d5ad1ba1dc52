import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// What a user's actions on their Apple ID do to the apps that use it (spec §10, §17.3): the
/// tokens revoked, the consent reset, and the server-to-server notifications queued.
@Suite("Engine: account lifecycle")
struct AccountLifecycleTests {
    /// Maria's account id, once she has signed in to team A's and team B's apps.
    static func signedInToBothTeams(_ harness: ProviderHarness, hideEmail: Bool = false) async throws -> String {
        _ = try await harness.authorize(group: "com.a.app", hideEmail: hideEmail)
        _ = try await harness.authorize(group: "com.b.app", hideEmail: hideEmail)
        return try #require(await harness.store.account(appleID: "maria@example.com")).id
    }

    static func events(_ harness: ProviderHarness, group: ClientID) async throws -> [NotificationEventType] {
        try await harness.store.messages(groupID: group, limit: 10).map(\.event.type)
    }

    @Test("deleting the Apple ID tells every app it was used with, each by its team's subject, and ends sign-in")
    func deleteAccount() async throws {
        let harness = try await ProviderHarness.make()
        let accountID = try await Self.signedInToBothTeams(harness)
        let subjectA = try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: false)).subject
        try await harness.provider.lifecycle.deleteAccount(accountID: accountID)
        #expect(try await Self.events(harness, group: "com.a.app") == [harness.provider.configuration.accountDeletionEvent])
        #expect(try await Self.events(harness, group: "com.b.app") == [harness.provider.configuration.accountDeletionEvent])
        let toA = try await harness.store.messages(groupID: "com.a.app", limit: 10)
        #expect(toA.map(\.event.subject) == [subjectA.rawValue])
        let request = AuthorizationRequest(
            clientID: "com.a.app.web", redirectURI: "https://com.a.app/callback", responseType: "code", responseMode: "form_post", scope: "")
        guard case .unknownAppleID = try await harness.provider.authorizeHeadless(request, appleID: "maria@example.com") else {
            Issue.record("a deleted Apple ID still signs in")
            return
        }
    }

    @Test("stop using Apple ID with one app: only that app is told, and only its authorization ends")
    func stopUsing() async throws {
        let harness = try await ProviderHarness.make()
        let secretA = try await harness.clientSecret()
        let secretB = try await harness.clientSecret(group: "com.b.app", team: ProviderHarness.teamB)
        let tokensA = try await harness.redeem(try await harness.code(), secret: secretA).get()
        let tokensB = try await harness.redeem(try await harness.code(group: "com.b.app"), group: "com.b.app", secret: secretB).get()
        let accountID = try #require(await harness.store.account(appleID: "maria@example.com")).id
        try await harness.provider.lifecycle.stopUsing(accountID: accountID, groupID: "com.a.app")
        #expect(try await Self.events(harness, group: "com.a.app") == [.consentRevoked])
        #expect(try await Self.events(harness, group: "com.b.app") == [])
        #expect(await harness.refresh(try #require(tokensA.refreshToken), secret: secretA).failure?.code == .invalidGrant)
        #expect(try await harness.refresh(try #require(tokensB.refreshToken), group: "com.b.app", secret: secretB).get().idToken != nil)
    }

    @Test("turning relay forwarding off and on tells the team's apps once per change, with the relay address")
    func relayForwarding() async throws {
        let harness = try await ProviderHarness.make()
        let accountID = try await Self.signedInToBothTeams(harness, hideEmail: true)
        let lifecycle = harness.provider.lifecycle
        try await lifecycle.setRelayForwarding(accountID: accountID, teamID: ProviderHarness.teamA, enabled: false)
        try await lifecycle.setRelayForwarding(accountID: accountID, teamID: ProviderHarness.teamA, enabled: false)
        try await lifecycle.setRelayForwarding(accountID: accountID, teamID: ProviderHarness.teamA, enabled: true)
        let messages = try await harness.store.messages(groupID: "com.a.app", limit: 10)
        #expect(Set(messages.map(\.event.type)) == [.emailDisabled, .emailEnabled])
        #expect(messages.count == 2)
        let relay = try #require(messages.first?.event.email)
        #expect(relay.hasSuffix("@" + harness.provider.configuration.relayDomain))
        #expect(try await Self.events(harness, group: "com.b.app") == [])
    }

    @Test("relay forwarding cannot change for a team where the user shared the real address")
    func noRelayAddress() async throws {
        let harness = try await ProviderHarness.make()
        let accountID = try await Self.signedInToBothTeams(harness, hideEmail: false)
        await #expect(throws: LifecycleError.noRelayAddress(ProviderHarness.teamA)) {
            try await harness.provider.lifecycle.setRelayForwarding(accountID: accountID, teamID: ProviderHarness.teamA, enabled: false)
        }
    }
}
