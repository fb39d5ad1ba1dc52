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
    /// the Apple ID, `notFound` for a subject the client's team never saw.
    public func credentialState(subject: Subject, clientID: ClientID) async throws -> CredentialState? {
        guard let client = try await store.client(clientID) else { return nil }
        guard let identity = try await store.teamIdentity(subject: subject, teamID: client.teamID) else { return .notFound }
        guard let account = try await store.account(id: identity.accountID), account.deletedAt == nil else { return .revoked }
        return try await store.consent(accountID: account.id, groupID: client.groupID) == nil ? .revoked : .authorized
    }

    /// The `preferImmediatelyAvailableCredentials` path: a native credential only when the user already
    /// authorized the app group, never a consent prompt.
    public func authorizeNativeWithExistingCredential(
        bundleID: ClientID, appleID: String, nonce: String?
    ) async throws -> HeadlessAuthorization? {
        guard let client = try await store.client(bundleID), let account = try await store.account(appleID: appleID),
            try await store.consent(accountID: account.id, groupID: client.groupID) != nil
        else { return nil }
        return try await authorizeNative(bundleID: bundleID, appleID: appleID, scopes: [], nonce: nonce)
    }
}
