import AppleIDProtocol
import AppleIDProvider
import Foundation

extension MemoryStore: OutboxStore {
    public func dueMessages(at now: Date, limit: Int) async throws -> [OutboxMessage] {
        state.withLock { state in
            Array(state.outbox.values.filter { $0.isPending && $0.nextAttemptAt <= now }.sorted { $0.createdAt < $1.createdAt }.prefix(limit))
        }
    }

    public func message(id: String) async throws -> OutboxMessage? { state.withLock { $0.outbox[id] } }

    public func enqueue(_ message: OutboxMessage) async throws { state.withLock { $0.outbox[message.id] = message } }

    public func messages(groupID: ClientID?, limit: Int) async throws -> [OutboxMessage] {
        state.withLock { state in
            Array(state.outbox.values.filter { groupID == nil || $0.groupID == groupID }.sorted { $0.createdAt > $1.createdAt }.prefix(limit))
        }
    }

    public func outboxUsage(groupID: ClientID, createdSince date: Date) async throws -> OutboxUsage {
        state.withLock { state in
            let messages = state.outbox.values.filter { $0.groupID == groupID }
            return OutboxUsage(pending: messages.filter(\.isPending).count, recent: messages.filter { $0.createdAt >= date }.count)
        }
    }

    public func record(_ attempt: DeliveryAttempt, updating message: OutboxMessage) async throws {
        state.withLock { state in
            state.attempts[attempt.messageID, default: []].append(attempt)
            state.outbox[message.id] = message
        }
    }

    public func attempts(messageID: String) async throws -> [DeliveryAttempt] { state.withLock { $0.attempts[messageID] ?? [] } }

    public func messages(groupID: ClientID, after cursor: OutboxCursor?, limit: Int) async throws -> [OutboxMessage] {
        state.withLock { state in
            Array(
                state.outbox.values.filter { $0.groupID == groupID && (cursor?.precedes($0) ?? true) }
                    .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
                    .prefix(limit))
        }
    }
}

extension MemoryStore: LifecycleStore {
    public func consents(accountID: String) async throws -> [Consent] {
        state.withLock { $0.consents.values.filter { $0.accountID == accountID }.sorted { $0.grantedAt < $1.grantedAt } }
    }

    public func teamIdentities(accountID: String) async throws -> [TeamIdentity] {
        state.withLock { $0.identities.values.filter { $0.accountID == accountID }.sorted { $0.teamID < $1.teamID } }
    }

    public func stopUsing(accountID: String, groupID: ClientID, at date: Date, notifying messages: [OutboxMessage]) async throws {
        state.withLock { state in
            Self.stopUsing(accountID: accountID, groupID: groupID, at: date, in: &state)
            for message in messages { state.outbox[message.id] = message }
        }
    }

    /// Revokes the user's live grants of the group and forgets the consent (also an organization's
    /// withdrawal of the app).
    static func stopUsing(accountID: String, groupID: ClientID, at date: Date, in state: inout State) {
        for (id, grant) in state.grants where grant.accountID == accountID && grant.groupID == groupID && grant.revokedAt == nil {
            state.grants[id]?.revokedAt = date
        }
        state.consents[pair(accountID, groupID.rawValue)] = nil
    }

    public func setRelayForwarding(_ identity: TeamIdentity, enabled: Bool, notifying messages: [OutboxMessage]) async throws {
        state.withLock { state in
            state.identities[Self.pair(identity.accountID, identity.teamID.rawValue)]?.relayForwardingEnabled = enabled
            for message in messages { state.outbox[message.id] = message }
        }
    }

    public func deleteAccount(id: String, at date: Date, notifying messages: [OutboxMessage]) async throws {
        state.withLock { state in
            state.accounts[id]?.deletedAt = date
            for (grantID, grant) in state.grants where grant.accountID == id && grant.revokedAt == nil { state.grants[grantID]?.revokedAt = date }
            state.consents = state.consents.filter { $0.value.accountID != id }
            for (key, identity) in state.identities where identity.accountID == id { state.identities[key]?.relayForwardingEnabled = false }
            state.sessions = state.sessions.filter { $0.value.accountID != id }
            state.keychain = state.keychain.filter { $0.value.accountID != id }
            for message in messages { state.outbox[message.id] = message }
        }
    }
}

extension MemoryStore: ExpiredRecordStore {
    public func purgeExpired(now: Date, codesExpiredBefore: Date) async throws -> Int {
        state.withLock { state in
            let before = state.codes.count + state.tokens.count + state.interactions.count + state.sessions.count
            state.codes = state.codes.filter { $0.value.expiresAt >= codesExpiredBefore }
            state.tokens = state.tokens.filter { $0.value.expiresAt.map { $0 >= now } ?? true }
            state.interactions = state.interactions.filter { $0.value.expiresAt >= now }
            state.sessions = state.sessions.filter { $0.value.expiresAt >= now }
            let migrationTokens = state.migrationTokens.count
            state.migrationTokens = state.migrationTokens.filter { $0.value.expiresAt >= now }
            let flowRecords = state.flowRecords.count
            state.flowRecords = state.flowRecords.filter { $0.value.expiresAt > now }
            return before - (state.codes.count + state.tokens.count + state.interactions.count + state.sessions.count)
                + (migrationTokens - state.migrationTokens.count) + (flowRecords - state.flowRecords.count)
        }
    }
}
