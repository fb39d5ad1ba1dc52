import AppleIDProtocol
import Foundation

/// What the engine reads of organizations (their access rule, at sign-in), and the revocations an
/// access rule change schedules. Their administration keeps its own store (`AppleIDOrganizations`).
public protocol OrganizationStore: Sendable {
    func organization(id: UUID) async throws -> Organization?
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
