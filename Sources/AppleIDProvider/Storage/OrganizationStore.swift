import AppleIDProtocol
import Foundation

/// Organizations, their Managed Apple IDs, and the revocations an access rule change schedules.
public protocol OrganizationStore: Sendable {
    func organization(id: UUID) async throws -> Organization?
    /// Every organization, by name.
    func organizations() async throws -> [Organization]
    /// Inserts or replaces the organization; with `withdrawal`, schedules it in the same transaction
    /// unless one is already pending for the organization (the earlier one stays: it covers this
    /// change too, since it revokes whatever the organization no longer allows when it runs). A
    /// pending withdrawal that a pass has claimed is handed back, so that it runs again under the
    /// organization's new rule (the pass's ``complete(_:holder:revokingOutside:at:notifying:)`` then
    /// writes nothing).
    func save(_ organization: Organization, withdrawal: PendingWithdrawal?) async throws
    /// The organization's Managed Apple IDs, deleted ones included, oldest first.
    func accounts(organizationID: UUID) async throws -> [AppleIDAccount]
    /// Claims up to `limit` withdrawals due at `now` for `holder` until `expiry`, in one step, as
    /// ``OutboxLeaseStore`` leases messages: those nobody claimed, or whose claim ran out (its
    /// instance died or hangs). Earliest first. Of concurrent callers, each withdrawal goes to one.
    func claimDueWithdrawals(at now: Date, holder: String, until expiry: Date, limit: Int) async throws -> [PendingWithdrawal]
    /// The consents the organization's live accounts gave to app groups other than `kept`, each with
    /// its user's `sub` in the group's team: one read, however many members.
    func consents(organizationID: UUID, outside kept: [ClientID]) async throws -> [OrganizationConsent]
    /// While `holder` holds the withdrawal: revokes the grants and forgets the consents of the
    /// organization's accounts to app groups other than `kept` (`nil`: none), writes `messages` and
    /// removes the withdrawal, all or nothing. Answers `false`, having written nothing, when `holder`
    /// no longer holds it (another instance took it over, or the organization changed meanwhile).
    func complete(
        _ withdrawal: PendingWithdrawal, holder: String, revokingOutside kept: [ClientID]?, at date: Date, notifying messages: [OutboxMessage]
    ) async throws -> Bool
}

/// A Managed Apple ID's consent for an app group, and the `sub` the group's team knows the user by
/// (`nil` when the group or the user's team identity is gone: there is nobody to tell).
public struct OrganizationConsent: Sendable, Hashable {
    public var accountID: String
    public var groupID: ClientID
    public var subject: Subject?

    public init(accountID: String, groupID: ClientID, subject: Subject?) {
        self.accountID = accountID
        self.groupID = groupID
        self.subject = subject
    }
}
