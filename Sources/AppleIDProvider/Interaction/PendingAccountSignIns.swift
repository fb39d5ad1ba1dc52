import AppleIDProtocol
import Foundation

/// Account-page sign-ins between the password and the two-factor code: ten minutes. Kept in the
/// store (``BrowserFlows``) by a hash of the browser's pending cookie, so the code may be posted
/// to any server instance. (Wrong codes are counted per Apple ID in the store, not per sign-in.)
public struct PendingAccountSignIns: Sendable {
    let store: any FlowRecordStore & ReadModelStore
    let clock: any ProviderClock
    var lifetime: TimeInterval = 600
    var flows: BrowserFlows { BrowserFlows(store: store, kind: .pendingAccountSignIn) }

    init(store: any FlowRecordStore & ReadModelStore, clock: any ProviderClock) {
        self.store = store
        self.clock = clock
    }

    private struct Pending: Codable {
        var accountID: String

        enum CodingKeys: String, CodingKey {
            case accountID = "account_id"
        }
    }

    /// Remembers that the browser holding `token` passed the password step of `accountID`.
    public func start(token: String, accountID: String) async throws {
        let payload = String(decoding: try JSONEncoder().encode(Pending(accountID: accountID)), as: UTF8.self)
        try await flows.save(payload, secret: token, expiresAt: clock.now().addingTimeInterval(lifetime))
    }

    /// The Apple ID waiting for its code in the sign-in of `token`, unless it expired.
    public func accountID(token: String) async throws -> String? {
        guard let payload = try await flows.payload(secret: token, now: clock.now()) else { return nil }
        return try? JSONDecoder().decode(Pending.self, from: Data(payload.utf8)).accountID
    }

    /// The Apple ID waiting for its code in the sign-in of `token`, unless the sign-in expired or the
    /// Apple ID was deleted meanwhile.
    public func account(token: String) async throws -> AppleIDAccount? {
        guard let accountID = try await accountID(token: token) else { return nil }
        return try await store.activeAccount(id: accountID)
    }

    /// Ends the sign-in (it succeeded, or the Apple ID is locked).
    public func finish(token: String) async throws {
        try await flows.remove(secret: token)
    }
}

extension InteractionService {
    /// The account pages' sign-ins waiting for their two-factor code.
    public var pendingAccountSignIns: PendingAccountSignIns { PendingAccountSignIns(store: store, clock: clock) }
}
