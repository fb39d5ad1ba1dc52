import Foundation

/// Where pending authorizations wait for their callback, keyed by `state` itself.
///
/// Keyed by the state rather than a session cookie, because Apple's `form_post` callback is a
/// cross-site POST on which browsers drop `SameSite=Lax` cookies. Entries are single use and expire.
public protocol AuthorizationStateStore: Sendable {
    func save(_ pending: PendingAuthorization, expiresAt: Date) async throws
    /// Removes and returns the pending authorization; `nil` when unknown, used or expired.
    func take(state: String, now: Date) async throws -> PendingAuthorization?
}

/// An in-memory ``AuthorizationStateStore`` for one process.
public actor MemoryAuthorizationStateStore: AuthorizationStateStore {
    private var entries: [String: (pending: PendingAuthorization, expiresAt: Date)] = [:]
    private let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = capacity }

    public func save(_ pending: PendingAuthorization, expiresAt: Date) {
        if entries.count >= capacity {
            let now = Date()
            entries = entries.filter { $0.value.expiresAt > now }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
                entries[oldest.key] = nil
            }
        }
        entries[pending.state] = (pending, expiresAt)
    }

    public func take(state: String, now: Date) -> PendingAuthorization? {
        guard let entry = entries.removeValue(forKey: state), entry.expiresAt > now else { return nil }
        return entry.pending
    }
}
