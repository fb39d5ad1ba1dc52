import AppleIDProtocol
import AppleIDProvider
import Foundation

/// An invitation to join a team, as Apple's portal sends one: the invited person opens the link, sets
/// their own password (a new developer account) or signs in (an existing one), and so accepts. Nobody
/// chooses another person's password, and an existing account never joins a team without its owner.
///
/// Only the hash of the link's token is stored; the token goes by mail to the invited address and is
/// never shown to whoever invited (who could otherwise open it and take the address's account).
public struct TeamInvitation: Codable, Sendable, Hashable {
    public var idHash: String
    public var teamID: TeamID
    /// Lower-cased: the account the invitation is for.
    public var email: String
    /// The inviting developer's id, or ``operatorInviter`` for the admin API.
    public var invitedBy: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(idHash: String, teamID: TeamID, email: String, invitedBy: String, createdAt: Date, expiresAt: Date) {
        self.idHash = idHash
        self.teamID = teamID
        self.email = email.lowercased()
        self.invitedBy = invitedBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// ``invitedBy`` of an invitation made through the admin API.
    public static let operatorInviter = "operator"
}

/// A new invitation, and the id of the message that carries its link to the invited address (the
/// admin API's `/admin/mail/{id}` shows it where no smarthost delivers it).
public struct SentInvitation: Sendable, Hashable {
    public let invitation: TeamInvitation
    public let mailID: String
}

/// What the invitation page shows: the team, the invited address, and whether that address already
/// has a developer account (then its owner signs in to accept; otherwise they create one).
public struct InvitationDetails: Sendable {
    public let team: DeveloperTeam
    public let email: String
    public let hasAccount: Bool
    public let expiresAt: Date
}
