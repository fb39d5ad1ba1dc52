import AppleIDProtocol
import Foundation

/// App transfers between teams and the user-migration calls both teams make during the 60 days
/// that follow (spec §4.3, §17.4).
public struct AppTransfers: Sendable {
    let provider: AppleIDProvider

    /// Moves an app group (its primary App ID and Services IDs) to `recipient`. Every user who
    /// authorized the group is migrated: a transfer identifier for the pair of teams (kept from an
    /// earlier transfer between them), an identity in the recipient team, and the recipient team's
    /// relay address where the user hid the e-mail. Tokens issued to the sending team are revoked;
    /// the notification endpoint is cleared for the recipient to register its own.
    public func transfer(groupID: ClientID, to recipient: TeamID) async throws -> AppTransfer {
        let store = provider.store
        let now = provider.clock.now()
        guard var group = try await store.appGroup(groupID) else { throw TransferError.unknownAppGroup(groupID) }
        guard try await store.team(recipient) != nil else { throw TransferError.unknownTeam(recipient) }
        let sender = group.teamID
        guard sender != recipient else { throw TransferError.sameTeam(recipient) }

        var consents: [Consent] = []
        var newSubjects: [TransferSubject] = []
        var retiredRelays: [TeamIdentity] = []
        var recipientIdentities: [TeamIdentity] = []
        for var consent in try await store.consents(groupID: groupID) {
            if try await store.transferSubject(accountID: consent.accountID, fromTeamID: sender, toTeamID: recipient) == nil {
                newSubjects.append(
                    TransferSubject(
                        accountID: consent.accountID, fromTeamID: sender, toTeamID: recipient, subject: provider.identities.makeSubject()))
            }
            // The recipient-team identity is written with the rest of the plan (one transaction), never
            // before it: a transfer that fails leaves no identity or relay address behind.
            let existing = try await store.teamIdentity(accountID: consent.accountID, teamID: recipient)
            var identity =
                existing ?? TeamIdentity(accountID: consent.accountID, teamID: recipient, subject: provider.identities.makeSubject())
            if consent.isPrivateEmail, identity.relayAddress == nil { identity.relayAddress = provider.identities.makeRelayAddress() }
            if identity != existing { recipientIdentities.append(identity) }
            if consent.isPrivateEmail {
                consent.email = identity.relayAddress
                if let old = try await store.teamIdentity(accountID: consent.accountID, teamID: sender),
                    try await !usesAnotherApp(of: sender, accountID: consent.accountID, besides: groupID)
                {
                    retiredRelays.append(old)
                }
            }
            consents.append(consent)
        }
        group.teamID = recipient
        group.notificationEndpoint = nil
        let clients = try await store.clients(groupID: groupID).map { client in
            var moved = client
            moved.teamID = recipient
            return moved
        }
        let transfer = AppTransfer(
            id: provider.random.hex(bytes: 16), groupID: groupID, fromTeamID: sender, toTeamID: recipient, transferredAt: now,
            windowEndsAt: now.addingTimeInterval(AppTransfer.window))
        try await store.apply(
            TransferPlan(
                transfer: transfer, group: group, clients: clients, consents: consents, newTransferSubjects: newSubjects,
                retiredRelays: retiredRelays, recipientIdentities: recipientIdentities))
        provider.registryDidChange()
        provider.logger.notice(
            "app group transferred",
            metadata: ["group_id": "\(groupID)", "from": "\(sender)", "to": "\(recipient)", "migrated_users": "\(consents.count)"])
        return transfer
    }

    /// `grant_type=client_credentials&scope=user.migration`: a team-wide access token for an hour,
    /// only while a transfer of the client's group involving the secret's team is in its window.
    func migrationToken(_ request: TokenRequest, now: Date) async throws -> TokenResponse {
        guard WireMatch.exact(request.scope, Scope.userMigration.rawValue) else {
            throw OAuthError.invalidScope("client_credentials needs scope user.migration")
        }
        let (authenticated, _) = try await authenticateDuringTransfer(request.clientID, request.clientSecret, now: now)
        let token = OpaqueToken.make(.accessToken, random: provider.random)
        let lifetime = 3600
        try await provider.store.save(
            MigrationToken(
                tokenHash: OpaqueToken.hash(token), teamID: authenticated.teamID, clientID: authenticated.client.id,
                expiresAt: now.addingTimeInterval(TimeInterval(lifetime))))
        return TokenResponse(accessToken: token, expiresIn: lifetime, refreshToken: nil, idToken: nil)
    }

    /// `POST /auth/usermigrationinfo`: `sub` + `target` → `transfer_sub` for the sending team,
    /// `transfer_sub` → the new `sub` (and relay address) for the recipient team.
    public func userMigrationInfo(_ request: UserMigrationRequest, bearerToken: String?) async -> Result<UserMigrationResponse, OAuthError> {
        await provider.answer(endpoint: "usermigrationinfo", clientID: request.clientID) {
            let now = provider.clock.now()
            let (authenticated, transfer) = try await authenticateDuringTransfer(request.clientID, request.clientSecret, now: now)
            guard let bearerToken, let token = try await provider.store.migrationToken(hash: OpaqueToken.hash(bearerToken)),
                token.expiresAt > now, token.teamID == authenticated.teamID
            else {
                throw OAuthError(
                    .invalidClient, description: nil, status: 401,
                    reason: "the bearer token is missing, expired or not a user.migration token of team \(authenticated.teamID)")
            }
            switch (nonEmpty(request.subject), nonEmpty(request.transferSubject)) {
            case (let subject?, nil):
                return try await transferSubject(
                    of: Subject(rawValue: subject), target: request.target, transfer: transfer, team: authenticated.teamID)
            case (nil, let transferSubject?):
                return try await migratedUser(Subject(rawValue: transferSubject), transfer: transfer, team: authenticated.teamID)
            default:
                throw OAuthError.invalidRequest("send either sub and target (sending team) or transfer_sub (recipient team)")
            }
        }
    }

    private func transferSubject(of subject: Subject, target: String?, transfer: AppTransfer, team: TeamID) async throws -> UserMigrationResponse {
        guard team == transfer.fromTeamID else { throw OAuthError.invalidRequest("sub is for the sending team; the recipient sends transfer_sub") }
        guard let target = nonEmpty(target) else { throw OAuthError.invalidRequest("target is missing") }
        // A Team ID, compared byte for byte: "RECIPIENT\u{212A}" (Kelvin sign) is not "RECIPIENTK".
        guard TeamID(rawValue: target) == transfer.toTeamID else {
            throw OAuthError.invalidRequest("target \(target) is not the team \(transfer.groupID) was transferred to")
        }
        guard let identity = try await provider.store.teamIdentity(subject: subject, teamID: team) else {
            throw OAuthError.invalidRequest("sub is not a user of team \(team)")
        }
        guard try await provider.store.consent(accountID: identity.accountID, groupID: transfer.groupID) != nil,
            let migrated = try await provider.store.transferSubject(accountID: identity.accountID, fromTeamID: team, toTeamID: transfer.toTeamID)
        else { throw OAuthError.invalidRequest("user has revoked authorization for the client") }
        return .transferSubject(migrated.subject)
    }

    private func migratedUser(_ transferSubject: Subject, transfer: AppTransfer, team: TeamID) async throws -> UserMigrationResponse {
        guard team == transfer.toTeamID else {
            throw OAuthError.invalidRequest("transfer_sub is for the recipient team; the sending team sends sub and target")
        }
        guard let migrated = try await provider.store.transferSubject(transferSubject, toTeamID: team), migrated.fromTeamID == transfer.fromTeamID
        else { throw OAuthError.invalidRequest("transfer_sub is not a user transferred to team \(team)") }
        guard let account = try await provider.store.activeAccount(id: migrated.accountID),
            let consent = try await provider.store.consent(accountID: account.id, groupID: transfer.groupID)
        else { throw OAuthError.invalidRequest("user has revoked authorization for the client") }
        let identity = try await provider.identities.identity(accountID: account.id, teamID: team)
        return .migratedUser(subject: identity.subject, relayEmail: consent.isPrivateEmail ? consent.email : nil)
    }

    /// Authenticates the client with a secret of its team or of the team its group was transferred
    /// from, and finds the open transfer that makes the migration calls available to that team.
    private func authenticateDuringTransfer(_ clientID: String?, _ secret: String?, now: Date) async throws -> (AuthenticatedClient, AppTransfer) {
        // The client's group is known only inside authentication; its open transfers are read there, once.
        var open: [AppTransfer] = []
        let authenticated = try await provider.authenticator.authenticate(
            clientID: clientID, secret: secret, now: now,
            formerTeams: { client in
                open = try await provider.store.transfers(groupID: client.groupID).filter { $0.isOpen(at: now) }
                return open.map(\.fromTeamID)
            })
        guard
            let transfer = open.first(where: {
                $0.fromTeamID == authenticated.teamID || $0.toTeamID == authenticated.teamID
            })
        else {
            throw OAuthError.unauthorizedClient(
                "no transfer of \(authenticated.client.groupID) involving team \(authenticated.teamID) is in its 60-day window")
        }
        return (authenticated, transfer)
    }

    private func usesAnotherApp(of team: TeamID, accountID: String, besides groupID: ClientID) async throws -> Bool {
        for consent in try await provider.store.consents(accountID: accountID) where consent.groupID != groupID {
            if try await provider.store.appGroup(consent.groupID)?.teamID == team { return true }
        }
        return false
    }

    private func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
}

public enum TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownAppGroup(ClientID)
    case unknownTeam(TeamID)
    case sameTeam(TeamID)

    public var description: String {
        switch self {
        case .unknownAppGroup(let id): "no app group \(id)"
        case .unknownTeam(let id): "no team \(id)"
        case .sameTeam(let id): "the app group already belongs to team \(id)"
        }
    }
}

extension AppTransfers {
    /// The group's transfers, newest first.
    public func history(groupID: ClientID) async throws -> [AppTransfer] {
        try await provider.store.transfers(groupID: groupID)
    }
}

extension AppleIDProvider {
    /// App transfers between teams and user migration.
    public var transfers: AppTransfers { AppTransfers(provider: self) }
}
