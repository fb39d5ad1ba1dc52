import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Transfers from the console (spec §17.4): the sending team offers a primary App ID's group, and the
/// group moves only when a developer of the recipient team accepts. Until then it keeps working for
/// the sender; the sender can withdraw, the recipient decline.
extension AppleIDProvider {
    /// Offers the group to `recipient`, replacing an earlier offer of the group. Nothing moves.
    @discardableResult
    public func offerTransfer(groupID: ClientID, from teamID: TeamID, to recipient: TeamID, offeredBy: String) async throws -> TransferOffer {
        guard let group = try await store.appGroup(groupID), group.teamID == teamID else {
            throw ConsoleError.notFound("\(groupID) is not a primary App ID of this team.")
        }
        guard try await store.team(recipient) != nil else { throw ConsoleError.notFound("There is no team \(recipient).") }
        guard recipient != teamID else { throw ConsoleError.invalid("\(groupID) already belongs to \(teamID).") }
        let now = clock.now()
        let offer = TransferOffer(
            groupID: groupID, fromTeamID: teamID, toTeamID: recipient, offeredBy: offeredBy, offeredAt: now,
            expiresAt: now.addingTimeInterval(TransferOffer.lifetime))
        try await transferOfferStore.save(offer)
        logger.info("transfer offered", metadata: ["group": "\(groupID)", "from": "\(teamID)", "to": "\(recipient)"])
        return offer
    }

    /// Accepts the group's offer to the acting team: the transfer happens now, and its 60-day window
    /// starts now. If the transfer fails, the offer is kept for another try.
    public func acceptTransfer(groupID: ClientID, teamID: TeamID) async throws -> AppTransfer {
        guard let offer = try await transferOfferStore.takeTransferOffer(groupID: groupID, toTeamID: teamID, now: clock.now()) else {
            throw ConsoleError.notFound("There is no transfer of \(groupID) offered to \(teamID).")
        }
        do {
            guard let group = try await store.appGroup(groupID), group.teamID == offer.fromTeamID else {
                throw ConsoleError.refused("\(groupID) no longer belongs to \(offer.fromTeamID).")
            }
            return try await transfers.transfer(groupID: groupID, to: teamID)
        } catch let error as TransferError {
            try await transferOfferStore.save(offer)
            throw ConsoleError.refused(error.description)
        } catch let error as ConsoleError {
            throw error
        } catch {
            try? await transferOfferStore.save(offer)
            throw error
        }
    }

    /// The recipient declines the group's offer to the acting team.
    public func declineTransfer(groupID: ClientID, teamID: TeamID) async throws {
        guard try await transferOfferStore.takeTransferOffer(groupID: groupID, toTeamID: teamID, now: clock.now()) != nil else {
            throw ConsoleError.notFound("There is no transfer of \(groupID) offered to \(teamID).")
        }
    }

    /// The sender withdraws its offer of the group.
    public func withdrawTransferOffer(groupID: ClientID, teamID: TeamID) async throws {
        guard try await transferOfferStore.deleteTransferOffer(groupID: groupID, fromTeamID: teamID) else {
            throw ConsoleError.notFound("\(teamID) has no transfer of \(groupID) on offer.")
        }
    }

    /// The offers from and to the team that can still be accepted, newest first.
    public func transferOffers(teamID: TeamID) async throws -> [TransferOffer] {
        try await transferOfferStore.transferOffers(involving: teamID, now: clock.now())
    }

    /// The transfers from and to the team, newest first.
    public func transfers(teamID: TeamID) async throws -> [AppTransfer] { try await store.transfers(involving: teamID) }
}
