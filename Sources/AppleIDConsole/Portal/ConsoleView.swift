import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation

extension AppleIDProvider {
    /// The developer console as one team sees it (see ``ConsoleView``).
    public func console(team teamID: TeamID) -> ConsoleView { ConsoleView(teamID: teamID, provider: self) }
}

/// What one team may read in the developer console. Every read is filtered by the team in the
/// store's query, so no page can show another team's record by naming its identifier; the console's
/// writes are scoped by the same engine (they take the acting team).
public struct ConsoleView: Sendable {
    public let teamID: TeamID
    let provider: AppleIDProvider

    private var store: any RegistryStore & TeamRegistryStore & TeamActivityStore { provider.store }

    /// The team itself; `nil` once it is gone.
    public func team() async throws -> DeveloperTeam? { try await store.team(teamID) }

    /// The team's primary App IDs, by identifier.
    public func appGroups() async throws -> [AppGroup] { try await store.appGroups(teamID: teamID) }

    /// The team's App IDs and Services IDs, by identifier.
    public func clients() async throws -> [RegisteredClient] { try await store.clients(teamID: teamID) }

    /// The team's App ID groups and identifiers, for the Identifiers list.
    public func identifiers() async throws -> (groups: [AppGroup], clients: [RegisteredClient]) {
        try await provider.identifiers(teamID: teamID)
    }

    /// The team's App ID or Services ID `id`; `nil` when there is none or it is another team's.
    public func client(_ id: ClientID) async throws -> RegisteredClient? { try await store.client(id, teamID: teamID) }

    /// The team's key `id`; `nil` when there is none or it is another team's.
    public func developerKey(_ id: KeyID) async throws -> DeveloperKey? {
        guard let key = try await store.developerKey(id), key.teamID == teamID else { return nil }
        return key
    }

    /// The team's Services ID `id`; `nil` when there is none, it is an App ID, or another team's.
    public func servicesID(_ id: ClientID) async throws -> RegisteredClient? {
        guard let client = try await store.client(id, teamID: teamID), client.kind == .service else { return nil }
        return client
    }

    /// How many Apple IDs hold a live grant of the team's identifier `clientID`.
    public func authorizationCount(clientID: ClientID) async throws -> Int {
        guard try await store.client(clientID, teamID: teamID) != nil else { return 0 }
        return try await store.authorizationCount(clientID: clientID)
    }

    /// The team's Sign in with Apple keys, by identifier.
    public func developerKeys() async throws -> [DeveloperKey] { try await provider.developerKeys(teamID: teamID) }

    /// Whether the `.p8` of the team's key `id` still waits for its one download.
    public func canDownloadKey(_ id: KeyID) async throws -> Bool {
        guard try await store.developerKey(id)?.teamID == teamID else { return false }
        return try await provider.canDownloadKey(id)
    }

    /// The team's developers.
    public func members() async throws -> [DeveloperAccount] { try await provider.members(of: teamID) }

    /// The team's invitations that have not expired, newest first.
    public func pendingInvitations() async throws -> [TeamInvitation] { try await provider.pendingInvitations(teamID: teamID) }

    /// The primary App ID's last notifications with their delivery attempts, newest first.
    public func deliveries(groupID: ClientID, limit: Int = 20) async throws -> [(OutboxMessage, [DeliveryAttempt])] {
        try await provider.deliveries(groupID: groupID, teamID: teamID, limit: limit)
    }

    /// The team's primary App IDs with their endpoints and last `limit` notifications (the Notifications page).
    public func notificationEndpoints(limit: Int = 20) async throws -> [NotificationEndpointLog] {
        try await provider.notificationEndpoints(teamID: teamID, limit: limit)
    }

    /// The team's e-mail sources, in the order they were added.
    public func emailSources() async throws -> [EmailSource] { try await provider.emailSources(teamID: teamID) }

    /// Transfers from or to the team, newest first.
    public func transfers() async throws -> [AppTransfer] { try await provider.transfers(teamID: teamID) }

    /// Unexpired transfer offers from or to the team, newest first.
    public func transferOffers() async throws -> [TransferOffer] { try await provider.transferOffers(teamID: teamID) }

    /// The last requests of the team's identifier `clientID`.
    public func requestLog(clientID: ClientID) async throws -> RequestLog { try await provider.requestLog(clientID: clientID, teamID: teamID) }
}
