import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

/// The one place the server's tests reach the engine's store. A test plants a row here only where the
/// engine's operations would refuse to make the state it needs, or could not make it at a chosen time:
/// an endpoint saved before a rule existed, a path-breaking identifier, another instance's lease, an
/// outbox message of a given age. Everything else arranges through the engine's operations and reads
/// its read models (``TestServer`` in `TestServer+ReadModels.swift`).
package struct StoreArrangement {
    package let provider: AppleIDProvider
    private var store: any ProviderStore { provider.store }

    /// Sets the app group's notification endpoint straight in the store, past the rules the engine checks when it is saved.
    package func plantNotificationEndpoint(_ url: String, group: ClientID = TestEngine.bundleID) async throws {
        var saved = try #require(try await store.appGroup(group))
        saved.notificationEndpoint = url
        try await store.save(saved)
    }

    package func plant(_ group: AppGroup) async throws { try await store.save(group) }
    package func plant(_ client: RegisteredClient) async throws { try await store.save(client) }
    package func plant(_ team: DeveloperTeam) async throws { try await store.save(team) }
    /// A team identity with a chosen `sub` and relay address (the engine makes both at random).
    package func plant(_ identity: TeamIdentity) async throws { _ = try await store.insertTeamIdentity(identity) }
    /// An outbox message with a chosen id and age (the engine writes messages with what causes them).
    package func plant(_ message: OutboxMessage) async throws { try await store.enqueue(message) }
    package func plant(_ attempt: DeliveryAttempt, updating message: OutboxMessage) async throws {
        try await store.record(attempt, updating: message)
    }

    /// Leases the due messages for a minute, as another instance's delivery pass would; answers how many it took.
    package func leaseDueMessages(holder: String) async throws -> Int {
        let now = provider.clock.now()
        return try await store.leaseDueMessages(at: now, holder: holder, until: now.addingTimeInterval(60), limit: 10).count
    }

    /// Hands back every lease of `holder`; answers how many it still held.
    package func releaseLeases(holder: String) async throws -> Int { try await store.releaseLeases(holder: holder) }

    /// The client's request log as the store holds it now (the engine's `requestLog` flushes its buffer first).
    package func storedRequestLog(clientID: ClientID, proven: Bool) async throws -> [RequestLogEntry] {
        try await #require(store as? any RequestLogStore).requestLog(clientID: clientID, proven: proven, limit: 10)
    }

    /// The keychain rows the store still holds for the account (the engine answers `nil` for a deleted Apple ID).
    package func storedKeychainPasswords(accountID: String) async throws -> [KeychainPassword] {
        try await store.keychainPasswords(accountID: accountID)
    }

    /// The interaction as stored, without the browser binding and CSRF token that loading it checks.
    package func interaction(id: String) async throws -> Interaction? { try await store.interaction(id: id) }
}

extension EngineFixture {
    package var arrange: StoreArrangement { StoreArrangement(provider: provider) }
}
