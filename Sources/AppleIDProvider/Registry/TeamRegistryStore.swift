import AppleIDProtocol
import Foundation

/// The registry as one team sees it: what the console lists on a team's pages.
public protocol TeamRegistryStore: Sendable {
    func appGroups(teamID: TeamID) async throws -> [AppGroup]
    func clients(teamID: TeamID) async throws -> [RegisteredClient]
    /// The team's client `id`: `nil` when there is none or it belongs to another team (one query, by
    /// both, so that a console page cannot show another team's record).
    func client(_ id: ClientID, teamID: TeamID) async throws -> RegisteredClient?
    func developerKeys(teamID: TeamID) async throws -> [DeveloperKey]
}

/// Removed identifiers: the removal revokes grants and queues notifications with it, and the
/// notification delivery still finds the endpoint of a removed group.
public protocol IdentifierRemovalStore: Sendable {
    /// Writes the removal in one transaction (see ``IdentifierRemoval``).
    func remove(_ removal: IdentifierRemoval) async throws
    /// The identifier as last removed (even when its team registered it again), or `nil` when it never was.
    func removedIdentifier(_ id: ClientID) async throws -> RemovedIdentifier?
}

/// What a team's identifiers have done: their users, transfers and live authorizations.
public protocol TeamActivityStore: Sendable {
    /// The team's subjects of the users who consented to the group, oldest consent first.
    func consentingSubjects(groupID: ClientID, teamID: TeamID) async throws -> [Subject]
    /// Transfers from or to the team, newest first.
    func transfers(involving teamID: TeamID) async throws -> [AppTransfer]
    /// How many Apple IDs hold a live (unrevoked) grant issued to the client.
    func authorizationCount(clientID: ClientID) async throws -> Int
}
