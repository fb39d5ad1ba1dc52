import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// The registered client (App ID or Services ID), read from the store (not the cache), for the admin API.
    public func registeredClient(_ id: ClientID) async throws -> RegisteredClient? {
        try await store.client(id)
    }

    /// The app group whose primary App ID is `id`, read from the store: its team, its notification
    /// endpoint, its transfer.
    public func registeredAppGroup(_ id: ClientID) async throws -> AppGroup? {
        try await store.appGroup(id)
    }

    /// Whether the team is registered: a later start reuses its demo facts only then.
    public func teamExists(_ id: TeamID) async throws -> Bool {
        try await store.team(id) != nil
    }
}
