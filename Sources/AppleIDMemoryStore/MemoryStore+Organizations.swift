import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation

extension MemoryStore: OrganizationStore, OrganizationAdminStore {
    public func organization(id: UUID) async throws -> Organization? { state.withLock { $0.organizations[id] } }

    public func organizations() async throws -> [Organization] {
        state.withLock { $0.organizations.values.sorted { ($0.name, $0.id.uuidString) < ($1.name, $1.id.uuidString) } }
    }

    public func save(_ organization: Organization, withdrawal: PendingWithdrawal?) async throws {
        state.withLock { state in
            state.organizations[organization.id] = organization
            state.withdrawalLeases[organization.id] = nil
            if let withdrawal, state.withdrawals[withdrawal.organizationID] == nil { state.withdrawals[withdrawal.organizationID] = withdrawal }
        }
    }

    public func accounts(organizationID: UUID) async throws -> [AppleIDAccount] {
        state.withLock { state in
            state.accounts.values.filter { $0.managed?.organizationID == organizationID }
                .sorted { ($0.createdAt, $0.appleID) < ($1.createdAt, $1.appleID) }
        }
    }

    public func claimDueWithdrawals(at now: Date, holder: String, until expiry: Date, limit: Int) async throws -> [PendingWithdrawal] {
        state.withLock { state in
            let claimed = state.withdrawals.values
                .filter { $0.dueAt <= now && (state.withdrawalLeases[$0.organizationID].map { $0.expiry <= now } ?? true) }
                .sorted { ($0.dueAt, $0.organizationID.uuidString) < ($1.dueAt, $1.organizationID.uuidString) }
                .prefix(max(0, limit))
            for withdrawal in claimed { state.withdrawalLeases[withdrawal.organizationID] = OutboxLease(holder: holder, expiry: expiry) }
            return Array(claimed)
        }
    }

    public func consents(organizationID: UUID, outside kept: [ClientID]) async throws -> [OrganizationConsent] {
        state.withLock { state in
            state.consents.values
                .filter { consent in
                    guard let account = state.accounts[consent.accountID], account.deletedAt == nil else { return false }
                    return account.managed?.organizationID == organizationID && !kept.contains(consent.groupID)
                }
                .map { consent in
                    let teamID = state.groups[consent.groupID]?.teamID
                    let subject = teamID.flatMap { state.identities[Self.pair(consent.accountID, $0.rawValue)]?.subject }
                    return OrganizationConsent(accountID: consent.accountID, groupID: consent.groupID, subject: subject)
                }
                .sorted { ($0.accountID, $0.groupID.rawValue) < ($1.accountID, $1.groupID.rawValue) }
        }
    }

    public func complete(
        _ withdrawal: PendingWithdrawal, holder: String, revokingOutside kept: [ClientID]?, at date: Date, notifying messages: [OutboxMessage]
    ) async throws -> Bool {
        state.withLock { state in
            let id = withdrawal.organizationID
            guard state.withdrawals[id] != nil, state.withdrawalLeases[id]?.holder == holder else { return false }
            if let kept {
                let members = Set(state.accounts.values.filter { $0.managed?.organizationID == id && $0.deletedAt == nil }.map(\.id))
                for consent in state.consents.values where members.contains(consent.accountID) && !kept.contains(consent.groupID) {
                    Self.stopUsing(accountID: consent.accountID, groupID: consent.groupID, at: date, in: &state)
                }
            }
            for message in messages { state.outbox[message.id] = message }
            state.withdrawals[id] = nil
            state.withdrawalLeases[id] = nil
            return true
        }
    }
}
