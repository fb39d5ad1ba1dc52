import AppleIDProtocol
import Foundation
import Synchronization

/// The credential-revoked feed (our extension): what `credentialRevokedNotification` tells a native
/// app, for test harnesses. Events are read from the notification outbox, so they are durable and
/// ordered; a long-poll waits on ``CredentialEventSignal`` until one arrives or the wait ends.
public struct CredentialEvent: Sendable, Hashable {
    /// `consent-revoked`, `account-delete` or `account-deleted`.
    public var type: NotificationEventType
    public var subject: String
    public var groupID: ClientID
    public var occurredAt: Date
    public var cursor: String
}

/// A page of the feed and where to continue from.
public struct CredentialEventPage: Sendable, Hashable {
    public var events: [CredentialEvent]
    /// Pass back as `after`; unchanged when nothing happened.
    public var cursor: String?
}

/// Wakes long-polls when the outbox grows. One per provider; a change made by another process is
/// seen when the wait ends. A generation count closes the gap between reading the outbox and
/// starting to wait: a signal in between makes the wait return at once.
public final class CredentialEventSignal: Sendable {
    private struct State {
        var generation = 0
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        /// Waits that ended before their waiter was registered: it must not stay.
        var ended: Set<UUID> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// How many signals there have been: read it before looking at the outbox, pass it to `wait`.
    public var generation: Int { state.withLock { $0.generation } }

    /// Wakes every waiter.
    public func signal() {
        let woken = state.withLock { state in
            state.generation += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns on the first signal after `generation` (at once if there was one), or after `timeout`.
    public func wait(since generation: Int, timeout: Duration) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let done = self.state.withLock { state in
                        guard state.generation == generation, state.ended.remove(id) == nil else { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if done { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
            }
            await group.next()
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.ended.insert(id)
                    return nil as CheckedContinuation<Void, Never>?
                }
                return waiter
            }
            waiter?.resume()
            group.cancelAll()
        }
        _ = state.withLock { $0.ended.remove(id) }
    }
}

extension AppleIDProvider {
    /// Credential revocations for the client's app group after `cursor` (from the start when `nil`).
    /// With none yet, waits up to `wait` for one.
    public func credentialEvents(clientID: ClientID, after cursor: String?, wait: Duration) async throws -> CredentialEventPage? {
        guard let client = try await store.client(clientID) else { return nil }
        var position = cursor.flatMap(OutboxCursor.init(text:))
        let deadline = ContinuousClock.now.advanced(by: wait)
        while true {
            let generation = credentialSignal.generation
            let messages = try await store.messages(groupID: client.groupID, after: position, limit: 100)
            position = messages.last.map(OutboxCursor.init(after:)) ?? position
            let events = messages.filter { $0.event.type == .consentRevoked || $0.event.type.isAccountDeletion }.map { message in
                CredentialEvent(
                    type: message.event.type, subject: message.event.subject, groupID: message.groupID, occurredAt: message.createdAt,
                    cursor: OutboxCursor(after: message).text)
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            if !events.isEmpty || messages.count == 100 || remaining <= .zero {
                return CredentialEventPage(events: events, cursor: position?.text)
            }
            await credentialSignal.wait(since: generation, timeout: remaining)
        }
    }
}
