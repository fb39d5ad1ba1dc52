import AppleIDProtocol
import Foundation

/// The short-lived records of one kind of browser flow that spans requests (``FlowRecord``): the
/// engine's account-page sign-ins, the server's playground runs. Kept in the store, so a flow started
/// on one server instance goes on on another; each record is found by a hash of the flow's secret (a
/// cookie, a `state`), and the secret itself is never stored.
public struct BrowserFlows: Sendable {
    let store: any FlowRecordStore
    public let kind: FlowRecord.Kind

    /// Keeps `payload` under `secret` until `expiresAt`, replacing what was there.
    public func save(_ payload: String, secret: String, expiresAt: Date) async throws {
        try await store.save(FlowRecord(kind: kind, key: OpaqueToken.hash(secret), payload: payload, expiresAt: expiresAt))
    }

    /// The payload under `secret`, unless it expired by `now`.
    public func payload(secret: String, now: Date) async throws -> String? {
        try await store.flowRecord(kind, key: OpaqueToken.hash(secret), now: now)?.payload
    }

    /// Removes the payload under `secret` and returns it, unless it expired by `now`: of any number of
    /// concurrent callers exactly one gets it (a single-use `state`).
    public func take(secret: String, now: Date) async throws -> String? {
        try await store.takeFlowRecord(kind, key: OpaqueToken.hash(secret), now: now)?.payload
    }

    public func remove(secret: String) async throws { try await store.deleteFlowRecord(kind, key: OpaqueToken.hash(secret)) }
}

extension AppleIDProvider {
    /// The records of the browser flows of `kind`, shared by every server instance on the store.
    public func browserFlows(_ kind: FlowRecord.Kind) -> BrowserFlows { BrowserFlows(store: store, kind: kind) }
}
