import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Who holds a message's delivery lease, and until when.
struct OutboxLease: Sendable, Hashable {
    var holder: String
    var expiry: Date
}

extension MemoryStore: SigningKeyRotationStore {
    public func insertSigningKeyIfAbsent(_ key: SigningKeyRecord) async throws -> Bool {
        state.withLock { state in
            let taken = key.state != .retired && state.signingKeys.values.contains { $0.state == key.state }
            guard !taken, state.signingKeys[key.id] == nil else { return false }
            state.signingKeys[key.id] = key
            return true
        }
    }

    public func rotateSigningKeys(_ rotation: SigningKeyRotation) async throws -> Bool {
        state.withLock { state in
            guard var retiring = state.signingKeys[rotation.retiring], retiring.state == .active,
                var promoting = state.signingKeys[rotation.promoting], promoting.state == .next
            else { return false }
            retiring.state = .retired
            retiring.retiredAt = rotation.date
            promoting.state = .active
            promoting.activatedAt = rotation.date
            var published = rotation.publishing
            published.state = .next
            state.signingKeys[retiring.id] = retiring
            state.signingKeys[promoting.id] = promoting
            state.signingKeys[published.id] = published
            return true
        }
    }
}

extension MemoryStore: OutboxLeaseStore {
    public func leaseDueMessages(at now: Date, holder: String, until expiry: Date, limit: Int, perGroup: Int) async throws -> [OutboxMessage] {
        state.withLock { state in
            let due = state.outbox.values.filter { message in
                guard message.isPending, message.nextAttemptAt <= now else { return false }
                guard let lease = state.outboxLeases[message.id] else { return true }
                return lease.expiry <= now || lease.holder == holder
            }
            // Each message's place in its group's queue; place 0 of every group goes first.
            let places = Dictionary(grouping: due, by: \.groupID).values.flatMap { messages in
                messages.sorted { ($0.nextAttemptAt, $0.createdAt, $0.id) < ($1.nextAttemptAt, $1.createdAt, $1.id) }.enumerated()
                    .map { (place: $0.offset, message: $0.element) }
            }
            let leased = places.filter { $0.place < perGroup }
                .sorted { ($0.place, $0.message.nextAttemptAt, $0.message.id) < ($1.place, $1.message.nextAttemptAt, $1.message.id) }
                .prefix(max(0, limit)).map(\.message)
                .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            for message in leased { state.outboxLeases[message.id] = OutboxLease(holder: holder, expiry: expiry) }
            return leased
        }
    }

    @discardableResult
    public func releaseLeases(holder: String) async throws -> Int {
        state.withLock { state in
            let held = state.outboxLeases.filter { $0.value.holder == holder }.keys
            for id in held { state.outboxLeases[id] = nil }
            return held.count
        }
    }

    @discardableResult
    public func releaseLeases(holder: String, messageIDs: [String]) async throws -> Int {
        state.withLock { state in
            let held = messageIDs.filter { state.outboxLeases[$0]?.holder == holder }
            for id in held { state.outboxLeases[id] = nil }
            return held.count
        }
    }
}
