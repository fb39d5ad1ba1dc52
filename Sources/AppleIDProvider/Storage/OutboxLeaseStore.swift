import Foundation

/// Leases on outbox messages, so that with several server instances each message is delivered by
/// one instance at a time. A lease that runs out (its instance died or hangs) is taken over by the
/// next instance that looks: delivery stays at least once.
public protocol OutboxLeaseStore: Sendable {
    /// Claims up to `limit` messages due at `now` for `holder` until `expiry`, in one step: pending
    /// messages whose next attempt is due and which are not leased, whose lease ran out, or which
    /// `holder` leased already. At most `perGroup` of one app group, chosen fairly: every group's
    /// earliest due message (by next attempt) before any group's second, so that a group with a long
    /// backlog cannot crowd the others out. Returned oldest first. Of concurrent callers, each message
    /// goes to one.
    func leaseDueMessages(at now: Date, holder: String, until expiry: Date, limit: Int, perGroup: Int) async throws -> [OutboxMessage]
    /// Hands back every lease `holder` holds (at shutdown); returns how many.
    @discardableResult
    func releaseLeases(holder: String) async throws -> Int
    /// Hands back `holder`'s leases on these messages only (after a pass; another pass of the same
    /// holder may still be sending others); returns how many.
    @discardableResult
    func releaseLeases(holder: String, messageIDs: [String]) async throws -> Int
}

extension OutboxLeaseStore {
    /// Claims up to `limit` due messages with no bound per group.
    public func leaseDueMessages(at now: Date, holder: String, until expiry: Date, limit: Int) async throws -> [OutboxMessage] {
        try await leaseDueMessages(at: now, holder: holder, until: expiry, limit: limit, perGroup: limit)
    }
}
