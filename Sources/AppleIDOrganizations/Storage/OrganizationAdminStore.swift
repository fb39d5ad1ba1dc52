import AppleIDProvider
import Foundation

/// What an organization's administration stores beside the engine's records (in the same database):
/// the organizations and the withdrawals their changes schedule, and the list of their accounts.
public protocol OrganizationAdminStore: Sendable {
    /// Every organization, by name.
    func organizations() async throws -> [Organization]
    /// Inserts or replaces the organization; with `withdrawal`, schedules it in the same transaction
    /// unless one is already pending for the organization (the earlier one stays: it covers this
    /// change too, since it revokes whatever the organization no longer allows when it runs). A
    /// pending withdrawal that a pass has claimed is handed back, so that it runs again under the
    /// organization's new rule (the engine's withdrawal pass, `OrganizationStore.complete`, then
    /// writes nothing).
    func save(_ organization: Organization, withdrawal: PendingWithdrawal?) async throws
    /// The organization's Managed Apple IDs, deleted ones included, oldest first.
    func accounts(organizationID: UUID) async throws -> [AppleIDAccount]
}
