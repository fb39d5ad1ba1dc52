import AppleIDProtocol

/// What `ASAuthorizationAppleIDProvider.getCredentialState(forUserID:)` tells an app (spec §15).
public enum CredentialState: String, Codable, Sendable, Hashable {
    case authorized
    case revoked
    case notFound
    case transferred
}

extension AppleIDProvider {
    /// The credential state of `subject` for a client: `authorized` while the user's consent for the
    /// client's app group stands, `revoked` once the user stopped using the Apple ID with it or deleted
    /// the Apple ID, `transferred` for a migrated user's `sub` of the team the app was transferred
    /// from, `notFound` for a subject the client's team never saw.
    public func credentialState(subject: Subject, clientID: ClientID) async throws -> CredentialState? {
        guard let client = try await store.client(clientID) else { return nil }
        guard let identity = try await store.teamIdentity(subject: subject, teamID: client.teamID) else {
            return try await wasTransferred(subject, groupID: client.groupID) ? .transferred : .notFound
        }
        guard let account = try await store.activeAccount(id: identity.accountID) else { return .revoked }
        return try await store.consent(accountID: account.id, groupID: client.groupID) == nil ? .revoked : .authorized
    }

    /// The credential state of the user with this Apple ID for a client (`siwa check` knows the Apple ID
    /// it signed in as, not its `sub`): nil for an unknown client, `notFound` for an Apple ID the
    /// client's team never saw, `revoked` for a deleted Apple ID.
    public func credentialState(appleID: String, clientID: ClientID) async throws -> CredentialState? {
        guard let client = try await store.client(clientID) else { return nil }
        guard let account = try await store.account(appleID: appleID),
            let identity = try await store.teamIdentity(accountID: account.id, teamID: client.teamID)
        else { return .notFound }
        return try await credentialState(subject: identity.subject, clientID: clientID)
    }

    /// Whether `subject` is a user of a team this group was transferred away from, whom the
    /// transfer migrated (spec §17.4: the transferred app sees `transferred`).
    private func wasTransferred(_ subject: Subject, groupID: ClientID) async throws -> Bool {
        for transfer in try await store.transfers(groupID: groupID) {
            if let identity = try await store.teamIdentity(subject: subject, teamID: transfer.fromTeamID),
                try await store.transferSubject(accountID: identity.accountID, fromTeamID: transfer.fromTeamID, toTeamID: transfer.toTeamID) != nil
            {
                return true
            }
        }
        return false
    }
}
