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

    /// The registered team: its name, its kind (which sets the console's limits), its country.
    public func registeredTeam(_ id: TeamID) async throws -> DeveloperTeam? {
        try await store.team(id)
    }

    /// Whether the team is registered: a later start reuses its demo facts only then.
    public func teamExists(_ id: TeamID) async throws -> Bool {
        try await registeredTeam(id) != nil
    }
}
