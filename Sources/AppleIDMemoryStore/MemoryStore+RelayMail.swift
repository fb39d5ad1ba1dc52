import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation

extension MemoryStore {
    /// The relay's part of the store's state: under its one lock, in its seed snapshot.
    struct RelayMailState: MemoryStoreAttachment {
        var aliases: [String: RelayReplyAlias] = [:]
        /// In arrival order.
        var messages: [RelayMessage] = []
        var deliveries: [String: RelayDelivery] = [:]
        var sources: [String: [UInt8]] = [:]
        /// In arrival order.
        var refusals: [RelayRefusalRecord] = []
    }
}

extension MemoryStore: RelayMailStore {
    public func replyAlias(_ alias: String) async throws -> RelayReplyAlias? { try withAttached(RelayMailState.self) { $0.aliases[alias] } }

    public func insertReplyAlias(_ alias: RelayReplyAlias) async throws -> RelayReplyAlias {
        try withAttached(RelayMailState.self) { relay in
            if let existing = relay.aliases.values.first(where: { $0.relayAddress == alias.relayAddress && $0.sender == alias.sender }) {
                return existing
            }
            relay.aliases[alias.alias] = alias
            return alias
        }
    }

    public func relayMessageCount(relayAddress: String, since date: Date) async throws -> Int {
        try withAttached(RelayMailState.self) { $0.count(relayAddress: relayAddress, since: date) }
    }

    public func accept(_ mail: [AcceptedRelayMail], limits: RelayAcceptLimits) async throws -> RelayAcceptance {
        // Read before the lock: this store keeps every message in memory anyway.
        var sources: [String: [UInt8]] = [:]
        for accepted in mail { sources[accepted.mail.message.id] = try await accepted.content.bytes() }
        return try withAttached(RelayMailState.self) { relay in
            let ids = mail.map(\.mail.message.id)
            guard Set(ids).count == ids.count, !ids.contains(where: { relay.deliveries[$0] != nil }) else {
                throw StoreError.conflict("relay message id taken")
            }
            if let limit = limits.daily {
                for (address, count) in RelayDailyLimit.counted(mail) {
                    if relay.count(relayAddress: address, since: limit.since) + count > limit.count { return .dailyLimit }
                }
            }
            if let quota = limits.teamBytes {
                for (teamID, bytes) in RelayAcceptLimits.teamBytes(of: mail).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    if relay.storedBytes(teamID: teamID) + bytes > quota { return .teamQuota(teamID) }
                }
            }
            for accepted in mail { relay.insert(accepted.mail, source: sources[accepted.mail.message.id] ?? []) }
            return .accepted
        }
    }

    public func relayStoredBytes(teamID: TeamID) async throws -> Int { try withAttached(RelayMailState.self) { $0.storedBytes(teamID: teamID) } }

    public func relayMail(_ query: RelayMailQuery, limit: Int) async throws -> [RelayMail] {
        try withAttached(RelayMailState.self) { relay in
            relay.messages.reversed().lazy.filter { message in
                switch query {
                case .address(let address): message.recipient == address || message.destination == address
                case .mailbox(let accountID): message.accountID == accountID && message.direction == .forward
                case .team(let teamID): message.teamID == teamID
                case .all: true
                }
            }
            .prefix(limit)
            .compactMap { message in relay.deliveries[message.id].map { RelayMail(message: message, delivery: $0) } }
        }
    }

    public func relayMail(id: String) async throws -> RelayMail? {
        try withAttached(RelayMailState.self) { relay in
            guard let message = relay.messages.first(where: { $0.id == id }), let delivery = relay.deliveries[id] else { return nil }
            return RelayMail(message: message, delivery: delivery)
        }
    }

    /// Lent in pieces of ``RelayMessageChunk/size``, as the SQL stores lend theirs.
    public func readRelayMessageSource(id: String, upTo limit: Int?, _ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Bool {
        guard let source = try withAttached(RelayMailState.self, { $0.sources[id] }) else { return false }
        var start = 0
        while start < source.count, start < limit ?? .max {
            let end = min(start + RelayMessageChunk.size, source.count)
            try await body(source[start..<end])
            start = end
        }
        return true
    }

    public func dueRelayDeliveries(at now: Date, limit: Int) async throws -> [RelayDelivery] {
        try withAttached(RelayMailState.self) { relay in
            Array(
                relay.deliveries.values
                    .filter { $0.state == .queued && ($0.nextAttemptAt ?? now) <= now }
                    .sorted { ($0.nextAttemptAt ?? now, $0.messageID) < ($1.nextAttemptAt ?? now, $1.messageID) }
                    .prefix(limit))
        }
    }

    public func claimRelayDelivery(messageID: String, now: Date, leaseUntil: Date) async throws -> Bool {
        try withAttached(RelayMailState.self) { relay in
            guard var delivery = relay.deliveries[messageID], delivery.state == .queued, (delivery.nextAttemptAt ?? now) <= now else {
                return false
            }
            delivery.nextAttemptAt = leaseUntil
            relay.deliveries[messageID] = delivery
            return true
        }
    }

    public func record(_ delivery: RelayDelivery, bounce: AcceptedRelayMail?) async throws {
        let source = try await bounce?.content.bytes()
        try withAttached(RelayMailState.self) { relay in
            relay.deliveries[delivery.messageID] = delivery
            if let bounce, let source { relay.insert(bounce.mail, source: source) }
        }
    }

    public func recordRelayRefusal(_ refusal: RelayRefusalRecord) async throws {
        try withAttached(RelayMailState.self) { $0.refusals.append(refusal) }
    }

    public func relayRefusals(teamID: TeamID, since date: Date, limit: Int) async throws -> [RelayRefusalRecord] {
        try withAttached(RelayMailState.self) { relay in
            Array(relay.refusals.reversed().lazy.filter { $0.teamID == teamID && $0.at > date }.prefix(limit))
        }
    }

    public func purgeRelayMail(receivedBefore date: Date) async throws -> Int {
        try withAttached(RelayMailState.self) { relay in
            let gone = Set(relay.messages.filter { $0.receivedAt < date && relay.deliveries[$0.id]?.state != .queued }.map(\.id))
            relay.messages.removeAll { gone.contains($0.id) }
            for id in gone {
                relay.deliveries[id] = nil
                relay.sources[id] = nil
            }
            return gone.count
        }
    }

    public func purgeRelayRefusals(before date: Date) async throws -> Int {
        try withAttached(RelayMailState.self) { relay in
            let before = relay.refusals.count
            relay.refusals.removeAll { $0.at < date }
            return before - relay.refusals.count
        }
    }
}

extension MemoryStore.RelayMailState {
    func count(relayAddress: String, since date: Date) -> Int {
        messages.count { $0.relayAddress == relayAddress && $0.direction != .bounce && $0.receivedAt > date }
    }

    func storedBytes(teamID: TeamID) -> Int { messages.reduce(0) { $0 + ($1.teamID == teamID ? $1.size : 0) } }

    mutating func insert(_ mail: RelayMail, source: [UInt8]) {
        messages.append(mail.message)
        deliveries[mail.message.id] = mail.delivery
        sources[mail.message.id] = source
    }
}
