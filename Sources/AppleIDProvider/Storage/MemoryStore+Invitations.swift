import AppleIDProtocol
import Foundation

/// Team invitations in memory: every operation runs under the store's one lock, so redeeming is
/// atomic with the membership it grants.
extension MemoryStore {
    public func add(_ invitation: TeamInvitation, limit: Int, now: Date) async throws -> Bool {
        state.withLock { state in
            let others = state.console.invitations.values.filter {
                $0.teamID == invitation.teamID && $0.expiresAt > now && $0.email != invitation.email
            }
            guard others.count < limit else { return false }
            state.console.invitations = state.console.invitations.filter {
                !($0.value.teamID == invitation.teamID && $0.value.email == invitation.email)
            }
            state.console.invitations[invitation.idHash] = invitation
            return true
        }
    }

    public func invitation(idHash: String) async throws -> TeamInvitation? {
        state.withLock { $0.console.invitations[idHash] }
    }

    public func invitations(teamID: TeamID, now: Date) async throws -> [TeamInvitation] {
        state.withLock { state in
            state.console.invitations.values.filter { $0.teamID == teamID && $0.expiresAt > now }
                .sorted { ($0.createdAt, $0.email) > ($1.createdAt, $1.email) }
        }
    }

    public func deleteInvitation(teamID: TeamID, email: String) async throws -> Bool {
        state.withLock { state in
            let matching = state.console.invitations.filter { $0.value.teamID == teamID && $0.value.email == email.lowercased() }.keys
            for key in matching { state.console.invitations[key] = nil }
            return !matching.isEmpty
        }
    }

    public func redeemInvitation(idHash: String, now: Date, registering: DeveloperAccount?) async throws -> DeveloperAccount? {
        state.withLock { state in
            guard let invitation = state.console.invitations[idHash], invitation.expiresAt > now else { return nil }
            let existing = state.console.developers.values.first { $0.email == invitation.email }
            var member: DeveloperAccount
            if let registering {
                guard existing == nil, registering.email == invitation.email else { return nil }
                member = registering
            } else {
                guard let existing else { return nil }
                member = existing
            }
            if !member.teamIDs.contains(invitation.teamID) { member.teamIDs.append(invitation.teamID) }
            state.console.invitations[idHash] = nil
            state.console.developers[member.id] = member
            return member
        }
    }

    public func purgeInvitations(expiredBefore date: Date) async throws -> Int {
        state.withLock { state in
            let expired = state.console.invitations.filter { $0.value.expiresAt < date }.keys
            for key in expired { state.console.invitations[key] = nil }
            return expired.count
        }
    }
}

/// Transfer offers in memory, under the store's one lock.
extension MemoryStore {
    public func save(_ offer: TransferOffer) async throws {
        state.withLock { $0.console.transferOffers[offer.groupID] = offer }
    }

    public func transferOffers(involving teamID: TeamID, now: Date) async throws -> [TransferOffer] {
        state.withLock { state in
            state.console.transferOffers.values.filter { ($0.fromTeamID == teamID || $0.toTeamID == teamID) && $0.expiresAt > now }
                .sorted { ($0.offeredAt, $0.groupID.rawValue) > ($1.offeredAt, $1.groupID.rawValue) }
        }
    }

    public func takeTransferOffer(groupID: ClientID, toTeamID: TeamID, now: Date) async throws -> TransferOffer? {
        state.withLock { state in
            guard let offer = state.console.transferOffers[groupID], offer.toTeamID == toTeamID, offer.expiresAt > now else { return nil }
            state.console.transferOffers[groupID] = nil
            return offer
        }
    }

    public func deleteTransferOffer(groupID: ClientID, fromTeamID: TeamID) async throws -> Bool {
        state.withLock { state in
            guard state.console.transferOffers[groupID]?.fromTeamID == fromTeamID else { return false }
            state.console.transferOffers[groupID] = nil
            return true
        }
    }
}
