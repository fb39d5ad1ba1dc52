import AppleIDProtocol
import Foundation

/// Issues access and refresh tokens under a grant and stores their hashes, in one insert.
struct TokenIssuance: Sendable {
    let store: any GrantStore
    let random: any RandomSource
    let configuration: ProviderConfiguration

    /// A new access token, and a refresh token when `withRefreshToken` (code grant only).
    func issue(for grant: Grant, now: Date, withRefreshToken: Bool) async throws -> (accessToken: String, refreshToken: String?) {
        let accessToken = OpaqueToken.make(.accessToken, random: random)
        var records = [
            TokenRecord(
                tokenHash: OpaqueToken.hash(accessToken), kind: .access, grantID: grant.id, clientID: grant.clientID, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(configuration.accessTokenLifetime)))
        ]
        var refreshToken: String?
        if withRefreshToken {
            let token = OpaqueToken.make(.refreshToken, random: random)
            records.append(
                TokenRecord(
                    tokenHash: OpaqueToken.hash(token), kind: .refresh, grantID: grant.id, clientID: grant.clientID, createdAt: now,
                    expiresAt: nil))
            refreshToken = token
        }
        try await store.insert(records)
        return (accessToken, refreshToken)
    }
}
