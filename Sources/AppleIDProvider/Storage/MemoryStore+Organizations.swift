import AppleIDProtocol
import Foundation

extension MemoryStore: OrganizationStore {
    public func organization(id: UUID) async throws -> Organization? { state.withLock { $0.organizations[id] } }

    public func organizations() async throws -> [Organization] {
        state.withLock { $0.organizations.values.sorted { ($0.name, $0.id.uuidString) < ($1.name, $1.id.uuidString) } }
    }

    public func save(_ organization: Organization, withdrawal: PendingWithdrawal?) async throws {
        state.withLock { state in
            state.organizations[organization.id] = organization
            if let withdrawal, state.withdrawals[withdrawal.organizationID] == nil { state.withdrawals[withdrawal.organizationID] = withdrawal }
        }
    }

    public func accounts(organizationID: UUID) async throws -> [AppleIDAccount] {
        state.withLock { state in
            state.accounts.values.filter { $0.managed?.organizationID == organizationID }
                .sorted { ($0.createdAt, $0.appleID) < ($1.createdAt, $1.appleID) }
        }
    }

    public func dueWithdrawals(at now: Date, limit: Int) async throws -> [PendingWithdrawal] {
        state.withLock { state in
            Array(
                state.withdrawals.values.filter { $0.dueAt <= now }
                    .sorted { ($0.dueAt, $0.organizationID.uuidString) < ($1.dueAt, $1.organizationID.uuidString) }
                    .prefix(limit))
        }
    }

    public func complete(
        _ withdrawal: PendingWithdrawal, revoking revocations: [ConsentKey], at date: Date, notifying messages: [OutboxMessage]
    ) async throws {
        state.withLock { state in
            for revocation in revocations {
                Self.stopUsing(accountID: revocation.accountID, groupID: revocation.groupID, at: date, in: &state)
            }
            for message in messages { state.outbox[message.id] = message }
            state.withdrawals[withdrawal.organizationID] = nil
        }
    }
}
