import AppleIDProtocol
import Foundation

/// `grant_type=refresh_token` (spec §4.2): a new access token and id_token; no new refresh token.
struct RefreshTokenGrant: Sendable {
    let store: any GrantStore
    let tokens: TokenIssuance
    let idTokens: IdentityTokenFactory
    let configuration: ProviderConfiguration

    func refresh(_ request: TokenRequest, client: RegisteredClient, now: Date) async throws -> TokenResponse {
        guard let refreshToken = request.refreshToken, !refreshToken.isEmpty else {
            throw OAuthError.invalidRequest("refresh_token is missing")
        }
        guard let record = try await store.token(hash: OpaqueToken.hash(refreshToken)), record.kind == .refresh else {
            throw OAuthError.invalidGrant(AppleErrorDescription.tokenExpiredOrRevoked, reason: "the refresh token was never issued")
        }
        guard record.clientID == client.id else {
            throw OAuthError.invalidGrant(
                AppleErrorDescription.tokenExpiredOrRevoked, reason: "the refresh token was issued to \(record.clientID), not \(client.id)")
        }
        guard let grant = try await store.grant(id: record.grantID), grant.revokedAt == nil else {
            throw OAuthError.invalidGrant(AppleErrorDescription.tokenExpiredOrRevoked, reason: "the refresh token was revoked")
        }
        let accessToken = try await tokens.issue(for: grant, now: now, withRefreshToken: false).accessToken
        let idToken = try idTokens.make(for: grant, client: client, now: now, kind: .refresh(accessToken: accessToken))
        return TokenResponse(accessToken: accessToken, expiresIn: configuration.accessTokenLifetime, refreshToken: nil, idToken: idToken)
    }
}
