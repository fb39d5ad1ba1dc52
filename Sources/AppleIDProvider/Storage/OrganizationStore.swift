import AppleIDProtocol
import Foundation

/// Organizations, their Managed Apple IDs, and the revocations an access rule change schedules.
public protocol OrganizationStore: Sendable {
    func organization(id: UUID) async throws -> Organization?
    /// Every organization, by name.
    func organizations() async throws -> [Organization]
    /// Inserts or replaces the organization; with `withdrawal`, schedules it in the same transaction
    /// unless one is already pending for the organization (the earlier one stays: it covers this
    /// change too, since it revokes whatever the organization no longer allows when it runs).
    func save(_ organization: Organization, withdrawal: PendingWithdrawal?) async throws
    /// The organization's Managed Apple IDs, deleted ones included, oldest first.
    func accounts(organizationID: UUID) async throws -> [AppleIDAccount]
    /// Withdrawals due at `now`, earliest first.
    func dueWithdrawals(at now: Date, limit: Int) async throws -> [PendingWithdrawal]
    /// Revokes the grants and forgets the consents of `revocations` (account and app group), writes
    /// `messages` and removes the pending withdrawal: all or nothing.
    func complete(
        _ withdrawal: PendingWithdrawal, revoking revocations: [ConsentKey], at date: Date, notifying messages: [OutboxMessage]
    ) async throws
}

/// One user's consent for one app group.
public struct ConsentKey: Sendable, Hashable {
    public var accountID: String
    public var groupID: ClientID

    public init(accountID: String, groupID: ClientID) {
        self.accountID = accountID
        self.groupID = groupID
    }
}
