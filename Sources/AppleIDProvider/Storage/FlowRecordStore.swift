import Foundation

/// A short-lived record of a browser flow that spans requests: what a later request of the same
/// flow needs, whichever server instance it reaches. The playground's started sign-ins and runs,
/// and the account page's sign-ins between the password and the code, are kept this way (issue 13:
/// nothing that must hold across instances stays in one process's memory).
///
/// `key` is a hash of the flow's secret (a cookie, a `state`), never the secret itself; `payload` is
/// the flow's own JSON, opaque to the store.
public struct FlowRecord: Sendable, Hashable {
    /// Which flow the record belongs to: each kind has its own keys (the server's playground adds its own).
    public struct Kind: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An account-page sign-in between the password and the two-factor code (by cookie).
        public static let pendingAccountSignIn = Kind(rawValue: "account-pending")
    }

    public var kind: Kind
    public var key: String
    public var payload: String
    public var expiresAt: Date

    public init(kind: Kind, key: String, payload: String, expiresAt: Date) {
        self.kind = kind
        self.key = key
        self.payload = payload
        self.expiresAt = expiresAt
    }
}

/// Short-lived flow records, shared by every server instance on the store. Expired records are
/// never returned, and ``ExpiredRecordStore/purgeExpired(now:codesExpiredBefore:)`` removes them.
public protocol FlowRecordStore: Sendable {
    /// Inserts the record, or replaces the one of the same kind and key.
    func save(_ record: FlowRecord) async throws
    /// The record of `kind` with `key`, unless it expired by `now`.
    func flowRecord(_ kind: FlowRecord.Kind, key: String, now: Date) async throws -> FlowRecord?
    /// Removes the record and returns it, unless it expired by `now`: of any number of concurrent
    /// callers exactly one gets it (a single-use `state`).
    func takeFlowRecord(_ kind: FlowRecord.Kind, key: String, now: Date) async throws -> FlowRecord?
    func deleteFlowRecord(_ kind: FlowRecord.Kind, key: String) async throws
}
