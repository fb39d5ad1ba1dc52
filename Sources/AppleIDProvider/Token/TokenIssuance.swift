import AppleIDProtocol
import Foundation

/// Issues access and refresh tokens under a grant and stores their hashes.
struct TokenIssuance: Sendable {
    let store: any GrantStore
    let random: any RandomSource
    let configuration: ProviderConfiguration

    func accessToken(for grant: Grant, now: Date) async throws -> String {
        let token = OpaqueToken.make(.accessToken, random: random)
        try await store.save(
            TokenRecord(
                tokenHash: OpaqueToken.hash(token), kind: .access, grantID: grant.id, clientID: grant.clientID, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(configuration.accessTokenLifetime))))
        return token
    }

    func refreshToken(for grant: Grant, now: Date) async throws -> String {
        let token = OpaqueToken.make(.refreshToken, random: random)
        try await store.save(
            TokenRecord(
                tokenHash: OpaqueToken.hash(token), kind: .refresh, grantID: grant.id, clientID: grant.clientID, createdAt: now,
                expiresAt: nil))
        return token
    }
}
