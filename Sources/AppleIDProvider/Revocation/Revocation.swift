import AppleIDProtocol
import Foundation

/// `POST /auth/revoke` (spec §6): revokes the user's authorization for the app group: every token
/// of every grant, and the consent, so the next sign-in is a first authorization again (TN3194).
/// Unknown tokens are not an error (RFC 7009 §2.2).
struct Revocation: Sendable {
    let store: any GrantStore & LifecycleStore

    func revoke(_ request: RevocationRequest, client: RegisteredClient, now: Date) async throws {
        guard let token = request.token, !token.isEmpty else { throw OAuthError.invalidRequest("token is missing") }
        let hint = request.tokenTypeHint.map(TokenTypeHint.init(rawValue:))
        if let hint, hint != .refreshToken, hint != .accessToken {
            throw OAuthError.invalidRequest("token_type_hint \(hint.rawValue) is not refresh_token or access_token")
        }
        guard let record = try await store.token(hash: OpaqueToken.hash(token)) else { return }
        if let hint, hint != (record.kind == .refresh ? .refreshToken : .accessToken) {
            throw OAuthError.invalidRequest("token_type_hint \(hint.rawValue) does not match the token")
        }
        guard record.clientID == client.id else {
            throw OAuthError.invalidRequest("the token was issued to \(record.clientID), not \(client.id)")
        }
        guard let grant = try await store.grant(id: record.grantID) else { return }
        try await revokeAuthorization(accountID: grant.accountID, groupID: grant.groupID, now: now)
    }

    /// The grants' revocation and the consent's removal, in one transaction (the same change as the
    /// user's "Stop using Apple ID", without its notification).
    func revokeAuthorization(accountID: String, groupID: ClientID, now: Date) async throws {
        try await store.stopUsing(accountID: accountID, groupID: groupID, at: now, notifying: [])
    }
}
