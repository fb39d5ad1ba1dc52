import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Invitations to join a team, and their redemption.
public protocol TeamInvitationStore: Sendable {
    /// Adds the invitation, replacing a pending one of the same team and e-mail, unless the team would
    /// then have more than `limit` invitations unexpired at `now`; returns whether it was added.
    func add(_ invitation: TeamInvitation, limit: Int, now: Date) async throws -> Bool
    func invitation(idHash: String) async throws -> TeamInvitation?
    /// The team's invitations unexpired at `now`, newest first.
    func invitations(teamID: TeamID, now: Date) async throws -> [TeamInvitation]
    /// Deletes the team's invitation of `email`; returns whether there was one.
    func deleteInvitation(teamID: TeamID, email: String) async throws -> Bool
    /// Uses up an invitation unexpired at `now` and grants its membership, in one transaction: with
    /// `registering`, that new account is inserted as the team's member (it must have the invitation's
    /// e-mail); without, the existing account of the invitation's e-mail gains the team. Answers the
    /// member, or `nil` (and changes nothing) when the invitation is gone or expired, or the account
    /// is not as expected. Of any number of concurrent callers, one redeems it.
    func redeemInvitation(idHash: String, now: Date, registering: DeveloperAccount?) async throws -> DeveloperAccount?
    /// Deletes the invitations that expired before `date`; returns how many.
    func purgeInvitations(expiredBefore date: Date) async throws -> Int
}
