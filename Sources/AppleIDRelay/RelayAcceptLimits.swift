import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What the store checks while it writes a batch of relayed mail, in the same step as the write:
/// each relay address's daily limit and each team's stored bytes.
public struct RelayAcceptLimits: Sendable, Hashable {
    public var daily: RelayDailyLimit?
    /// The bytes of relayed mail a team may have stored (every direction, until the retention purges
    /// it), this batch's included; `nil`: no quota.
    public var teamBytes: Int?

    public init(daily: RelayDailyLimit? = nil, teamBytes: Int? = nil) {
        self.daily = daily
        self.teamBytes = teamBytes
    }

    /// No limit: the batch is written as it is.
    public static let none = RelayAcceptLimits()
}

/// What the store did with a batch: wrote all of it, or none because of the first limit it would pass.
public enum RelayAcceptance: Sendable, Hashable {
    case accepted
    case dailyLimit
    case teamQuota(TeamID)
}

extension RelayAcceptLimits {
    /// The bytes of `mail` each team would store.
    public static func teamBytes(of mail: [AcceptedRelayMail]) -> [TeamID: Int] {
        mail.reduce(into: [:]) { $0[$1.mail.message.teamID, default: 0] += $1.mail.message.size }
    }
}
