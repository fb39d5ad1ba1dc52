import AppleIDProtocol
import AppleIDProvider
import Foundation

/// An app group offered to another team (spec §17.4: the recipient accepts). Nothing moves until a
/// developer of the recipient team accepts it in the console; the sender can withdraw it, the
/// recipient decline it. One offer per group at a time.
public struct TransferOffer: Codable, Sendable, Hashable {
    /// How long an offer waits for the recipient. Apple documents no expiry for a pending transfer;
    /// 60 days matches the migration window that follows an acceptance.
    public static let lifetime: TimeInterval = 60 * 86_400

    public var groupID: ClientID
    public var fromTeamID: TeamID
    public var toTeamID: TeamID
    /// The offering developer's id, or ``TeamInvitation/operatorInviter`` for the admin API.
    public var offeredBy: String
    public var offeredAt: Date
    public var expiresAt: Date

    public init(groupID: ClientID, fromTeamID: TeamID, toTeamID: TeamID, offeredBy: String, offeredAt: Date, expiresAt: Date) {
        self.groupID = groupID
        self.fromTeamID = fromTeamID
        self.toTeamID = toTeamID
        self.offeredBy = offeredBy
        self.offeredAt = offeredAt
        self.expiresAt = expiresAt
    }
}
