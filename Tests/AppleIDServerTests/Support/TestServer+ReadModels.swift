import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What the server's tests read back, through the engine's read models rather than its store.
extension TestServer {
    /// The account's team identity (its `sub` and relay address) in `teamID`, as its account page shows it.
    func teamIdentity(of account: AppleIDAccount, in teamID: TeamID = TestServer.teamID) async throws -> TeamIdentity? {
        try await provider.accountOverview(accountID: account.id).identities.first { $0.identity.teamID == teamID }?.identity
    }

    /// The account's consent for the app group, as its account page lists it.
    func consent(of account: AppleIDAccount, for group: ClientID = TestServer.bundleID) async throws -> Consent? {
        try await provider.accountOverview(accountID: account.id).apps.first { $0.consent.groupID == group }?.consent
    }

    /// The outbox (one group's, or every group's), as the delivery log shows it.
    func outbox(group: ClientID? = nil) async throws -> [OutboxMessage] {
        try await provider.deliveryLog(groupID: group, limit: 100).map(\.message)
    }

    func outboxMessage(id: String) async throws -> OutboxMessage? {
        try await outbox().first { $0.id == id }
    }
}
