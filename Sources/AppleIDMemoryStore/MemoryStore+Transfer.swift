import AppleIDProtocol
import AppleIDProvider
import Foundation

extension MemoryStore: TransferStore {
    public func transfers(groupID: ClientID) async throws -> [AppTransfer] {
        state.withLock { $0.transfers.values.filter { $0.groupID == groupID }.sorted { $0.transferredAt > $1.transferredAt } }
    }

    public func clients(groupID: ClientID) async throws -> [RegisteredClient] {
        state.withLock { $0.clients.values.filter { $0.groupID == groupID }.sorted { $0.id.rawValue < $1.id.rawValue } }
    }

    public func consents(groupID: ClientID) async throws -> [Consent] {
        state.withLock { $0.consents.values.filter { $0.groupID == groupID }.sorted { ($0.grantedAt, $0.accountID) < ($1.grantedAt, $1.accountID) } }
    }

    public func transferSubject(accountID: String, fromTeamID: TeamID, toTeamID: TeamID) async throws -> TransferSubject? {
        state.withLock { $0.transferSubjects[Self.transferKey(accountID, fromTeamID, toTeamID)] }
    }

    public func transferSubject(_ subject: Subject, toTeamID: TeamID) async throws -> TransferSubject? {
        state.withLock { $0.transferSubjects.values.first { $0.subject == subject && $0.toTeamID == toTeamID } }
    }

    public func apply(_ plan: TransferPlan) async throws {
        state.withLock { state in
            for identity in plan.recipientIdentities {
                let key = Self.pair(identity.accountID, identity.teamID.rawValue)
                if state.identities[key] == nil { state.identities[key] = identity }
                if state.identities[key]?.relayAddress == nil { state.identities[key]?.relayAddress = identity.relayAddress }
            }
            state.groups[plan.group.primaryAppID] = plan.group
            for client in plan.clients { state.clients[client.id] = client }
            for (id, grant) in state.grants where grant.groupID == plan.group.primaryAppID && grant.revokedAt == nil {
                state.grants[id]?.revokedAt = plan.transfer.transferredAt
            }
            for consent in plan.consents { state.consents[Self.pair(consent.accountID, consent.groupID.rawValue)] = consent }
            for subject in plan.newTransferSubjects {
                let key = Self.transferKey(subject.accountID, subject.fromTeamID, subject.toTeamID)
                if state.transferSubjects[key] == nil { state.transferSubjects[key] = subject }
            }
            for identity in plan.retiredRelays {
                state.identities[Self.pair(identity.accountID, identity.teamID.rawValue)]?.relayForwardingEnabled = false
            }
            state.transfers[plan.transfer.id] = plan.transfer
        }
    }

    public func save(_ token: MigrationToken) async throws { state.withLock { $0.migrationTokens[token.tokenHash] = token } }

    public func migrationToken(hash: String) async throws -> MigrationToken? { state.withLock { $0.migrationTokens[hash] } }

    static func transferKey(_ accountID: String, _ from: TeamID, _ to: TeamID) -> String {
        pair(pair(accountID, from.rawValue), to.rawValue)
    }
}
