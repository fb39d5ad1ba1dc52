import AppleIDProtocol
import AppleIDProvider
import Foundation

/// App transfers offered in the console and not yet accepted.
public protocol TransferOfferStore: Sendable {
    /// Keeps the offer, replacing any earlier offer of the same group.
    func save(_ offer: TransferOffer) async throws
    /// Offers from or to the team unexpired at `now`, newest first.
    func transferOffers(involving teamID: TeamID, now: Date) async throws -> [TransferOffer]
    /// Removes and returns the group's offer to `toTeamID` (unexpired at `now`), atomically: of any
    /// number of callers, one gets it.
    func takeTransferOffer(groupID: ClientID, toTeamID: TeamID, now: Date) async throws -> TransferOffer?
    /// Deletes the group's offer from `fromTeamID`; returns whether there was one.
    func deleteTransferOffer(groupID: ClientID, fromTeamID: TeamID) async throws -> Bool
}
