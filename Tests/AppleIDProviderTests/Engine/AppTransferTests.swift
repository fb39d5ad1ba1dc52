import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// Moving an app group to another team and the 60 days of user migration that follow (spec §4.3,
/// §17.4): the sending team learns each user's transfer identifier, the recipient team turns it
/// into the user's new `sub`, which is the one the user signs in with from then on.
@Suite("Engine: app transfer and user migration")
struct AppTransferTests {
    /// A `user.migration` access token for the transferred web client, with `secret`.
    static func migration(_ harness: ProviderHarness, secret: String) async throws -> String {
        let request = TokenRequest(grantType: "client_credentials", clientID: "com.a.app.web", clientSecret: secret, scope: "user.migration")
        return try await harness.provider.token(request).get().accessToken
    }

    @Test("the old sub becomes a transfer_sub for the sender, and the new sub for the recipient, as signing in shows")
    func migration() async throws {
        let harness = try await ProviderHarness.make()
        let oldSubject = try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: true)).subject
        let senderSecret = try await harness.clientSecret()
        _ = try await harness.provider.transfers.transfer(groupID: "com.a.app", to: ProviderHarness.teamB)

        let senderToken = try await Self.migration(harness, secret: senderSecret)
        let sent = try await harness.provider.transfers.userMigrationInfo(
            UserMigrationRequest(
                subject: oldSubject.rawValue, target: ProviderHarness.teamB.rawValue, clientID: "com.a.app.web", clientSecret: senderSecret),
            bearerToken: senderToken
        ).get()
        guard case .transferSubject(let transferSubject) = sent else {
            Issue.record("the sending team got \(sent)")
            return
        }

        let recipientSecret = try await Self.recipientSecret(harness)
        let recipientToken = try await Self.migration(harness, secret: recipientSecret)
        let received = try await harness.provider.transfers.userMigrationInfo(
            UserMigrationRequest(transferSubject: transferSubject.rawValue, clientID: "com.a.app.web", clientSecret: recipientSecret),
            bearerToken: recipientToken
        ).get()
        guard case .migratedUser(let newSubject, let relay) = received else {
            Issue.record("the recipient team got \(received)")
            return
        }
        #expect(newSubject != oldSubject)
        #expect(relay?.hasSuffix("@" + harness.provider.configuration.relayDomain) == true)
        let signedIn = try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: true))
        #expect(signedIn.subject == newSubject)
    }

    /// A client secret for the transferred web client, signed by a key of the recipient team.
    static func recipientSecret(_ harness: ProviderHarness) async throws -> String {
        try await harness.clientSecret(group: "com.a.app", team: ProviderHarness.teamB)
    }

    @Test("after the 60-day window neither team gets a migration token")
    func windowCloses() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.authorize(group: "com.a.app", hideEmail: false)
        _ = try await harness.provider.transfers.transfer(groupID: "com.a.app", to: ProviderHarness.teamB)
        harness.clock.advance(by: AppTransfer.window)
        let secret = try await Self.recipientSecret(harness)
        let request = TokenRequest(grantType: "client_credentials", clientID: "com.a.app.web", clientSecret: secret, scope: "user.migration")
        let refused = try #require(await harness.provider.token(request).failure)
        #expect(refused.code == .unauthorizedClient)
    }

    @Test("an app group is not transferred to its own team or to a team that does not exist")
    func refusedTransfers() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: TransferError.sameTeam(ProviderHarness.teamA)) {
            _ = try await harness.provider.transfers.transfer(groupID: "com.a.app", to: ProviderHarness.teamA)
        }
        await #expect(throws: TransferError.unknownTeam("TEAMZZZZZZ")) {
            _ = try await harness.provider.transfers.transfer(groupID: "com.a.app", to: "TEAMZZZZZZ")
        }
    }
}
