import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What the engine keeps for a team's console pages beside the registry: e-mail sources, the
/// request log and removed identifiers. The console's own records are its attached state.
extension MemoryStore {
    struct TeamRecordsState {
        var emailSources: [EmailSource] = []
        var requestLog: [ClientID: [RequestLogEntry]] = [:]
        var removedIdentifiers: [ClientID: RemovedIdentifier] = [:]
    }
}

extension MemoryStore: TeamRegistryStore, IdentifierRemovalStore, TeamActivityStore, EmailSourceStore {

    public func appGroups(teamID: TeamID) async throws -> [AppGroup] {
        state.withLock { $0.groups.values.filter { $0.teamID == teamID }.sorted { $0.primaryAppID.rawValue < $1.primaryAppID.rawValue } }
    }

    public func clients(teamID: TeamID) async throws -> [RegisteredClient] {
        state.withLock { $0.clients.values.filter { $0.teamID == teamID }.sorted { $0.id.rawValue < $1.id.rawValue } }
    }

    public func client(_ id: ClientID, teamID: TeamID) async throws -> RegisteredClient? {
        state.withLock { state in state.clients[id].flatMap { $0.teamID == teamID ? $0 : nil } }
    }

    public func developerKeys(teamID: TeamID) async throws -> [DeveloperKey] {
        state.withLock { $0.keys.values.filter { $0.teamID == teamID }.sorted { $0.id.rawValue < $1.id.rawValue } }
    }

    public func remove(_ removal: IdentifierRemoval) async throws {
        state.withLock { state in
            let removed = removal.identifier
            state.clients[removed.id] = nil
            for (id, grant) in state.grants where grant.revokedAt == nil && (grant.clientID == removed.id || grant.groupID == removal.groupID) {
                state.grants[id]?.revokedAt = removed.removedAt
            }
            if let groupID = removal.groupID {
                state.groups[groupID] = nil
                state.consents = state.consents.filter { $0.value.groupID != groupID }
            }
            state.teamRecords.removedIdentifiers[removed.id] = removed
            for message in removal.messages { state.outbox[message.id] = message }
        }
    }

    public func removedIdentifier(_ id: ClientID) async throws -> RemovedIdentifier? {
        state.withLock { $0.teamRecords.removedIdentifiers[id] }
    }

    public func consentingSubjects(groupID: ClientID, teamID: TeamID) async throws -> [Subject] {
        state.withLock { state in
            state.consents.values.filter { $0.groupID == groupID }.sorted { $0.grantedAt < $1.grantedAt }
                .compactMap { state.identities[Self.pair($0.accountID, teamID.rawValue)]?.subject }
        }
    }

    public func transfers(involving teamID: TeamID) async throws -> [AppTransfer] {
        state.withLock { state in
            state.transfers.values.filter { $0.fromTeamID == teamID || $0.toTeamID == teamID }.sorted { $0.transferredAt > $1.transferredAt }
        }
    }

    public func authorizationCount(clientID: ClientID) async throws -> Int {
        state.withLock { Set($0.grants.values.filter { $0.clientID == clientID && $0.revokedAt == nil }.map(\.accountID)).count }
    }

    public func emailSources(teamID: TeamID) async throws -> [EmailSource] {
        state.withLock { $0.teamRecords.emailSources.filter { $0.teamID == teamID } }
    }

    public func add(_ sources: [EmailSource], limit: Int) async throws -> Bool {
        state.withLock { state in
            guard let teamID = sources.first?.teamID else { return true }
            let existing = state.teamRecords.emailSources.filter { $0.teamID == teamID }
            let new = sources.filter { source in !existing.contains { $0.value == source.value } }
            guard existing.count + new.count <= limit else { return false }
            state.teamRecords.emailSources.append(contentsOf: new)
            return true
        }
    }

    public func deleteEmailSource(teamID: TeamID, value: String) async throws {
        state.withLock { $0.teamRecords.emailSources.removeAll { $0.teamID == teamID && $0.value == value } }
    }

    public func setCheck(_ check: EmailSource.Check, checkedAt: Date, teamID: TeamID, value: String) async throws {
        state.withLock { state in
            guard let index = state.teamRecords.emailSources.firstIndex(where: { $0.teamID == teamID && $0.value == value }) else { return }
            state.teamRecords.emailSources[index].check = check
            state.teamRecords.emailSources[index].checkedAt = checkedAt
        }
    }

    public func setDKIMKey(_ key: String?, teamID: TeamID, value: String) async throws -> Bool {
        state.withLock { state in
            guard let index = state.teamRecords.emailSources.firstIndex(where: { $0.teamID == teamID && $0.value == value }) else { return false }
            state.teamRecords.emailSources[index].dkimPublicKey = key
            return true
        }
    }

}

extension MemoryStore: RequestLogStore {
    public func record(_ entries: [RequestLogEntry], keepingLast: Int) async throws {
        state.withLock { state in
            for entry in entries {
                var log = state.teamRecords.requestLog[entry.clientID, default: []]
                log.append(entry)
                let bucket = log.indices.filter { log[$0].isProven == entry.isProven }
                if bucket.count > keepingLast { log.remove(at: bucket[0]) }
                state.teamRecords.requestLog[entry.clientID] = log
            }
        }
    }

    public func requestLog(clientID: ClientID, proven: Bool, limit: Int) async throws -> [RequestLogEntry] {
        state.withLock { Array(($0.teamRecords.requestLog[clientID] ?? []).reversed().filter { $0.isProven == proven }.prefix(limit)) }
    }
}
