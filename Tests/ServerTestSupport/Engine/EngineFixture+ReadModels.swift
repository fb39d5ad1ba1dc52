import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What the server's tests read back, through the engine's read models rather than its store.
extension EngineFixture {
    /// The account's team identity (its `sub` and relay address) in `teamID`, as its account page shows it.
    package func teamIdentity(of account: AppleIDAccount, in teamID: TeamID = TestEngine.teamID) async throws -> TeamIdentity? {
        try await provider.accountOverview(accountID: account.id).identities.first { $0.identity.teamID == teamID }?.identity
    }

    /// The account's consent for the app group, as its account page lists it.
    package func consent(of account: AppleIDAccount, for group: ClientID = TestEngine.bundleID) async throws -> Consent? {
        try await provider.accountOverview(accountID: account.id).apps.first { $0.consent.groupID == group }?.consent
    }

    /// The outbox (one group's, or every group's), as the delivery log shows it.
    package func outbox(group: ClientID? = nil) async throws -> [OutboxMessage] {
        try await provider.deliveryLog(groupID: group, limit: 100).map(\.message)
    }

    package func outboxMessage(id: String) async throws -> OutboxMessage? {
        try await outbox().first { $0.id == id }
    }
}
