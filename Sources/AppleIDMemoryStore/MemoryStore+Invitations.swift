import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Team invitations in memory: every operation runs under the store's one lock, so redeeming is
/// atomic with the membership it grants.
extension MemoryStore: TeamInvitationStore {
    public func add(_ invitation: TeamInvitation, limit: Int, now: Date) async throws -> Bool {
        try withAttached(ConsoleState.self) { console in
            let others = console.invitations.values.filter {
                $0.teamID == invitation.teamID && $0.expiresAt > now && $0.email != invitation.email
            }
            guard others.count < limit else { return false }
            console.invitations = console.invitations.filter {
                !($0.value.teamID == invitation.teamID && $0.value.email == invitation.email)
            }
            console.invitations[invitation.idHash] = invitation
            return true
        }
    }

    public func invitation(idHash: String) async throws -> TeamInvitation? {
        try withAttached(ConsoleState.self) { $0.invitations[idHash] }
    }

    public func invitations(teamID: TeamID, now: Date) async throws -> [TeamInvitation] {
        try withAttached(ConsoleState.self) { console in
            console.invitations.values.filter { $0.teamID == teamID && $0.expiresAt > now }
                .sorted { ($0.createdAt, $0.email) > ($1.createdAt, $1.email) }
        }
    }

    public func deleteInvitation(teamID: TeamID, email: String) async throws -> Bool {
        try withAttached(ConsoleState.self) { console in
            let matching = console.invitations.filter { $0.value.teamID == teamID && $0.value.email == email.lowercased() }.keys
            for key in matching { console.invitations[key] = nil }
            return !matching.isEmpty
        }
    }

    public func redeemInvitation(idHash: String, now: Date, registering: DeveloperAccount?) async throws -> DeveloperAccount? {
        try withAttached(ConsoleState.self) { console in
            guard let invitation = console.invitations[idHash], invitation.expiresAt > now else { return nil }
            let existing = console.developers.values.first { $0.email == invitation.email }
            var member: DeveloperAccount
            if let registering {
                guard existing == nil, registering.email == invitation.email else { return nil }
                member = registering
            } else {
                guard let existing else { return nil }
                member = existing
            }
            if !member.teamIDs.contains(invitation.teamID) { member.teamIDs.append(invitation.teamID) }
            console.invitations[idHash] = nil
            console.developers[member.id] = member
            return member
        }
    }

    public func purgeInvitations(expiredBefore date: Date) async throws -> Int {
        try withAttached(ConsoleState.self) { console in
            let expired = console.invitations.filter { $0.value.expiresAt < date }.keys
            for key in expired { console.invitations[key] = nil }
            return expired.count
        }
    }
}

/// Transfer offers in memory, under the store's one lock.
extension MemoryStore: TransferOfferStore {
    public func save(_ offer: TransferOffer) async throws {
        try withAttached(ConsoleState.self) { $0.transferOffers[offer.groupID] = offer }
    }

    public func transferOffers(involving teamID: TeamID, now: Date) async throws -> [TransferOffer] {
        try withAttached(ConsoleState.self) { console in
            console.transferOffers.values.filter { ($0.fromTeamID == teamID || $0.toTeamID == teamID) && $0.expiresAt > now }
                .sorted { ($0.offeredAt, $0.groupID.rawValue) > ($1.offeredAt, $1.groupID.rawValue) }
        }
    }

    public func takeTransferOffer(groupID: ClientID, toTeamID: TeamID, now: Date) async throws -> TransferOffer? {
        try withAttached(ConsoleState.self) { console in
            guard let offer = console.transferOffers[groupID], offer.toTeamID == toTeamID, offer.expiresAt > now else { return nil }
            console.transferOffers[groupID] = nil
            return offer
        }
    }

    public func deleteTransferOffer(groupID: ClientID, fromTeamID: TeamID) async throws -> Bool {
        try withAttached(ConsoleState.self) { console in
            guard console.transferOffers[groupID]?.fromTeamID == fromTeamID else { return false }
            console.transferOffers[groupID] = nil
            return true
        }
    }
}
