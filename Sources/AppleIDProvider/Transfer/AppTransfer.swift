import AppleIDProtocol
import Foundation

/// An app group moved from one team to another (spec §17.4). For 60 days the migration endpoints
/// answer both teams and the recipient's id_tokens of migrated users carry `transfer_sub`.
public struct AppTransfer: Sendable, Hashable, Identifiable {
    public static let window: TimeInterval = 60 * 86_400

    public var id: String
    public var groupID: ClientID
    public var fromTeamID: TeamID
    public var toTeamID: TeamID
    public var transferredAt: Date
    public var windowEndsAt: Date

    public init(id: String, groupID: ClientID, fromTeamID: TeamID, toTeamID: TeamID, transferredAt: Date, windowEndsAt: Date) {
        self.id = id
        self.groupID = groupID
        self.fromTeamID = fromTeamID
        self.toTeamID = toTeamID
        self.transferredAt = transferredAt
        self.windowEndsAt = windowEndsAt
    }

    public func isOpen(at now: Date) -> Bool { transferredAt <= now && now < windowEndsAt }
}

/// A migrated user's transfer identifier: one per user, sending team and recipient team, so it is
/// stable across several transfers to the same team and one-to-one with the sender's `sub`.
public struct TransferSubject: Codable, Sendable, Hashable {
    public var accountID: String
    public var fromTeamID: TeamID
    public var toTeamID: TeamID
    public var subject: Subject

    public init(accountID: String, fromTeamID: TeamID, toTeamID: TeamID, subject: Subject) {
        self.accountID = accountID
        self.fromTeamID = fromTeamID
        self.toTeamID = toTeamID
        self.subject = subject
    }
}

/// A `client_credentials` access token with scope `user.migration`: team-wide, one hour, stored hashed.
public struct MigrationToken: Codable, Sendable, Hashable {
    public var tokenHash: String
    public var teamID: TeamID
    public var clientID: ClientID
    public var expiresAt: Date

    public init(tokenHash: String, teamID: TeamID, clientID: ClientID, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.teamID = teamID
        self.clientID = clientID
        self.expiresAt = expiresAt
    }
}

/// Everything a transfer changes, applied at once by ``TransferStore/apply(_:)``.
public struct TransferPlan: Sendable, Hashable {
    public var transfer: AppTransfer
    /// The group and its clients, now the recipient's (the notification endpoint cleared).
    public var group: AppGroup
    public var clients: [RegisteredClient]
    /// The group's consents with the recipient team's relay address where the user hid the e-mail.
    public var consents: [Consent]
    /// Transfer identifiers of the migrated users that did not have one for this pair of teams.
    public var newTransferSubjects: [TransferSubject]
    /// Old-team identities whose relay address stops forwarding (no other app of the old team left).
    public var retiredRelays: [TeamIdentity]
    /// Recipient-team identities the transfer creates, or gives a relay address: each is inserted
    /// unless the user has one in that team, and its relay address is set where it had none.
    public var recipientIdentities: [TeamIdentity]

    public init(
        transfer: AppTransfer, group: AppGroup, clients: [RegisteredClient], consents: [Consent], newTransferSubjects: [TransferSubject],
        retiredRelays: [TeamIdentity], recipientIdentities: [TeamIdentity] = []
    ) {
        self.transfer = transfer
        self.group = group
        self.clients = clients
        self.consents = consents
        self.newTransferSubjects = newTransferSubjects
        self.retiredRelays = retiredRelays
        self.recipientIdentities = recipientIdentities
    }
}
