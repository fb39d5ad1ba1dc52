import AppleIDProtocol
import Foundation

/// An App ID or Services ID that was registered and removed. Identifiers are unique across all teams
/// at Apple, and consents and grants belong to the registration that earned them: the removal takes
/// them along, and the identifier is never given to another team, so nobody inherits its users.
public struct RemovedIdentifier: Codable, Sendable, Hashable {
    public var id: ClientID
    /// The team that registered and removed it; only this team may register it again (afresh).
    public var teamID: TeamID
    public var removedAt: Date
    /// A primary App ID's notification endpoint when it was removed: its last `consent-revoked`
    /// messages still go there.
    public var notificationEndpoint: String?

    public init(id: ClientID, teamID: TeamID, removedAt: Date, notificationEndpoint: String? = nil) {
        self.id = id
        self.teamID = teamID
        self.removedAt = removedAt
        self.notificationEndpoint = notificationEndpoint
    }
}

/// Everything one removal writes, all or nothing (CONTRIBUTING.md rule 4): the identifier gone and
/// kept as removed, the grants issued to it revoked, and for a primary App ID its group, the group's
/// consents and every grant of the group, with a `consent-revoked` message for each user.
public struct IdentifierRemoval: Sendable {
    public var identifier: RemovedIdentifier
    /// The group removed with the identifier: a primary App ID's own.
    public var groupID: ClientID?
    public var messages: [OutboxMessage]

    public init(identifier: RemovedIdentifier, groupID: ClientID?, messages: [OutboxMessage]) {
        self.identifier = identifier
        self.groupID = groupID
        self.messages = messages
    }
}
